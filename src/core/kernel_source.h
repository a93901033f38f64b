// The contract between front ends and the timing model: a kernel (KernelSource) produces, CTA by
// CTA on demand, the instruction streams of its warps (CtaStreams). Accel-Sim traces (src/trace)
// are one front end among several.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/access_policy.h"
#include "core/error.h"
#include "core/warp_inst.h"

namespace warpsim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3&) const = default;
};

// The instructions one warp executed, in order, ending with an EXIT.
struct WarpStream {
  std::vector<WarpInst> insts;
  std::vector<uint64_t> addrs;  // 32 per memory instruction, indexed by WarpInst::addr_index
  void clear() {
    insts.clear();
    addrs.clear();
  }
};

struct CtaStreams {
  uint32_t cta_id = 0;  // linear id within the grid
  std::vector<WarpStream> warps;
};

// What the dispatcher needs to know about a kernel before running any of it.
struct KernelInfo {
  std::string name;
  Dim3 grid;
  Dim3 block;
  uint32_t regs_per_thread = 16;
  uint32_t shared_bytes_per_cta = 0;  // static + dynamic
  uint32_t local_bytes_per_thread = 0;
  uint32_t inst_bytes = 8;  // instruction size: a successor at another pc means a taken branch
  // PTX kernels: the address of the kernel's first instruction where GPGPU-Sim puts it
  // (core.module_code_layout): kInstructionMemory + the module's place among the program's
  // modules + the function's place in its module; kNoCodeAddress: not known.
  static constexpr uint64_t kInstructionMemory = 0xf0000000;  // GPGPU-Sim's PROGRAM_MEM_START
  static constexpr uint64_t kNoCodeAddress = ~0ull;
  uint64_t code_address = kNoCodeAddress;
  AccessPolicyWindow access_window;  // L2 access policy window of the launch (none by default)
  uint64_t num_ctas() const { return grid.count(); }
  uint32_t threads_per_cta() const { return static_cast<uint32_t>(block.count()); }
  uint32_t warps_per_cta() const { return (threads_per_cta() + 31) / 32; }
};

// A kernel whose CTAs can be produced on demand, in any order the dispatcher chooses.
// Functional front ends execute the CTA when asked; trace readers read it from disk.
class KernelSource {
 public:
  virtual ~KernelSource() = default;
  virtual const KernelInfo& info() const = 0;
  // Fill `out` with the streams of CTA `cta_id` (0 <= cta_id < info().num_ctas()). Reuses the
  // capacity of `out`. Throws warpsim::Error on failure (bad memory access, malformed trace).
  virtual void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) = 0;
  // Called once the kernel's last CTA finished in the timing model.
  virtual void on_kernel_done() {}
  // The source line (PTX) of the instruction at `pc`, or -1 when the front end knows none.
  virtual int source_line(uint32_t pc) const { return -1; }
  // An independent copy in the same state, for simulation snapshots (Gpu::clone): it produces
  // the same CTAs as this source would from now on. Sources that cannot be copied (a functional
  // front end that changes device memory as it runs) throw warpsim::Error; wrapping them in a
  // MemoSource (timing/memo_source.h) makes them copyable.
  virtual std::unique_ptr<KernelSource> clone() const {
    throw Error("kernel source '" + info().name + "' cannot be snapshotted");
  }
};

}  // namespace warpsim

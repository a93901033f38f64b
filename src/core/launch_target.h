// Where the runtime sends kernel launches: the timing model (timing/gpu.h) or a purely
// functional executor (runtime/functional_target.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel_source.h"

namespace warpsim {

struct CoreConfig;

// Figures of one finished kernel launch.
struct KernelResult {
  std::string name;
  uint32_t launch_index = 0;
  uint32_t stream = 0;
  Dim3 grid, block;
  uint64_t launch_cycle = 0, start_cycle = 0, end_cycle = 0;  // end - launch = response time
  uint64_t warp_insts = 0;
  uint64_t thread_insts = 0;
};

class LaunchTarget {
 public:
  virtual ~LaunchTarget() = default;
  // Queue a kernel on `stream`; kernels of one stream run in order, of different streams
  // concurrently. `delay` cycles after the current time (0 = now).
  virtual uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) = 0;
  // Run until every queued kernel finished (throws Error on deadlock or limits).
  virtual void run_until_idle() = 0;
  // Run until every kernel queued on `stream` finished.
  virtual void run_until_stream_idle(uint32_t stream) { run_until_idle(); }
  virtual uint64_t now() const = 0;
  // Bytes of device memory a program may allocate through a runtime on this target (0: no cap).
  virtual uint64_t device_memory_limit() const { return 0; }
  // PTX kernels for this target are decoded with their global loads hoisted (core.hoist_global_loads).
  virtual bool hoists_global_loads() const { return false; }
  // The SM this target models (registers per thread of PTX kernels, occupancy); null: none.
  virtual const CoreConfig* core_config() const { return nullptr; }
  // The runtime copied `bytes` at device address `addr` to the device (`to_device`) or from it
  // (a copy engine touched them; l2.fill_on_copy). Targets that wrap another pass it on.
  virtual void copied(uint64_t addr, uint64_t bytes, bool to_device) {}
  // The L2 set-aside for persisting accesses is now `bytes` (cudaLimitPersistingL2CacheSize);
  // returns the bytes the L2 sets aside (0 on targets without an L2). Targets that wrap another
  // pass it on, as they do reset_persisting_l2() (cudaCtxResetPersistingL2Cache).
  virtual uint64_t set_persisting_l2(uint64_t bytes) { return 0; }
  virtual void reset_persisting_l2() {}
  virtual const std::vector<KernelResult>& results() const = 0;
};

}  // namespace warpsim

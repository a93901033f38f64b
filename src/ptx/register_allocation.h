// Registers per thread a PTX kernel is allocated: the count its compiler gave it where that is
// known (Program::compiled_regs: the bundled suite's recorded ptxas counts, a program's cubins)
// and core.compiled_registers is on, else an estimate. PTX virtual registers overstate what
// ptxas uses: the estimate is the peak number of live values plus a margin (at least 16), and ptxas
// never goes over the architecture's per-thread maximum (core.max_regs_per_thread) nor over
// what the kernel's launch bounds leave: .maxnreg, and registers for .minnctapersm CTAs (1
// when not given) of .maxntid threads in the SM's register file, allocated per warp in units
// of core.reg_alloc_granularity. Values over a cap would be spilled to local memory on
// hardware; warpsim does not model that spill traffic. The timing model, the runtime and the
// CUDA shim (cudaFuncGetAttributes, the occupancy API) all read the count from here.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/config.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

// Registers per thread a compiler (ptxas) gave each kernel of a module, per compile target
// (sm_XX as XX).
struct CompiledRegisters {
  std::map<uint32_t, std::map<std::string, uint32_t>> by_target;

  // The count of `kernel` for compile target `target`: that of the recorded target nearest to
  // it at or below it, else of the lowest above it (a kernel compiled for a newer GPU only);
  // 0 when no target records the kernel.
  uint32_t lookup(const std::string& kernel, uint32_t target) const;
  bool empty() const { return by_target.empty(); }
};

// `prog`, or a copy of it carrying the count `registers` records for it and `target` in
// Program::compiled_regs (`registers` may be null).
std::shared_ptr<const Program> with_compiled_registers(std::shared_ptr<const Program> prog,
                                                       const CompiledRegisters* registers, uint32_t target);

// `core`: the SM the kernel runs on; null where there is none (a functional run): then only
// .maxnreg and 255 cap the estimate.
uint32_t allocated_regs_per_thread(const Program& prog, const CoreConfig* core);

// The most registers per thread with which `ctas` CTAs of `threads` threads fit the SM's
// register file (0: not even 1 register).
uint32_t regs_per_thread_bound(const CoreConfig& core, uint32_t threads, uint32_t ctas);

}  // namespace warpsim::ptx

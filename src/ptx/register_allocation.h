// Registers per thread a PTX kernel is allocated. PTX virtual registers overstate what ptxas
// uses: the estimate is the peak number of live values plus a margin (at least 16), and ptxas
// never goes over the architecture's per-thread maximum (core.max_regs_per_thread) nor over
// what the kernel's launch bounds leave: .maxnreg, and registers for .minnctapersm CTAs (1
// when not given) of .maxntid threads in the SM's register file, allocated per warp in units
// of core.reg_alloc_granularity. Values over a cap would be spilled to local memory on
// hardware; warpsim does not model that spill traffic. The timing model, the runtime and the
// CUDA shim (cudaFuncGetAttributes, the occupancy API) all read the count from here.
#pragma once
#include <cstdint>

#include "core/config.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

// `core`: the SM the kernel runs on; null where there is none (a functional run): then only
// .maxnreg and 255 cap the estimate.
uint32_t allocated_regs_per_thread(const Program& prog, const CoreConfig* core);

// The most registers per thread with which `ctas` CTAs of `threads` threads fit the SM's
// register file (0: not even 1 register).
uint32_t regs_per_thread_bound(const CoreConfig& core, uint32_t threads, uint32_t ctas);

}  // namespace warpsim::ptx

// How many CTAs of one kernel an SM holds at once: the limits of CTA slots, warps, threads,
// registers (allocated per warp in units of reg_alloc_granularity) and shared memory. One
// formula for the SM's admission check, the launch-time "never fits" check, the CUDA shim's
// occupancy API and the fitted grids of multikernel experiments.
#pragma once
#include <cstdint>

#include "core/config.h"

namespace warpsim {

struct CtaDemand {
  uint32_t threads = 0;
  uint32_t regs_per_thread = 0;
  uint64_t shared_bytes = 0;
};

// Registers one CTA is allocated.
uint32_t regs_per_cta(const CoreConfig& c, uint32_t regs_per_thread, uint32_t warps);

// CTAs of this demand that fit one SM when `share` kernels split each of its resources evenly
// (share 1: the whole SM). 0 when not even one fits.
uint32_t ctas_per_sm(const CoreConfig& c, const CtaDemand& d, uint32_t share = 1);

}  // namespace warpsim

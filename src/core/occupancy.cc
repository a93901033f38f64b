#include "core/occupancy.h"

#include <algorithm>

namespace warpsim {

uint32_t regs_per_cta(const CoreConfig& c, uint32_t regs_per_thread, uint32_t warps) {
  const uint32_t gran = std::max<uint32_t>(1, c.reg_alloc_granularity);
  uint32_t per_warp = (regs_per_thread * 32 + gran - 1) / gran * gran;
  return per_warp * warps;
}

uint32_t ctas_per_sm(const CoreConfig& c, const CtaDemand& d, uint32_t share) {
  if (share == 0) share = 1;
  if (d.threads == 0) return 0;
  const uint32_t warps = (d.threads + 31) / 32;
  uint64_t n = c.max_ctas / share;
  n = std::min<uint64_t>(n, c.max_warps / share / warps);
  n = std::min<uint64_t>(n, c.max_threads / share / d.threads);
  if (uint32_t regs = regs_per_cta(c, d.regs_per_thread, warps)) n = std::min<uint64_t>(n, c.registers / share / regs);
  if (d.shared_bytes) n = std::min<uint64_t>(n, c.shared_mem / share / d.shared_bytes);
  return uint32_t(n);
}

}  // namespace warpsim

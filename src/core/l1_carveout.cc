#include "core/l1_carveout.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/error.h"

namespace warpsim {

std::vector<uint64_t> shared_carveouts(const GpuConfig& cfg) {
  std::vector<uint64_t> out;
  const std::string& s = cfg.core.shared_carveouts;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    std::string part = s.substr(start, end - start);
    uint64_t kb = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), kb);
    if (part.empty() || ec != std::errc() || p != part.data() + part.size() || kb > (1u << 20))
      throw Error(
          fmt::format("config key 'core.shared_carveouts': '{}' is not a comma-separated list of KB (e.g. "
                      "\"0,8,16,32,64,96\")",
                      s));
    out.push_back(kb * 1024);
    start = end + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
uint32_t lines_per_way(const GpuConfig& cfg) {
  const uint32_t lines = cfg.l1d.size / cfg.l1d.line;
  const uint32_t ways = cfg.l1d.assoc == 0 ? lines : cfg.l1d.assoc;
  return lines / ways;  // the sets
}
}  // namespace

uint32_t l1d_max_ways(const GpuConfig& cfg) {
  const uint32_t sets = lines_per_way(cfg);
  if (!l1_carveout_enabled(cfg)) return cfg.l1d.size / cfg.l1d.line / sets;
  return uint32_t(cfg.core.unified_l1_shared / (uint64_t(sets) * cfg.l1d.line));
}

CacheConfig l1d_storage(const GpuConfig& cfg) {
  CacheConfig c = cfg.l1d;
  if (!l1_carveout_enabled(cfg) || !c.enabled) return c;
  const uint32_t sets = lines_per_way(cfg), ways = l1d_max_ways(cfg);
  c.size = ways * sets * c.line;
  c.assoc = ways;
  return c;
}

uint32_t l1d_ways_for_kernel(const GpuConfig& cfg, uint64_t shared_per_cta, uint32_t ctas_per_sm) {
  const uint32_t max_ways = l1d_max_ways(cfg);
  if (!l1_carveout_enabled(cfg)) return max_ways;
  const std::vector<uint64_t> opts = shared_carveouts(cfg);
  const uint64_t need = shared_per_cta * ctas_per_sm;
  uint64_t carve = opts.back();
  for (uint64_t o : opts)
    if (o >= need) {
      carve = o;
      break;
    }
  const double unified = double(cfg.core.unified_l1_shared);
  const double share = std::max(0.0, 1.0 - double(carve) / unified);
  return std::clamp<uint32_t>(uint32_t(std::floor(max_ways * share + 0.5)), 1, max_ways);
}

}  // namespace warpsim

#include "timing/stats.h"

namespace warpsim {

std::string_view cycle_class_name(CycleClass c) {
  static constexpr std::string_view names[] = {"issued",  "declined", "unit_busy", "raw",
                                               "control", "barrier",  "idle",      "no_warp"};
  return names[int(c)];
}

CoreStats& CoreStats::operator+=(const CoreStats& o) {
  const uint64_t* src = reinterpret_cast<const uint64_t*>(&o);
  uint64_t* dst = reinterpret_cast<uint64_t*>(this);
  for (size_t i = 0; i < sizeof(CoreStats) / sizeof(uint64_t); ++i) dst[i] += src[i];
  return *this;
}

CoreStats CoreStats::operator-(const CoreStats& o) const {
  CoreStats r = *this;
  const uint64_t* src = reinterpret_cast<const uint64_t*>(&o);
  uint64_t* dst = reinterpret_cast<uint64_t*>(&r);
  for (size_t i = 0; i < sizeof(CoreStats) / sizeof(uint64_t); ++i) dst[i] -= src[i];
  return r;
}

StatsSnapshot StatsSnapshot::operator-(const StatsSnapshot& o) const {
  StatsSnapshot r = *this;
  r.cycle = cycle - o.cycle;
  r.core = core - o.core;
  static_assert(sizeof(MemoryStats) % sizeof(uint64_t) == 0);
  const uint64_t* src = reinterpret_cast<const uint64_t*>(&o.mem);
  uint64_t* dst = reinterpret_cast<uint64_t*>(&r.mem);
  for (size_t i = 0; i < sizeof(MemoryStats) / sizeof(uint64_t); ++i) dst[i] -= src[i];
  return r;
}

}  // namespace warpsim

#include "timing/stats.h"

namespace warpsim {

std::string_view cycle_class_name(CycleClass c) {
  static constexpr std::string_view names[] = {"issued",  "declined", "unit_busy", "raw",
                                               "control", "barrier",  "idle",      "no_warp"};
  return names[int(c)];
}

static_assert(declared_stat_bytes<CoreStats>() == sizeof(CoreStats),
              "every CoreStats field must be declared in CoreStats::visit()");

CoreStats& CoreStats::operator+=(const CoreStats& o) {
  add_stats(*this, o);
  return *this;
}

CoreStats CoreStats::operator-(const CoreStats& o) const {
  CoreStats r = *this;
  subtract_stats(r, o);
  return r;
}

StatsSnapshot StatsSnapshot::operator-(const StatsSnapshot& o) const {
  StatsSnapshot r = *this;
  r.cycle = cycle - o.cycle;
  subtract_stats(r.core, o.core);
  subtract_stats(r.mem, o.mem);
  return r;
}

}  // namespace warpsim

#include "sched/policies.h"

namespace warpsim {

const std::vector<SchedulerFactory>& scheduler_registry() {
  static const std::vector<SchedulerFactory> registry = {
      {"lrr", "loose round robin: the next ready warp after the last one issued", make_lrr},
      {"gto", "greedy then oldest: keep the last warp while ready, else the oldest ready", make_gto},
      {"oldest", "oldest ready warp first", make_oldest_first},
      {"youngest", "youngest ready warp first", make_youngest_first},
      {"tl", "two-level: round robin inside an active set of N warps (param active=N)", make_two_level},
  };
  return registry;
}

}  // namespace warpsim

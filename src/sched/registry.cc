#include "sched/policies.h"

namespace warpsim {

const std::vector<SchedulerFactory>& scheduler_registry() {
  static const std::vector<SchedulerFactory> registry = {
      {"lrr", "loose round robin: the next ready warp after the last one issued", make_lrr},
      {"gto", "greedy then oldest: keep the last warp while ready, else the oldest ready", make_gto},
      {"oldest", "oldest ready warp first", make_oldest_first},
      {"youngest", "youngest ready warp first", make_youngest_first},
      {"tl", "two-level: round robin inside an active set of N warps (param active=N)", make_two_level},
      {"juggler", "Juggler: GTO, two-level or LRR as a stall predictor says (uth, fth, lth, history_bits, ...)", make_juggler}, {"r-juggler", "Juggler with the reverse order UM -> FM -> LHM", make_r_juggler},
      {"rlws", "reinforcement-learning pipeline selection (linear SARSA, RLWS Table I actions)",
       make_rlws, make_rlws_agent},
      {"rlws_ms", "reinforcement-learning meta-scheduling (RLWS Table IX actions)", make_rlws_ms,
       make_rlws_ms_agent},
      {"ipaws", "iPAWS: sample under GTO, commit to GTO or LRR by the issue pattern (sample_insts, threshold, force, ...)",
       make_ipaws},
      {"qaws", "QoS-aware: warps grouped by kernel budget (budget.KERNEL=B, budget.stream.S=B, budget.default=B, decide=last|same)",
       make_qaws, make_qaws_options},
  };
  return registry;
}

}  // namespace warpsim

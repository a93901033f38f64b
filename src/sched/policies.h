// Factory functions of the built-in policies; registry.cc lists them by name.
#pragma once
#include "sched/scheduler.h"

namespace warpsim {

#define WARPSIM_POLICY(fn)                                                               \
  std::unique_ptr<WarpScheduler> fn(const SchedulerParams& params, int sm_id, int sched_id, \
                                    int num_schedulers, std::shared_ptr<void> shared)
WARPSIM_POLICY(make_lrr);
WARPSIM_POLICY(make_gto);
WARPSIM_POLICY(make_oldest_first);
WARPSIM_POLICY(make_youngest_first);
WARPSIM_POLICY(make_two_level);
WARPSIM_POLICY(make_juggler); WARPSIM_POLICY(make_r_juggler);
WARPSIM_POLICY(make_rlws);
WARPSIM_POLICY(make_rlws_ms);
WARPSIM_POLICY(make_ipaws);
WARPSIM_POLICY(make_qaws); std::shared_ptr<void> make_qaws_options(const SchedulerParams& params, int sm_id);
std::shared_ptr<void> make_rlws_agent(const SchedulerParams& params, int sm_id);
std::shared_ptr<void> make_rlws_ms_agent(const SchedulerParams& params, int sm_id);
#undef WARPSIM_POLICY

}  // namespace warpsim

// RLWS action rules as pure functions (Sec. IV-A and IV-F), shared by the scheduler and tests.
#pragma once
#include <cstdint>

#include "sched/rl_state.h"

namespace warpsim {

enum RlwsAction { kNoInstr = 0, kSpInstr, kSfuInstr, kGmemInstr, kStcmemInstr, kRlwsActions };

int rlws_action_of(PipeClass p);
// Bit per action with a ready warp; NO_INSTR always, except right after NO_INSTR while
// another action is possible.
uint32_t rlws_possible_actions(const WarpSummaries& w, int last_action);
// The warp issued last cycle if it is ready for `action`, else the oldest ready one; -1 for
// NO_INSTR or when none matches.
int rlws_warp_for(int action, const WarpSummaries& w, int last_issued);
// Phase 1 (CTAs waiting): rates scaled by 1 / (1 + t / decay_cycles); phase 2: unscaled.
inline double rl_phase_factor(bool ctas_waiting, uint64_t cycles_into_kernel, double decay_cycles) {
  return ctas_waiting ? 1.0 / (1.0 + double(cycles_into_kernel) / decay_cycles) : 1.0;
}

}  // namespace warpsim

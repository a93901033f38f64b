// Juggler (Nasser et al.): a warp scheduler that runs greedy-then-oldest (UM), two-level (LHM)
// or loose round robin (FM), moving between them as a per-scheduler predictor of stalls says
// (src/sched/juggler_predictor.h). The state of all three orders is kept up to date on every
// issue, so a mode switch takes effect at the next decision. See docs/juggler.md.
#pragma once
#include <memory>
#include <string>

#include "sched/juggler_predictor.h"
#include "sched/scheduler.h"

namespace warpsim {

struct JugglerOptions {
  JugglerPredictorConfig predictor;
  // LHM active set size; 0 = automatic: min(8, warps per scheduler / 2), the tl default where a
  // scheduler owns more than 8 warps and half of its warps otherwise, so that LHM never holds
  // every warp of the scheduler (which would make it FM's round robin).
  uint32_t active = 0;
  bool every_cycle = false;  // ask the GPU to simulate every cycle instead of replaying skipped ones
  // What one stall adds to the predictor's stall count: a scheduler cycle without an issue
  // (false), or each warp of the scheduler that stalls in it (true; paper Fig. 4 walk-through).
  bool stalls_per_warp = false;
};

// Reads uth, fth, lth, history_bits, order (juggler|r-juggler), stall_count
// (since_update|consecutive|window), window, history (counter|shift), entry (lowest|highest),
// active (auto or 1..64) and every_cycle; `default_order` applies when `order` is absent.
// Throws Error.
JugglerOptions juggler_options(const SchedulerParams& params, const std::string& default_order);

// The LHM active set size for a scheduler owning `warps_per_scheduler` warp slots.
uint32_t juggler_lhm_active(const JugglerOptions& options, int warps_per_scheduler);

std::unique_ptr<WarpScheduler> make_juggler_scheduler(const JugglerOptions& options);

}  // namespace warpsim

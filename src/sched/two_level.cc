// Two-level (TL) warp scheduling: an active list of at most N warps is scheduled round robin;
// a warp that waits on a long-latency (memory) operation, reaches a barrier or finishes is
// demoted to the pending FIFO, and the oldest pending warp is promoted in its place. The
// state and its exact rules live in TwoLevelState, which Juggler shares.
#include "core/error.h"
#include "sched/scheduler.h"
#include "sched/two_level_state.h"

namespace warpsim {
namespace {

class TwoLevel final : public WarpScheduler {
 public:
  explicit TwoLevel(size_t active) : state_(active) {}

  int select(const SchedulerContext& ctx) override { return state_.select(ctx); }
  void on_issue(const SchedulerContext&, int slot, const WarpInst&) override { state_.on_issue(slot); }
  // The active set is reordered once per cycle, with that cycle's warp states.
  bool replays_skipped_cycles() const override { return true; }
  // The reorderings of skipped cycles are caught up at the next select (TwoLevelState).
  bool replays_each_skipped_cycle() const override { return false; }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<TwoLevel>(*this); }

 private:
  TwoLevelState state_;
};

}  // namespace

static std::unique_ptr<WarpScheduler> make_two_level(const SchedulerSetup& setup) {
  int64_t n = setup.params.get_int("active", 8);
  if (n < 1 || n > 64) throw Error("scheduler parameter 'active' (tl): must be between 1 and 64");
  return std::make_unique<TwoLevel>(size_t(n));
}

namespace {
const SchedulerRegistration kRegistered{
    {"tl",
     "two-level: round robin inside an active set of N warps (param active=N)",
     make_two_level,
     nullptr,
     {{"active", "8", "warps in the active set (1..64); a warp waiting on memory leaves it"}}}};
}  // namespace

}  // namespace warpsim

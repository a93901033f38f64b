// The state of two-level (TL) warp scheduling, reusable by any policy that runs TL as one of
// its orders (GPGPU-Sim's two_level_active_scheduler with inner LRR and outer SRR): every warp
// slot of the scheduler is in either the active list (at most N, in priority order) or the
// pending FIFO. Once per cycle, before the decision, each active warp that waits (finished or
// empty slot, barrier, memory barrier, an atomic in flight, or a next instruction that reads
// the result of a long-latency load, or with core.long_op_marks_persist a register such a
// load ever wrote: SchedulerContext::waits_on_long_op) moves to the back of the pending FIFO,
// and the front of the FIFO refills the active list, so a waiting warp with no replacement comes back at the
// end of the active list. After an issue the active list rotates to start after the issued
// warp (round robin).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sched/scheduler.h"

namespace warpsim {

class TwoLevelState {
 public:
  // Active list capacity `active`; the lists reserve room for `max_warps` slots up front so
  // that no decision allocates.
  explicit TwoLevelState(size_t active, size_t max_warps = 64);

  // Reorders the lists for this cycle (once per cycle; cycles the SM skipped are caught up,
  // their warps' states unchanged) and returns the first ready active warp, or -1.
  int select(const SchedulerContext& ctx);
  // Rotates the active list to start after `slot` when it is in the active list; a warp issued
  // by another order (outside the active list) leaves the order alone.
  void on_issue(int slot);

  size_t capacity() const { return capacity_; }
  const std::vector<uint16_t>& active() const { return active_; }
  const std::vector<uint16_t>& pending() const { return pending_; }

 private:
  void start(const SchedulerContext& ctx);
  bool order_once(const SchedulerContext& ctx);  // true when a warp was demoted or promoted

  size_t capacity_;
  bool started_ = false;
  uint64_t ordered_at_ = 0;        // cycle of the last reordering
  std::vector<uint16_t> active_;   // priority order, front first
  std::vector<uint16_t> pending_;  // FIFO, front is the oldest
};

}  // namespace warpsim

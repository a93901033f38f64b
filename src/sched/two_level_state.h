// The state of two-level (TL) warp scheduling, reusable by any policy that runs TL as one of
// its orders: an active set of at most N warps scheduled round robin, and a pending queue.
// A warp that waits on a long-latency (memory) dependency, reaches a barrier or finishes is
// demoted to the back of the pending queue, and the oldest pending warp takes its place.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sched/scheduler.h"

namespace warpsim {

class TwoLevelState {
 public:
  // Active set capacity `active`; the queues reserve room for `max_warps` warps up front so
  // that no decision allocates.
  explicit TwoLevelState(size_t active, size_t max_warps = 64);

  // Demotes blocked active warps, refills the active set, and returns the first ready active
  // warp round robin from the pointer, or -1.
  int select(const SchedulerContext& ctx);
  // Moves the round-robin pointer past `slot` when it is in the active set; a warp issued by
  // another order (outside the active set) leaves the pointer alone.
  void on_issue(int slot);
  void add(int slot);
  void remove(int slot);

  size_t capacity() const { return capacity_; }
  size_t pointer() const { return rr_; }
  const std::vector<uint16_t>& active() const { return active_; }
  const std::vector<uint16_t>& pending() const { return pending_; }

 private:
  void demote_blocked(const SchedulerContext& ctx);
  void refill();

  size_t capacity_;
  size_t rr_ = 0;
  std::vector<uint16_t> active_;
  std::vector<uint16_t> pending_;  // FIFO, front is the oldest (at most 64 entries)
};

}  // namespace warpsim

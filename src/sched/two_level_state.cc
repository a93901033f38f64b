#include "sched/two_level_state.h"

#include <algorithm>

namespace warpsim {

TwoLevelState::TwoLevelState(size_t active, size_t max_warps) : capacity_(active) {
  active_.reserve(std::max(active, max_warps));
  pending_.reserve(max_warps);
}

// Every slot of the scheduler, in slot order: the first N active, the rest pending.
void TwoLevelState::start(const SchedulerContext& ctx) {
  started_ = true;
  const int m = ctx.num_schedulers();
  const int n = ctx.warps_per_scheduler();
  for (int k = 0; k < n; ++k) {
    uint16_t slot = uint16_t(ctx.scheduler_id() + k * m);
    (active_.size() < capacity_ ? active_ : pending_).push_back(slot);
  }
  ordered_at_ = ctx.now();
}

bool TwoLevelState::order_once(const SchedulerContext& ctx) {
  bool demoted = false;
  for (size_t i = 0; i < active_.size();) {
    uint16_t w = active_[i];
    WarpStatus s = ctx.status(w);
    bool waits = s == WarpStatus::Finished || s == WarpStatus::Barrier || ctx.waits_on_long_op(w);
    if (waits) {
      active_.erase(active_.begin() + ptrdiff_t(i));
      pending_.push_back(w);
      demoted = true;
    } else {
      ++i;
    }
  }
  size_t take = std::min(capacity_ - std::min(capacity_, active_.size()), pending_.size());
  if (take > 0) {
    active_.insert(active_.end(), pending_.begin(), pending_.begin() + ptrdiff_t(take));
    pending_.erase(pending_.begin(), pending_.begin() + ptrdiff_t(take));
  }
  return demoted || take > 0;
}

int TwoLevelState::select(const SchedulerContext& ctx) {
  if (!started_) {
    start(ctx);
    order_once(ctx);
  } else if (ctx.now() > ordered_at_) {
    // One reordering per cycle. While the SM skipped cycles no warp changed state, so the
    // skipped reorderings only cycle waiting warps (empty slots among them) through the FIFO,
    // until a reordering moves no warp (the next ones would not either); warps that all wait
    // keep cycling, so every skipped cycle counts.
    uint64_t steps = ctx.now() - ordered_at_;
    for (uint64_t k = 0; k < steps; ++k)
      if (!order_once(ctx)) break;
    ordered_at_ = ctx.now();
  }
  for (uint16_t w : active_)
    if (ctx.status(w) == WarpStatus::Ready) return w;
  return -1;
}

void TwoLevelState::on_issue(int slot) {
  auto it = std::find(active_.begin(), active_.end(), slot);
  if (it != active_.end()) std::rotate(active_.begin(), it + 1, active_.end());
}

}  // namespace warpsim

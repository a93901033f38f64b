#include "sched/two_level_state.h"

#include <algorithm>

namespace warpsim {

TwoLevelState::TwoLevelState(size_t active, size_t max_warps) : capacity_(active) {
  active_.reserve(std::max(active, max_warps));
  pending_.reserve(max_warps);
}

int TwoLevelState::select(const SchedulerContext& ctx) {
  demote_blocked(ctx);
  refill();
  size_t n = active_.size();
  for (size_t k = 0; k < n; ++k) {
    size_t i = (rr_ + k) % n;
    if (ctx.status(active_[i]) == WarpStatus::Ready) return active_[i];
  }
  return -1;
}

void TwoLevelState::on_issue(int slot) {
  auto it = std::find(active_.begin(), active_.end(), slot);
  if (it != active_.end()) rr_ = size_t(it - active_.begin()) + 1;
}

void TwoLevelState::add(int slot) { pending_.push_back(uint16_t(slot)); }

void TwoLevelState::remove(int slot) {
  auto a = std::find(active_.begin(), active_.end(), slot);
  if (a != active_.end()) active_.erase(a);
  auto p = std::find(pending_.begin(), pending_.end(), slot);
  if (p != pending_.end()) pending_.erase(p);
}

// Each active warp is examined once per decision; demoted warps go to the back of the queue.
void TwoLevelState::demote_blocked(const SchedulerContext& ctx) {
  if (pending_.empty()) return;  // nobody could take the place
  size_t examined = active_.size();
  for (size_t k = 0, i = 0; k < examined; ++k) {
    uint16_t w = active_[i];
    WarpStatus s = ctx.status(w);
    bool demote = s == WarpStatus::Barrier || s == WarpStatus::Finished ||
                  (s == WarpStatus::RAW && ctx.waiting_on_memory(w));
    if (demote) {
      active_.erase(active_.begin() + ptrdiff_t(i));
      pending_.push_back(w);
      if (rr_ > i) --rr_;
    } else {
      ++i;
    }
  }
}

void TwoLevelState::refill() {
  size_t take = std::min(capacity_ - std::min(capacity_, active_.size()), pending_.size());
  if (take == 0) return;
  active_.insert(active_.end(), pending_.begin(), pending_.begin() + ptrdiff_t(take));
  pending_.erase(pending_.begin(), pending_.begin() + ptrdiff_t(take));
}

}  // namespace warpsim

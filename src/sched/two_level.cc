// Two-level (TL) warp scheduling: an active set of at most N warps is scheduled round robin;
// a warp that waits on a long-latency (memory) dependency, reaches a barrier or finishes is
// demoted to the pending queue, and the oldest pending warp is promoted in its place.
#include <algorithm>
#include <deque>
#include <vector>

#include "core/error.h"
#include "sched/policies.h"

namespace warpsim {
namespace {

class TwoLevel final : public WarpScheduler {
 public:
  explicit TwoLevel(size_t active) : capacity_(active) {}

  int select(const SchedulerContext& ctx) override {
    demote_blocked(ctx);
    refill(ctx);
    size_t n = active_.size();
    for (size_t k = 0; k < n; ++k) {
      size_t i = (rr_ + k) % n;
      if (ctx.status(active_[i]) == WarpStatus::Ready) return active_[i];
    }
    return -1;
  }

  void on_issue(const SchedulerContext&, int slot, const WarpInst&) override {
    auto it = std::find(active_.begin(), active_.end(), slot);
    if (it != active_.end()) rr_ = size_t(it - active_.begin()) + 1;
  }

  void on_warp_added(int slot) override { pending_.push_back(uint16_t(slot)); }
  void on_warp_removed(int slot) override {
    auto a = std::find(active_.begin(), active_.end(), slot);
    if (a != active_.end()) active_.erase(a);
    auto p = std::find(pending_.begin(), pending_.end(), slot);
    if (p != pending_.end()) pending_.erase(p);
  }

  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<TwoLevel>(*this); }

  const std::vector<uint16_t>& active() const { return active_; }

 private:
  // Each active warp is examined once per cycle; demoted warps go to the back of the queue.
  void demote_blocked(const SchedulerContext& ctx) {
    if (pending_.empty()) return;  // nobody could take the place
    size_t examined = active_.size();
    for (size_t k = 0, i = 0; k < examined; ++k) {
      uint16_t w = active_[i];
      WarpStatus s = ctx.status(w);
      bool demote = s == WarpStatus::Barrier || s == WarpStatus::Finished ||
                    (s == WarpStatus::RAW && ctx.waiting_on_memory(w));
      if (demote) {
        active_.erase(active_.begin() + i);
        pending_.push_back(w);
        if (rr_ > i) --rr_;
      } else {
        ++i;
      }
    }
  }
  void refill(const SchedulerContext&) {
    while (active_.size() < capacity_ && !pending_.empty()) {
      active_.push_back(pending_.front());
      pending_.pop_front();
    }
  }

  size_t capacity_;
  size_t rr_ = 0;
  std::vector<uint16_t> active_;
  std::deque<uint16_t> pending_;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_two_level(const SchedulerParams& params, int, int, int,
                                              std::shared_ptr<void>) {
  int64_t n = params.get_int("active", 8);
  if (n < 1 || n > 64) throw Error("scheduler parameter 'active' (tl): must be between 1 and 64");
  return std::make_unique<TwoLevel>(size_t(n));
}

}  // namespace warpsim

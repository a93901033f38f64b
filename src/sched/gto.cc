// Greedy-then-oldest (GTO): issue from the same warp until it stalls, then the oldest ready.
#include "sched/order_policies.h"
#include "sched/policies.h"

namespace warpsim {
namespace {

class Gto final : public WarpScheduler {
 public:
  int select(const SchedulerContext& ctx) override { return first_ready_gto(ctx, greedy_); }
  void on_issue(const SchedulerContext&, int slot, const WarpInst&) override { greedy_ = slot; }
  void on_warp_removed(int slot) override {
    if (slot == greedy_) greedy_ = -1;
  }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<Gto>(*this); }

 private:
  int greedy_ = -1;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_gto(const SchedulerParams&, int, int, int, std::shared_ptr<void>) {
  return std::make_unique<Gto>();
}

}  // namespace warpsim

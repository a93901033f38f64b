// Greedy-then-oldest (GTO): issue from the same warp until it stalls, then the oldest ready.
#include "sched/order_policies.h"
#include "sched/scheduler.h"

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

static std::unique_ptr<WarpScheduler> make_gto(const SchedulerSetup& setup) { return std::make_unique<Gto>(); }

namespace {
const SchedulerRegistration kRegistered{
    {"gto", "greedy then oldest: keep the last warp while ready, else the oldest ready", make_gto, nullptr, {}}};
}  // namespace

}  // namespace warpsim

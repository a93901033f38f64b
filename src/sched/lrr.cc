// Loose round robin (LRR): every cycle, the first ready warp after the one issued last.
#include "sched/order_policies.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

class Lrr final : public WarpScheduler {
 public:
  int select(const SchedulerContext& ctx) override { return first_ready_lrr(ctx, last_); }
  void on_issue(const SchedulerContext&, int slot, const WarpInst&) override { last_ = slot; }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<Lrr>(*this); }

 private:
  int last_ = -1;
};

}  // namespace

static std::unique_ptr<WarpScheduler> make_lrr(const SchedulerSetup& setup) { return std::make_unique<Lrr>(); }

namespace {
const SchedulerRegistration kRegistered{
    {"lrr", "loose round robin: the next ready warp after the last one issued", make_lrr, nullptr, {}}};
}  // namespace

}  // namespace warpsim

// Youngest first: the most recently launched ready warp.
#include "sched/order_policies.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

class YoungestFirst final : public WarpScheduler {
 public:
  int select(const SchedulerContext& ctx) override { return first_ready_youngest(ctx); }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<YoungestFirst>(*this); }
};

}  // namespace

static std::unique_ptr<WarpScheduler> make_youngest_first(const SchedulerSetup& setup) {
  return std::make_unique<YoungestFirst>();
}

namespace {
const SchedulerRegistration kRegistered{{"youngest", "youngest ready warp first", make_youngest_first, nullptr, {}}};
}  // namespace

}  // namespace warpsim

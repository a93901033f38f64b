// Oldest first: strict age priority, no greediness.
#include "sched/order_policies.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

class OldestFirst final : public WarpScheduler {
 public:
  int select(const SchedulerContext& ctx) override { return first_ready_oldest(ctx); }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<OldestFirst>(*this); }
};

}  // namespace

static std::unique_ptr<WarpScheduler> make_oldest_first(const SchedulerSetup& setup) {
  return std::make_unique<OldestFirst>();
}

namespace {
const SchedulerRegistration kRegistered{{"oldest", "oldest ready warp first", make_oldest_first, nullptr, {}}};
}  // namespace

}  // namespace warpsim

// Oldest first: strict age priority, no greediness.
#include "sched/order_policies.h"
#include "sched/policies.h"

namespace warpsim {
namespace {

class OldestFirst final : public WarpScheduler {
 public:
  int select(const SchedulerContext& ctx) override { return first_ready_oldest(ctx); }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<OldestFirst>(*this); }
};

}  // namespace

std::unique_ptr<WarpScheduler> make_oldest_first(const SchedulerParams&, int, int, int, std::shared_ptr<void>) {
  return std::make_unique<OldestFirst>();
}

}  // namespace warpsim

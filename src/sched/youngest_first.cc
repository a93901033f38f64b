// Youngest first: the most recently launched ready warp.
#include "sched/order_policies.h"
#include "sched/policies.h"

namespace warpsim {
namespace {

class YoungestFirst final : public WarpScheduler {
 public:
  int select(const SchedulerContext& ctx) override { return first_ready_youngest(ctx); }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<YoungestFirst>(*this); }
};

}  // namespace

std::unique_ptr<WarpScheduler> make_youngest_first(const SchedulerParams&, int, int, int, std::shared_ptr<void>) {
  return std::make_unique<YoungestFirst>();
}

}  // namespace warpsim

// RLWS_MS (RLWS paper Sec. V-D): the agent picks a meta-action (Table IX), an ordering that
// names the warp to issue.
#include "sched/order_policies.h"
#include "sched/rl_scheduler.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

enum Action { GTO = 0, YOUNGEST, LRR, YOUNGEST_BARRIER, YOUNGEST_FINISH, kActions };

class RlwsMs final : public RlScheduler {
 public:
  using RlScheduler::RlScheduler;
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<RlwsMs>(*this); }

 protected:
  uint32_t possible_actions(const SchedulerContext& ctx, const WarpSummaries& w) override {
    uint32_t m = 0;
    if (!w.with_status(WarpStatus::Ready)) return m;
    for (int i = 0; i < w.n; ++i) {
      if (w.w[i].status != WarpStatus::Ready) continue;
      m |= (1u << GTO) | (1u << YOUNGEST) | (1u << LRR);
      const CtaInfo& c = ctx.cta(int(ctx.warp(w.w[i].slot).cta_slot));
      if (c.at_barrier > 0) m |= 1u << YOUNGEST_BARRIER;
      if (c.finished > 0) m |= 1u << YOUNGEST_FINISH;
    }
    return m;
  }
  int warp_for(const SchedulerContext& ctx, int action, const WarpSummaries& ws) override {
    const WarpSummary* w = ws.w;
    switch (action) {
      case GTO:
        return first_ready_gto(ctx, last_issued_);
      case YOUNGEST:
        return first_ready_youngest(ctx);
      case LRR:
        return first_ready_lrr(ctx, last_issued_);
      default:
        break;
    }
    for (int i = ws.n; i-- > 0;) {  // youngest first
      if (w[i].status != WarpStatus::Ready) continue;
      const CtaInfo& c = ctx.cta(int(ctx.warp(w[i].slot).cta_slot));
      if ((action == YOUNGEST_BARRIER && c.at_barrier > 0) || (action == YOUNGEST_FINISH && c.finished > 0))
        return w[i].slot;
    }
    return -1;
  }
  const char* action_name(int a) const override {
    static const char* names[] = {"GTO", "YOUNGEST", "LRR", "YOUNGEST_BARRIER", "YOUNGEST_FINISH"};
    return names[a];
  }
};

}  // namespace

static std::unique_ptr<WarpScheduler> make_rlws_ms(const SchedulerSetup& setup) {
  return std::make_unique<RlwsMs>(setup.shared_state<RlAgent>(), setup.sm_id, setup.sched_id, uint32_t(kActions),
                                  "rlws_ms");
}

static std::shared_ptr<SmSharedState> make_rlws_ms_agent(const SchedulerParams& p, int sm_id) {
  rl::RlConfig cfg = rl_config_from_params(p, rl::RlConfig::rlws_ms_defaults());
  return std::make_shared<RlAgent>(cfg, uint32_t(kActions), cfg.seed * 0x9e3779b97f4a7c15ull + uint64_t(sm_id));
}

namespace {
const SchedulerRegistration kRegistered{{"rlws_ms", "reinforcement-learning meta-scheduling (RLWS Table IX actions)",
                                         make_rlws_ms, make_rlws_ms_agent,
                                         rl_param_infos(rl::RlConfig::rlws_ms_defaults())}};
}  // namespace

}  // namespace warpsim

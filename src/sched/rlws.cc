// RLWS (RLWS paper Sec. IV): each cycle the agent picks a pipeline (Table I); the warp is the
// one issued last cycle if it matches, else the oldest ready warp whose next instruction does.
#include "sched/rl_scheduler.h"
#include "sched/rlws_actions.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

class Rlws final : public RlScheduler {
 public:
  using RlScheduler::RlScheduler;
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<Rlws>(*this); }

 protected:
  uint32_t possible_actions(const SchedulerContext&, const WarpSummaries& w) override {
    return rlws_possible_actions(w, last_action_);
  }
  int warp_for(const SchedulerContext&, int action, const WarpSummaries& w) override {
    return rlws_warp_for(action, w, last_issued_);
  }
  bool idles_by_choice(int a) const override { return a == kNoInstr; }
  const char* action_name(int a) const override {
    static const char* names[] = {"NO_INSTR", "SP_INSTR", "SFU_INSTR", "GMEM_INSTR", "STCMEM_INSTR"};
    return names[a];
  }
};

}  // namespace

int rlws_action_of(PipeClass p) {
  switch (p) {
    case PipeClass::SP:
      return kSpInstr;
    case PipeClass::SFU:
      return kSfuInstr;
    case PipeClass::GMEM:
      return kGmemInstr;
    case PipeClass::STCMEM:
      return kStcmemInstr;
    default:
      return -1;
  }
}

uint32_t rlws_possible_actions(const WarpSummaries& w, int last_action) {
  uint32_t m = 0;
  for (PipeClass p : {PipeClass::SP, PipeClass::SFU, PipeClass::GMEM, PipeClass::STCMEM})
    if (w.ready(p)) m |= 1u << rlws_action_of(p);
  if (!(last_action == kNoInstr && m)) m |= 1u << kNoInstr;
  return m;
}

int rlws_warp_for(int action, const WarpSummaries& w, int last_issued) {
  if (action == kNoInstr) return -1;
  auto matches = [&](const WarpSummary& s) {
    return s.status == WarpStatus::Ready && rlws_action_of(s.pipe) == action;
  };
  if (const WarpSummary* last = w.find(last_issued); last && matches(*last)) return last_issued;
  for (int i = 0; i < w.n; ++i)
    if (matches(w.w[i])) return w.w[i].slot;
  return -1;
}

static std::unique_ptr<WarpScheduler> make_rlws(const SchedulerSetup& setup) {
  return std::make_unique<Rlws>(setup.shared_state<RlAgent>(), setup.sm_id, setup.sched_id, uint32_t(kRlwsActions),
                                "rlws");
}

static std::shared_ptr<SmSharedState> make_rlws_agent(const SchedulerParams& p, int sm_id) {
  rl::RlConfig cfg = rl_config_from_params(p, rl::RlConfig::rlws_defaults());
  return std::make_shared<RlAgent>(cfg, uint32_t(kRlwsActions), cfg.seed * 0x9e3779b97f4a7c15ull + uint64_t(sm_id));
}

namespace {
const SchedulerRegistration kRegistered{
    {"rlws", "reinforcement-learning pipeline selection (linear SARSA, RLWS Table I actions)", make_rlws,
     make_rlws_agent, rl_param_infos(rl::RlConfig::rlws_defaults())}};
}  // namespace

}  // namespace warpsim

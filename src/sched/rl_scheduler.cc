#include "sched/rl_scheduler.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "sched/report_util.h"
#include "sched/rlws_actions.h"

namespace warpsim {

namespace {
constexpr uint64_t kRewardWindow = 5000;
}

rl::RlConfig rl_config_from_params(const SchedulerParams& p, const rl::RlConfig& defaults) {
  rl::RlConfig c = defaults;
  std::string file = p.get_string("rl_config", "");
  if (!file.empty()) c = rl::load_rl_config(file, defaults);
  c.alpha = p.get_double("alpha", c.alpha);
  c.epsilon = p.get_double("epsilon", c.epsilon);
  c.gamma = p.get_double("gamma", c.gamma);
  c.reward = p.get_double("reward", c.reward);
  c.penalty = p.get_double("penalty", c.penalty);
  c.decay_cycles = p.get_double("decay_cycles", c.decay_cycles);
  c.decide_every = uint32_t(p.get_int("decide_every", c.decide_every));
  c.keep_theta = p.get_bool("keep_theta", c.keep_theta);
  c.fixed_point = p.get_bool("fixed_point", c.fixed_point);
  c.optimistic = p.get_bool("optimistic", c.optimistic);
  c.hold_when_blocked = p.get_bool("hold_when_blocked", c.hold_when_blocked);
  c.seed = uint64_t(p.get_int("seed", int64_t(c.seed)));
  // Re-validate through the TOML path so overrides get the same checks.
  return rl::parse_rl_config(rl::rl_config_to_toml(c), "scheduler parameters", c);
}

std::vector<SchedulerParamInfo> rl_param_infos(const rl::RlConfig& d) {
  auto num = [](double v) { return fmt::format("{}", v); };
  auto flag = [](bool v) { return std::string(v ? "true" : "false"); };
  return {{"rl_config", "", "RL configuration file (TOML: the keys below and [attributes]; docs/rlws.md)"},
          {"alpha", num(d.alpha), "learning rate"},
          {"epsilon", num(d.epsilon), "exploration rate"},
          {"gamma", num(d.gamma), "discount factor"},
          {"reward", num(d.reward), "reward of a cycle that issues"},
          {"penalty", num(d.penalty), "reward of a cycle that does not"},
          {"decay_cycles", num(d.decay_cycles), "phase 1: alpha and epsilon decay as 1 / (1 + t / decay_cycles)"},
          {"decide_every", std::to_string(d.decide_every), "cycles between decisions: 1, 2, 4, 8 or 16"},
          {"hold_when_blocked", flag(d.hold_when_blocked), "keep a held action that has no ready warp"},
          {"keep_theta", flag(d.keep_theta), "keep the weights across kernels"},
          {"fixed_point", flag(d.fixed_point), "weights in Q16.16, features as shifts (Sec. IV-I)"},
          {"optimistic", flag(d.optimistic), "start the weights at r_max / (1 - gamma) / N"},
          {"seed", std::to_string(d.seed), "seed of the exploration draws"}};
}

RlScheduler::RlScheduler(std::shared_ptr<RlAgent> agent, int sm_id, int sched_id, uint32_t num_actions,
                         std::string report_key)
    : agent_(std::move(agent)),
      sm_id_(sm_id),
      sched_id_(sched_id),
      num_actions_(num_actions),
      key_(std::move(report_key)) {}

void RlScheduler::on_kernel_start(uint32_t kernel) {
  current_kernel_ = kernel;
  records_[kernel].actions.assign(num_actions_, 0);
  if (sched_id_ == 0) {
    if (!agent_->cfg.keep_theta) agent_->sarsa.reset();
    agent_->baseline_pending = true;
  }
  trace_.reset();
  held_action_ = -1;
  last_action_ = -1;
}

void RlScheduler::on_warp_removed(int slot) {
  if (slot == last_issued_) last_issued_ = -1;
}

int RlScheduler::select(const SchedulerContext& ctx) {
  RlAgent& ag = *agent_;
  uint64_t now = ctx.now();
  if (ag.baseline_pending) {
    ag.base = {ctx.sm(), ctx.gpu()};
    ag.kernel_start = now;
    ag.baseline_pending = false;
  }
  const rl::RlConfig& cfg = ag.cfg;
  int n = summarize_warps(ctx, summary_);
  uint64_t t = now - ag.kernel_start;
  bool decide = cfg.decide_every <= 1 || held_action_ < 0 || t % cfg.decide_every == 0;
  // A held action without a ready warp would leave the cycle unissued: decide afresh instead.
  if (!decide && !cfg.hold_when_blocked && !idles_by_choice(held_action_) &&
      warp_for(ctx, held_action_, summary_, n) < 0)
    decide = true;
  if (decide) {
    uint32_t possible = possible_actions(ctx, summary_, n);
    if (!possible) {
      held_action_ = -1;
      return -1;
    }
    compute_attributes(ctx, summary_, n, ag.base, values_);
    rl::State s;
    for (size_t i = 0; i < cfg.attrs.size(); ++i) {
      const rl::AttrUse& u = cfg.attrs[i];
      const rl::AttrInfo& info = rl::attr_info(u.attr);
      // Warp counts range over the scheduler's warp slots (24 on Fermi); GNMIE over 40 memory
      // instructions per SM of the GPU (600 on a 15-SM Fermi).
      double range = info.range == 0  ? double(ctx.warps_per_scheduler())
                     : info.range < 0 ? 40.0 * double(ctx.num_sms())
                                      : info.range;
      s.v[i] = uint8_t(rl::bucketize(values_[int(u.attr)], range, u.buckets, info.spacing));
    }
    // Phase 1 (CTAs still waiting to be dispatched): learning and exploration decay with time.
    double f = rl_phase_factor(ctx.gpu().ctas_waiting > 0, t, cfg.decay_cycles);
    double alpha = cfg.alpha * f, eps = cfg.epsilon * f;
    bool explored = false;
    int a = ag.sarsa.choose(s, possible, eps, ag.rng, &explored);
    trace_.step(ag.sarsa, s, a, cfg.gamma, alpha);
    held_action_ = a;
    KernelRecord& r = records_[current_kernel_];
    if (r.actions.size() != num_actions_) r.actions.assign(num_actions_, 0);
    r.actions[a]++;
    r.decisions++;
    (explored ? r.explored : r.exploited)++;
  }
  last_action_ = held_action_;
  return held_action_ < 0 ? -1 : warp_for(ctx, held_action_, summary_, n);
}

void RlScheduler::on_issue(const SchedulerContext&, int slot, const WarpInst&) { last_issued_ = slot; }

void RlScheduler::on_cycle_end(const SchedulerContext& ctx, bool issued, WarpStatus) {
  const rl::RlConfig& cfg = agent_->cfg;
  double r = issued ? cfg.reward : cfg.penalty;
  trace_.reward += r;
  KernelRecord& rec = records_[current_kernel_];
  rec.reward += r;
  rec.cycles++;
  size_t w = size_t(ctx.now() / kRewardWindow);
  if (w >= reward_windows_.size()) reward_windows_.resize(w + 1, {0.0, 0});
  reward_windows_[w].first += r;
  reward_windows_[w].second++;
}

void RlScheduler::report(nlohmann::json& out) const {
  nlohmann::json& j = out[key_];
  nlohmann::json& ks = j["kernels"];
  for (const auto& [k, r] : records_) {
    nlohmann::json& kj = ks[std::to_string(k)];
    for (uint32_t a = 0; a < r.actions.size(); ++a) json_add(kj["actions"], action_name(int(a)), double(r.actions[a]));
    json_add(kj, "explored", double(r.explored));
    json_add(kj, "exploited", double(r.exploited));
    json_add(kj, "decisions", double(r.decisions));
    json_add(kj, "reward", r.reward);
    json_add(kj, "cycles", double(r.cycles));
  }
  nlohmann::json& win = j["reward_windows"];
  if (!win.is_array()) win = nlohmann::json::array();
  for (size_t i = 0; i < reward_windows_.size(); ++i) {
    while (win.size() <= i)
      win.push_back({{"cycle", (win.size() + 1) * kRewardWindow}, {"reward", 0.0}, {"scheduler_cycles", 0}});
    win[i]["reward"] = win[i]["reward"].get<double>() + reward_windows_[i].first;
    win[i]["scheduler_cycles"] = win[i]["scheduler_cycles"].get<uint64_t>() + reward_windows_[i].second;
  }
  if (sm_id_ == 0 && sched_id_ == 0) {
    const rl::RlConfig& cfg = agent_->cfg;
    nlohmann::json theta = nlohmann::json::object();
    for (uint32_t a = 0; a < num_actions_; ++a)
      for (size_t i = 0; i < cfg.attrs.size(); ++i)
        theta[action_name(int(a))][std::string(rl::attr_info(cfg.attrs[i].attr).name)] =
            agent_->sarsa.weight(int(a), int(i));
    j["final_theta_sm0"] = theta;
    j["storage_registers_per_sm"] = cfg.storage_registers(num_actions_);
    j["config"] = rl::rl_config_to_toml(cfg);
  }
}

}  // namespace warpsim

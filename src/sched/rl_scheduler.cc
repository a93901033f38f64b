#include "sched/rl_scheduler.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "sched/report_util.h"
#include "sched/rlws_actions.h"

namespace warpsim {

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
  c.lambda = p.get_double("lambda", c.lambda);
  c.decide_every = uint32_t(p.get_int("decide_every", c.decide_every));
  c.keep_theta = p.get_bool("keep_theta", c.keep_theta);
  c.fixed_point = p.get_bool("fixed_point", c.fixed_point);
  c.optimistic = p.get_bool("optimistic", c.optimistic);
  c.hold_when_blocked = p.get_bool("hold_when_blocked", c.hold_when_blocked);
  c.seed = uint64_t(p.get_int("seed", int64_t(c.seed)));
  c.weight_limit = p.get_double("weight_limit", c.weight_limit);
  c.ratio_window = uint64_t(p.get_int("ratio_window", int64_t(c.ratio_window)));
  c.long_latency = uint32_t(p.get_int("long_latency", int64_t(c.long_latency)));
  // Named choices go through the TOML reader, which validates them.
  const std::pair<const char*, const char*> named[] = {{"td_update", rl::td_update_name(c.td_update)},
                                                       {"tie_break", rl::tie_break_name(c.tie_break)},
                                                       {"decay", rl::decay_name(c.decay)},
                                                       {"carry_weights", rl::carry_weights_name(c.carry_weights)},
                                                       {"rlmi", rl::rlmi_reading_name(c.rlmi)}};
  for (const auto& [key, current] : named) {
    std::string v = p.get_string(key, current);
    if (v.find_first_of("\"\\\n") != std::string::npos)
      throw Error(fmt::format("scheduler parameter '{}': '{}' is not a valid name", key, v));
    c = rl::parse_rl_config(fmt::format("{} = \"{}\"\n", key, v), "scheduler parameters", c);
  }
  // Re-validate through the TOML path so overrides get the same checks.
  return rl::parse_rl_config(rl::rl_config_to_toml(c), "scheduler parameters", c);
}

std::vector<SchedulerParamInfo> rl_param_infos(const rl::RlConfig& d) {
  auto num = [](double v) { return fmt::format("{}", v); };
  auto flag = [](bool v) { return std::string(v ? "true" : "false"); };
  return {
      {"rl_config", "", "RL configuration file (TOML: the keys below and [attributes]; docs/rlws.md)"},
      {"alpha", num(d.alpha), "learning rate"},
      {"epsilon", num(d.epsilon), "exploration rate"},
      {"gamma", num(d.gamma), "discount factor"},
      {"reward", num(d.reward), "reward of a cycle that issues"},
      {"penalty", num(d.penalty), "reward of a cycle that does not"},
      {"decay_cycles", num(d.decay_cycles), "phase 1: alpha and epsilon decay as 1 / (1 + t / decay_cycles)"},
      {"decide_every", std::to_string(d.decide_every), "cycles between decisions: 1, 2, 4, 8 or 16"},
      {"hold_when_blocked", flag(d.hold_when_blocked), "keep a held action that has no ready warp"},
      {"keep_theta", flag(d.keep_theta), "keep the weights across kernels"},
      {"carry_weights", rl::carry_weights_name(d.carry_weights),
       "none, or kernel: a kernel launched again starts from the weights its SM ended the previous launch with"},
      {"lambda", num(d.lambda), "eligibility-trace decay of SARSA(lambda); 0: one-step SARSA"},
      {"fixed_point", flag(d.fixed_point), "weights in Q16.16, features as shifts (Sec. IV-I)"},
      {"optimistic", flag(d.optimistic), "start the weights at r_max / (1 - gamma) / N"},
      {"decay", rl::decay_name(d.decay), "phase-1 schedule: harmonic (as decay_cycles says) or none"},
      {"td_update", rl::td_update_name(d.td_update),
       "bounded (fresh Q, step capped at 1 / |phi|^2), fresh (fresh Q) or stale (stored Q; docs/rlws.md)"},
      {"tie_break", rl::tie_break_name(d.tie_break), "equal best Q values: uniform, rotate or lowest"},
      {"weight_limit", num(d.weight_limit), "|weight| beyond which the weights reset (0: 100 r_max / (1 - gamma))"},
      {"ratio_window", std::to_string(d.ratio_window), "ratio attributes over the last W..2W cycles (0: whole kernel)"},
      {"rlmi", rl::rlmi_reading_name(d.rlmi), "RLMI's long-latency reads: global_load or observed"},
      {"long_latency", std::to_string(d.long_latency), "rlmi=observed: cycles of waiting that mark a read's PC"},
      {"seed", std::to_string(d.seed), "seed of the exploration draws"}};
}

void RlAgent::start_kernel(const std::string& name) {
  if (cfg.carry_weights != rl::CarryWeights::Kernel) return;
  if (has_kernel) kernel_weights[kernel_name] = sarsa.weights();
  auto it = kernel_weights.find(name);
  if (it != kernel_weights.end())
    sarsa.set_weights(it->second);
  else
    sarsa.reset();
  kernel_name = name;
  has_kernel = true;
}

RlScheduler::RlScheduler(std::shared_ptr<RlAgent> agent, int sm_id, int sched_id, uint32_t num_actions,
                         std::string report_key)
    : agent_(std::move(agent)),
      sm_id_(sm_id),
      sched_id_(sched_id),
      num_actions_(num_actions),
      key_(std::move(report_key)) {
  trace_.lambda = agent_->cfg.lambda;
}

void RlScheduler::on_kernel_start(uint32_t kernel) {
  current_kernel_ = kernel;
  record_.reset();
  record().actions.assign(num_actions_, 0);
  if (sched_id_ == 0) {
    // carry_weights = kernel sets the weights in on_kernel_launch, which knows the name.
    if (!agent_->cfg.keep_theta && agent_->cfg.carry_weights == rl::CarryWeights::None) agent_->sarsa.reset();
    agent_->baseline_pending = true;
  }
  trace_.reset();
  summary_current_ = false;
  held_action_ = -1;
  last_action_ = -1;
}

void RlScheduler::on_kernel_launch(const KernelLaunch& launch) {
  if (sched_id_ == 0) agent_->start_kernel(launch.name);
}

void RlScheduler::on_warp_removed(int slot) {
  summary_current_ = false;
  if (slot == last_issued_) last_issued_ = -1;
  if (size_t(slot) < agent_->loads.size()) agent_->loads[slot].pending = false;
}

int RlScheduler::select(const SchedulerContext& ctx) {
  RlAgent& ag = *agent_;
  uint64_t now = ctx.now();
  if (ag.baseline_pending) {
    ag.base = {ctx.sm(), ctx.gpu()};
    ag.ratio_prev = ag.ratio_cur = ag.base;
    ag.ratio_rebased_at = now;
    ag.kernel_start = now;
    ag.baseline_pending = false;
    ag.baseline_version++;
    ag.long_latency_pcs.clear();
  }
  const rl::RlConfig& cfg = ag.cfg;
  // The summary made in the previous decision still holds in an idle cycle of the scheduler.
  if (ctx.replaying() ? !replay_summary_ : !(ctx.warps_unchanged() && summary_current_)) {
    summarize_warps(ctx, summary_);
    summary_version_++;
    replay_summary_ = ctx.replaying();
  }
  summary_current_ = !ctx.replaying();
  uint64_t t = now - ag.kernel_start;
  bool decide = cfg.decide_every <= 1 || held_action_ < 0 || t % cfg.decide_every == 0;
  // A held action without a ready warp would leave the cycle unissued: decide afresh instead.
  if (!decide && !cfg.hold_when_blocked && !idles_by_choice(held_action_) && warp_for(ctx, held_action_, summary_) < 0)
    decide = true;
  if (decide) {
    uint32_t possible = possible_actions(ctx, summary_);
    if (!possible) {
      held_action_ = -1;
      return -1;
    }
    if (cfg.ratio_window > 0 && now - ag.ratio_rebased_at >= cfg.ratio_window) {
      ag.ratio_prev = ag.ratio_cur;
      ag.ratio_cur = {ctx.sm(), ctx.gpu()};
      ag.ratio_rebased_at = now;
      ag.baseline_version++;
      replay_state_ = false;
    }
    rl::State s;
    if (ctx.replaying() && replay_state_) {
      s = replay_s_;
    } else {
      s = compute_state(ctx);
      replay_s_ = s;
      replay_state_ = ctx.replaying() && cfg.rlmi != rl::RlmiReading::Observed;
    }
    // Phase 1 (CTAs still waiting to be dispatched): learning and exploration decay with time.
    double f = cfg.decay == rl::Decay::None ? 1.0 : rl_phase_factor(ctx.gpu().ctas_waiting > 0, t, cfg.decay_cycles);
    double alpha = cfg.alpha * f, eps = cfg.epsilon * f;
    bool explored = false;
    int a = ag.sarsa.choose(s, possible, eps, ag.rng, &explored);
    KernelRecord& r = record();
    if (!trace_.step(ag.sarsa, s, a, cfg.gamma, alpha)) {
      r.weight_resets++;
      report_divergence(now);
    }
    held_action_ = a;
    if (r.actions.size() != num_actions_) r.actions.assign(num_actions_, 0);
    r.actions[a]++;
    r.decisions++;
    (explored ? r.explored : r.exploited)++;
  }
  last_action_ = held_action_;
  return held_action_ < 0 ? -1 : warp_for(ctx, held_action_, summary_);
}

rl::State RlScheduler::compute_state(const SchedulerContext& ctx) {
  RlAgent& ag = *agent_;
  const rl::RlConfig& cfg = ag.cfg;
  const bool observed = cfg.rlmi == rl::RlmiReading::Observed;
  AttrInputs in{&ag.base, cfg.ratio_window > 0 ? &ag.ratio_prev : &ag.base};
  if (observed) {
    observe_long_latency(ctx);
    in.long_latency_pcs = &ag.long_latency_pcs;
  }
  if (!state_eval_) state_eval_.emplace(cfg.attrs, ctx, observed);
  return state_eval_->evaluate(ctx, summary_, summary_version_, in, ag.baseline_version);
}

void RlScheduler::observe_long_latency(const SchedulerContext& ctx) {
  RlAgent& ag = *agent_;
  uint64_t now = ctx.now();
  for (int i = 0; i < summary_.n; ++i) {
    uint16_t slot = summary_.w[i].slot;
    RlAgent::PendingLoad& l = ag.loads[slot];
    if (!l.pending || now - l.issued_at <= ag.cfg.long_latency || !ctx.waiting_on_memory(slot)) continue;
    l.pending = false;
    auto it = std::lower_bound(ag.long_latency_pcs.begin(), ag.long_latency_pcs.end(), l.pc);
    if (it == ag.long_latency_pcs.end() || *it != l.pc) ag.long_latency_pcs.insert(it, l.pc);
  }
}

void RlScheduler::report_divergence(uint64_t now) const {
  // Once per process: the count of every reset is in the report.
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  fmt::print(stderr,
             "warpsim: warning: {}: the learning weights of SM {} diverged at cycle {} (a weight beyond {} or not "
             "finite) and were reset to their initial values; scheduler_report.{}.kernels.*.weight_resets counts "
             "every reset\n",
             key_, sm_id_, now, agent_->sarsa.weight_limit(), key_);
}

void RlScheduler::on_issue(const SchedulerContext& ctx, int slot, const WarpInst& inst) {
  last_issued_ = slot;
  RlAgent& ag = *agent_;
  if (ag.cfg.rlmi == rl::RlmiReading::Observed && pipe_class(inst) == PipeClass::GMEM && inst.op != OpClass::STORE &&
      size_t(slot) < ag.loads.size())
    ag.loads[slot] = {inst.pc, ctx.now(), true};
}

void RlScheduler::on_cycle_end(const SchedulerContext& ctx, bool issued, WarpStatus) {
  count_cycles(ctx.now(), 1, issued);
}

void RlScheduler::count_cycles(uint64_t first, uint64_t n, bool issued) {
  const rl::RlConfig& cfg = agent_->cfg;
  double r = issued ? cfg.reward : cfg.penalty;
  KernelRecord& rec = record();
  rec.cycles += n;
  // One cycle inside the window of the previous call (most calls).
  if (n == 1 && window_valid_ && first - window_start_ < kRewardWindow) {
    auto& win = reward_windows_[window_index_];
    win.second++;
    if (r != 0) {
      trace_.reward += r;
      rec.reward += r;
      win.first += r;
    }
    return;
  }
  window_index_ = size_t(first / kRewardWindow);
  window_start_ = uint64_t(window_index_) * kRewardWindow;
  window_valid_ = true;
  if (window_index_ >= reward_windows_.size()) reward_windows_.resize(window_index_ + 1, {0.0, 0});
  // Cycle by cycle within each reward window, so the sums are those of one call per cycle (a
  // reward of 0 leaves them as they are: no sum starts at or becomes -0).
  for (uint64_t c = first, end = first + n; c < end;) {
    size_t w = size_t(c / kRewardWindow);
    uint64_t stop = std::min(end, (uint64_t(w) + 1) * kRewardWindow);
    if (w >= reward_windows_.size()) reward_windows_.resize(w + 1, {0.0, 0});
    auto& win = reward_windows_[w];
    win.second += stop - c;
    if (r == 0) c = stop;
    for (; c < stop; ++c) {
      trace_.reward += r;
      rec.reward += r;
      win.first += r;
    }
  }
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
    json_add(kj, "weight_resets", double(r.weight_resets));
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
    if (cfg.rlmi == rl::RlmiReading::Observed) j["long_latency_pcs_sm0"] = agent_->long_latency_pcs;
    j["storage_registers_per_sm"] = cfg.storage_registers(num_actions_);
    j["config"] = rl::rl_config_to_toml(cfg);
  }
}

}  // namespace warpsim

#include "sched/juggler.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/error.h"
#include "sched/clone_context.h"
#include "sched/order_policies.h"
#include "sched/scheduler.h"
#include "sched/two_level_state.h"

namespace warpsim {
namespace {

// report() is called for every scheduler of every SM on one object: counters add up.
void add(nlohmann::json& j, const char* key, uint64_t v) {
  j[key] = (j.contains(key) ? j[key].get<uint64_t>() : 0) + v;
}

void add_per_mode(nlohmann::json& j, const char* key, const uint64_t (&v)[kNumJugglerModes]) {
  nlohmann::json& o = j[key];
  for (int m = 0; m < kNumJugglerModes; ++m) add(o, juggler_mode_name(JugglerMode(m)), v[m]);
}

void add_counters(nlohmann::json& j, const JugglerCounters& c) {
  add_per_mode(j, "cycles", c.cycles);
  add_per_mode(j, "issue_cycles", c.issue_cycles);
  add_per_mode(j, "stall_cycles", c.stall_cycles);
  add_per_mode(j, "switches_to", c.switches_to);
  add(j, "mode_switches", c.mode_switches());
  add(j, "confidence_up", c.confidence_up);
  add(j, "confidence_down", c.confidence_down);
  // Shares of the totals so far in the object (recomputed as schedulers add theirs): of all
  // cycles, and of the active cycles (issue or stall: the scheduler had a live warp).
  uint64_t total = 0, active = 0, act[kNumJugglerModes];
  for (int m = 0; m < kNumJugglerModes; ++m) {
    const char* name = juggler_mode_name(JugglerMode(m));
    total += j["cycles"][name].get<uint64_t>();
    act[m] = j["issue_cycles"][name].get<uint64_t>() + j["stall_cycles"][name].get<uint64_t>();
    active += act[m];
  }
  for (int m = 0; m < kNumJugglerModes; ++m) {
    const char* name = juggler_mode_name(JugglerMode(m));
    j["cycle_share"][name] = total ? double(j["cycles"][name].get<uint64_t>()) / double(total) : 0.0;
    j["active_share"][name] = active ? double(act[m]) / double(active) : 0.0;
  }
}

class Juggler final : public WarpScheduler {
 public:
  explicit Juggler(const JugglerOptions& o)
      : opts_(o), pred_(o.predictor), tl_(o.active ? o.active : 8), tl_sized_(o.active != 0) {}

  int select(const SchedulerContext& ctx) override {
    // The automatic LHM active set depends on the scheduler's warp slots, known from the first
    // decision on (which precedes every issue, so the two-level order has not started yet).
    if (!tl_sized_) {
      tl_ = TwoLevelState(juggler_lhm_active(opts_, ctx.warps_per_scheduler()));
      tl_sized_ = true;
    }
    switch (pred_.mode()) {
      case JugglerMode::UM:
        return first_ready_gto(ctx, greedy_);
      case JugglerMode::LHM:
        return tl_.select(ctx);
      case JugglerMode::FM:
        return first_ready_lrr(ctx, last_);
    }
    return -1;
  }

  // Every order's state follows every issue, whichever mode chose the warp.
  void on_issue(const SchedulerContext&, int slot, const WarpInst&) override {
    greedy_ = slot;
    last_ = slot;
    tl_.on_issue(slot);
  }

  void on_cycle_end(const SchedulerContext& ctx, bool issued, WarpStatus stall) override {
    uint64_t now = ctx.now();
    gpu_ = &ctx.gpu();
    if (seen_) catch_up(now - 1);
    seen_ = true;
    for (size_t i = first_unstarted_; i < kernels_.size(); ++i) kernels_[i].start = pred_.counters();
    first_unstarted_ = kernels_.size();
    // A stall: no issue while this scheduler had a live, unfinished warp.
    JugglerPredictor::Event e = issued                          ? JugglerPredictor::Event::Issue
                                : stall == WarpStatus::Finished ? JugglerPredictor::Event::None
                                                                : JugglerPredictor::Event::Stall;
    uint32_t events = 1;
    if (e == JugglerPredictor::Event::Stall && opts_.stalls_per_warp) {
      events = 0;
      for (uint16_t slot : ctx.warps()) {
        WarpStatus s = ctx.status(slot);
        events += s != WarpStatus::Ready && s != WarpStatus::Finished;
      }
      if (events == 0) events = 1;  // the cycle stalled on a ready warp the policy passed over
    }
    pred_.cycle(e, events);
    last_cycle_ = now;
    last_event_ = e;
    last_events_ = events;
  }

  void on_warp_removed(int slot) override {
    if (greedy_ == slot) greedy_ = -1;
  }

  void on_kernel_start(uint32_t kernel) override {
    // The start snapshot is taken at the next on_cycle_end, after skipped cycles (which
    // precede the kernel) are accounted.
    kernels_.push_back(KernelRecord{kernel, {}, {}, false});
  }
  void on_kernel_end(uint32_t kernel) override {
    // The kernel ends after this cycle's decisions; a scheduler the SM let sleep has not been
    // told about the cycles since its last decision yet.
    if (seen_ && gpu_) catch_up(gpu_->cycle);
    for (size_t i = kernels_.size(); i-- > 0;) {
      KernelRecord& r = kernels_[i];
      if (r.kernel != kernel || r.ended) continue;
      r.end = pred_.counters();
      r.ended = true;
      if (i >= first_unstarted_) r.start = r.end;  // ended before any cycle: empty
      break;
    }
  }

  bool needs_every_cycle() const override { return opts_.every_cycle; }
  // Its two-level mode reorders once per cycle and its predictor counts every cycle.
  bool replays_skipped_cycles() const override { return true; }

  void report(nlohmann::json& out) const override {
    const JugglerPredictorConfig& c = pred_.config();
    // Cycles after this scheduler's last decision, up to the GPU's last simulated cycle.
    JugglerPredictor pred = pred_;
    if (seen_ && gpu_ && gpu_->cycle > last_cycle_) pred.cycles(last_event_, gpu_->cycle - last_cycle_, last_events_);
    out["policy"] = c.reverse ? "r-juggler" : "juggler";
    add(out, "schedulers", 1);
    add_counters(out, pred.counters());
    uint64_t in_mode[kNumJugglerModes] = {};
    in_mode[int(pred.mode())] = 1;
    add_per_mode(out, "final_mode", in_mode);  // schedulers in each mode at the end
    nlohmann::json& ks = out["kernels"];
    if (!ks.is_object()) ks = nlohmann::json::object();
    for (size_t i = 0; i < kernels_.size(); ++i) {
      const KernelRecord& r = kernels_[i];
      nlohmann::json& k = ks[std::to_string(r.kernel)];
      k["complete"] = (k.contains("complete") ? k["complete"].get<bool>() : true) && r.ended;
      JugglerCounters start = i < first_unstarted_ ? r.start : pred.counters();
      add_counters(k, (r.ended ? r.end : pred.counters()) - start);
    }
  }

  std::unique_ptr<WarpScheduler> clone() const override {
    auto c = std::make_unique<Juggler>(*this);
    c->gpu_ = clone_remap(gpu_);  // the copied GPU's counters when a whole GPU is copied
    return c;
  }

 private:
  // Replays the cycles after the last one accounted up to `cycle` (inclusive): cycles in which
  // this scheduler made no decision (the GPU skipped them, or the SM let the scheduler sleep
  // because nothing could change for it) repeat the outcome of its last decision, which is how
  // the SM's statistics count them.
  void catch_up(uint64_t cycle) {
    if (cycle <= last_cycle_) return;
    pred_.cycles(last_event_, cycle - last_cycle_, last_events_);
    last_cycle_ = cycle;
  }

  struct KernelRecord {
    uint32_t kernel;
    JugglerCounters start, end;
    bool ended;
  };

  JugglerOptions opts_;
  JugglerPredictor pred_;
  int greedy_ = -1;   // UM: the greedy warp
  int last_ = -1;     // FM: the round-robin pointer (last issued slot)
  TwoLevelState tl_;  // LHM: active set and pending queue
  bool tl_sized_;     // tl_ has its final active set size
  bool seen_ = false;
  uint64_t last_cycle_ = 0;  // last cycle accounted in the predictor
  // The GPU's counters (its `cycle` says which cycle is being simulated), from the last
  // on_cycle_end; used when a kernel ends or the report is written between decisions.
  const GpuCounters* gpu_ = nullptr;
  JugglerPredictor::Event last_event_ = JugglerPredictor::Event::None;
  uint32_t last_events_ = 1;  // stall events of the last accounted cycle
  std::vector<KernelRecord> kernels_;
  size_t first_unstarted_ = 0;
};

uint32_t threshold_param(const SchedulerParams& p, const char* key, uint32_t def) {
  int64_t v = p.get_int(key, def);
  if (v < 0 || v > (int64_t(1) << 31))
    throw Error(fmt::format("scheduler parameter '{}' (juggler): must be between 0 and 2^31 (got {})", key, v));
  return uint32_t(v);
}

}  // namespace

JugglerOptions juggler_options(const SchedulerParams& params, const std::string& default_order) {
  JugglerOptions o;
  JugglerPredictorConfig& c = o.predictor;
  c.uth = threshold_param(params, "uth", c.uth);
  c.fth = threshold_param(params, "fth", c.fth);
  c.lth = threshold_param(params, "lth", c.lth);
  int64_t bits = params.get_int("history_bits", c.history_bits);
  if (bits < 1 || bits > 8)
    throw Error(fmt::format("scheduler parameter 'history_bits' (juggler): must be between 1 and 8 (got {})", bits));
  c.history_bits = uint32_t(bits);
  std::string order = params.get_string("order", default_order);
  if (order != "juggler" && order != "r-juggler")
    throw Error(fmt::format("scheduler parameter 'order' (juggler): '{}' is not juggler|r-juggler", order));
  c.reverse = order == "r-juggler";
  c.stall_reading = parse_stall_reading(params.get_string("stall_count", stall_reading_name(c.stall_reading)));
  int64_t window = params.get_int("window", c.window);
  if (window < 1 || window > (int64_t(1) << 31))
    throw Error(fmt::format("scheduler parameter 'window' (juggler): must be between 1 and 2^31 (got {})", window));
  c.window = uint32_t(window);
  c.history = parse_history_rule(params.get_string("history", history_rule_name(c.history)));
  c.entry = parse_entry_level(params.get_string("entry", entry_level_name(c.entry)));
  std::string active = params.get_string("active", "auto");
  if (active != "auto") {
    size_t pos = 0;
    int64_t n = 0;
    try {
      n = std::stoll(active, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos == 0 || pos != active.size() || n < 1 || n > 64)
      throw Error(
          fmt::format("scheduler parameter 'active' (juggler): must be auto or between 1 and 64 (got '{}')", active));
    o.active = uint32_t(n);
  }
  int64_t every = params.get_int("every_cycle", 0);
  if (every != 0 && every != 1)
    throw Error(fmt::format("scheduler parameter 'every_cycle' (juggler): must be 0 or 1 (got {})", every));
  o.every_cycle = every == 1;
  std::string stalls = params.get_string("stall_events", "cycle");
  if (stalls != "cycle" && stalls != "warp")
    throw Error(fmt::format("scheduler parameter 'stall_events' (juggler): '{}' is not cycle|warp", stalls));
  o.stalls_per_warp = stalls == "warp";
  o.every_cycle |= o.stalls_per_warp;  // counting stalled warps needs to see each cycle
  c.validate();
  return o;
}

uint32_t juggler_lhm_active(const JugglerOptions& options, int warps_per_scheduler) {
  if (options.active) return options.active;
  return uint32_t(std::clamp(warps_per_scheduler / 2, 1, 8));
}

std::unique_ptr<WarpScheduler> make_juggler_scheduler(const JugglerOptions& options) {
  return std::make_unique<Juggler>(options);
}

static std::unique_ptr<WarpScheduler> make_juggler(const SchedulerSetup& setup) {
  return make_juggler_scheduler(juggler_options(setup.params, "juggler"));
}

static std::unique_ptr<WarpScheduler> make_r_juggler(const SchedulerSetup& setup) {
  return make_juggler_scheduler(juggler_options(setup.params, "r-juggler"));
}

namespace {
std::vector<SchedulerParamInfo> juggler_param_infos(const char* order) {
  JugglerOptions o;
  const JugglerPredictorConfig& c = o.predictor;
  return {{"uth", std::to_string(c.uth), "stall threshold of UM, greedy then oldest (docs/juggler.md)"},
          {"fth", std::to_string(c.fth), "stall threshold of FM, loose round robin"},
          {"lth", std::to_string(c.lth), "stall threshold of LHM, two-level"},
          {"history_bits", std::to_string(c.history_bits), "m: 2^m confidence levels (1..8)"},
          {"order", order, "juggler (UM -> LHM -> FM) or r-juggler (UM -> FM -> LHM)"},
          {"stall_count", stall_reading_name(c.stall_reading),
           "what Stall_c and Stall_p are: since_update, "
           "consecutive or window"},
          {"window", std::to_string(c.window), "window length in cycles for stall_count=window"},
          {"history", history_rule_name(c.history), "how the history bits hold confidence: counter or shift"},
          {"entry", entry_level_name(c.entry), "confidence on entering a mode: lowest or highest"},
          {"active", "auto",
           "LHM active set size: 1..64, or auto = min(8, warps per scheduler / 2), so that LHM differs from FM"},
          {"every_cycle", "0", "1: the GPU simulates every cycle instead of replaying skipped ones"},
          {"stall_events", "cycle", "what one stall adds to the count: cycle (1) or warp (the stalled warps)"}};
}

const SchedulerRegistration kRegistered_juggler{
    {"juggler", "Juggler: GTO, two-level or LRR as a stall predictor says (uth, fth, lth, history_bits, ...)",
     make_juggler, nullptr, juggler_param_infos("juggler")}};
const SchedulerRegistration kRegistered_r_juggler{{"r-juggler", "Juggler with the reverse order UM -> FM -> LHM",
                                                   make_r_juggler, nullptr, juggler_param_infos("r-juggler")}};
}  // namespace

}  // namespace warpsim

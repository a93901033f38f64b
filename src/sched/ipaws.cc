#include "sched/ipaws.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/strings.h"
#include "sched/order_policies.h"
#include "sched/report_util.h"
#include "sched/scheduler.h"

namespace warpsim {

const char* ipaws_policy_name(IpawsPolicy p) { return p == IpawsPolicy::Gto ? "gto" : "lrr"; }

namespace {

IpawsPolicy parse_policy(const std::string& key, const std::string& v) {
  if (v == "gto") return IpawsPolicy::Gto;
  if (v == "lrr") return IpawsPolicy::Lrr;
  throw Error(fmt::format("ipaws parameter '{}': '{}' is not a policy (gto|lrr)", key, v));
}

uint64_t get_count(const SchedulerParams& p, const std::string& key, uint64_t def, uint64_t max) {
  int64_t v = p.get_int(key, int64_t(def));
  if (v < 0 || uint64_t(v) > max)
    throw Error(fmt::format("ipaws parameter '{}': {} is out of range (0..{})", key, v, max));
  return uint64_t(v);
}

double get_fraction(const SchedulerParams& p, const std::string& key, double def, bool zero_ok) {
  double v = p.get_double(key, def);
  if (!(v <= 1.0) || !(zero_ok ? v >= 0.0 : v > 0.0))
    throw Error(fmt::format("ipaws parameter '{}': {} is out of range ({}0..1]", key, v, zero_ok ? "[" : "("));
  return v;
}

// Index of the modes in the per-mode counters.
enum Mode : uint8_t { kGto = 0, kLrr = 1, kSample = 2 };
constexpr int kNumModes = 3;
constexpr const char* kModeNames[kNumModes] = {"gto", "lrr", "sample"};

class Ipaws final : public WarpScheduler {
 public:
  explicit Ipaws(const IpawsOptions& o) : opts_(o) {
    counts_.reserve(64);
    present_.reserve(64);
    sample_counts_.reserve(64);
    scratch_.reserve(64);
  }

  int select(const SchedulerContext& ctx) override {
    if (mark_pending_) begin_sample(ctx);
    return order() == IpawsPolicy::Gto ? first_ready_gto(ctx, greedy_) : first_ready_lrr(ctx, last_);
  }

  // Both orders follow every issue, so the policy committed after a sample continues from the
  // sample's last warp (with force=gto and a GTO sample the run is GTO's, issue for issue).
  void on_issue(const SchedulerContext& ctx, int slot, const WarpInst&) override {
    greedy_ = slot;
    last_ = slot;
    issued_[mode_]++;
    win_issued_++;
    if (mode_ != kSample) return;
    grow(size_t(slot) + 1);
    counts_[size_t(slot)]++;
    present_[size_t(slot)] = 1;
    if (opts_.sample_insts && ++sample_issued_ >= opts_.sample_insts) finish_sample(ctx.now());
  }

  // Its mode cycles and cycle-bounded samples count every cycle.
  bool replays_skipped_cycles() const override { return true; }

  void on_cycle_end(const SchedulerContext& ctx, bool, WarpStatus) override {
    uint64_t now = ctx.now();
    if (mark_pending_) begin_sample(ctx);
    account(now + 1);
    if (mode_ == kSample) {
      if (opts_.sample_cycles && now + 1 - sample_start_ >= opts_.sample_cycles) finish_sample(now + 1);
      return;
    }
    // Recover: compare each window's issue rate with the first window after the decision.
    if (!opts_.check_cycles || active_kernels_ == 0) return;
    if (ctx.slots().empty()) {  // nothing to run: the rate says nothing about the policy
      win_start_ = now + 1;
      win_issued_ = 0;
      return;
    }
    uint64_t len = now + 1 - win_start_;
    if (len < opts_.check_cycles) return;
    double rate = double(win_issued_) / double(len);
    win_start_ = now + 1;
    win_issued_ = 0;
    if (ref_rate_ < 0) {
      ref_rate_ = rate;
    } else if (rate < (1.0 - opts_.drop) * ref_rate_ && resamples_this_kernel_ < opts_.max_resamples) {
      ++resamples_this_kernel_;
      ++resamples_;
      start_sample();
    }
  }

  void on_warp_added(int slot) override {
    grow(size_t(slot) + 1);
    if (mode_ == kSample) present_[size_t(slot)] = 1;
  }
  void on_warp_removed(int slot) override {
    if (greedy_ == slot) greedy_ = -1;
  }

  void on_kernel_launch(const KernelLaunch& launch) override {
    if (active_kernels_ == 0) {
      last_now_ = std::max(last_now_, launch.start_cycle);
    } else {
      account(launch.start_cycle);
    }
    ++active_kernels_;
    if (mode_ == kSample && samples_ > 0) ++unfinished_;  // the last kernel ended mid-sample
    kernel_ = launch.id;
    resamples_this_kernel_ = 0;
    kernels_.push_back(KernelRecord{launch.id, {0, 0}, 0, 0.0});
    start_sample();
  }
  void on_kernel_end(uint32_t) override {
    if (active_kernels_ > 0) --active_kernels_;
  }

  void report(nlohmann::json& out) const override {
    out["policy"] = "ipaws";
    json_add(out, "schedulers", 1);
    nlohmann::json& cyc = out["cycles"];
    nlohmann::json& iss = out["issued"];
    nlohmann::json& dec = out["decisions"];
    for (int m = 0; m < kNumModes; ++m) {
      json_add(cyc, kModeNames[m], double(cycles_[m]));
      json_add(iss, kModeNames[m], double(issued_[m]));
    }
    json_add(dec, "gto", double(decisions_[kGto]));
    json_add(dec, "lrr", double(decisions_[kLrr]));
    json_add(out, "forced", double(forced_));
    json_add(out, "samples", double(samples_));
    json_add(out, "resamples", double(resamples_));
    json_add(out, "unfinished_samples", double(unfinished_ + (mode_ == kSample && samples_ > 0 ? 1 : 0)));
    json_add(out, "metric_sum", metric_sum_);
    json_add(out, "entropy_sum", entropy_sum_);
    // Derived from the totals so far (recomputed as every scheduler adds its counters).
    double n_dec = dec["gto"].get<double>() + dec["lrr"].get<double>();
    out["metric_mean"] = n_dec > 0 ? out["metric_sum"].get<double>() / n_dec : 0.0;
    out["entropy_mean"] = n_dec > 0 ? out["entropy_sum"].get<double>() / n_dec : 0.0;
    double total = 0;
    for (int m = 0; m < kNumModes; ++m) total += cyc[kModeNames[m]].get<double>();
    for (int m = 0; m < kNumModes; ++m)
      out["cycle_share"][kModeNames[m]] = total > 0 ? cyc[kModeNames[m]].get<double>() / total : 0.0;
    nlohmann::json& ks = out["kernels"];
    if (!ks.is_object()) ks = nlohmann::json::object();
    for (const KernelRecord& r : kernels_) {
      nlohmann::json& k = ks[std::to_string(r.kernel)];
      json_add(k["decisions"], "gto", double(r.decisions[kGto]));
      json_add(k["decisions"], "lrr", double(r.decisions[kLrr]));
      json_add(k, "samples", double(r.samples));
      json_add(k, "metric_sum", r.metric_sum);
    }
  }

  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<Ipaws>(*this); }

 private:
  struct KernelRecord {
    uint32_t kernel;
    uint64_t decisions[2];
    uint64_t samples;
    double metric_sum;
  };

  IpawsPolicy order() const {
    return mode_ == kSample ? opts_.sample_policy : mode_ == kGto ? IpawsPolicy::Gto : IpawsPolicy::Lrr;
  }

  void grow(size_t n) {
    if (counts_.size() < n) {
      counts_.resize(n, 0);
      present_.resize(n, 0);
    }
  }

  // Attributes the cycles up to `t` (exclusive) to the current mode while a kernel runs.
  void account(uint64_t t) {
    if (t <= last_now_) return;
    if (active_kernels_ > 0) cycles_[mode_] += t - last_now_;
    last_now_ = t;
  }

  // A new sample: counts restart; the warps present are marked at the next decision (the
  // launch itself has no view of the warps).
  void start_sample() {
    mode_ = kSample;
    std::fill(counts_.begin(), counts_.end(), 0);
    std::fill(present_.begin(), present_.end(), 0);
    sample_issued_ = 0;
    mark_pending_ = true;
    ++samples_;
    if (!kernels_.empty()) kernels_.back().samples++;
  }

  void begin_sample(const SchedulerContext& ctx) {
    mark_pending_ = false;
    sample_start_ = ctx.now();
    for (uint16_t w : ctx.slots()) {
      grow(size_t(w) + 1);
      present_[w] = 1;
    }
  }

  void finish_sample(uint64_t now) {
    account(now);
    sample_counts_.clear();
    for (size_t w = 0; w < counts_.size(); ++w)
      if (present_[w]) sample_counts_.push_back(counts_[w]);
    double share = ipaws_top_share(sample_counts_, opts_.top, scratch_);
    double entropy = ipaws_issue_entropy(sample_counts_);
    IpawsPolicy p = ipaws_decide(share, opts_.threshold);
    if (!opts_.force.empty()) {
      p = opts_.force[std::min<size_t>(kernel_, opts_.force.size() - 1)];
      ++forced_;
    }
    mode_ = p == IpawsPolicy::Gto ? kGto : kLrr;
    decisions_[mode_]++;
    metric_sum_ += share;
    entropy_sum_ += entropy;
    if (!kernels_.empty()) {
      kernels_.back().decisions[mode_]++;
      kernels_.back().metric_sum += share;
    }
    win_start_ = now;
    win_issued_ = 0;
    ref_rate_ = -1;
  }

  IpawsOptions opts_;
  Mode mode_ = kSample;
  int greedy_ = -1, last_ = -1;
  // Sample state.
  std::vector<uint32_t> counts_;  // issues per warp slot in the current sample
  std::vector<uint8_t> present_;  // slot held a live warp during the sample
  std::vector<uint32_t> sample_counts_, scratch_;
  uint64_t sample_issued_ = 0, sample_start_ = 0;
  bool mark_pending_ = false;
  // Recover state.
  uint64_t win_start_ = 0, win_issued_ = 0;
  double ref_rate_ = -1;
  uint32_t resamples_this_kernel_ = 0;
  // Kernels.
  uint32_t kernel_ = 0;
  uint32_t active_kernels_ = 0;
  uint64_t last_now_ = 0;
  // Counters for report().
  uint64_t cycles_[kNumModes] = {}, issued_[kNumModes] = {}, decisions_[2] = {};
  uint64_t forced_ = 0, samples_ = 0, resamples_ = 0, unfinished_ = 0;
  double metric_sum_ = 0, entropy_sum_ = 0;
  std::vector<KernelRecord> kernels_;
};

}  // namespace

double ipaws_top_share(std::span<const uint32_t> counts, double top, std::vector<uint32_t>& scratch) {
  size_t n = counts.size();
  uint64_t total = 0;
  for (uint32_t c : counts) total += c;
  if (n <= 1 || total == 0) return 1.0;
  size_t k = size_t(std::ceil(top * double(n) - 1e-9));
  k = std::clamp<size_t>(k, 1, n);
  scratch.assign(counts.begin(), counts.end());
  std::nth_element(scratch.begin(), scratch.begin() + ptrdiff_t(k - 1), scratch.end(), std::greater<uint32_t>());
  uint64_t top_sum = 0;
  for (size_t i = 0; i < k; ++i) top_sum += scratch[i];
  return double(top_sum) / double(total);
}

double ipaws_issue_entropy(std::span<const uint32_t> counts) {
  size_t n = counts.size();
  uint64_t total = 0;
  for (uint32_t c : counts) total += c;
  if (n <= 1 || total == 0) return 0.0;
  double h = 0;
  for (uint32_t c : counts) {
    if (c == 0) continue;
    double p = double(c) / double(total);
    h -= p * std::log(p);
  }
  return h / std::log(double(n));
}

IpawsOptions ipaws_options(const SchedulerParams& params) {
  IpawsOptions o;
  constexpr uint64_t kMax = uint64_t(1) << 40;
  o.sample_insts = get_count(params, "sample_insts", o.sample_insts, kMax);
  o.sample_cycles = get_count(params, "sample_cycles", o.sample_cycles, kMax);
  if (o.sample_insts == 0 && o.sample_cycles == 0)
    throw Error("ipaws: sample_insts and sample_cycles are both 0: the sample would never end");
  o.sample_policy = parse_policy("sample_policy", params.get_string("sample_policy", "gto"));
  o.top = get_fraction(params, "top", o.top, false);
  o.threshold = get_fraction(params, "threshold", o.threshold, true);
  o.check_cycles = get_count(params, "check_cycles", o.check_cycles, kMax);
  o.drop = get_fraction(params, "drop", o.drop, true);
  o.max_resamples = uint32_t(get_count(params, "max_resamples", o.max_resamples, 1000000));
  std::string force = params.get_string("force", "");
  if (!force.empty())
    for (const auto& item : split(force, ',')) {
      if (item.empty()) throw Error(fmt::format("ipaws parameter 'force': empty entry in '{}'", force));
      o.force.push_back(parse_policy("force", item));
    }
  return o;
}

std::unique_ptr<WarpScheduler> make_ipaws_scheduler(const IpawsOptions& options) {
  return std::make_unique<Ipaws>(options);
}

static std::unique_ptr<WarpScheduler> make_ipaws(const SchedulerSetup& setup) {
  return make_ipaws_scheduler(ipaws_options(setup.params));
}

namespace {
std::vector<SchedulerParamInfo> ipaws_param_infos() {
  IpawsOptions d;
  return {
      {"sample_insts", std::to_string(d.sample_insts), "a sample ends after this many issues (0: no limit)"},
      {"sample_cycles", std::to_string(d.sample_cycles), "... or after this many cycles (0: no limit)"},
      {"sample_policy", "gto", "order the sample runs under: gto or lrr"},
      {"top", fmt::format("{}", d.top), "the metric is the issue share of this top fraction of warps"},
      {"threshold", fmt::format("{}", d.threshold), "share at or above it commits to GTO, below to LRR"},
      {"check_cycles", std::to_string(d.check_cycles), "issue-rate window after a decision (0: never re-check)"},
      {"drop", fmt::format("{}", d.drop), "re-sample when a window's issue rate falls below (1 - drop) x the first"},
      {"max_resamples", std::to_string(d.max_resamples), "re-samples per kernel launch at most"},
      {"force", "", "gto|lrr per launch, comma-separated (the last applies to later launches): no sampling"}};
}

const SchedulerRegistration kRegistered{
    {"ipaws",
     "iPAWS: sample under GTO, commit to GTO or LRR by the issue pattern (sample_insts, threshold, force, ...)",
     make_ipaws, nullptr, ipaws_param_infos()}};
}  // namespace

}  // namespace warpsim

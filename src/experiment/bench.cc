#include "experiment/bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>

#include "config/config_loader.h"
#include "core/error.h"
#include "experiment/correlate.h"
#include "experiment/metrics.h"
#include "sched/scheduler.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::experiment {

namespace {

double per_second(uint64_t count, double seconds) { return seconds > 0 ? double(count) / seconds : 0.0; }

GpuConfig bench_config(const BenchCase& c, const std::vector<std::string>& overrides) {
  GpuConfig cfg = load_preset(c.gpu);
  std::vector<std::string> kv = overrides;
  if (c.num_sms > 0) kv.push_back(fmt::format("core.num_sms={}", c.num_sms));
  apply_overrides(cfg, kv);
  validate(cfg);
  return cfg;
}

SchedulerParams scheduler_params(const SchedulerSpec& s) {
  SchedulerParams p;
  for (const auto& [k, v] : s.params) p.set(k, v);
  return p;
}

struct Measured {
  uint64_t cycles = 0, warp_insts = 0;
  double seconds = 0;
  WorkloadOutcome outcome;
};

Measured measure_once(BundledWorkload& w, const GpuConfig& cfg, const SchedulerSpec& sched,
                      const WorkloadOptions& wopts) {
  Gpu gpu(cfg, sched.name, scheduler_params(sched));
  Measured m;
  auto t0 = std::chrono::steady_clock::now();
  m.outcome = w.run(gpu, wopts);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  StatsSnapshot s = gpu.snapshot();
  m.cycles = s.cycle;
  m.warp_insts = s.core.warp_insts;
  return m;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

// The value of a row on a scaling axis, and the key of the rest of the case.
std::string axis_value(const BenchRow& r, const std::string& axis) {
  return axis == "sms" ? std::to_string(r.sms) : r.c.size;
}
std::string fixed_value(const BenchRow& r, const std::string& axis) {
  return axis == "sms" ? r.c.size : std::to_string(r.sms);
}

}  // namespace

double BenchRow::warp_insts_per_s() const { return per_second(warp_insts, host_seconds); }
double BenchRow::cycles_per_s() const { return per_second(cycles, host_seconds); }
double BenchRow::ns_per_warp_inst() const { return warp_insts ? host_seconds * 1e9 / double(warp_insts) : 0.0; }

std::vector<BenchCase> bench_cases(const BenchOptions& o) {
  if (o.repeat < 1) throw Error(fmt::format("--repeat {}: must be at least 1", o.repeat));
  std::vector<std::string> workloads = o.workloads;
  if (workloads.empty())
    for (const auto& w : bundled_workloads()) workloads.push_back(w->name());
  for (const auto& name : workloads) {
    auto w = make_bundled_workload(name);
    if (!w) throw Error(fmt::format("--workload '{}': not a bundled workload (see `warpsim list workloads`)", name));
    for (const auto& size : o.sizes) {
      const auto& sizes = w->meta().sizes;
      if (std::find(sizes.begin(), sizes.end(), size) == sizes.end())
        throw Error(fmt::format("--size '{}': workload {} has no such size", size, name));
    }
  }
  for (const auto& s : o.schedulers) find_scheduler(parse_scheduler_spec(s).name);
  std::vector<uint32_t> sms = o.sms.empty() ? std::vector<uint32_t>{0} : o.sms;
  for (const auto& gpu : o.gpus)
    for (uint32_t n : sms) bench_config(BenchCase{"", gpu, "", "", n}, o.overrides);  // bad keys fail here
  std::vector<BenchCase> cases;
  for (const auto& w : workloads)
    for (const auto& gpu : o.gpus)
      for (const auto& sched : o.schedulers)
        for (const auto& size : o.sizes)
          for (uint32_t n : sms) cases.push_back(BenchCase{w, gpu, sched, size, n});
  return cases;
}

BenchRow run_bench_case(const BenchCase& c, const std::vector<std::string>& overrides, int repeat, uint64_t seed) {
  BenchRow r;
  r.c = c;
  try {
    GpuConfig cfg = bench_config(c, overrides);
    r.sms = cfg.core.num_sms;
    SchedulerSpec sched = parse_scheduler_spec(c.scheduler);
    auto w = make_bundled_workload(c.workload);
    if (!w) throw Error(fmt::format("'{}': not a bundled workload", c.workload));
    WorkloadOptions wopts;
    wopts.size = c.size;
    wopts.seed = seed;
    for (int i = 0; i < repeat; ++i) {
      Measured m = measure_once(*w, cfg, sched, wopts);
      if (i == 0) {
        r.cycles = m.cycles, r.warp_insts = m.warp_insts, r.host_seconds = m.seconds;
        r.verification = m.outcome.checked ? (m.outcome.verified ? "verified" : "mismatch") : "not checked";
        if (m.outcome.checked && !m.outcome.verified) r.message = m.outcome.message;
      } else if (m.cycles != r.cycles || m.warp_insts != r.warp_insts) {
        throw Error(fmt::format("repeat {} gave {} cycles and {} warp instructions, the first {} and {}", i + 1,
                                m.cycles, m.warp_insts, r.cycles, r.warp_insts));
      } else {
        r.host_seconds = std::min(r.host_seconds, m.seconds);
      }
    }
  } catch (const Error& e) {
    r.verification = "error";
    r.message = e.what();
  }
  return r;
}

std::string bench_table_header() {
  return fmt::format("{:<16} {:<8} {:<10} {:<8} {:>4} {:>12} {:>13} {:>9} {:>9} {:>9} {:>8}  {}\n", "workload", "gpu",
                     "scheduler", "size", "sms", "cycles", "warp insts", "host s", "Mwinst/s", "Mcyc/s", "ns/winst",
                     "verification");
}

std::string bench_table_line(const BenchRow& r) {
  std::string v = r.failed() ? fmt::format("{}: {}", r.verification, r.message) : r.verification;
  return fmt::format("{:<16} {:<8} {:<10} {:<8} {:>4} {:>12} {:>13} {:>9.3f} {:>9.3f} {:>9.3f} {:>8.1f}  {}\n",
                     r.c.workload, r.c.gpu, r.c.scheduler, r.c.size, r.sms, r.cycles, r.warp_insts, r.host_seconds,
                     r.warp_insts_per_s() / 1e6, r.cycles_per_s() / 1e6, r.ns_per_warp_inst(), v);
}

std::string bench_csv(const std::vector<BenchRow>& rows) {
  std::string out =
      "workload,gpu,scheduler,size,sms,cycles,warp_insts,host_seconds,warp_insts_per_s,cycles_per_s,"
      "ns_per_warp_inst,verification,message\n";
  for (const auto& r : rows)
    out += fmt::format("{},{},{},{},{},{},{},{:.6f},{:.1f},{:.1f},{:.3f},{},{}\n", csv_field(r.c.workload),
                       csv_field(r.c.gpu), csv_field(r.c.scheduler), r.c.size, r.sms, r.cycles, r.warp_insts,
                       r.host_seconds, r.warp_insts_per_s(), r.cycles_per_s(), r.ns_per_warp_inst(), r.verification,
                       csv_field(r.message));
  return out;
}

std::vector<BenchSummary> bench_summary(const std::vector<BenchRow>& rows) {
  std::vector<BenchSummary> out;
  std::map<std::pair<std::string, std::string>, std::vector<const BenchRow*>> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& r : rows) {
    if (r.failed() || r.warp_insts_per_s() <= 0) continue;
    auto key = std::make_pair(r.c.gpu, r.c.scheduler);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&r);
  }
  for (const auto& key : order) {
    BenchSummary s;
    s.gpu = key.first, s.scheduler = key.second;
    std::vector<double> rates;
    for (const BenchRow* r : groups[key]) {
      rates.push_back(r->warp_insts_per_s());
      if (s.slowest.empty() || r->warp_insts_per_s() < s.min_winsts_per_s)
        s.min_winsts_per_s = r->warp_insts_per_s(), s.slowest = r->c.workload;
    }
    s.runs = rates.size();
    s.geomean_winsts_per_s = geomean(rates);
    out.push_back(s);
  }
  return out;
}

std::string bench_summary_text(const std::vector<BenchSummary>& s) {
  std::string out = fmt::format("{:<8} {:<10} {:>5} {:>16} {:>12}  {}\n", "gpu", "scheduler", "runs",
                                "geomean Mwinst/s", "min Mwinst/s", "slowest");
  for (const auto& g : s)
    out += fmt::format("{:<8} {:<10} {:>5} {:>16.3f} {:>12.3f}  {}\n", g.gpu, g.scheduler, g.runs,
                       g.geomean_winsts_per_s / 1e6, g.min_winsts_per_s / 1e6, g.slowest);
  return out;
}

std::vector<ScalingGroup> bench_scaling(const std::vector<BenchRow>& rows, const std::string& axis,
                                        const std::vector<std::string>& order) {
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<const BenchRow*>> groups;
  std::vector<Key> keys;
  for (const auto& r : rows) {
    Key k{r.c.workload, r.c.gpu, r.c.scheduler, fixed_value(r, axis)};
    if (!groups.count(k)) keys.push_back(k);
    groups[k].push_back(&r);
  }
  auto rank = [&](const BenchRow* r) {
    auto it = std::find(order.begin(), order.end(), axis_value(*r, axis));
    return it - order.begin();
  };
  std::vector<ScalingGroup> out;
  for (const auto& k : keys) {
    auto& g = groups[k];
    bool ok = g.size() > 1 &&
              std::none_of(g.begin(), g.end(), [](const BenchRow* r) { return r->failed() || !r->warp_insts; });
    if (!ok) continue;
    std::stable_sort(g.begin(), g.end(), [&](const BenchRow* a, const BenchRow* b) { return rank(a) < rank(b); });
    ScalingGroup s;
    std::tie(s.workload, s.gpu, s.scheduler, s.fixed) = k;
    double base = g.front()->ns_per_warp_inst();
    for (const BenchRow* r : g) {
      s.points.push_back(axis_value(*r, axis));
      s.ns_per_warp_inst.push_back(r->ns_per_warp_inst());
      s.ratio.push_back(base > 0 ? r->ns_per_warp_inst() / base : 0.0);
      s.max_ratio = std::max(s.max_ratio, s.ratio.back());
    }
    out.push_back(s);
  }
  return out;
}

std::string bench_scaling_text(const std::vector<ScalingGroup>& groups, const std::string& axis, double limit,
                               size_t* over) {
  std::string what = axis == "sms" ? "SM count" : "size";
  std::string out = fmt::format("cost per warp instruction against the {} (ns/winst, ratio to the first)\n", what);
  size_t n_over = 0;
  for (const auto& g : groups) {
    std::string points;
    for (size_t i = 0; i < g.points.size(); ++i)
      points += fmt::format("  {}: {:.1f} ({:.2f}x)", g.points[i], g.ns_per_warp_inst[i], g.ratio[i]);
    bool bad = g.max_ratio > limit;
    n_over += bad;
    out += fmt::format("{:<16} {:<8} {:<10} {:<8}{}  max {:.2f}x{}\n", g.workload, g.gpu, g.scheduler,
                       axis == "sms" ? g.fixed : g.fixed + " SMs", points, g.max_ratio,
                       bad ? fmt::format("  > {}x", limit) : "");
  }
  if (over) *over = n_over;
  return out;
}

}  // namespace warpsim::experiment

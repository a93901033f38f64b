#include "experiment/qos_sweep.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.h"
#include "experiment/budget_search.h"

namespace warpsim::experiment {

QosSweepResult run_qos_sweep(const QosSweepSpec& spec, const WorkloadMaker& make,
                             const std::function<void(size_t, size_t)>& progress) {
  if (spec.pairs.empty()) throw Error("qos: no pair");
  if (spec.schedulers.empty()) throw Error("qos: no scheduler");
  if (std::find(spec.schedulers.begin(), spec.schedulers.end(), spec.baseline) == spec.schedulers.end())
    throw Error(fmt::format("qos: the baseline scheduler '{}' must be among the schedulers", spec.baseline));
  QosSweepResult res;
  struct Variant {
    std::string scheduler;
    uint32_t budget;
    std::map<std::string, std::string> params;
  };
  std::vector<Variant> variants;
  for (const auto& s : spec.schedulers) {
    if (takes_budgets(s)) {
      if (spec.budgets.empty()) throw Error(fmt::format("qos: scheduler '{}' needs --budgets", s));
      res.budgeted.push_back(s);
      for (uint32_t b : spec.budgets) {
        if (b == 0) throw Error("qos: budgets must be positive");
        variants.push_back({s, b, budget_params(spec.k1_budget, b, spec.extra_budgets)});
      }
    } else {
      variants.push_back({s, 0, {}});
    }
  }
  auto base_spec = [&] {
    MultiKernelSpec m;
    m.gpu = spec.gpu;
    m.size = spec.size;
    m.seed = spec.seed;
    m.delay = spec.delay;
    m.share = 2;
    return m;
  };
  // Tasks: every pair under every variant, then every kernel alone (same stream, scheduler and
  // parameters as in the pair, grid fitted for two kernels), deduplicated.
  std::vector<MultiKernelSpec> tasks;
  std::map<std::string, size_t> alone_index;
  struct Plan {
    size_t pair, variant, shared, alone1, alone2;
  };
  std::vector<Plan> plans;
  auto alone_task = [&](const std::string& w, uint32_t stream, const Variant& v) {
    // Alone, a kernel only meets its own stream's budget: the others are left out, and a
    // scheduler without budgets runs it on stream 1, so equal runs are made once.
    std::map<std::string, std::string> params;
    if (v.budget == 0) stream = 1;
    for (const auto& [k, val] : v.params)
      if (k.rfind("budget.stream.", 0) != 0 || k == fmt::format("budget.stream.{}", stream)) params[k] = val;
    std::string key = fmt::format("{}|{}|{}|{}", w, stream, v.scheduler, params_text(params));
    auto it = alone_index.find(key);
    if (it != alone_index.end()) return it->second;
    MultiKernelSpec m = base_spec();
    m.workloads = {w};
    m.streams = {stream};
    m.scheduler = {v.scheduler, params};
    tasks.push_back(m);
    alone_index[key] = tasks.size() - 1;
    return tasks.size() - 1;
  };
  for (size_t p = 0; p < spec.pairs.size(); ++p)
    for (size_t v = 0; v < variants.size(); ++v) {
      MultiKernelSpec m = base_spec();
      m.workloads = {spec.pairs[p].first, spec.pairs[p].second};
      m.scheduler = {variants[v].scheduler, variants[v].params};
      tasks.push_back(m);
      size_t shared = tasks.size() - 1;
      size_t a1 = alone_task(spec.pairs[p].first, 1, variants[v]);
      size_t a2 = alone_task(spec.pairs[p].second, 2, variants[v]);
      plans.push_back({p, v, shared, a1, a2});
    }
  std::vector<MultiKernelResult> results = run_many(tasks, spec.jobs, make, progress, spec.cache_dir, &res.cached);
  res.runs = tasks.size();
  for (const Plan& pl : plans) {
    const MultiKernelResult& r = results[pl.shared];
    QosRow row;
    row.k1 = spec.pairs[pl.pair].first;
    row.k2 = spec.pairs[pl.pair].second;
    row.pair = row.k1 + ":" + row.k2;
    row.scheduler = variants[pl.variant].scheduler;
    row.budget = variants[pl.variant].budget;
    row.rt1 = double(r.sides[0].response());
    row.rt2 = double(r.sides[1].response());
    row.alone1 = double(results[pl.alone1].sides[0].response());
    row.alone2 = double(results[pl.alone2].sides[0].response());
    row.avg_exec = (row.rt1 + row.rt2) / 2;
    row.shared_sms = r.shared_sms;
    row.sms = r.sms;
    row.verified = r.sides[0].verified && r.sides[1].verified && results[pl.alone1].sides[0].verified &&
                   results[pl.alone2].sides[0].verified;
    res.rows.push_back(row);
  }
  normalise_rows(res.rows, spec.baseline);
  return res;
}

}  // namespace warpsim::experiment

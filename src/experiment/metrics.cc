#include "experiment/metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/error.h"

namespace warpsim::experiment {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool present(double v) { return !std::isnan(v) && v > 0; }

int require_scheduler(const CycleTable& t, const std::string& name, const char* role) {
  int i = t.scheduler_index(name);
  if (i < 0) throw Error(fmt::format("{} scheduler '{}' has no results in this comparison", role, name));
  return i;
}

}  // namespace

int CycleTable::scheduler_index(const std::string& name) const {
  auto it = std::find(schedulers.begin(), schedulers.end(), name);
  return it == schedulers.end() ? -1 : int(it - schedulers.begin());
}

void CycleTable::set(const std::string& kernel, const std::string& scheduler, double value) {
  int s = scheduler_index(scheduler);
  if (s < 0) {
    schedulers.push_back(scheduler);
    for (auto& row : cycles) row.push_back(kNaN);
    s = int(schedulers.size()) - 1;
  }
  auto it = std::find(kernels.begin(), kernels.end(), kernel);
  size_t k = size_t(it - kernels.begin());
  if (it == kernels.end()) {
    kernels.push_back(kernel);
    cycles.emplace_back(schedulers.size(), kNaN);
  }
  cycles[k][size_t(s)] = value;
}

bool CycleTable::complete(size_t k) const { return std::all_of(cycles[k].begin(), cycles[k].end(), present); }

void SpeedupRange::add(double v) {
  if (!std::isfinite(v)) return;
  lo = std::isfinite(lo) ? std::min(lo, v) : v;
  hi = std::isfinite(hi) ? std::max(hi, v) : v;
}

bool ranges_meet(const SpeedupRange& a, const SpeedupRange& b, double tol) {
  if (!std::isfinite(a.lo) || !std::isfinite(b.lo)) return false;
  return a.lo <= b.hi + tol + 1e-12 && b.lo <= a.hi + tol + 1e-12;
}

double geomean(const std::vector<double>& values) {
  if (values.empty()) return kNaN;
  double log_sum = 0;
  for (double v : values) {
    if (!(v > 0)) throw Error(fmt::format("geometric mean of a value that is not positive ({})", v));
    log_sum += std::log(v);
  }
  return std::exp(log_sum / double(values.size()));
}

std::vector<std::vector<double>> speedups(const CycleTable& t, const std::string& baseline) {
  int b = require_scheduler(t, baseline, "baseline");
  std::vector<std::vector<double>> out(t.kernels.size(), std::vector<double>(t.schedulers.size(), kNaN));
  for (size_t k = 0; k < t.kernels.size(); ++k)
    for (size_t s = 0; s < t.schedulers.size(); ++s)
      if (present(t.cycles[k][size_t(b)]) && present(t.cycles[k][s]))
        out[k][s] = t.cycles[k][size_t(b)] / t.cycles[k][s];
  return out;
}

std::vector<double> geomean_speedups(const CycleTable& t, const std::string& baseline) {
  auto sp = speedups(t, baseline);
  std::vector<double> out;
  for (size_t s = 0; s < t.schedulers.size(); ++s) {
    std::vector<double> v;
    for (const auto& row : sp)
      if (!std::isnan(row[s])) v.push_back(row[s]);
    out.push_back(geomean(v));
  }
  return out;
}

std::vector<int> rank_with_ties(const std::vector<double>& values, double rel_tol) {
  std::vector<size_t> order;
  for (size_t i = 0; i < values.size(); ++i)
    if (present(values[i])) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<int> rank(values.size(), 0);
  size_t group_start = 0;
  for (size_t pos = 0; pos < order.size(); ++pos) {
    double lead = values[order[group_start]];
    if (values[order[pos]] > lead * (1.0 + rel_tol)) group_start = pos;
    rank[order[pos]] = int(group_start) + 1;
  }
  return rank;
}

std::vector<std::vector<int>> rank_table(const CycleTable& t, double rel_tol) {
  std::vector<std::vector<int>> out;
  for (const auto& row : t.cycles) out.push_back(rank_with_ties(row, rel_tol));
  return out;
}

std::vector<RankRow> rank_rows(const CycleTable& t, const std::string& x, double rel_tol) {
  size_t xi = size_t(require_scheduler(t, x, "ranked"));
  auto ranks = rank_table(t, rel_tol);
  std::vector<RankRow> rows;
  for (int r = 1; r <= int(t.schedulers.size()); ++r) {
    RankRow row;
    row.rank = r;
    std::vector<size_t> ks;
    for (size_t k = 0; k < t.kernels.size(); ++k)
      if (t.complete(k) && ranks[k][xi] == r) ks.push_back(k);
    row.kernels = int(ks.size());
    for (size_t k : ks) row.kernel_names.push_back(t.kernels[k]);
    for (size_t s = 0; s < t.schedulers.size(); ++s) {
      if (s == xi) continue;
      std::vector<double> v;
      for (size_t k : ks) v.push_back(t.cycles[k][s] / t.cycles[k][xi]);
      row.speedup_over[t.schedulers[s]] = geomean(v);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

int best_or_within(const CycleTable& t, const std::string& x, double within) {
  size_t xi = size_t(require_scheduler(t, x, "ranked"));
  int n = 0;
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    if (!t.complete(k)) continue;
    double best = *std::min_element(t.cycles[k].begin(), t.cycles[k].end());
    if (t.cycles[k][xi] <= best * (1.0 + within)) ++n;
  }
  return n;
}

FriendlySplit friendly_split(const CycleTable& t, const std::string& baseline, const std::string& lrr,
                             const std::string& gto) {
  size_t li = size_t(require_scheduler(t, lrr, "LRR"));
  size_t gi = size_t(require_scheduler(t, gto, "GTO"));
  auto sp = speedups(t, baseline);
  FriendlySplit out;
  std::vector<size_t> lrr_k, gto_k;
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    if (!present(t.cycles[k][li]) || !present(t.cycles[k][gi])) continue;
    if (t.cycles[k][li] < t.cycles[k][gi]) {
      lrr_k.push_back(k);
      out.lrr_friendly.push_back(t.kernels[k]);
    } else {
      gto_k.push_back(k);
      out.gto_friendly.push_back(t.kernels[k]);
    }
  }
  auto group_means = [&](const std::vector<size_t>& ks) {
    std::vector<double> means;
    for (size_t s = 0; s < t.schedulers.size(); ++s) {
      std::vector<double> v;
      for (size_t k : ks)
        if (!std::isnan(sp[k][s])) v.push_back(sp[k][s]);
      means.push_back(geomean(v));
    }
    return means;
  };
  out.lrr_geomean = group_means(lrr_k);
  out.gto_geomean = group_means(gto_k);
  std::vector<size_t> all_k = lrr_k;
  all_k.insert(all_k.end(), gto_k.begin(), gto_k.end());
  out.all_geomean = group_means(all_k);
  return out;
}

std::vector<double> best_static_oracle(const CycleTable& t, const std::vector<std::string>& fixed) {
  std::vector<size_t> idx;
  for (const auto& f : fixed)
    if (int i = t.scheduler_index(f); i >= 0) idx.push_back(size_t(i));
  std::vector<double> out;
  for (const auto& row : t.cycles) {
    double best = kNaN;
    for (size_t i : idx)
      if (present(row[i]) && (std::isnan(best) || row[i] < best)) best = row[i];
    out.push_back(best);
  }
  return out;
}

std::map<std::string, double> stall_fractions(const std::vector<std::map<std::string, double>>& per_kernel) {
  std::map<std::string, double> sum;
  double total = 0;
  for (const auto& k : per_kernel)
    for (const auto& [cls, v] : k) {
      sum[cls] += v;
      total += v;
    }
  if (total <= 0) return {};
  for (auto& [cls, v] : sum) v /= total;
  return sum;
}

}  // namespace warpsim::experiment

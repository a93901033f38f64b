#include "experiment/comparison_spread.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace warpsim::experiment {

GpuConfig started_later(GpuConfig cfg, uint32_t k) {
  cfg.core.kernel_launch_latency += k;
  return cfg;
}

namespace {

// cycles(baseline) / cycles(scheduler) of kernel `kernel` in table `t`; NaN where either lacks it.
double speedup_in(const CycleTable& t, const std::map<std::string, size_t>& row, const std::string& kernel, int s,
                  int b) {
  auto it = row.find(kernel);
  if (it == row.end() || s < 0 || b < 0) return NAN;
  const double cs = t.cycles[it->second][size_t(s)], cb = t.cycles[it->second][size_t(b)];
  return std::isfinite(cs) && std::isfinite(cb) && cs > 0 && cb > 0 ? cb / cs : NAN;
}

std::map<std::string, size_t> rows_of(const CycleTable& t) {
  std::map<std::string, size_t> m;
  for (size_t k = 0; k < t.kernels.size(); ++k) m[t.kernels[k]] = k;
  return m;
}

}  // namespace

ComparisonSpread comparison_spread(const CycleTable& base, const std::vector<CycleTable>& perturbed,
                                   const std::string& baseline) {
  ComparisonSpread out;
  out.baseline = baseline;
  out.perturb = uint32_t(perturbed.size());
  std::vector<const CycleTable*> runs{&base};
  for (const auto& t : perturbed) runs.push_back(&t);
  std::vector<std::map<std::string, size_t>> rows;
  for (const auto* t : runs) rows.push_back(rows_of(*t));
  for (const auto& name : base.schedulers) {
    if (name == baseline) continue;
    SchedulerSpread sp;
    sp.scheduler = name;
    // speedups[r][k]: run r, kernel k of the base table.
    std::vector<std::vector<double>> speedups(runs.size(), std::vector<double>(base.kernels.size(), NAN));
    for (size_t r = 0; r < runs.size(); ++r)
      for (size_t k = 0; k < base.kernels.size(); ++k)
        speedups[r][k] = speedup_in(*runs[r], rows[r], base.kernels[k], runs[r]->scheduler_index(name),
                                    runs[r]->scheduler_index(baseline));
    std::vector<std::vector<double>> common(runs.size());
    for (size_t k = 0; k < base.kernels.size(); ++k) {
      LaunchSpread l;
      l.kernel = base.kernels[k];
      l.at0 = speedups[0][k];
      bool everywhere = true;
      for (size_t r = 0; r < runs.size(); ++r) {
        if (!std::isfinite(speedups[r][k])) {
          everywhere = false;
          continue;
        }
        l.range.add(speedups[r][k]);
        ++l.runs;
      }
      if (l.runs > 0) {
        if (l.range.lo > 1)
          ++sp.faster;
        else if (l.range.hi < 1)
          ++sp.slower;
        else
          ++sp.within;
        if (l.range.width() > kSpreadWide) ++sp.wide;
      }
      if (everywhere)
        for (size_t r = 0; r < runs.size(); ++r) common[r].push_back(speedups[r][k]);
      sp.launches.push_back(std::move(l));
    }
    sp.common = common[0].size();
    for (const auto& c : common) sp.geomeans.push_back(c.empty() ? NAN : geomean(c));
    out.schedulers.push_back(std::move(sp));
  }
  return out;
}

std::string spread_csv(const ComparisonSpread& s) {
  auto num = [](double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string(); };
  std::string out = fmt::format("scheduler,kernel,speedup_over_{0},speedup_lo,speedup_hi,runs\n", s.baseline);
  for (const auto& sp : s.schedulers)
    for (const auto& l : sp.launches)
      out += fmt::format("{},{},{},{},{},{}\n", sp.scheduler, l.kernel, num(l.at0), num(l.range.lo), num(l.range.hi),
                         l.runs);
  return out;
}

std::string spread_summary(const ComparisonSpread& s) {
  if (s.perturb == 0) return "";
  std::string out = fmt::format(
      "Spread (every kernel started 0..{} cycles later, those cycles taken off): speedup over {} per run, and the "
      "launches faster / slower than {} in every run / either way:\n",
      s.perturb, s.baseline, s.baseline);
  for (const auto& sp : s.schedulers) {
    std::string means;
    for (double g : sp.geomeans) means += std::isfinite(g) ? fmt::format(" {:.4f}", g) : std::string(" -");
    out += fmt::format(
        "  {:<14} geomean over {} launches:{}; faster {}, slower {}, either way {} (range wider than "
        "{}: {})\n",
        sp.scheduler, sp.common, means, sp.faster, sp.slower, sp.within, kSpreadWide, sp.wide);
  }
  return out;
}

}  // namespace warpsim::experiment

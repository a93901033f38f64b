// How far a scheduler comparison moves when every kernel merely starts a little later
// (`warpsim compare --perturb N`, docs/harness.md): the sweep runs again with
// core.kernel_launch_latency raised by k = 1..N cycles, the k cycles are taken off each launch,
// and each launch's speedup over the baseline becomes a range over the N + 1 runs. A launch whose
// range lies on one side of 1 is faster (or slower) than the baseline whichever way it starts;
// one whose range holds 1 differs from it by less than the model's own spread.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "experiment/metrics.h"

namespace warpsim::experiment {

// The GPU of a run perturbed by `k` cycles: each kernel's first CTA dispatched k cycles later.
GpuConfig started_later(GpuConfig cfg, uint32_t k);

struct LaunchSpread {
  std::string kernel;  // the cycle table's kernel id (workload/kernel#launch)
  double at0 = NAN;    // speedup over the baseline in the unperturbed run
  SpeedupRange range;  // over the unperturbed run and every perturbed one with both schedulers
  uint32_t runs = 0;   // runs the range covers
};

struct SchedulerSpread {
  std::string scheduler;
  std::vector<LaunchSpread> launches;  // in the table's kernel order
  // Geometric mean of the speedups over the launches that have both schedulers in every run,
  // one per run (unperturbed first); `common` of them.
  std::vector<double> geomeans;
  size_t common = 0;
  // Launches whose range lies above 1 (faster than the baseline in every run), below 1, or
  // holds it; and those whose range is wider than kSpreadWide.
  size_t faster = 0, slower = 0, within = 0, wide = 0;
};

// A range wider than this is reported as wide (the fidelity criterion's tolerance).
inline constexpr double kSpreadWide = 0.03;

struct ComparisonSpread {
  std::string baseline;
  uint32_t perturb = 0;                     // perturbed runs
  std::vector<SchedulerSpread> schedulers;  // every scheduler but the baseline, in table order
};

// `base` is the unperturbed run's table, `perturbed[k - 1]` the run started k cycles later with
// the k cycles already taken off. Schedulers missing from a table count only where they are.
ComparisonSpread comparison_spread(const CycleTable& base, const std::vector<CycleTable>& perturbed,
                                   const std::string& baseline);

// One row per (scheduler, launch): scheduler, kernel, speedup, lo, hi, runs.
std::string spread_csv(const ComparisonSpread& s);
// The text block of the summary: per scheduler the geometric means per run and the counts.
std::string spread_summary(const ComparisonSpread& s);

}  // namespace warpsim::experiment

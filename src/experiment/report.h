// The comparison a sweep produces: tidy rows, the cycle table and the metrics derived from it,
// rendered as a plain-text summary, a self-contained HTML report with inline SVG charts, and
// the same charts as separate SVG files.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "experiment/metrics.h"
#include "experiment/results.h"

namespace warpsim::experiment {

struct IpcSeries {
  std::string workload, scheduler;
  std::vector<std::pair<double, double>> points;  // (cycle, IPC)
  bool whole_run_average = false;                 // the run was shorter than one sample window
};

struct Comparison {
  std::string gpu, size;
  uint64_t seed = 1;
  std::string baseline = "lrr";
  std::vector<std::string> schedulers;  // in sweep order
  std::vector<std::string> oracle_set;  // fixed schedulers the oracle column picks from
  std::vector<nlohmann::json> rows;     // tidy rows (results.h)
  std::vector<IpcSeries> ipc;
  std::vector<std::string> failures;              // "workload / scheduler: why"
  std::map<std::string, std::string> categories;  // workload -> category (compute, memory, ...)
  CycleTable table;                               // per launch (kernel_id); filled by finish()
  KernelLaunches kernels;                         // per kernel, its launches added up; filled by finish()

  // Builds the cycle tables from the rows; call once the rows are complete.
  void finish();
  // The category of a workload; "other" when it has none.
  std::string category_of(const std::string& workload) const;
};

// IPC series of one run's JSON (falls back to the whole-run average when no window completed).
IpcSeries ipc_series_of(const std::string& workload, const std::string& scheduler, const nlohmann::json& run);

// The answer first (the fastest scheduler, its geometric-mean speedup and best-or-within-2 %
// count), then geometric-mean speedups per group of kernels (all, LRR-/GTO-friendly, each
// workload category), the rank table, the leader's RLWS Table VI and, for a short suite, the
// speedups per kernel. Kernels are counted with their launches added up (Comparison::kernels).
std::string text_summary(const Comparison& c);

// Writes DIR/report.html and DIR/svg/*.svg. Returns the report's path. The report opens on the
// answer (report_overview.h), then groups, ranks, per-kernel detail and the rest; no chart is
// wider than the page (svg::kMaxWidth).
std::string write_report(const Comparison& c, const std::string& dir);

}  // namespace warpsim::experiment

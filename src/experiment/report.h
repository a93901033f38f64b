// The comparison a sweep produces: tidy rows, the cycle table and the metrics derived from it,
// rendered as a plain-text summary, a self-contained HTML report with inline SVG charts, and
// the same charts as separate SVG files.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/metrics.h"

namespace warpsim::experiment {

struct IpcSeries {
  std::string workload, scheduler;
  std::vector<std::pair<double, double>> points;  // (cycle, IPC)
  bool whole_run_average = false;  // the run was shorter than one sample window
};

struct Comparison {
  std::string gpu, size;
  uint64_t seed = 1;
  std::string baseline = "lrr";
  std::vector<std::string> schedulers;    // in sweep order
  std::vector<std::string> oracle_set;    // fixed schedulers the oracle column picks from
  std::vector<nlohmann::json> rows;       // tidy rows (results.h)
  std::vector<IpcSeries> ipc;
  std::vector<std::string> failures;      // "workload / scheduler: why"
  CycleTable table;                       // filled by finish()

  // Builds the cycle table from the rows; call once the rows are complete.
  void finish();
};

// IPC series of one run's JSON (falls back to the whole-run average when no window completed).
IpcSeries ipc_series_of(const std::string& workload, const std::string& scheduler, const nlohmann::json& run);

// Per kernel speedups over the baseline with a geometric-mean row and the oracle column, then
// the rank table (kernels per rank, best-or-within-2 %) and the LRR/GTO-friendly split.
std::string text_summary(const Comparison& c);

// Writes DIR/report.html and DIR/svg/*.svg. Returns the report's path.
std::string write_report(const Comparison& c, const std::string& dir);

}  // namespace warpsim::experiment

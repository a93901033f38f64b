// `warpsim compare`: plan the sweep, run the pairs not yet cached (locally or through Slurm),
// then gather every pair's result into tidy tables, metrics and reports.
#pragma once
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment/comparison_spread.h"
#include "experiment/report.h"
#include "experiment/slurm.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {

struct CompareOptions {
  SweepSpec spec;
  WorkloadResolver resolve;  // name and fingerprint of a workload spec
  std::string out_dir = "results/compare";
  std::string baseline = "lrr";
  std::vector<std::string> oracle = {"lrr", "gto", "tl"};
  int jobs = 0;                   // 0: number of cores
  std::string backend = "local";  // local | slurm
  SlurmOptions slurm;
  std::string exe;  // warpsim binary for the runs (empty: this program)
  // When the sweep has ipaws, lrr and gto: also run ipaws committed per kernel to the better of
  // LRR and GTO (param force) and report it as the column "ipaws_oracle" (RLWS Table VII).
  bool ipaws_oracle = true;
  // The sweep runs again with every kernel started 1..perturb cycles later (docs/harness.md, "How
  // large a difference is real"): DIR/spread.csv and a block of the summary (ipaws_oracle aside).
  uint32_t perturb = 0;
  bool tty = false;  // draw a progress bar instead of progress lines
  std::FILE* progress_out = stderr;
};

struct CompareSummary {
  size_t total = 0, cached = 0, ran = 0, failed = 0;
  std::string report;   // path of report.html
  std::string summary;  // the plain-text summary table
  Comparison comparison;
  ComparisonSpread spread;  // with perturb > 0
};

// The `force` parameter of ipaws that commits each kernel launch of a run to the better of LRR
// and GTO, from the JSON of the workload's LRR and GTO runs: "gto,lrr,..." by launch index (a
// tie goes to GTO, the order iPAWS samples under). Empty when the two runs' launches differ.
std::string ipaws_oracle_force(const nlohmann::json& lrr_run, const nlohmann::json& gto_run);

// The schedulers of the registry, in registry order (the default --schedulers).
std::vector<std::string> all_schedulers();

// Runs the sweep and writes DIR/results.csv, DIR/results.jsonl, DIR/report.html, DIR/svg/,
// DIR/summary.txt. Failed pairs are listed in the summary (and count in `failed`); they do not
// stop the others.
CompareSummary run_compare(const CompareOptions& opts);

}  // namespace warpsim::experiment

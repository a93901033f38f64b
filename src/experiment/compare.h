// `warpsim compare`: plan the sweep, run the pairs not yet cached (locally or through Slurm),
// then gather every pair's result into tidy tables, metrics and reports.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "experiment/report.h"
#include "experiment/slurm.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {

struct CompareOptions {
  SweepSpec spec;
  WorkloadResolver resolve;          // name and fingerprint of a workload spec
  std::string out_dir = "results/compare";
  std::string baseline = "lrr";
  std::vector<std::string> oracle = {"lrr", "gto", "tl"};
  int jobs = 0;                     // 0: number of cores
  std::string backend = "local";    // local | slurm
  SlurmOptions slurm;
  std::string exe;                  // warpsim binary for the runs (empty: this program)
  bool tty = false;                 // draw a progress bar instead of progress lines
  std::FILE* progress_out = stderr;
};

struct CompareSummary {
  size_t total = 0, cached = 0, ran = 0, failed = 0;
  std::string report;    // path of report.html
  std::string summary;   // the plain-text summary table
  Comparison comparison;
};

// The schedulers of the registry, in registry order (the default --schedulers).
std::vector<std::string> all_schedulers();

// Runs the sweep and writes DIR/results.csv, DIR/results.jsonl, DIR/report.html, DIR/svg/,
// DIR/summary.txt. Failed pairs are listed in the summary (and count in `failed`); they do not
// stop the others.
CompareSummary run_compare(const CompareOptions& opts);

}  // namespace warpsim::experiment

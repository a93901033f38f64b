// `warpsim correlate`: warpsim's cycles against reference results (GPGPU-Sim, a real GPU) per
// kernel launch, summarised per GPU preset and overall as error statistics and scheduler
// agreement; written as text, CSV and an HTML page with a log-log scatter plot per preset.
// docs/correlate.md defines every statistic.
#pragma once
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiment/metrics.h"
#include "experiment/reference.h"
#include "experiment/slurm.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {

// Error statistics of (reference, warpsim) pairs; errors are (warpsim - reference) / reference.
struct ErrorStats {
  size_t n = 0;
  double mae_pct = 0;         // mean |error| x 100
  double signed_pct = 0;      // mean error x 100
  double pearson_log = 0;     // Pearson r of (ln reference, ln warpsim); NaN when undefined
  size_t within15 = 0;        // |error| <= 15 %
  double within15_share = 0;  // within15 / n
};
ErrorStats error_stats(const std::vector<std::pair<double, double>>& ref_sim);

// Pearson correlation coefficient of two equally long series; NaN when fewer than two points
// or either series is constant.
double pearson(const std::vector<double>& x, const std::vector<double>& y);

// One reference kernel launch and warpsim's result for it.
struct Matched {
  ReferenceRow ref;
  double sim_cycles = 0;
  std::map<std::string, std::pair<double, double>> counters;  // name -> (reference, warpsim)
  // Perturbed runs (docs/correlate.md): the launch's cycles in each of warpsim's (--perturb N:
  // the kernel launch latency raised by 1..N cycles) and each of the reference's
  // (--perturbed-reference), the added cycles taken off again; NaN where a run lacks it.
  std::vector<double> perturbed, ref_perturbed;
};

// How close two speedups must be to agree (the fidelity criterion of docs/fidelity.md).
inline constexpr double kSpeedupTolerance = 0.03;

// Scheduler agreement of one (workload, size, kernel, launch, gpu): cycles per scheduler
// (base names lrr, gto, tl) in the reference and in warpsim.
struct Agreement {
  std::string workload, size, gpu, kernel;
  uint64_t launch = 0;
  std::map<std::string, double> ref, sim;  // scheduler -> cycles
  // Speedups over LRR (cycles(lrr) / cycles(X)); NaN when a side lacks X or lrr.
  double ref_gto_lrr = 0, sim_gto_lrr = 0, ref_tl_lrr = 0, sim_tl_lrr = 0;
  // Fastest of lrr/gto/tl (when both sides have all three), the reference's gap between its
  // fastest and second fastest (second / fastest - 1), and whether the gap counts (> 3 %).
  std::string ref_fastest, sim_fastest;
  double ref_gap = 0;
  bool decisive = false;
  bool agrees = false;
  // Perturbed runs (Matched::perturbed, ref_perturbed), per run scheduler -> cycles; the range
  // of each speedup over the unperturbed run and every perturbed one that has LRR and that
  // scheduler (`sim_runs`, `ref_runs`: the runs with LRR and another scheduler); whether the
  // fastest agrees for some pair of runs that have all three schedulers.
  std::vector<std::map<std::string, double>> sim_perturbed, ref_perturbed;
  size_t sim_runs = 1, ref_runs = 1;
  SpeedupRange sim_gto_range, sim_tl_range, ref_gto_range, ref_tl_range;
  bool agrees_in_some_run = false;
};
std::vector<Agreement> scheduler_agreement(const std::vector<Matched>& matched);

// The scheduler name without parameters ("tl:active=6" -> "tl").
std::string scheduler_base(const std::string& spec);
// A scheduler spec of a reference row: NAME or NAME:key=value;key=value.
SchedulerSpec parse_scheduler_spec(const std::string& spec);

// The value of a reference counter in a tidy row of warpsim's results (results.h): the same
// column, or warpsim's equivalent (l2_accesses = l2.reads + l2.writes, ...); none when absent.
std::optional<double> warpsim_counter(const nlohmann::json& row, const std::string& name);

struct PresetSummary {
  std::string gpu;  // "all" for the overall row
  ErrorStats cycles;
  size_t agreement_cases = 0, agreement_decisive = 0, agreement_agree = 0;
  double gto_lrr_max_diff = 0;  // largest |warpsim - reference| GTO/LRR speedup
  // Launches with both speedups, and those within kSpeedupTolerance of the reference's.
  size_t gto_lrr_cases = 0, gto_lrr_within = 0, tl_lrr_cases = 0, tl_lrr_within = 0;
  // With perturbed runs (the most runs a launch's ranges cover on each side): launches whose
  // two ranges come within the tolerance, launches whose warpsim / reference range is itself
  // wider than the tolerance, and decisive launches whose fastest agrees for some pair of runs.
  size_t sim_runs = 1, ref_runs = 1;
  size_t gto_lrr_ranges_meet = 0, tl_lrr_ranges_meet = 0;
  size_t gto_lrr_sim_wide = 0, tl_lrr_sim_wide = 0, gto_lrr_ref_wide = 0, tl_lrr_ref_wide = 0;
  size_t agreement_agree_some = 0;
  std::map<std::string, ErrorStats> counters;  // counters present in both
};

struct Skipped {
  std::string what;  // "workload size gpu scheduler" or one kernel launch
  std::string reason;
};

struct Correlation {
  std::vector<Matched> matched;
  std::vector<Agreement> agreement;
  std::vector<PresetSummary> presets;  // one per GPU, then "all"
  std::vector<Skipped> skipped;
  std::vector<std::string> counter_names;
};

// Matches reference rows with warpsim's tidy rows (results.h) by (workload, size, gpu,
// scheduler, kernel name, launch index) and computes every statistic. Reference rows without
// a warpsim launch are added to `skipped`.
// `perturbed_rows[k]` are warpsim's rows of the run perturbed by k + 1 cycles and
// `perturbed_refs` the perturbed references, each with its added cycles already taken off.
Correlation correlate(const ReferenceTable& ref, const std::vector<nlohmann::json>& sim_rows,
                      std::vector<Skipped> skipped = {},
                      const std::vector<std::vector<nlohmann::json>>& perturbed_rows = {},
                      const std::vector<ReferenceTable>& perturbed_refs = {});

std::string correlation_text(const Correlation& c);
std::string correlation_csv(const Correlation& c);  // one row per kernel launch per scheduler
std::string schedulers_csv(const Correlation& c);
std::string summary_csv(const Correlation& c);
std::string correlation_html(const Correlation& c);  // self-contained, one scatter plot per preset

struct CorrelateOptions {
  ReferenceTable reference;
  std::vector<std::string> gpus, schedulers;  // keep only these (empty: all)
  std::string hw_scheduler = "gto";           // warpsim scheduler for reference rows of "hw"
  std::vector<std::string> overrides;         // KEY=VALUE applied to every preset (--set)
  // Reference GPU name -> GPU file or preset to run for it (--preset NAME=FILE); others run
  // the preset of their name.
  std::map<std::string, std::string> presets;
  // Perturbed runs (--perturb N): each (workload, size, gpu, scheduler) also runs N times with
  // core.kernel_launch_latency raised by 1..N cycles, to show how far one cycle's shift moves
  // each launch (docs/correlate.md, "Perturbed runs").
  uint32_t perturb = 0;
  // The reference run again with its kernel launch latency raised by `offset` cycles
  // (--perturbed-reference OFFSET=PATH): (offset, table) pairs.
  std::vector<std::pair<uint32_t, ReferenceTable>> perturbed_references;
  // Run each reference workload as the CUDA program of its name in this directory under
  // `warpsim exec` (--programs DIR: the binaries the reference ran, so both simulators execute
  // the same PTX) instead of the bundled workload under `warpsim run`.
  std::string programs_dir;
  std::string cache_dir = "results/correlate";
  std::string out_dir;  // empty: no files
  int jobs = 0;
  std::string backend = "local";
  SlurmOptions slurm;
  std::string exe;  // empty: this program
  bool tty = false;
  std::FILE* progress_out = stderr;
};

struct CorrelateResult {
  Correlation correlation;
  size_t pairs = 0, cached = 0, ran = 0, failed = 0;
  std::string text;
};

// Runs warpsim (through the harness) on every (workload, size, gpu, scheduler) of the
// reference and correlates. Writes OUT/{correlate,schedulers,summary}.csv and correlate.html
// when out_dir is set.
CorrelateResult run_correlate(const CorrelateOptions& opts);

}  // namespace warpsim::experiment

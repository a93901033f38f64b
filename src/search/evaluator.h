// Fitness of RL configurations through the experiment harness: each (configuration, workload)
// pair is a cached `warpsim run` (DIR/cache, see experiment/sweep.h), run locally with several
// jobs or as a Slurm job array. A configuration is handed to the run as an RL configuration file
// named by the hash of its text (DIR/candidates/<hash>.toml), so equal configurations share
// cache entries and a configuration run before costs nothing.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "core/config.h"
#include "experiment/slurm.h"
#include "experiment/sweep.h"
#include "rl/rl_config.h"

namespace warpsim::search {

struct EvaluatorSetup {
  std::string scheduler = "rlws";  // the RL scheduler the configurations are for
  experiment::SchedulerSpec baseline{"lrr", {}};
  GpuConfig gpu;
  std::string size = "small";
  uint64_t input_seed = 1;  // seed of the workloads' generated inputs
  std::string dir;          // harness directory (cache, logs, candidates)
  experiment::WorkloadResolver resolve;
  std::string backend = "local";  // local | slurm
  int jobs = 1;
  experiment::SlurmOptions slurm;
  std::string exe;                    // warpsim binary for the runs (empty: this program)
  std::FILE* progress_out = nullptr;  // per-run progress lines (null: none)
  bool tty = false;
};

// One kernel launch of one workload under the baseline and under a configuration.
struct KernelCycles {
  std::string workload, kernel_id;
  double baseline_cycles = 0, cycles = 0;
};

struct Evaluation {
  bool ok = false;      // every run succeeded and every kernel has cycles
  std::string failure;  // why not, when !ok
  std::vector<KernelCycles> kernels;
  double fitness = 0;  // geometric-mean speedup over the baseline; 0 when !ok
};

// Geometric mean of baseline_cycles / cycles over the kernels of `k` whose workload is in
// `workloads` (all of them when `workloads` is empty); NaN when none.
double geomean_speedup(const std::vector<KernelCycles>& k, const std::vector<std::string>& workloads = {});

class HarnessEvaluator {
 public:
  explicit HarnessEvaluator(EvaluatorSetup setup);

  // Evaluates every configuration on every workload (baseline runs included, all cached).
  std::vector<Evaluation> evaluate(const std::vector<rl::RlConfig>& configs, const std::vector<std::string>& workloads);

  // Path of the RL configuration file a configuration runs from (written when missing).
  std::string config_file(const rl::RlConfig& cfg) const;

  // Simulations this evaluator ran (not found in the cache), failed, and their summed run time.
  size_t runs() const { return runs_; }
  size_t failed_runs() const { return failed_; }
  size_t cache_hits() const { return hits_; }
  double run_seconds() const { return run_seconds_; }
  const EvaluatorSetup& setup() const { return s_; }

 private:
  experiment::WorkloadIdentity identity_of(const std::string& spec);

  EvaluatorSetup s_;
  std::vector<std::pair<std::string, experiment::WorkloadIdentity>> identities_;
  size_t runs_ = 0, failed_ = 0, hits_ = 0;
  double run_seconds_ = 0;
};

}  // namespace warpsim::search

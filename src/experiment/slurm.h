// The Slurm backend: the pending pairs of a sweep become a job array. Each array task runs its
// chunk of pairs (`warpsim compare --run-task MANIFEST --task-index I`) and writes into the
// sweep's cache directory, which must be shared with the compute nodes, as must the warpsim
// binary. The submitting process waits for the array, resubmits the tasks that left pairs
// without a result a bounded number of times, and gathers the outcomes from the cache.
#pragma once
#include <string>
#include <vector>

#include "experiment/runner.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {

struct SlurmOptions {
  int max_tasks = 100;             // array size limit; pairs are chunked evenly over the tasks
  int retries = 2;                 // resubmissions of tasks that left pairs without a result
  int cpus_per_task = 1;           // pairs each task runs at a time
  std::string partition;           // sbatch --partition (empty: the cluster default)
  std::string time_limit;          // sbatch --time (empty: the partition default)
  std::vector<std::string> extra;  // further sbatch arguments, verbatim
  double poll_seconds = 2;         // squeue polling period
};

// Splits n items into at most max_tasks contiguous chunks whose sizes differ by at most one.
// Returns the chunk boundaries: chunk i is [b[i], b[i+1]).
std::vector<size_t> chunk_bounds(size_t n, int max_tasks);

// The batch script of one submission.
std::string slurm_script(const std::string& exe, const std::string& manifest, const std::string& log_dir,
                         const std::string& workdir, int cpus_per_task);

// Runs `pending` through Slurm; outcomes in the order of `pending`.
std::vector<PairOutcome> run_pairs_slurm(const std::vector<Pair>& pending, const Layout& layout,
                                         const std::string& gpu_file, const std::string& exe, const SlurmOptions& opts,
                                         Progress* progress);

// Body of one array task: runs chunk `task` of `manifest` with `jobs` pairs at a time. Returns
// the process exit status (0 when every pair of the chunk succeeded).
int run_manifest_task(const std::string& manifest, int task, int jobs, const std::string& exe);

}  // namespace warpsim::experiment

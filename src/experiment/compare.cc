#include "experiment/compare.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "core/json_file.h"
#include "experiment/results.h"
#include "experiment/runner.h"
#include "sched/scheduler.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;

std::vector<std::string> all_schedulers() {
  std::vector<std::string> out;
  for (const auto& f : scheduler_registry()) out.push_back(f.name);
  return out;
}

CompareSummary run_compare(const CompareOptions& opts) {
  if (opts.backend != "local" && opts.backend != "slurm")
    throw Error(fmt::format("unknown backend '{}': expected local or slurm", opts.backend));
  for (const auto& s : opts.spec.schedulers) find_scheduler(s.name);
  Layout layout(opts.out_dir);
  layout.create_dirs();
  std::vector<Pair> pairs = plan_pairs(opts.spec, opts.resolve);
  std::string gpu_file = layout.write_gpu_config(opts.spec.gpu);
  std::string exe = opts.exe.empty() ? self_executable() : opts.exe;
  int jobs = opts.jobs > 0 ? opts.jobs : int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));

  CompareSummary sum;
  sum.total = pairs.size();
  std::vector<Pair> pending;
  for (const auto& p : pairs)
    if (!load_cached(layout, p)) pending.push_back(p);
  sum.cached = pairs.size() - pending.size();
  fmt::print(opts.progress_out, "{} pairs ({} workloads x {} schedulers): {} cached, {} to run on {}\n",
             pairs.size(), opts.spec.workloads.size(), opts.spec.schedulers.size(), sum.cached, pending.size(),
             opts.backend == "local" ? fmt::format("{} local job{}", jobs, jobs == 1 ? "" : "s") : "Slurm");
  std::fflush(opts.progress_out);

  Progress progress(pairs.size(), sum.cached, opts.tty, opts.progress_out);
  std::vector<PairOutcome> outcomes;
  if (!pending.empty()) {
    outcomes = opts.backend == "slurm" ? run_pairs_slurm(pending, layout, gpu_file, exe, opts.slurm, &progress)
                                       : run_pairs_local(pending, layout, gpu_file, exe, jobs, &progress);
    progress.done();
  }
  sum.ran = pending.size();

  Comparison& c = sum.comparison;
  c.gpu = opts.spec.gpu.name;
  c.size = opts.spec.size;
  c.seed = opts.spec.seed;
  c.baseline = opts.baseline;
  c.oracle_set = opts.oracle;
  for (const auto& s : opts.spec.schedulers)
    if (std::find(c.schedulers.begin(), c.schedulers.end(), s.name) == c.schedulers.end())
      c.schedulers.push_back(s.name);
  for (size_t i = 0; i < pending.size(); ++i) {
    if (outcomes[i].ok) continue;
    ++sum.failed;
    std::string msg = outcomes[i].message;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    c.failures.push_back(fmt::format("{} / {}: {}\n  (log: {})", pending[i].workload_name, pending[i].scheduler.name,
                                     msg, layout.log_file(pending[i])));
  }
  for (const auto& p : pairs) {
    auto run = load_cached(layout, p);
    if (!run) continue;
    for (auto& row : tidy_rows(p, *run)) c.rows.push_back(std::move(row));
    c.ipc.push_back(ipc_series_of(p.workload_name, p.scheduler.name, *run));
  }
  c.finish();

  write_file_atomic((fs::path(layout.dir()) / "results.csv").string(), to_csv(c.rows));
  write_file_atomic((fs::path(layout.dir()) / "results.jsonl").string(), to_jsonl(c.rows));
  sum.summary = text_summary(c);
  write_file_atomic((fs::path(layout.dir()) / "summary.txt").string(), sum.summary);
  sum.report = write_report(c, layout.dir());
  return sum;
}

}  // namespace warpsim::experiment

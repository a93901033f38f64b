// `warpsim compare`: every (workload, scheduler) pair of a suite, cached, in parallel or on a
// Slurm cluster, summarised as tables, metrics and an HTML report.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "cli/options.h"
#include "core/error.h"
#include "core/strings.h"
#include "experiment/compare.h"
#include "workloads/workload.h"
#include "workloads/workload_catalog.h"

namespace warpsim::cli {

namespace {

struct CompareArgs {
  std::string suite = "default";
  std::string size = "default";
  uint64_t seed = 1;
  GpuOptions gpu;
  std::string schedulers;
  std::vector<std::string> sched_params;
  std::string baseline = "lrr";
  std::string oracle = "lrr,gto,tl";
  bool no_ipaws_oracle = false;
  uint32_t perturb = 0;
  int jobs = 0;
  std::string out = "results/compare";
  std::string backend = "local";
  experiment::SlurmOptions slurm;
  std::string progress = "auto";
  // Internal: one Slurm array task.
  std::string run_task;
  int task_index = -1;
};

int compare(CompareArgs& a) {
  if (!a.run_task.empty()) {
    if (a.task_index < 0) throw Error("--run-task needs --task-index");
    return experiment::run_manifest_task(a.run_task, a.task_index, a.jobs > 0 ? a.jobs : 1,
                                         experiment::self_executable());
  }
  experiment::CompareOptions o;
  o.spec.workloads = experiment::parse_suite(a.suite, workload_catalog());
  o.resolve = [](const std::string& spec) {
    auto w = resolve_workload(spec);
    return experiment::WorkloadIdentity{w->name(), w->fingerprint()};
  };
  o.spec.gpu = a.gpu.load();
  o.spec.size = a.size;
  o.spec.seed = a.seed;
  std::vector<std::string> names = a.schedulers.empty() ? experiment::all_schedulers() : split_items(a.schedulers);
  if (names.empty()) throw Error("--schedulers names no scheduler");
  for (const auto& n : names) {
    find_scheduler(n);
    bool seen = false;
    for (const auto& s : o.spec.schedulers) seen |= s.name == n;
    if (!seen) o.spec.schedulers.push_back({n, {}});
  }
  for (const auto& item : a.sched_params) {
    auto colon = item.find(':');
    auto eq = item.find('=');
    if (colon == std::string::npos || eq == std::string::npos || colon == 0 || eq < colon + 2)
      throw Error(fmt::format("--sched-param '{}': expected SCHEDULER:key=value", item));
    std::string sched = item.substr(0, colon);
    bool found = false;
    for (auto& s : o.spec.schedulers)
      if (s.name == sched) {
        s.params[item.substr(colon + 1, eq - colon - 1)] = item.substr(eq + 1);
        found = true;
      }
    if (!found) throw Error(fmt::format("--sched-param '{}': scheduler '{}' is not in --schedulers", item, sched));
  }
  o.out_dir = a.out;
  o.baseline = a.baseline;
  o.oracle = split_items(a.oracle);
  o.ipaws_oracle = !a.no_ipaws_oracle;
  o.perturb = a.perturb;
  o.jobs = a.jobs;
  o.backend = a.backend;
  o.slurm = a.slurm;
  o.tty = a.progress == "bar" || (a.progress == "auto" && ::isatty(2));
  if (std::find(names.begin(), names.end(), o.baseline) == names.end())
    throw Error(fmt::format("--baseline '{}' is not in --schedulers", o.baseline));

  experiment::CompareSummary s = experiment::run_compare(o);
  fmt::print("\n{}\n", s.summary);
  fmt::print("pairs: {} total, {} cached, {} run, {} failed\n", s.total, s.cached, s.ran, s.failed);
  fmt::print("results: {0}/results.csv, {0}/results.jsonl\n", experiment::Layout(o.out_dir).dir());
  fmt::print("report: {}\n", s.report);
  if (s.failed) {
    fmt::print(stderr, "\n{} pair{} failed:\n", s.failed, s.failed == 1 ? "" : "s");
    for (const auto& f : s.comparison.failures) fmt::print(stderr, "{}\n", f);
    return 1;
  }
  return 0;
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto a = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "compare warp schedulers over a suite of workloads");
  cmd->add_option("--suite", a->suite, "'default' (every bundled workload) or WORKLOAD,... (names or paths)")
      ->capture_default_str();
  cmd->add_option("--size", a->size, "problem size: small | default | paper")->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the generated inputs")->capture_default_str();
  a->gpu.add(*cmd);
  cmd->add_option("--schedulers", a->schedulers, "comma-separated schedulers (default: every registered one)");
  cmd->add_option("--sched-param", a->sched_params, "SCHEDULER:key=value parameter (repeatable)");
  cmd->add_option("--baseline", a->baseline, "scheduler speedups are relative to")->capture_default_str();
  cmd->add_option("--oracle", a->oracle, "fixed schedulers the best-static-oracle column picks from")
      ->capture_default_str();
  cmd->add_flag("--no-ipaws-oracle", a->no_ipaws_oracle,
                "skip the ipaws_oracle column (otherwise run when the sweep has ipaws, lrr and gto)");
  cmd->add_option("--perturb", a->perturb,
                  "also run the sweep with every kernel started 1..N cycles later and report each launch's speedup "
                  "range (spread.csv, the summary)")
      ->check(CLI::Range(0u, 16u));
  cmd->add_option("--jobs,-j", a->jobs, "runs at a time (default: number of cores)");
  cmd->add_option("--out", a->out, "output directory (results, cache, report)")->capture_default_str();
  cmd->add_option("--backend", a->backend, "where runs execute")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  cmd->add_option("--progress", a->progress, "auto | bar | lines")
      ->check(CLI::IsMember({"auto", "bar", "lines"}))
      ->capture_default_str();
  add_slurm_options(*cmd, a->slurm);
  cmd->add_option("--run-task", a->run_task, "internal: run one task of a Slurm array manifest")->group("");
  cmd->add_option("--task-index", a->task_index, "internal: the task of --run-task")->group("");
  cmd->callback([a] {
    int rc = compare(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli

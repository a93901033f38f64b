// `warpsim search rlws|rlws_ms`: genetic search of the RL scheduler's design space (RLWS paper
// Sec. IV-H), with fitness from cached, parallel (or Slurm) harness runs; see docs/search.md.
#include <fmt/format.h>
#include <unistd.h>

#include <cmath>

#include "cli/options.h"
#include "core/error.h"
#include "experiment/sweep.h"
#include "search/search.h"
#include "workloads/workload.h"
#include "workloads/workload_catalog.h"

namespace warpsim::cli {

namespace {

// Six small training workloads of different character: GTO-friendly shared-memory kernels
// (scan, dxtc, backprop), LRR-friendly compute kernels (pc, montecarlo) and one where the
// learning cost shows most (binomial).
constexpr const char* kDefaultTrain = "scan,binomial,dxtc,pc,backprop,montecarlo";

struct SearchArgs {
  std::string scheduler;
  GpuOptions gpu;
  std::string train = kDefaultTrain;
  std::string size = "small";
  uint64_t input_seed = 1;
  std::string baseline = "lrr";
  uint32_t population = 100;
  uint32_t generations = 100;
  int newcomers = -1;
  uint32_t elite_period = 10;
  double mutation_rate = 0.25;
  double attr_probability = 0.25;
  uint64_t seed = 1;
  std::string final_suite = "default";
  size_t top = 10;
  std::string backend = "local";
  int jobs = 0;
  experiment::SlurmOptions slurm;
  std::string out;
  bool resume = false;
  std::string progress = "auto";
  int stop_after = -1;
};

int search(SearchArgs& a) {
  search::SearchOptions o;
  o.ga.population = a.population;
  o.ga.generations = a.generations;
  o.ga.newcomers =
      a.newcomers >= 0 ? uint32_t(a.newcomers) : std::max<uint32_t>(1, uint32_t(std::lround(a.population / 10.0)));
  o.ga.elite_period = a.elite_period;
  o.ga.mutation_rate = a.mutation_rate;
  o.ga.attr_probability = a.attr_probability;
  o.ga.seed = a.seed;
  const auto& catalog = workload_catalog();
  o.train = experiment::parse_suite(a.train, catalog);
  if (a.final_suite != "none") o.final_suite = experiment::parse_suite(a.final_suite, catalog);
  o.top = a.top;
  o.resume = a.resume;
  o.eval.scheduler = a.scheduler;
  find_scheduler(a.baseline);
  o.eval.baseline = {a.baseline, {}};
  o.eval.gpu = a.gpu.load();
  o.eval.size = a.size;
  o.eval.input_seed = a.input_seed;
  o.eval.dir = a.out.empty() ? "results/search-" + a.scheduler : a.out;
  o.eval.resolve = [](const std::string& spec) {
    auto w = resolve_workload(spec);
    return experiment::WorkloadIdentity{w->name(), w->fingerprint()};
  };
  o.eval.backend = a.backend;
  o.eval.jobs = a.jobs;
  o.eval.slurm = a.slurm;
  bool tty = ::isatty(2);
  if (a.progress == "bar" || (a.progress == "auto" && tty)) {
    o.eval.progress_out = stderr;
    o.eval.tty = true;
  } else if (a.progress == "lines") {
    o.eval.progress_out = stderr;
  }
  auto r = search::run_search(o, a.stop_after);
  if (!r.finished) {
    fmt::print("stopped after {} of {} generations; continue with --resume\n", r.generations.size(), o.ga.generations);
  }
  // With a final suite, best.toml is the top candidate best on it, not always the best on training.
  fmt::print("\n{} {:.4f} (the paper's defaults: {:.4f}): {}\n",
             r.final_rows.empty() ? "best training fitness" : "best.toml (best on the final suite), training fitness",
             r.best_train_fitness, r.defaults_train_fitness, search::describe(r.best));
  if (!r.final_rows.empty()) {
    fmt::print("\nfinal suite ({} workloads), geomean speedup over {}:\n", o.final_suite.size(), a.baseline);
    fmt::print("{:>8}  {:>8}  {:>8}  {:>8}  {:>8}\n", "rank", "training", "suite", "train", "held-out");
    for (const auto& f : r.final_rows) {
      auto n = [](double v) { return std::isfinite(v) ? fmt::format("{:.4f}", v) : std::string("-"); };
      fmt::print("{:>8}  {:>8}  {:>8}  {:>8}  {:>8}\n", f.label, n(f.train_fitness), f.ok ? n(f.suite) : "failed",
                 n(f.train), n(f.heldout));
    }
  }
  fmt::print("\nsimulations: {} run ({} failed, {:.1f} s in total, {:.3f} s each), {} cached; wall time {:.0f} s\n",
             r.runs, r.failed_runs, r.run_seconds, r.runs ? r.run_seconds / double(r.runs) : 0.0, r.cache_hits,
             r.wall_seconds);
  fmt::print("best configuration: {} (use with --rl-config)\nreport: {}\n", r.best_file, r.report_file);
  return 0;
}

void add_search_command(CLI::App& app) {
  auto a = std::make_shared<SearchArgs>();
  auto* cmd = app.add_subcommand("search", "genetic search of the RLWS / RLWS_MS design space");
  cmd->add_option("scheduler", a->scheduler, "rlws | rlws_ms")->required()->check(CLI::IsMember({"rlws", "rlws_ms"}));
  a->gpu.add(*cmd);
  cmd->add_option("--train", a->train, "training workloads (names or paths, comma-separated)")->capture_default_str();
  cmd->add_option("--size", a->size, "problem size of every run: small | default | paper")->capture_default_str();
  cmd->add_option("--input-seed", a->input_seed, "seed of the workloads' generated inputs")->capture_default_str();
  cmd->add_option("--baseline", a->baseline, "scheduler the fitness is a speedup over")->capture_default_str();
  cmd->add_option("--population", a->population, "candidates per generation")
      ->check(CLI::Range(2u, 100000u))
      ->capture_default_str();
  cmd->add_option("--generations", a->generations, "generations, the random initial one included")
      ->check(CLI::Range(1u, 100000u))
      ->capture_default_str();
  cmd->add_option("--newcomers", a->newcomers, "random candidates per generation (default: a tenth of the population)");
  cmd->add_option("--elite-period", a->elite_period, "every this many generations the newcomers are the best so far")
      ->check(CLI::Range(1u, 100000u))
      ->capture_default_str();
  cmd->add_option("--mutation-rate", a->mutation_rate, "mutation probability of a child of average parents")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--attr-probability", a->attr_probability, "chance a random candidate uses a given attribute")
      ->check(CLI::Range(0.001, 1.0))
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the search")->capture_default_str();
  cmd->add_option("--final-suite", a->final_suite,
                  "workloads the top candidates are re-evaluated on: 'default' (every bundled workload), a list, or "
                  "'none'")
      ->capture_default_str();
  cmd->add_option("--top", a->top, "candidates re-evaluated on the final suite")
      ->check(CLI::Range(size_t(1), size_t(100000)))
      ->capture_default_str();
  cmd->add_option("--backend", a->backend, "where runs execute")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  cmd->add_option("--jobs,-j", a->jobs, "runs at a time (default: number of cores)");
  cmd->add_option("--out", a->out, "output directory (default: results/search-SCHEDULER)");
  cmd->add_flag("--resume", a->resume, "continue the search saved in --out");
  cmd->add_option("--progress", a->progress, "per-run progress: auto | bar | lines | none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}))
      ->capture_default_str();
  add_slurm_options(*cmd, a->slurm);
  cmd->add_option("--stop-after", a->stop_after, "make at most this many new generations, then stop (resumable)")
      ->check(CLI::Range(0, 100000));
  cmd->callback([a] {
    int rc = search(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const CommandRegistrar reg{"search", add_search_command};

}  // namespace

}  // namespace warpsim::cli

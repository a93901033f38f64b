// `warpsim correlate`: warpsim against reference results (GPGPU-Sim logs, a CSV table, Nsight
// Compute), per kernel launch, per GPU preset and scheduler; `warpsim correlate import` turns
// GPGPU-Sim logs or Nsight Compute CSV into a reference table. docs/correlate.md.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/options.h"
#include "config/config_loader.h"
#include "core/error.h"
#include "experiment/correlate.h"
#include "experiment/microbench.h"

namespace warpsim::cli {

namespace {

struct CorrelateArgs {
  std::vector<std::string> refs;
  int jobs = 0;
  std::string backend = "local";
  experiment::SlurmOptions slurm;
  std::string cache = "results/correlate";
  std::string out;
  double max_mae = -1;
  std::vector<std::string> gpus, schedulers;
  std::string hw_scheduler = "gto";
  std::vector<std::string> sets;
  std::vector<std::string> presets;
  uint32_t perturb = 0;
  std::vector<std::string> perturbed_refs;
  std::string programs;
  std::string progress = "auto";
};

struct ImportArgs {
  std::vector<std::string> sources;
  bool ncu = false;
  std::string workload, size = "default", gpu;
};

struct MicrobenchArgs {
  std::string output, ncu, json;
  double clock_mhz = 0;
};

// Figures of bench/gpu/microbench.cu from its launch lines and the cycles of each launch.
int microbench(const MicrobenchArgs& a) {
  if (a.ncu.empty() == a.json.empty()) throw Error("correlate microbench needs one of --ncu and --json");
  auto launches = experiment::parse_microbench_launches(experiment::read_text(a.output), a.output);
  std::vector<double> cycles;
  double clock_mhz = a.clock_mhz;
  if (!a.ncu.empty()) {
    auto t = experiment::read_ncu_csv(a.ncu, "microbench", "default", "hw");
    double hz = 0;
    for (const auto& r : t.rows) {
      cycles.push_back(r.cycles);
      if (auto it = r.counters.find("gpc__cycles_elapsed.avg.per_second"); it != r.counters.end()) hz += it->second;
    }
    if (clock_mhz <= 0 && hz > 0) clock_mhz = hz / double(t.rows.size()) / 1e6;
  } else {
    std::string gpu;
    try {
      auto j = nlohmann::json::parse(experiment::read_text(a.json));
      for (const auto& k : j.at("kernels")) cycles.push_back(k.at("cycles").get<double>());
      gpu = j.at("gpu").get<std::string>();
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{}: not the --json of `warpsim exec` ({})", a.json, e.what()));
    }
    if (clock_mhz <= 0) clock_mhz = load_preset(gpu).clock_mhz;
  }
  if (clock_mhz <= 0) throw Error("correlate microbench: no clock (pass --clock-mhz)");
  auto figures = experiment::microbench_figures(launches, cycles, clock_mhz / 1000.0);
  fmt::print("# clock {:.1f} MHz\n", clock_mhz);
  for (const auto& [name, f] : figures)
    fmt::print("{}\t{:.3f}\t{}\n", name, f.value, experiment::microbench_unit(f.kind));
  return 0;
}

int correlate(const CorrelateArgs& a) {
  experiment::CorrelateOptions o;
  for (const auto& r : a.refs) experiment::merge_reference(o.reference, experiment::load_reference(r));
  o.gpus = a.gpus;
  o.schedulers = a.schedulers;
  o.hw_scheduler = a.hw_scheduler;
  o.overrides = a.sets;
  for (const auto& p : a.presets) {
    auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == p.size())
      throw Error(fmt::format("--preset '{}': expected NAME=FILE (a reference GPU name and a GPU file or preset)", p));
    o.presets[p.substr(0, eq)] = p.substr(eq + 1);
  }
  o.perturb = a.perturb;
  o.programs_dir = a.programs;
  for (const auto& p : a.perturbed_refs) {
    auto eq = p.find('=');
    uint32_t offset = 0;
    try {
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("no '='");
      size_t used = 0;
      unsigned long v = std::stoul(p.substr(0, eq), &used);
      if (used != eq || v == 0 || v > 1000000) throw std::out_of_range("offset");
      offset = uint32_t(v);
    } catch (const std::exception&) {
      throw Error(fmt::format(
          "--perturbed-reference '{}': expected OFFSET=PATH (the cycles added to each kernel's launch latency, "
          "a positive integer, and a reference that ran with them)",
          p));
    }
    auto it = std::find_if(o.perturbed_references.begin(), o.perturbed_references.end(),
                           [&](const auto& r) { return r.first == offset; });
    if (it == o.perturbed_references.end())
      it = o.perturbed_references.insert(o.perturbed_references.end(), {offset, {}});
    experiment::merge_reference(it->second, experiment::load_reference(p.substr(eq + 1)));
  }
  o.cache_dir = a.cache;
  o.out_dir = a.out;
  o.jobs = a.jobs;
  o.backend = a.backend;
  o.slurm = a.slurm;
  o.tty = a.progress == "bar" || (a.progress == "auto" && ::isatty(2));
  auto res = experiment::run_correlate(o);
  fmt::print("{}", res.text);
  fmt::print("\nruns: {} total, {} cached, {} run, {} failed\n", res.pairs, res.cached, res.ran, res.failed);
  if (!a.out.empty())
    fmt::print("outputs: {0}/correlate.csv, {0}/schedulers.csv, {0}/summary.csv, {0}/correlate.html\n", a.out);
  int rc = 0;
  if (res.correlation.matched.empty()) {
    fmt::print(stderr, "error: no reference kernel launch was matched by a warpsim result\n");
    rc = 1;
  }
  if (a.max_mae >= 0) {
    for (const auto& p : res.correlation.presets) {
      if (p.gpu == "all" || p.cycles.n == 0) continue;
      if (p.cycles.mae_pct > a.max_mae) {
        fmt::print(stderr, "correlate: {} MAE {:.2f} % exceeds --max-mae {} %\n", p.gpu, p.cycles.mae_pct, a.max_mae);
        rc = 1;
      }
    }
    if (rc == 0) fmt::print("every preset's MAE is within --max-mae {} %\n", a.max_mae);
  }
  return rc;
}

int import(const ImportArgs& a) {
  experiment::ReferenceTable t;
  for (const auto& s : a.sources) {
    if (a.ncu) {
      if (a.workload.empty() || a.gpu.empty()) throw Error("import --ncu needs --workload and --gpu");
      experiment::merge_reference(t, experiment::read_ncu_csv(s, a.workload, a.size, a.gpu));
    } else {
      experiment::merge_reference(t, experiment::load_reference(s));
    }
  }
  fmt::print("{}", experiment::reference_to_csv(t));
  return 0;
}

void add_correlate_command(CLI::App& app) {
  auto a = std::make_shared<CorrelateArgs>();
  auto* cmd =
      app.add_subcommand("correlate", "compare warpsim's cycles with reference results (GPGPU-Sim logs, CSV tables)");
  cmd->add_option("refs", a->refs,
                  "reference: a CSV table (workload,size,gpu,scheduler,kernel,launch,cycles[,counters]) or a "
                  "GPGPU-Sim log directory <gpu>/<scheduler>/<workload>.<size>.log");
  cmd->add_option("--jobs,-j", a->jobs, "runs at a time (default: number of cores)");
  cmd->add_option("--backend", a->backend, "where runs execute")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  add_slurm_options(*cmd, a->slurm);
  cmd->add_option("--cache", a->cache, "harness directory of cached runs")->capture_default_str();
  cmd->add_option("--out", a->out, "write correlate.csv, schedulers.csv, summary.csv and correlate.html here");
  cmd->add_option("--max-mae", a->max_mae, "exit with status 1 when a preset's MAE (%) exceeds this")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--gpu", a->gpus, "only this GPU preset of the reference (repeatable)")->allow_extra_args(false);
  cmd->add_option("--scheduler", a->schedulers, "only this scheduler of the reference (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--hw-scheduler", a->hw_scheduler, "warpsim scheduler for reference rows of scheduler 'hw'")
      ->capture_default_str();
  cmd->add_option("--set", a->sets,
                  "override a configuration key of every preset, KEY=VALUE (repeatable): ablations of one "
                  "mechanism")
      ->allow_extra_args(false);
  cmd->add_option("--preset", a->presets,
                  "run the reference's GPU NAME as this GPU file or preset, NAME=FILE (repeatable; default: the "
                  "preset named NAME)")
      ->allow_extra_args(false);
  cmd->add_option("--perturb", a->perturb,
                  "also run everything N more times with the kernel launch latency raised by 1..N cycles, and "
                  "report per launch the range of warpsim's speedups over LRR those runs span")
      ->check(CLI::Range(0, 16));
  cmd->add_option("--perturbed-reference", a->perturbed_refs,
                  "OFFSET=PATH: the reference run again with each kernel's launch latency raised by OFFSET cycles "
                  "(repeatable); its speedups over LRR widen the reference's range per launch")
      ->allow_extra_args(false);
  cmd->add_option("--programs", a->programs,
                  "run each reference workload as the CUDA program of its name in this directory under `warpsim "
                  "exec` (the binaries the reference ran) instead of the bundled workload");
  cmd->add_option("--progress", a->progress, "auto | bar | lines")
      ->check(CLI::IsMember({"auto", "bar", "lines"}))
      ->capture_default_str();

  auto ia = std::make_shared<ImportArgs>();
  auto* imp = cmd->add_subcommand("import", "write a reference table (CSV, stdout) from GPGPU-Sim logs or ncu CSV");
  imp->add_option("sources", ia->sources, "GPGPU-Sim log directories or CSV tables; with --ncu, ncu CSV files")
      ->required();
  imp->add_flag("--ncu", ia->ncu, "the sources are `ncu --csv --metrics gpc__cycles_elapsed.max` output");
  imp->add_option("--workload", ia->workload, "with --ncu: the workload the program ran");
  imp->add_option("--size", ia->size, "with --ncu: its size")->capture_default_str();
  imp->add_option("--gpu", ia->gpu, "with --ncu: the warpsim GPU preset the GPU corresponds to");
  imp->callback([ia] {
    int rc = import(*ia);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });

  auto ma = std::make_shared<MicrobenchArgs>();
  auto* mb = cmd->add_subcommand("microbench",
                                 "figures of bench/gpu/microbench.cu from its output and each launch's cycles "
                                 "(ncu CSV from a GPU, or warpsim --json)");
  mb->add_option("output", ma->output, "the program's standard output (its launch lines)")->required();
  mb->add_option("--ncu", ma->ncu, "`ncu --csv --metrics gpc__cycles_elapsed.max` of the same run");
  mb->add_option("--json", ma->json, "`warpsim exec --json` of the same run");
  mb->add_option("--clock-mhz", ma->clock_mhz,
                 "SM clock for bandwidths (default: ncu's gpc__cycles_elapsed.avg.per_second, or the preset's)");
  mb->callback([ma] {
    int rc = microbench(*ma);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });

  cmd->callback([a, cmd] {
    if (cmd->got_subcommand("import") || cmd->got_subcommand("microbench")) return;
    if (a->refs.empty()) throw CLI::RequiredError("refs");
    int rc = correlate(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const CommandRegistrar reg{"correlate", add_correlate_command};

}  // namespace

}  // namespace warpsim::cli

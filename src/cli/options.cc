#include "cli/options.h"

#include <fmt/format.h>

#include "config/config_loader.h"
#include "core/error.h"

namespace warpsim::cli {

std::vector<std::pair<std::string, std::string>> split_kv(const std::vector<std::string>& items,
                                                          const std::string& what) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& it : items) {
    auto eq = it.find('=');
    if (eq == std::string::npos || eq == 0) throw Error(fmt::format("{} '{}': expected key=value", what, it));
    out.emplace_back(it.substr(0, eq), it.substr(eq + 1));
  }
  return out;
}

void GpuOptions::add(CLI::App& app) {
  app.add_option("--gpu", gpu, "GPU preset name or TOML file (see `warpsim list gpus`)")->capture_default_str();
  app.add_option("--gpgpusim-config", gpgpusim_config, "import a GPGPU-Sim gpgpusim.config instead of a preset");
  // One value per --set (repeatable): a vector option would otherwise take the values that follow
  // it and read a "--" as the end of its own list, leaving `warpsim exec`'s program arguments to be
  // parsed as options.
  app.add_option("--set", sets, "override a configuration key: --set l1d.size=32K (repeatable)")
      ->allow_extra_args(false);
}

GpuConfig GpuOptions::load() const {
  GpuConfig cfg;
  if (!gpgpusim_config.empty()) {
    std::vector<std::string> unknown;
    cfg = import_gpgpusim_config(gpgpusim_config, &unknown);
    if (!unknown.empty()) {
      std::string list;
      for (const auto& u : unknown) list += (list.empty() ? "" : ", ") + u;
      fmt::print(stderr, "warning: {}: options not understood and ignored: {}\n", gpgpusim_config, list);
    }
  } else {
    cfg = load_preset(gpu);
  }
  apply_overrides(cfg, sets);
  validate(cfg);
  return cfg;
}

void SchedOptions::add(CLI::App& app, const std::string& default_scheduler) {
  scheduler = default_scheduler;
  app.add_option("--scheduler,-s", scheduler, "warp scheduler (see `warpsim list schedulers`)")->capture_default_str();
  app.add_option("--sched-param", params, "scheduler parameter key=value (repeatable)")->allow_extra_args(false);
  app.add_option("--rl-config", rl_config, "RLWS/RLWS_MS configuration TOML (same as --sched-param rl_config=FILE)");
}

SchedulerParams SchedOptions::load() const {
  find_scheduler(scheduler);  // unknown names fail here with the list of valid ones
  SchedulerParams p;
  for (auto& [k, v] : split_kv(params, "--sched-param")) p.set(k, v);
  if (!rl_config.empty()) p.set("rl_config", rl_config);
  return p;
}

void add_slurm_options(CLI::App& cmd, experiment::SlurmOptions& slurm) {
  cmd.add_option("--slurm-max-tasks", slurm.max_tasks, "largest job array; runs are chunked over its tasks")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd.add_option("--slurm-retries", slurm.retries, "resubmissions of tasks that left runs without a result")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  cmd.add_option("--slurm-cpus", slurm.cpus_per_task, "CPUs per task (runs each task makes at a time)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd.add_option("--slurm-partition", slurm.partition, "sbatch --partition");
  cmd.add_option("--slurm-time", slurm.time_limit, "sbatch --time");
  cmd.add_option("--slurm-arg", slurm.extra, "extra sbatch argument (repeatable)");
  cmd.add_option("--slurm-poll", slurm.poll_seconds, "seconds between queue polls")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
}

}  // namespace warpsim::cli

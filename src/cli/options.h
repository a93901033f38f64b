// Options shared by the subcommands that simulate: GPU preset and overrides, scheduler.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/config.h"
#include "experiment/slurm.h"
#include "sched/scheduler.h"

namespace warpsim::cli {

struct GpuOptions {
  std::string gpu = "gtx480";
  std::string gpgpusim_config;
  std::vector<std::string> sets;
  void add(CLI::App& app);
  GpuConfig load() const;  // preset (or imported config) with --set applied and validated
};

struct SchedOptions {
  std::string scheduler = "gto";
  std::vector<std::string> params;
  std::string rl_config;
  void add(CLI::App& app, const std::string& default_scheduler = "gto");
  SchedulerParams load() const;
};

// --slurm-* options of the commands that can run on Slurm (compare, search).
void add_slurm_options(CLI::App& cmd, experiment::SlurmOptions& slurm);

// key=value list to a map; throws Error on an item without '='.
std::vector<std::pair<std::string, std::string>> split_kv(const std::vector<std::string>& items,
                                                          const std::string& what);

void add_run_command(CLI::App& app);
void add_list_command(CLI::App& app);
void add_compare_command(CLI::App& app);

// Further subcommands register themselves from their own file:
//   static const warpsim::cli::CommandRegistrar reg{"qos", add_qos_command};
// main() adds them after run, list and compare, in name order.
using AddCommand = void (*)(CLI::App&);
struct CommandRegistrar {
  CommandRegistrar(const char* name, AddCommand add);
};
void add_registered_commands(CLI::App& app);

}  // namespace warpsim::cli

#include <fmt/format.h>

#include "cli/options.h"
#include "config/config_loader.h"
#include "sched/scheduler.h"
#include "synth/kernel_text.h"
#include "timing/gpgpusim_names.h"
#include "timing/statistics.h"
#include "workloads/workload_catalog.h"

namespace warpsim::cli {

void add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "list GPU presets, schedulers or workloads");
  auto what = std::make_shared<std::string>();
  auto gpu = std::make_shared<GpuOptions>();
  cmd->add_option("what", *what,
                  "gpus | schedulers (with their parameters) | workloads | params (every scheduler parameter, as a "
                  "markdown table) | keys (every configuration key, as a markdown table) | stats (every statistic of a "
                  "run, and the GPGPU-Sim counters made of them, as markdown tables) | "
                  "config (the GPU chosen by --gpu, --gpgpusim-config and --set, as a complete TOML file)")
      ->required()
      ->check(CLI::IsMember({"gpus", "schedulers", "workloads", "params", "keys", "stats", "config"}));
  gpu->add(*cmd);
  cmd->callback([what, gpu] {
    if (*what == "config") {
      fmt::print("{}", dump_toml(gpu->load()));
    } else if (*what == "gpus") {
      for (const auto& name : list_presets()) {
        GpuConfig c = load_preset(name);
        fmt::print("{:<10} {:>3} SMs x {} schedulers, {} warps/SM, L1D {} KB, L2 {} KB, {} MHz\n", name, c.core.num_sms,
                   c.core.schedulers, c.core.max_warps, c.l1d.size / 1024,
                   c.l2.cache.size * c.l2.partitions * c.l2.slices_per_partition / 1024, c.clock_mhz);
      }
    } else if (*what == "params") {
      fmt::print("{}", scheduler_params_markdown());
    } else if (*what == "keys") {
      fmt::print("{}", config_keys_markdown(list_presets()));
    } else if (*what == "stats") {
      fmt::print("{}\n{}", stats_markdown(), gpgpusim_counters_markdown());
    } else if (*what == "schedulers") {
      for (const auto& f : scheduler_registry()) {
        fmt::print("{:<10} {}\n", f.name, f.description);
        for (const auto& p : f.params)
          fmt::print("    {:<18} {:<14} {}\n", p.name, p.default_value.empty() ? "-" : p.default_value, p.help);
      }
    } else {
      print_workload_catalog();
    }
  });
}

}  // namespace warpsim::cli

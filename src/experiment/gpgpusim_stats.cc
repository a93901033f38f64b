#include "experiment/gpgpusim_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "experiment/correlate.h"
#include "experiment/results.h"
#include "timing/gpgpusim_names.h"

namespace warpsim::experiment {

std::string gpgpusim_stats_text(const nlohmann::json& run) {
  const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json& kernels = run.contains("kernels") ? run["kernels"] : empty;
  // Launch uids in launch order (the array's order); blocks in completion order.
  std::vector<size_t> order(kernels.size());
  std::iota(order.begin(), order.end(), size_t(0));
  auto end_of = [&](size_t i) { return kernels[i].value("end_cycle", uint64_t(0)); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return end_of(a) < end_of(b); });
  const GpgpusimCounter* insn = find_gpgpusim_counter("thread_insts");
  std::string out;
  double tot_cycles = 0, tot_insn = 0;
  std::map<std::string, double> totals;  // counter name -> running total
  for (size_t i : order) {
    const nlohmann::json& k = kernels[i];
    nlohmann::json row = nlohmann::json::object();
    flatten(k, "", row);
    auto counter = [&](const char* name) { return warpsim_counter(row, name).value_or(0.0); };
    const double cycles = double(k.value("kernel_cycles", uint64_t(0)));
    const double launch_insn = counter(insn->name);
    tot_cycles += cycles;
    tot_insn += launch_insn;
    out += fmt::format("kernel_name = {} \n", k.value("name", std::string("?")));
    out += fmt::format("kernel_launch_uid = {} \n", i + 1);
    out += fmt::format("gpu_sim_cycle = {:.0f}\n", cycles);
    out += fmt::format("{} = {:.0f}\n", insn->gpgpusim, launch_insn);
    out += fmt::format("gpu_ipc = {:12.4f}\n", cycles > 0 ? launch_insn / cycles : 0.0);
    out += fmt::format("gpu_tot_sim_cycle = {:.0f}\n", tot_cycles);
    out += fmt::format("gpu_tot_sim_insn = {:.0f}\n", tot_insn);
    out += fmt::format("gpu_tot_ipc = {:12.4f}\n", tot_cycles > 0 ? tot_insn / tot_cycles : 0.0);
    for (const GpgpusimCounter& c : gpgpusim_counters()) {
      if (!c.cumulative) continue;
      double& total = totals[c.name];
      total += counter(c.name);
      out += fmt::format("{}{} = {:.0f}\n", c.indent, c.gpgpusim, total);
      if (c.miss_rate) {
        const double of = totals[c.rate_of];
        out += fmt::format("{}{} = {:.4f}\n", c.indent, c.miss_rate, of > 0 ? total / of : 0.0);
      }
    }
  }
  out += "GPGPU-Sim: *** exit detected ***\n";
  return out;
}

}  // namespace warpsim::experiment

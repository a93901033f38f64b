#include "experiment/gpgpusim_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "experiment/correlate.h"
#include "experiment/results.h"

namespace warpsim::experiment {

namespace {

double counter(const nlohmann::json& row, const char* name) { return warpsim_counter(row, name).value_or(0.0); }

}  // namespace

std::string gpgpusim_stats_text(const nlohmann::json& run) {
  const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json& kernels = run.contains("kernels") ? run["kernels"] : empty;
  // Launch uids in launch order (the array's order); blocks in completion order.
  std::vector<size_t> order(kernels.size());
  std::iota(order.begin(), order.end(), size_t(0));
  auto end_of = [&](size_t i) { return kernels[i].value("end_cycle", uint64_t(0)); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return end_of(a) < end_of(b); });
  std::string out;
  double tot_cycles = 0, tot_insn = 0;
  double l1d_acc = 0, l1d_miss = 0, l2_acc = 0, l2_miss = 0, dram_rd = 0, dram_wr = 0;
  for (size_t i : order) {
    const nlohmann::json& k = kernels[i];
    nlohmann::json row = nlohmann::json::object();
    flatten(k, "", row);
    const double cycles = double(k.value("kernel_cycles", uint64_t(0)));
    const double insn = double(k.value("thread_insts", uint64_t(0)));
    tot_cycles += cycles;
    tot_insn += insn;
    l1d_acc += counter(row, "l1d_accesses");
    l1d_miss += counter(row, "l1d_misses");
    l2_acc += counter(row, "l2_accesses");
    l2_miss += counter(row, "l2_misses");
    dram_rd += counter(row, "dram_reads");
    dram_wr += counter(row, "dram_writes");
    out += fmt::format("kernel_name = {} \n", k.value("name", std::string("?")));
    out += fmt::format("kernel_launch_uid = {} \n", i + 1);
    out += fmt::format("gpu_sim_cycle = {:.0f}\n", cycles);
    out += fmt::format("gpu_sim_insn = {:.0f}\n", insn);
    out += fmt::format("gpu_ipc = {:12.4f}\n", cycles > 0 ? insn / cycles : 0.0);
    out += fmt::format("gpu_tot_sim_cycle = {:.0f}\n", tot_cycles);
    out += fmt::format("gpu_tot_sim_insn = {:.0f}\n", tot_insn);
    out += fmt::format("gpu_tot_ipc = {:12.4f}\n", tot_cycles > 0 ? tot_insn / tot_cycles : 0.0);
    out += fmt::format("\tL1D_total_cache_accesses = {:.0f}\n", l1d_acc);
    out += fmt::format("\tL1D_total_cache_misses = {:.0f}\n", l1d_miss);
    out += fmt::format("\tL1D_total_cache_miss_rate = {:.4f}\n", l1d_acc > 0 ? l1d_miss / l1d_acc : 0.0);
    out += fmt::format("L2_total_cache_accesses = {:.0f}\n", l2_acc);
    out += fmt::format("L2_total_cache_misses = {:.0f}\n", l2_miss);
    out += fmt::format("L2_total_cache_miss_rate = {:.4f}\n", l2_acc > 0 ? l2_miss / l2_acc : 0.0);
    out += fmt::format("total dram reads = {:.0f}\n", dram_rd);
    out += fmt::format("total dram writes = {:.0f}\n", dram_wr);
  }
  out += "GPGPU-Sim: *** exit detected ***\n";
  return out;
}

}  // namespace warpsim::experiment

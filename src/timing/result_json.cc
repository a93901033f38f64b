// JSON form of a run: the statistics objects come from their declarations (timing/statistics.h);
// docs/statistics.md documents them.
#include <nlohmann/json.hpp>

#include "timing/gpu.h"
#include "timing/statistics.h"

namespace warpsim {

namespace {

double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }

}  // namespace

nlohmann::json Gpu::to_json() const {
  using nlohmann::json;
  json j;
  j["gpu"] = cfg_.name;
  j["scheduler"] = scheduler_;
  json params = json::object();
  for (const auto& [k, v] : params_.values()) params[k] = v;
  j["scheduler_params"] = params;
  const StatScale scale{cfg_.clock_mhz, cfg_.l2.partitions, cfg_.dram.bytes_per_cycle};
  j["total"] = stats_json(snapshot(), scale);
  json kernels = json::array();
  for (const KernelStats& ks : kernel_stats_) {
    const KernelResult& r = ks.result;
    json k = stats_json(ks.stats, scale);
    k["name"] = r.name;
    k["launch"] = r.launch_index;
    k["stream"] = r.stream;
    k["grid"] = {r.grid.x, r.grid.y, r.grid.z};
    k["block"] = {r.block.x, r.block.y, r.block.z};
    k["launch_cycle"] = r.launch_cycle;
    k["start_cycle"] = r.start_cycle;
    k["end_cycle"] = r.end_cycle;
    k["response_time"] = r.end_cycle - r.launch_cycle;
    k["kernel_cycles"] = r.end_cycle - r.start_cycle;
    k["warp_insts"] = r.warp_insts;  // exact per kernel even when kernels overlap
    k["thread_insts"] = r.thread_insts;
    k["ipc"] = ratio(r.warp_insts, r.end_cycle - r.start_cycle);
    kernels.push_back(std::move(k));
  }
  j["kernels"] = kernels;
  json series = json::array();
  for (const IpcSample& s : ipc_) series.push_back({s.cycle, s.ipc});
  j["ipc_series"] = {{"interval", cfg_.sample_interval}, {"samples", series}};
  j["scheduler_report"] = scheduler_report();
  return j;
}

}  // namespace warpsim

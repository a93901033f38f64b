// JSON form of a run's statistics (documented in docs/statistics.md).
#include <nlohmann/json.hpp>

#include "timing/gpu.h"

namespace warpsim {

namespace {

double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }

nlohmann::json stats_json(const StatsSnapshot& s, double clock_mhz, uint32_t channels, double peak_bpc) {
  using nlohmann::json;
  const CoreStats& c = s.core;
  const MemoryStats& m = s.mem;
  json j;
  j["cycles"] = s.cycle;
  j["warp_insts"] = c.warp_insts;
  j["thread_insts"] = c.thread_insts;
  j["ipc"] = ratio(c.warp_insts, s.cycle);
  json stalls = json::object();
  uint64_t total = 0;
  for (int i = 0; i < kNumCycleClasses; ++i) total += c.sched_cycles[i];
  for (int i = 0; i < kNumCycleClasses; ++i) stalls[std::string(cycle_class_name(CycleClass(i)))] = c.sched_cycles[i];
  json busy = json::object();
  for (int u = 0; u < kNumUnits; ++u) busy[std::string(unit_name(Unit(u)))] = c.unit_busy[u];
  stalls["unit_busy_by_unit"] = busy;
  stalls["scheduler_cycles"] = total;
  j["scheduler"] = stalls;
  json issued = json::object();
  for (int u = 0; u < kNumUnits; ++u) issued[std::string(unit_name(Unit(u)))] = c.issued_by_unit[u];
  j["issued_by_unit"] = issued;
  j["operand_collector"] = {{"bank_conflicts", c.reg_bank_conflicts}};
  j["l1d"] = {{"hits", c.l1d_hits},
              {"misses", c.l1d_misses},
              {"pending_hits", c.l1d_pending_hits},
              {"reservation_fails", c.l1d_fails},
              {"writes", c.l1d_writes},
              {"write_misses", c.l1d_write_misses},
              {"bank_conflicts", c.l1d_bank_conflicts},
              {"miss_rate", ratio(c.l1d_misses, c.l1d_hits + c.l1d_misses)}};
  j["icache"] = {{"hits", c.icache_hits},
                 {"misses", c.icache_misses},
                 {"miss_rate", ratio(c.icache_misses, c.icache_hits + c.icache_misses)}};
  j["const"] = {{"accesses", c.const_accesses}, {"misses", c.const_misses}};
  j["shared"] = {
      {"insts", c.shared_insts}, {"cycles", c.shared_cycles}, {"conflict_cycles", c.shared_cycles - c.shared_insts}};
  j["mem_insts"] = {{"global_loads", c.global_loads},
                    {"global_stores", c.global_stores},
                    {"atomics", c.atomics},
                    {"requests_below_l1", c.mem_requests}};
  uint64_t l2_acc = m.l2_reads + m.l2_writes, l2_hits = m.l2_read_hits + m.l2_write_hits;
  j["l2"] = {{"reads", m.l2_reads},
             {"read_hits", m.l2_read_hits},
             {"writes", m.l2_writes},
             {"write_hits", m.l2_write_hits},
             {"miss_rate", ratio(l2_acc - l2_hits, l2_acc)}};
  double seconds = clock_mhz > 0 ? double(s.cycle) / (clock_mhz * 1e6) : 0;
  j["dram"] = {{"reads", m.dram_reads},
               {"writes", m.dram_writes},
               {"row_hits", m.dram_row_hits},
               {"activates", m.dram_activates},
               {"row_hit_rate", ratio(m.dram_row_hits, m.dram_reads + m.dram_writes)},
               {"bytes", m.dram_bytes},
               {"bandwidth_gbs", seconds > 0 ? double(m.dram_bytes) / seconds / 1e9 : 0.0},
               {"bandwidth_utilization", ratio(m.dram_bytes, uint64_t(double(s.cycle) * peak_bpc * channels))}};
  j["avg_read_latency"] = ratio(m.read_latency_sum, m.reads_returned);
  j["ctas"] = c.ctas_done;
  return j;
}

}  // namespace

nlohmann::json Gpu::to_json() const {
  using nlohmann::json;
  json j;
  j["gpu"] = cfg_.name;
  j["scheduler"] = scheduler_;
  json params = json::object();
  for (const auto& [k, v] : params_.values()) params[k] = v;
  j["scheduler_params"] = params;
  j["total"] = stats_json(snapshot(), cfg_.clock_mhz, cfg_.l2.partitions, cfg_.dram.bytes_per_cycle);
  json kernels = json::array();
  for (const KernelStats& ks : kernel_stats_) {
    const KernelResult& r = ks.result;
    json k = stats_json(ks.stats, cfg_.clock_mhz, cfg_.l2.partitions, cfg_.dram.bytes_per_cycle);
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

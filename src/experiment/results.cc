#include "experiment/results.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "timing/stats.h"

namespace warpsim::experiment {

using nlohmann::json;

void flatten(const json& j, const std::string& prefix, json& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array()) {
    bool scalars = std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_primitive(); });
    if (!scalars) return;  // series and lists of records do not fit a row
    std::string s;
    for (const auto& e : j) {
      if (!s.empty()) s += 'x';
      s += e.is_string() ? e.get<std::string>() : e.dump();
    }
    out[prefix] = s;
  } else if (!j.is_null()) {
    out[prefix] = j;
  }
}

namespace {

std::string csv_field(const json& v) {
  std::string s;
  if (v.is_null()) return s;
  if (v.is_string()) {
    s = v.get<std::string>();
  } else if (v.is_number_float()) {
    s = fmt::format("{}", v.get<double>());
  } else {
    s = v.dump();
  }
  return csv_quote(s);
}

}  // namespace

std::vector<json> tidy_rows(const Pair& p, const json& run) {
  std::vector<json> rows;
  if (!run.contains("kernels") || !run["kernels"].is_array()) return rows;
  const json& kernels = run["kernels"];
  std::map<std::string, int> name_count;
  for (const auto& k : kernels) name_count[k.value("name", std::string("kernel"))]++;
  std::string params;
  for (const auto& [k, v] : p.scheduler.params) {
    if (!params.empty()) params += ';';
    params += k + "=" + v;
  }
  json sched_report = json::object();
  if (run.contains("scheduler_report")) flatten(run["scheduler_report"], "sched", sched_report);
  for (const auto& k : kernels) {
    json row = json::object();
    std::string name = k.value("name", std::string("kernel"));
    uint64_t launch = k.value("launch", uint64_t(0));
    std::string id = p.workload_name;
    if (kernels.size() > 1) {
      id += "/" + name;
      if (name_count[name] > 1) id += fmt::format("#{}", launch);
    }
    json flat = json::object();
    for (auto it = k.begin(); it != k.end(); ++it) {
      if (it.key() == "name") continue;  // the "kernel" column
      std::string key = it.key() == "scheduler" ? "stall" : it.key();
      flatten(it.value(), key, flat);
    }
    row = flat;
    row["workload"] = p.workload_name;
    row["kernel_id"] = id;
    row["kernel"] = name;
    row["launch"] = launch;
    row["scheduler"] = p.scheduler.name;
    row["sched_params"] = params;
    row["gpu"] = run.value("gpu", std::string());
    row["size"] = p.size;
    row["seed"] = p.seed;
    row["cycles"] = k.value("kernel_cycles", k.value("cycles", uint64_t(0)));
    for (auto it = sched_report.begin(); it != sched_report.end(); ++it) row[it.key()] = it.value();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

const std::vector<std::string>& result_csv_columns() {
  static const std::vector<std::string> cols = {
      // which run and which launch
      "workload", "kernel_id", "kernel", "launch", "scheduler", "sched_params", "gpu", "size", "seed", "stream", "grid",
      "block", "ctas",
      // time and work
      "cycles", "kernel_cycles", "launch_cycle", "start_cycle", "end_cycle", "response_time", "warp_insts",
      "thread_insts", "ipc",
      // scheduler cycles by class (stall breakdown), and unit-busy cycles by unit
      "stall.scheduler_cycles", "stall.issued", "stall.declined", "stall.unit_busy", "stall.raw", "stall.control",
      "stall.barrier", "stall.idle", "stall.no_warp", "stall.unit_busy_by_unit.sp", "stall.unit_busy_by_unit.sfu",
      "stall.unit_busy_by_unit.dp", "stall.unit_busy_by_unit.int", "stall.unit_busy_by_unit.mem",
      "stall.unit_busy_by_unit.branch",
      // issued warp instructions by unit
      "issued_by_unit.sp", "issued_by_unit.sfu", "issued_by_unit.dp", "issued_by_unit.int", "issued_by_unit.mem",
      "issued_by_unit.branch",
      // memory instructions and the memory hierarchy
      "mem_insts.global_loads", "mem_insts.global_stores", "mem_insts.atomics", "mem_insts.requests_below_l1",
      "avg_read_latency", "l1d.hits", "l1d.misses", "l1d.miss_rate", "l1d.pending_hits", "l1d.reservation_fails",
      "l1d.writes", "l1d.write_misses", "l1d.sector_accesses", "l1d.sector_misses", "l1d.bank_conflicts", "l2.reads",
      "l2.read_hits", "l2.read_pending_hits", "l2.writes", "l2.write_hits", "l2.miss_rate", "dram.reads", "dram.writes",
      "dram.read_atoms", "dram.write_atoms", "dram.bytes", "dram.activates", "dram.row_hits", "dram.row_hit_rate",
      "dram.bandwidth_gbs", "dram.bandwidth_utilization", "const.accesses", "const.misses", "icache.hits",
      "icache.misses", "icache.miss_rate", "shared.insts", "shared.cycles", "shared.conflict_cycles",
      "operand_collector.bank_conflicts"};
  return cols;
}

bool is_scheduler_report_key(const std::string& key) { return key.rfind("sched.", 0) == 0; }

std::string to_csv(const std::vector<json>& rows) {
  const auto& cols = result_csv_columns();
  std::string out;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i) out += ',';
    out += csv_field(cols[i]);
  }
  out += "\n";
  for (const auto& r : rows) {
    for (size_t i = 0; i < cols.size(); ++i) {
      if (i) out += ",";
      auto it = r.find(cols[i]);
      if (it != r.end()) out += csv_field(*it);
    }
    out += "\n";
  }
  return out;
}

std::string scheduler_report_csv(const std::vector<json>& rows) {
  static const std::vector<std::string> run_cols = {"workload", "scheduler", "sched_params", "gpu", "size", "seed"};
  std::string out;
  for (const auto& c : run_cols) out += c + ",";
  out += "key,value\n";
  std::set<std::string> runs_seen;
  for (const auto& r : rows) {
    std::string run;
    for (const auto& c : run_cols) {
      auto it = r.find(c);
      run += (it != r.end() ? csv_field(*it) : std::string()) + ",";
    }
    if (!runs_seen.insert(run).second) continue;  // every kernel of a run carries the same report
    for (auto it = r.begin(); it != r.end(); ++it)
      if (is_scheduler_report_key(it.key()))
        out += run + csv_quote(it.key().substr(6)) + "," + csv_field(it.value()) + "\n";
  }
  return out;
}

std::string to_jsonl(const std::vector<json>& rows) {
  std::string out;
  for (const auto& r : rows) out += r.dump() + "\n";
  return out;
}

CycleTable cycle_table(const std::vector<json>& rows, const std::vector<std::string>& schedulers) {
  CycleTable t;
  t.schedulers = schedulers;
  for (const auto& r : rows) {
    std::string s = r.value("scheduler", std::string());
    if (t.scheduler_index(s) < 0) continue;
    t.set(r.value("kernel_id", std::string()), s, r.value("cycles", 0.0));
  }
  return t;
}

std::string kernel_of(const json& row) {
  std::string id = row.value("kernel_id", std::string());
  std::string tail = fmt::format("#{}", row.value("launch", uint64_t(0)));
  if (id.size() > tail.size() && id.compare(id.size() - tail.size(), tail.size(), tail) == 0)
    return id.substr(0, id.size() - tail.size());
  return id;
}

KernelLaunches kernel_launches(const std::vector<json>& rows, const std::vector<std::string>& schedulers) {
  KernelLaunches out;
  out.table.schedulers = schedulers;
  std::map<std::string, size_t> index;
  std::vector<std::vector<double>> sums;
  std::vector<std::vector<std::set<std::string>>> seen;  // [kernel][scheduler]: launches with a result
  for (const auto& r : rows) {
    std::string k = kernel_of(r), id = r.value("kernel_id", std::string());
    auto [it, added] = index.emplace(k, out.table.kernels.size());
    if (added) {
      out.table.kernels.push_back(k);
      out.workloads.push_back(r.value("workload", std::string()));
      out.launches.emplace_back();
      sums.emplace_back(schedulers.size(), 0.0);
      seen.emplace_back(schedulers.size());
    }
    size_t ki = it->second;
    auto& ids = out.launches[ki];
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    int s = out.table.scheduler_index(r.value("scheduler", std::string()));
    double cycles = r.value("cycles", 0.0);
    if (s < 0 || !(cycles > 0) || !seen[ki][size_t(s)].insert(id).second) continue;
    sums[ki][size_t(s)] += cycles;
  }
  for (size_t k = 0; k < out.table.kernels.size(); ++k) {
    std::vector<double> row(schedulers.size(), std::nan(""));
    for (size_t s = 0; s < schedulers.size(); ++s)
      if (seen[k][s].size() == out.launches[k].size()) row[s] = sums[k][s];
    out.table.cycles.push_back(row);
  }
  return out;
}

std::vector<std::string> stall_classes(const std::vector<json>& rows) {
  std::vector<std::string> out;
  for (int c = 0; c < kNumCycleClasses; ++c) {
    std::string name(cycle_class_name(CycleClass(c)));
    bool seen = std::any_of(rows.begin(), rows.end(), [&](const json& r) { return r.contains("stall." + name); });
    if (seen) out.push_back(name);
  }
  return out;
}

}  // namespace warpsim::experiment

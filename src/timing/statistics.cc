#include "timing/statistics.h"

#include <fmt/format.h>

namespace warpsim {

namespace {

// Walks one block of counters (CoreStats or MemoryStats) of an object.
template <class T, class Obj, class Fn>
struct EachCounter {
  Obj& obj;  // T or const T
  Fn fn;     // fn(key, field reference, help, output)
  void operator()(const char* key, uint64_t T::*m, const char* help, StatOutput out = StatOutput::Json) {
    fn(std::string(key), obj.*m, help, out);
  }
  template <size_t N>
  void operator()(const char* key, uint64_t (T::*m)[N], StatElementName element, const char* help,
                  StatOutput out = StatOutput::Json) {
    for (size_t i = 0; i < N; ++i) fn(fmt::format("{}.{}", key, element(int(i))), (obj.*m)[i], help, out);
  }
};

// fn(key, field, help, output) for every counter of `s`: cycles, CoreStats, MemoryStats.
template <class S, class Fn>
void each_counter(S& s, Fn fn) {
  fn(std::string("cycles"), s.cycle, "core cycles", StatOutput::Json);
  EachCounter<CoreStats, std::remove_reference_t<decltype((s.core))>, Fn&> core{s.core, fn};
  CoreStats::visit(core);
  EachCounter<MemoryStats, std::remove_reference_t<decltype((s.mem))>, Fn&> mem{s.mem, fn};
  MemoryStats::visit(mem);
}

template <class T>
struct Declarations {
  std::vector<StatDeclaration>& out;
  void operator()(const char* key, uint64_t T::*, const char* help, StatOutput o = StatOutput::Json) {
    out.push_back({key, {}, help, o});
  }
  template <size_t N>
  void operator()(const char* key, uint64_t (T::*)[N], StatElementName element, const char* help,
                  StatOutput o = StatOutput::Json) {
    StatDeclaration d{key, {}, help, o};
    for (size_t i = 0; i < N; ++i) d.elements.emplace_back(element(int(i)));
    out.push_back(std::move(d));
  }
};

double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }

}  // namespace

std::vector<StatDeclaration> stat_declarations() {
  std::vector<StatDeclaration> out;
  out.push_back({"cycles", {}, "core cycles", StatOutput::Json});
  Declarations<CoreStats> core{out};
  CoreStats::visit(core);
  Declarations<MemoryStats> mem{out};
  MemoryStats::visit(mem);
  return out;
}

std::vector<StatValue> stat_values(const StatsSnapshot& s) {
  std::vector<StatValue> out;
  each_counter(s, [&](std::string key, const uint64_t& v, const char*, StatOutput o) {
    out.push_back({std::move(key), v, o});
  });
  return out;
}

bool set_stat(StatsSnapshot& s, const std::string& key, uint64_t value) {
  bool found = false;
  each_counter(s, [&](const std::string& k, uint64_t& field, const char*, StatOutput) {
    if (k == key) field = value, found = true;
  });
  return found;
}

const std::vector<DerivedStat>& derived_stats() {
  using nlohmann::json;
  static const std::vector<DerivedStat> stats = {
      {"ipc", "warp instructions per cycle",
       [](const StatsSnapshot& s, const StatScale&) -> json { return ratio(s.core.warp_insts, s.cycle); }},
      {"scheduler.scheduler_cycles", "scheduler cycles of every class (their sum)",
       [](const StatsSnapshot& s, const StatScale&) -> json {
         uint64_t total = 0;
         for (uint64_t c : s.core.sched_cycles) total += c;
         return total;
       }},
      {"l1d.miss_rate", "l1d.misses / (l1d.hits + l1d.misses): of loads",
       [](const StatsSnapshot& s, const StatScale&) -> json {
         return ratio(s.core.l1d_misses, s.core.l1d_hits + s.core.l1d_misses);
       }},
      {"icache.miss_rate", "icache.misses / (icache.hits + icache.misses)",
       [](const StatsSnapshot& s, const StatScale&) -> json {
         return ratio(s.core.icache_misses, s.core.icache_hits + s.core.icache_misses);
       }},
      {"shared.conflict_cycles", "shared.cycles - shared.insts: cycles lost to bank conflicts",
       [](const StatsSnapshot& s, const StatScale&) -> json { return s.core.shared_cycles - s.core.shared_insts; }},
      {"l2.miss_rate", "accesses that missed / accesses, reads and writes together",
       [](const StatsSnapshot& s, const StatScale&) -> json {
         const MemoryStats& m = s.mem;
         uint64_t accesses = m.l2_reads + m.l2_writes, hits = m.l2_read_hits + m.l2_write_hits;
         return ratio(accesses - hits, accesses);
       }},
      {"dram.row_hit_rate", "dram.row_hits / (dram.reads + dram.writes)",
       [](const StatsSnapshot& s, const StatScale&) -> json {
         return ratio(s.mem.dram_row_hits, s.mem.dram_reads + s.mem.dram_writes);
       }},
      {"dram.bandwidth_gbs", "dram.bytes per second at the preset's clock, in GB/s",
       [](const StatsSnapshot& s, const StatScale& k) -> json {
         double seconds = k.clock_mhz > 0 ? double(s.cycle) / (k.clock_mhz * 1e6) : 0;
         return seconds > 0 ? double(s.mem.dram_bytes) / seconds / 1e9 : 0.0;
       }},
      {"dram.bandwidth_utilization", "dram.bytes / the channels' peak bytes over the cycles",
       [](const StatsSnapshot& s, const StatScale& k) -> json {
         return ratio(s.mem.dram_bytes, uint64_t(double(s.cycle) * k.dram_bytes_per_cycle * k.dram_channels));
       }},
      {"avg_read_latency",
       "read_latency_sum / reads_returned: mean cycles from a global read's send to its data's return",
       [](const StatsSnapshot& s, const StatScale&) -> json {
         return ratio(s.mem.read_latency_sum, s.mem.reads_returned);
       }},
  };
  return stats;
}

nlohmann::json stats_json(const StatsSnapshot& s, const StatScale& scale) {
  using nlohmann::json;
  auto pointer = [](std::string key) {
    for (char& c : key)
      if (c == '.') c = '/';
    return json::json_pointer("/" + key);
  };
  json j = json::object();
  for (const StatValue& v : stat_values(s))
    if (v.output == StatOutput::Json) j[pointer(v.key)] = v.value;
  for (const DerivedStat& d : derived_stats()) j[pointer(d.key)] = d.value(s, scale);
  return j;
}

std::string stats_markdown() {
  std::string out = "| statistic | kind | meaning |\n|---|---|---|\n";
  for (const StatDeclaration& d : stat_declarations()) {
    std::string keys;
    if (d.elements.empty()) {
      keys = fmt::format("`{}`", d.key);
    } else {
      for (const std::string& e : d.elements) keys += fmt::format("{}`{}.{}`", keys.empty() ? "" : ", ", d.key, e);
    }
    out += fmt::format("| {} | {} | {} |\n", keys, d.output == StatOutput::Json ? "counter" : "counter, not in JSON",
                       d.help);
  }
  for (const DerivedStat& d : derived_stats()) out += fmt::format("| `{}` | derived | {} |\n", d.key, d.help);
  return out;
}

}  // namespace warpsim

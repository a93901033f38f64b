// Every statistic of a run by its stable name, from the declarations in CoreStats::visit()
// and MemoryStats::visit() plus the derived statistics declared in statistics.cc: the JSON
// statistics object (`--json`: `total` and each kernel), the table of docs/statistics.md
// (`warpsim list stats`) and GPGPU-Sim's printed form (timing/gpgpusim_names.h) all come
// from here.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "timing/stats.h"

namespace warpsim {

// One declared counter; an array field is one declaration with its element names, whose
// statistics are KEY.ELEMENT.
struct StatDeclaration {
  std::string key;
  std::vector<std::string> elements;  // empty for a single counter
  std::string help;
  StatOutput output = StatOutput::Json;
};
// cycles, then CoreStats, then MemoryStats, in declaration order.
std::vector<StatDeclaration> stat_declarations();

// One counter's value in a snapshot (array elements one by one, as KEY.ELEMENT).
struct StatValue {
  std::string key;
  uint64_t value = 0;
  StatOutput output = StatOutput::Json;
};
std::vector<StatValue> stat_values(const StatsSnapshot& s);
// Stores `value` into the counter named `key` of `s`; false when no counter has that name.
bool set_stat(StatsSnapshot& s, const std::string& key, uint64_t value);

// What the derived statistics need besides the counters.
struct StatScale {
  double clock_mhz = 0;             // core clock (bandwidth in GB/s)
  uint32_t dram_channels = 0;       // memory partitions
  double dram_bytes_per_cycle = 0;  // peak bytes per core cycle of one channel
};

// A statistic computed from the counters (a rate, a sum, a difference).
struct DerivedStat {
  const char* key;
  const char* help;
  nlohmann::json (*value)(const StatsSnapshot& s, const StatScale& scale);
};
const std::vector<DerivedStat>& derived_stats();

// The statistics object of docs/statistics.md: every counter declared StatOutput::Json and
// every derived statistic, nested by the dots of their keys.
nlohmann::json stats_json(const StatsSnapshot& s, const StatScale& scale);

// The markdown table of every statistic (`warpsim list stats`, docs/statistics.md).
std::string stats_markdown();

}  // namespace warpsim

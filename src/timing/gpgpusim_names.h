// The counters GPGPU-Sim prints after each kernel that warpsim has an equivalent of, declared
// once: GPGPU-Sim's printed key, the counter name of `warpsim correlate`'s reference tables,
// and warpsim's value as a sum of its statistics (timing/statistics.h). The GPGPU-Sim log
// parser (experiment/reference.h), correlate's warpsim_counter() and the printer of
// `--gpgpusim-stats` (experiment/gpgpusim_stats.h) all read this table.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim {

// sign x the statistic named `stat`.
struct StatTerm {
  int sign;
  const char* stat;
};

struct GpgpusimCounter {
  const char* gpgpusim;         // GPGPU-Sim's key, as it prints it ("L2_total_cache_accesses")
  const char* name;             // counter name of the reference tables ("l2_accesses")
  bool cumulative;              // GPGPU-Sim prints a running total since the program's start
  std::vector<StatTerm> terms;  // warpsim's value: the sum of these statistics
  const char* indent;           // what GPGPU-Sim prints before the key ("\t" for the L1D)
  const char* miss_rate;        // GPGPU-Sim's miss-rate line printed after this one, or nullptr
  const char* rate_of;          // ... this counter divided by that one (the accesses)
  const char* help;
};

// In the order GPGPU-Sim prints them.
const std::vector<GpgpusimCounter>& gpgpusim_counters();
// The counter of that reference-table name, or nullptr.
const GpgpusimCounter* find_gpgpusim_counter(std::string_view name);

// The counter's value from statistics looked up by name; none when one of them is absent.
std::optional<double> gpgpusim_counter_value(const GpgpusimCounter& c,
                                             const std::function<std::optional<double>(const std::string& stat)>& stat);

// The markdown table of the counters (`warpsim list stats`, docs/statistics.md).
std::string gpgpusim_counters_markdown();

}  // namespace warpsim

// Statistics are declared once (CoreStats::visit, MemoryStats::visit, derived_stats): sums,
// differences, the JSON object and docs/statistics.md all follow the declarations.
#include "timing/statistics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "timing/gpgpusim_names.h"

namespace warpsim {
namespace {

// A snapshot whose counter number i (in declaration order) holds base + step * i.
StatsSnapshot numbered(uint64_t base, uint64_t step) {
  StatsSnapshot s;
  uint64_t i = 0;
  for (const StatValue& v : stat_values(s)) EXPECT_TRUE(set_stat(s, v.key, base + step * i++)) << v.key;
  return s;
}

std::string read_doc(const char* name) {
  std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/docs/" + name);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// "l1d.hits" -> /l1d/hits
nlohmann::json::json_pointer pointer(const std::string& key) {
  std::string path(1, '/');
  for (char c : key) path.push_back(c == '.' ? '/' : c);
  return nlohmann::json::json_pointer(path);
}

TEST(Statistics, NamesAreUniqueAndArraysNamedByElement) {
  std::set<std::string> keys;
  for (const StatValue& v : stat_values(StatsSnapshot{})) EXPECT_TRUE(keys.insert(v.key).second) << v.key;
  for (const DerivedStat& d : derived_stats()) EXPECT_TRUE(keys.insert(d.key).second) << d.key;
  EXPECT_TRUE(keys.count("scheduler.raw"));
  EXPECT_TRUE(keys.count("scheduler.unit_busy_by_unit.sfu"));
  EXPECT_TRUE(keys.count("issued_by_unit.mem"));
  EXPECT_EQ(stat_values(StatsSnapshot{}).size(), 1 + sizeof(CoreStats) / 8 + sizeof(MemoryStats) / 8);
}

// Setting every declared counter to all ones leaves no byte of the structs at zero: no field
// is missing from the declarations (the static_asserts check the same by size).
TEST(Statistics, DeclarationsCoverEveryByte) {
  StatsSnapshot s;
  std::memset(static_cast<void*>(&s.core), 0, sizeof(s.core));
  std::memset(static_cast<void*>(&s.mem), 0, sizeof(s.mem));
  for (const StatValue& v : stat_values(s)) ASSERT_TRUE(set_stat(s, v.key, ~uint64_t(0)));
  auto all_ones = [](const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i)
      if (b[i] != 0xff) return false;
    return true;
  };
  EXPECT_TRUE(all_ones(&s.core, sizeof(s.core)));
  EXPECT_TRUE(all_ones(&s.mem, sizeof(s.mem)));
  EXPECT_FALSE(set_stat(s, "l1d.no_such_counter", 1));
}

TEST(Statistics, SumAndDifferenceFieldByField) {
  const StatsSnapshot a = numbered(1000, 3), b = numbered(7, 1);
  StatsSnapshot sum = a;
  sum.core += b.core;
  add_stats(sum.mem, b.mem);
  const StatsSnapshot diff = a - b;
  StatsSnapshot core_diff = diff;
  core_diff.core = a.core - b.core;  // CoreStats' own difference
  const auto va = stat_values(a), vb = stat_values(b), vsum = stat_values(sum), vdiff = stat_values(diff),
             vcore = stat_values(core_diff);
  ASSERT_EQ(va.size(), vdiff.size());
  for (size_t i = 0; i < va.size(); ++i) {
    SCOPED_TRACE(va[i].key);
    EXPECT_EQ(vdiff[i].value, va[i].value - vb[i].value);
    EXPECT_EQ(vcore[i].value, vdiff[i].value);
    if (va[i].key == "cycles") continue;  // not summed: the snapshot's own cycle
    EXPECT_EQ(vsum[i].value, va[i].value + vb[i].value);
  }
}

TEST(Statistics, JsonHasEveryPublicCounterAndEveryDerivedStatistic) {
  const StatsSnapshot s = numbered(100, 10);
  const nlohmann::json j = stats_json(s, StatScale{1000, 2, 32});
  for (const StatValue& v : stat_values(s)) {
    const nlohmann::json::json_pointer p = pointer(v.key);
    if (v.output == StatOutput::Json) {
      ASSERT_TRUE(j.contains(p)) << v.key;
      EXPECT_EQ(j[p].get<uint64_t>(), v.value) << v.key;
    } else {
      EXPECT_FALSE(j.contains(p)) << v.key;
    }
  }
  for (const DerivedStat& d : derived_stats()) {
    EXPECT_TRUE(j.contains(pointer(d.key))) << d.key;
  }
  EXPECT_DOUBLE_EQ(j["l1d"]["miss_rate"].get<double>(),
                   double(s.core.l1d_misses) / double(s.core.l1d_hits + s.core.l1d_misses));
  EXPECT_EQ(j["shared"]["conflict_cycles"].get<uint64_t>(), s.core.shared_cycles - s.core.shared_insts);
  EXPECT_DOUBLE_EQ(j["avg_read_latency"].get<double>(), double(s.mem.read_latency_sum) / double(s.mem.reads_returned));
  EXPECT_FALSE(j.contains("read_latency_sum"));
}

// Each GPGPU-Sim counter is a sum of statistics that the JSON output carries, so that
// `warpsim correlate` can compute it from a results row.
TEST(Statistics, GpgpusimCountersAreMadeOfPublicStatistics) {
  std::set<std::string> json_keys, names;
  for (const StatValue& v : stat_values(StatsSnapshot{}))
    if (v.output == StatOutput::Json) json_keys.insert(v.key);
  for (const GpgpusimCounter& c : gpgpusim_counters()) {
    SCOPED_TRACE(c.gpgpusim);
    EXPECT_TRUE(names.insert(c.name).second);
    ASSERT_FALSE(c.terms.empty());
    for (const StatTerm& t : c.terms) EXPECT_TRUE(json_keys.count(t.stat)) << t.stat;
    if (c.miss_rate) {
      EXPECT_NE(find_gpgpusim_counter(c.rate_of ? c.rate_of : ""), nullptr);
    }
  }
  const GpgpusimCounter* misses = find_gpgpusim_counter("l2_misses");
  ASSERT_NE(misses, nullptr);
  const std::map<std::string, double> v = {
      {"l2.reads", 10}, {"l2.writes", 5}, {"l2.read_hits", 6}, {"l2.write_hits", 1}, {"l2.read_pending_hits", 2}};
  auto lookup = [&](const std::string& k) -> std::optional<double> {
    auto it = v.find(k);
    return it == v.end() ? std::nullopt : std::optional<double>(it->second);
  };
  EXPECT_EQ(gpgpusim_counter_value(*misses, lookup), 6.0);  // 15 accesses - 7 hits - 2 merged reads
  EXPECT_FALSE(gpgpusim_counter_value(*find_gpgpusim_counter("dram_reads"), lookup).has_value());
}

// docs/statistics.md carries the tables `warpsim list stats` prints.
TEST(Statistics, DocTablesMatchTheDeclarations) {
  const std::string doc = read_doc("statistics.md");
  ASSERT_FALSE(doc.empty()) << "docs/statistics.md missing";
  EXPECT_NE(doc.find(stats_markdown()), std::string::npos)
      << "docs/statistics.md is stale: regenerate its statistics table with `warpsim list stats`";
  EXPECT_NE(doc.find(gpgpusim_counters_markdown()), std::string::npos)
      << "docs/statistics.md is stale: regenerate its GPGPU-Sim table with `warpsim list stats`";
}

}  // namespace
}  // namespace warpsim

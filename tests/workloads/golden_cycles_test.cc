// Golden cycle counts: every bundled workload at small size, under the schedulers and presets
// below, must give exactly the cycles (per launch) and warp instructions recorded in
// tests/data/golden/cycles_small.tsv. Optimisations of the simulator's speed must leave them
// unchanged; a change to the timing model changes them on purpose, and is then recorded by
// rerunning this test with WARPSIM_UPDATE_GOLDEN=1, which rewrites the rows it ran (and the
// diff of the file shows what moved). docs/performance.md describes the procedure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "config/config_loader.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

const char* kGoldenFile = WARPSIM_SOURCE_DIR "/tests/data/golden/cycles_small.tsv";

// (preset, scheduler) pairs held to the golden values: every policy family on gtx480 (the
// learning and mode-switching schedulers included, as they replay skipped cycles), the
// baseline on each other preset, and Juggler on the GPU its paper used.
const std::pair<const char*, const char*> kConfigs[] = {
    {"gtx480", "lrr"},     {"gtx480", "gto"},      {"gtx480", "tl"},    {"gtx480", "rlws"},
    {"gtx480", "rlws_ms"}, {"gtx480", "juggler"},  {"gtx480", "ipaws"}, {"titanv", "gto"},
    {"rtx2060", "gto"},    {"rtx2060", "juggler"}, {"h100", "gto"}};

struct Outcome {
  std::string launches;  // cycles of each launch, comma-separated
  uint64_t cycles = 0, warp_insts = 0;
  bool operator==(const Outcome&) const = default;
};

std::string key(const std::string& w, const std::string& gpu, const std::string& sched) {
  return w + "\t" + gpu + "\t" + sched;
}

std::map<std::string, Outcome> load_golden() {
  std::map<std::string, Outcome> out;
  std::ifstream in(kGoldenFile);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string w, gpu, sched;
    Outcome o;
    if (ls >> w >> gpu >> sched >> o.cycles >> o.warp_insts >> o.launches) out[key(w, gpu, sched)] = o;
  }
  return out;
}

// Rewrites the file with `updates` applied (WARPSIM_UPDATE_GOLDEN=1, in one process: the test
// binary run directly, not ctest -j); rows are sorted by key.
void store_golden(const std::map<std::string, Outcome>& updates) {
  std::map<std::string, Outcome> all = load_golden();
  for (const auto& [k, o] : updates) all[k] = o;
  std::ofstream out(kGoldenFile);
  out << "# workload\tgpu\tscheduler\tcycles\twarp_insts\tcycles_per_launch (small size, seed 1; "
         "tests/workloads/golden_cycles_test.cc)\n";
  for (const auto& [k, o] : all) out << k << "\t" << o.cycles << "\t" << o.warp_insts << "\t" << o.launches << "\n";
}

Outcome simulate(const std::string& workload, const char* gpu_name, const char* sched) {
  auto w = make_bundled_workload(workload);
  Gpu gpu(load_preset(gpu_name), sched);
  WorkloadOptions opts;
  opts.size = "small";
  WorkloadOutcome r = w->run(gpu, opts);
  EXPECT_TRUE(r.verified) << workload << " on " << gpu_name << " with " << sched << ": " << r.message;
  Outcome o;
  for (const auto& k : gpu.results()) {
    if (!o.launches.empty()) o.launches += ',';
    o.launches += std::to_string(k.end_cycle - k.start_cycle);
  }
  StatsSnapshot s = gpu.snapshot();
  o.cycles = s.cycle;
  o.warp_insts = s.core.warp_insts;
  return o;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> out;
  for (const auto& w : bundled_workloads()) out.push_back(w->name());
  return out;
}

class GoldenCycles : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenCycles, MatchTheRecordedCycles) {
  const std::string& w = GetParam();
  const bool update = std::getenv("WARPSIM_UPDATE_GOLDEN") != nullptr;
  std::map<std::string, Outcome> golden = load_golden();
  std::map<std::string, Outcome> updates;
  for (const auto& [gpu, sched] : kConfigs) {
    Outcome got = simulate(w, gpu, sched);
    const std::string k = key(w, gpu, sched);
    if (update) {
      updates[k] = got;
      continue;
    }
    auto it = golden.find(k);
    ASSERT_NE(it, golden.end()) << "no golden row for " << k << " in " << kGoldenFile
                                << " (record it with WARPSIM_UPDATE_GOLDEN=1)";
    EXPECT_EQ(got.cycles, it->second.cycles) << k;
    EXPECT_EQ(got.warp_insts, it->second.warp_insts) << k;
    EXPECT_EQ(got.launches, it->second.launches) << k;
  }
  if (update) store_golden(updates);
}

INSTANTIATE_TEST_SUITE_P(Bundled, GoldenCycles, ::testing::ValuesIn(workload_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The file covers exactly the runs above: a row nobody checks any more is an error too.
TEST(GoldenCyclesFile, HasOneRowPerCheckedRun) {
  std::map<std::string, Outcome> golden = load_golden();
  size_t expected = workload_names().size() * std::size(kConfigs);
  EXPECT_EQ(golden.size(), expected) << kGoldenFile;
  for (const std::string& w : workload_names())
    for (const auto& [gpu, sched] : kConfigs) EXPECT_TRUE(golden.count(key(w, gpu, sched))) << key(w, gpu, sched);
}

}  // namespace
}  // namespace warpsim::test

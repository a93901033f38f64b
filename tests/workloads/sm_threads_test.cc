// Ticking the SMs on several host threads (sm_threads) is an optimisation only: every
// statistic, per-launch record and scheduler report must equal the one-thread run's, cycle for
// cycle, whichever policy decides and whichever GPU runs (SMs that sleep, doze, or share the
// memory system through bursts of requests).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "sched/scheduler.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

struct Case {
  std::string workload, gpu, sched;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  // Every policy on a memory-bound and a barrier-heavy workload.
  for (const auto& f : scheduler_registry())
    for (const char* w : {"atax", "reduction"}) out.push_back({w, "gtx480", f.name});
  // A GPU of 80 SMs (more SMs than threads in every round), one with four schedulers per SM,
  // SMs asleep on memory with their CTAs, several launches.
  for (const char* sched : {"gto", "rlws"}) out.push_back({"kmeans", "titanv", sched});
  out.push_back({"srad", "rtx2060", "lrr"});
  out.push_back({"atax_pt", "titanv", "gto"});
  out.push_back({"nw", "gtx480", "juggler"});
  return out;
}

struct Outcome {
  nlohmann::json stats;
  uint32_t threads_used = 0;
};

Outcome simulate(const Case& c, uint32_t threads) {
  GpuConfig cfg = load_preset(c.gpu);
  cfg.sm_threads = threads;
  Gpu gpu(cfg, c.sched);
  WorkloadOptions opts;
  opts.size = "small";
  WorkloadOutcome o = make_bundled_workload(c.workload)->run(gpu, opts);
  EXPECT_TRUE(o.verified) << o.message;
  nlohmann::json j = gpu.to_json();
  j.erase("gpu");  // the configuration, which differs in sm_threads
  return {j, gpu.sm_threads_in_use()};
}

class SmThreads : public ::testing::TestWithParam<Case> {};

TEST_P(SmThreads, SameStatisticsAsOneThread) {
  const Case& c = GetParam();
  Outcome one = simulate(c, 1);
  Outcome two = simulate(c, 2);
  EXPECT_EQ(one.threads_used, 1u);
  EXPECT_EQ(two.threads_used, 2u) << "the run did not use the worker threads";
  ASSERT_EQ(one.stats["cycles"], two.stats["cycles"]) << c.workload << " " << c.gpu << " " << c.sched;
  EXPECT_EQ(one.stats, two.stats) << c.workload << " " << c.gpu << " " << c.sched;
}

INSTANTIATE_TEST_SUITE_P(Bundled, SmThreads, ::testing::ValuesIn(cases()), [](const ::testing::TestParamInfo<Case>& i) {
  std::string n = i.param.workload + "_" + i.param.gpu + "_" + i.param.sched;
  for (char& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

// The per-instruction profile is shared by the SMs: with it on, the GPU keeps to one thread,
// and the profile is the same as without threads asked for.
TEST(SmThreadsProfile, ProfiledRunKeepsToOneThread) {
  std::vector<std::vector<InstProfileRow>> rows;
  for (uint32_t threads : {1u, 2u}) {
    GpuConfig cfg = load_preset("gtx480");
    cfg.sm_threads = threads;
    Gpu gpu(cfg, "gto");
    gpu.enable_inst_profile();
    WorkloadOptions opts;
    opts.size = "small";
    ASSERT_TRUE(make_bundled_workload("atax")->run(gpu, opts).verified);
    EXPECT_EQ(gpu.sm_threads_in_use(), 1u);
    rows.push_back(gpu.inst_profile());
  }
  ASSERT_EQ(rows[0].size(), rows[1].size());
  ASSERT_FALSE(rows[0].empty());
}

}  // namespace
}  // namespace warpsim::test

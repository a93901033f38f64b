// Skipping idle cycles is an optimisation only: with skip_idle_cycles = false (every cycle
// ticked, every scheduler asked every cycle, no SM asleep) every registered scheduler must give
// the same statistics, cycle for cycle, as with the skipping on. Policies that act in every
// cycle (learning steps, two-level reordering, Juggler's predictor) get the skipped cycles
// replayed (WarpScheduler::replays_skipped_cycles); the others must not depend on being asked.
// SMs asleep (no CTA, or every warp waiting on memory) are part of the skipping.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "sched/scheduler.h"
#include "timing/gpu.h"
#include "timing/sm.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

struct Case {
  std::string workload, gpu, sched;
  SchedulerParams params = {};
};

std::vector<Case> cases() {
  std::vector<Case> out;
  // A barrier-heavy, a memory-bound, an irregular and a multi-launch workload, on a GPU with two
  // schedulers per SM and one with four.
  for (const char* w : {"reduction", "bptree", "kmeans", "srad"})
    for (const char* gpu : {"gtx480", "rtx2060"})
      for (const auto& f : scheduler_registry()) out.push_back({w, gpu, f.name});
  // A learning scheduler whose idle cycles carry a reward of their own: the cycles of a
  // scheduler without warps, given to it in bulk, must add up as one by one.
  SchedulerParams penalised;
  penalised.set("penalty", "-0.3");
  for (const char* w : {"bptree", "srad"}) out.push_back({w, "gtx480", "rlws", penalised});
  // SMs whose warps all wait on memory sleep with their CTAs until a response arrives.
  for (const char* w : {"nw", "atax_pt"})
    for (const char* gpu : {"gtx480", "titanv"})
      for (const char* sched : {"gto", "lrr"}) out.push_back({w, gpu, sched});
  // The SMs of policies asked every cycle doze instead (Sm::doze): asked live in each cycle of
  // the sleep, with a learning step (rlws), a reordering given only the last cycle of a skipped
  // run (tl), mode counters (ipaws, juggler).
  for (const char* sched : {"rlws", "tl", "ipaws", "juggler"}) out.push_back({"nw", "titanv", sched});
  out.push_back({"atax_pt", "titanv", "rlws"});
  out.push_back({"atax_pt", "gtx480", "rlws"});
  return out;
}

nlohmann::json simulate(const Case& c, bool skip) {
  GpuConfig cfg = load_preset(c.gpu);
  cfg.skip_idle_cycles = skip;
  Gpu gpu(cfg, c.sched, c.params);
  WorkloadOptions opts;
  opts.size = "small";
  WorkloadOutcome o = make_bundled_workload(c.workload)->run(gpu, opts);
  EXPECT_TRUE(o.verified) << o.message;
  nlohmann::json j = gpu.to_json();
  j.erase("gpu");  // the configuration, which differs in skip_idle_cycles
  return j;
}

// nw on gtx480 with `sched`, with and without skipping: with it, SMs holding CTAs fall asleep
// (or doze) over a thousand times; without it, never.
void expect_sleeps_with_ctas(const char* sched) {
  for (bool skip : {true, false}) {
    GpuConfig cfg = load_preset("gtx480");
    cfg.skip_idle_cycles = skip;
    Gpu gpu(cfg, sched);
    WorkloadOptions opts;
    opts.size = "small";
    ASSERT_TRUE(make_bundled_workload("nw")->run(gpu, opts).verified);
    uint64_t sleeps = 0;
    for (const auto& sm : gpu.sms()) sleeps += sm->sleeps_with_ctas();
    if (skip)
      EXPECT_GT(sleeps, 1000u);
    else
      EXPECT_EQ(sleeps, 0u);
  }
}

// An SM that holds CTAs but can do nothing until a memory response arrives is not ticked (with
// the skipping on), and the statistics are those of ticking it (IdleSkipping above).
TEST(IdleSkipping, SmWaitingOnMemorySleepsWithItsCtas) { expect_sleeps_with_ctas("gto"); }

// The same for an SM whose scheduler learns every cycle: it dozes (the GPU does not tick it, it
// asks the scheduler each cycle), and an SM whose schedulers hold no warp sleeps outright.
TEST(IdleSkipping, SmOfALearningSchedulerDozes) { expect_sleeps_with_ctas("rlws"); }

// An SM whose LD/ST queue is full sleeps as well: the queue empties only at an event of the
// LD/ST unit (a response, the head's next attempt), which wakes the SM. atax_pt's first kernel
// walks a row per thread, 32 lines per warp load, and keeps the queues of gtx480's SMs full;
// the statistics are those of ticking every cycle (IdleSkipping cases atax_pt_gtx480_*).
TEST(IdleSkipping, SmWithAFullLdstQueueSleeps) {
  GpuConfig cfg = load_preset("gtx480");
  Gpu gpu(cfg, "gto");
  WorkloadOptions opts;
  opts.size = "small";
  ASSERT_TRUE(make_bundled_workload("atax_pt")->run(gpu, opts).verified);
  uint64_t sleeps = 0, full = 0;
  for (const auto& sm : gpu.sms()) {
    sleeps += sm->sleeps_with_ctas();
    full += sm->sleeps_with_full_ldst();
  }
  EXPECT_GT(full, 10000u);
  EXPECT_GT(sleeps, full);
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.workload << " on " << c.gpu << " with " << c.sched; }

class IdleSkipping : public ::testing::TestWithParam<Case> {};

TEST_P(IdleSkipping, ChangesNoStatistic) {
  nlohmann::json skipped = simulate(GetParam(), true), ticked = simulate(GetParam(), false);
  EXPECT_EQ(skipped["total"], ticked["total"]);
  EXPECT_EQ(skipped["kernels"], ticked["kernels"]);
  EXPECT_EQ(skipped["scheduler_report"], ticked["scheduler_report"]);
  EXPECT_EQ(skipped, ticked);
}

INSTANTIATE_TEST_SUITE_P(Schedulers, IdleSkipping, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           std::string n = i.param.workload + "_" + i.param.gpu + "_" + i.param.sched;
                           for (const auto& [k, v] : i.param.params.values()) n += "_" + k;
                           for (char& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace warpsim::test

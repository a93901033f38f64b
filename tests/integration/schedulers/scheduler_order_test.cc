// Baseline policies checked decision by decision against their definitions, using the issue
// log (which records the ready warps at each decision).
#include <gtest/gtest.h>

#include <bit>

#include "core/error.h"
#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::KernelBuilder;

// Eight warps of one CTA on one scheduler; dependent chains make readiness vary.
synth::SyntheticKernel mixed_kernel() {
  KernelBuilder b("order");
  b.grid({1, 1, 1}).block({256, 1, 1}).loop(30, [](KernelBuilder& l) { l.alu(Unit::SP, 3).alu(Unit::SP, 2, true); });
  return b.build();
}

// 30 iterations of 5 ALU instructions and the loop branch, then EXIT.
constexpr int kInstsPerWarp = 30 * 6 + 1;

std::vector<IssueRecord> decisions(const std::string& sched, SchedulerParams p = {}) {
  GpuConfig cfg = small_gpu(1, 1);
  RunResult r = simulate(cfg, mixed_kernel(), sched, p, /*log=*/true);
  return r.log;
}

int first_after(uint64_t mask, int last) {
  for (int k = 1; k <= 64; ++k) {
    int s = (last + k) & 63;
    if (mask >> s & 1) return s;
  }
  return -1;
}

TEST(SchedulerOrder, LrrRotatesFromTheLastIssuedWarp) {
  auto log = decisions("lrr");
  int last = -1, checked = 0;
  for (const auto& d : log) {
    if (d.ready_mask == 0) {
      EXPECT_EQ(d.slot, -1);
      continue;
    }
    int expect = first_after(d.ready_mask, last);
    ASSERT_EQ(d.slot, expect) << "cycle " << d.cycle;
    last = d.slot;
    ++checked;
  }
  EXPECT_EQ(checked, kInstsPerWarp * 8);
}

TEST(SchedulerOrder, GtoStaysGreedyThenTakesTheOldest) {
  auto log = decisions("gto");
  int greedy = -1, checked = 0, stayed = 0;
  for (const auto& d : log) {
    if (d.ready_mask == 0) continue;
    int expect = (greedy >= 0 && (d.ready_mask >> greedy & 1)) ? greedy : std::countr_zero(d.ready_mask);
    ASSERT_EQ(d.slot, expect) << "cycle " << d.cycle;
    stayed += d.slot == greedy;
    greedy = d.slot;
    ++checked;
  }
  EXPECT_EQ(checked, kInstsPerWarp * 8);
  EXPECT_GT(stayed, 0);
}

TEST(SchedulerOrder, OldestAndYoungestFirst) {
  for (const auto& d : decisions("oldest")) {
    if (d.ready_mask) {
      ASSERT_EQ(d.slot, std::countr_zero(d.ready_mask));
    }
  }
  for (const auto& d : decisions("youngest")) {
    if (d.ready_mask) {
      ASSERT_EQ(d.slot, 63 - std::countl_zero(d.ready_mask));
    }
  }
}

TEST(SchedulerOrder, TwoLevelKeepsItsActiveSet) {
  // Without memory or barriers nothing is demoted: only the first N warps issue until one of
  // them finishes.
  SchedulerParams p;
  p.set("active", "3");
  auto log = decisions("tl", p);
  bool any_finished = false;
  int issued_in_set = 0;
  for (const auto& d : log) {
    if (d.slot < 0) continue;
    if (d.slot >= 3) {
      any_finished = true;
      break;
    }
    ++issued_in_set;
  }
  EXPECT_TRUE(any_finished);
  EXPECT_EQ(issued_in_set, kInstsPerWarp * 3);  // every instruction of warps 0-2 before any other warp
}

TEST(SchedulerOrder, TwoLevelDemotesWarpsWaitingForMemory) {
  // Four warps, an active set of two: each warp loads from global memory and then uses the
  // value. Warps 0 and 1 issue their loads, wait on a long-latency result and are demoted, so
  // warps 2 and 3 issue theirs long before the first load returns; the demoted warps come back
  // in the order they left.
  KernelBuilder b("loads");
  b.grid({1, 1, 1}).block({128, 1, 1}).load(MemSpace::Global, synth::AccessPattern::coalesced(), 4, 1, true);
  SchedulerParams p;
  p.set("active", "2");
  RunResult r = simulate(small_gpu(1, 1), b.build(), "tl", p, /*log=*/true);
  std::vector<int> loads, uses, seen(4, 0);
  std::vector<uint64_t> load_at;
  for (const auto& d : r.log) {
    if (d.slot < 0) continue;
    ASSERT_LT(d.slot, 4);
    int n = ++seen[d.slot];
    if (n == 1) loads.push_back(d.slot), load_at.push_back(d.cycle);
    if (n == 2) uses.push_back(d.slot);
  }
  EXPECT_EQ(loads, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(load_at.size(), 4u);
  EXPECT_LT(load_at[3], load_at[0] + 10);  // no load has returned yet
  EXPECT_EQ(uses, (std::vector<int>{0, 1, 2, 3}));
}

TEST(SchedulerOrder, UnknownSchedulerAndParameterAreErrors) {
  GpuConfig cfg = small_gpu();
  EXPECT_THROW(Gpu(cfg, "nonesuch"), Error);
  SchedulerParams p;
  p.set("activ", "4");
  EXPECT_THROW(Gpu(cfg, "tl", p), Error);
}

}  // namespace
}  // namespace warpsim::test

// QAWS decision by decision against a fake SM: the group of the highest budget goes first,
// greedy-then-oldest inside it; its context switches are counted against its budget, and the
// switch past the budget hands the priority to the next group.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fake_sm.h"
#include "sched/order_policies.h"

namespace warpsim::test {
namespace {

using WS = WarpStatus;

// Kernel 0 (budget 2) in slots 0 and 1, kernel 1 (budget 1) in slots 2 and 3; older slots first.
struct Fixture {
  FakeSm sm{4};
  std::unique_ptr<WarpScheduler> policy;
  explicit Fixture(const std::string& decide)
      : policy(make_policy("qaws", {{"budget.0", "2"}, {"budget.1", "1"}, {"decide", decide}})) {
    sm.attach(*policy);
    sm.start_kernel(0, "a");
    sm.start_kernel(1, "b");
    for (int s = 0; s < 4; ++s) sm.add_warp(s, uint64_t(s), s < 2 ? 0 : 1);
  }
  nlohmann::json report() const {
    nlohmann::json j;
    policy->report(j);
    return j;
  }
  // Of the first group's warps only `slot` is ready; the second group's are all ready.
  void g0_only(int slot) {
    sm.set_all(WS::Ready);
    sm.set_status(1 - slot, WS::RAW);
  }
};

TEST(Qaws, TheHighestBudgetGoesFirstGreedyThenOldest) {
  Fixture f("last");
  EXPECT_EQ(f.sm.cycle(), 0);  // kernel 0's oldest, though kernel 1's warps are ready too
  EXPECT_EQ(f.sm.cycle(), 0);
  f.sm.set_status(0, WS::RAW);
  f.sm.set_status(1, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 2);  // all of the group stalled: the next group issues, nothing counted
  f.sm.set_all(WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 0);  // the priority stayed
  nlohmann::json r = f.report();
  EXPECT_EQ(r["groups"]["2"]["switches"], 0u);
  EXPECT_EQ(r["priority_changes"], 0u);  // the first decision gave it to budget 2: not a change
}

TEST(Qaws, TheSwitchPastTheBudgetHandsThePriorityOn) {
  Fixture f("last");
  EXPECT_EQ(f.sm.cycle(), 0);
  // The head stalls and the other warp of the group issues: switches 1 and 2 are within the
  // budget of 2.
  f.g0_only(1);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.g0_only(0);
  EXPECT_EQ(f.sm.cycle(), 0);
  f.sm.set_all(WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 0);  // still the group of budget 2
  EXPECT_EQ(f.report()["groups"]["2"]["switches"], 2u);
  EXPECT_EQ(f.report()["groups"]["2"]["yields"], 0u);
  // Switch 3 is issued (Algorithm 1 decides from the last cycle) and the priority moves on.
  f.g0_only(1);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.set_all(WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 2);  // the budget-1 group's oldest warp, ahead of ready 0 and 1
  EXPECT_EQ(f.sm.cycle(), 2);
  nlohmann::json r = f.report();
  EXPECT_EQ(r["groups"]["2"]["yields"], 1u);
  EXPECT_EQ(r["groups"]["1"]["gains"], 1u);
  EXPECT_EQ(r["priority_changes"], 1u);
}

TEST(Qaws, DecidingInTheSameCycleMakesNoSwitchPastTheBudget) {
  Fixture f("same");
  EXPECT_EQ(f.sm.cycle(), 0);
  f.g0_only(1);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.g0_only(0);
  EXPECT_EQ(f.sm.cycle(), 0);
  // The third switch would pass the budget: the next group issues in its place.
  f.g0_only(1);
  EXPECT_EQ(f.sm.cycle(), 2);
  EXPECT_EQ(f.report()["groups"]["2"]["yields"], 1u);
}

TEST(Qaws, WithOneBudgetItIsGreedyThenOldest) {
  FakeSm sm(4);
  auto p = make_policy("qaws");
  sm.attach(*p);
  sm.start_kernel(0);
  sm.start_kernel(1);
  const uint64_t age[4] = {3, 1, 0, 2};
  for (int s = 0; s < 4; ++s) sm.add_warp(s, age[s], uint32_t(s % 2));  // two kernels, equal budgets
  int greedy = -1;
  uint32_t rng = 5;
  for (int c = 0; c < 300; ++c) {
    for (int s = 0; s < 4; ++s) {
      rng = rng * 1103515245u + 12345u;
      sm.set_status(s, (rng >> 16) % 3 == 0 ? WS::RAW : WS::Ready);
    }
    int expect = first_ready_gto(sm, greedy);
    int got = sm.cycle();
    ASSERT_EQ(got, expect) << "cycle " << c;
    if (got >= 0) greedy = got;
  }
}

}  // namespace
}  // namespace warpsim::test

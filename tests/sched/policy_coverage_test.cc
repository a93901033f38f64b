// Every registered policy has decision tests in tests/sched: a new policy fails here until it
// is added to the list (and tested).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "fake_sm.h"

namespace warpsim::test {
namespace {

const std::set<std::string> kTestedPolicies = {"gto",       "ipaws", "juggler", "lrr", "oldest",  "qaws",
                                               "r-juggler", "rlws",  "rlws_ms", "tl",  "youngest"};

TEST(PolicyCoverage, EveryRegisteredPolicyHasDecisionTests) {
  std::set<std::string> registered;
  for (const SchedulerFactory& f : scheduler_registry()) registered.insert(f.name);
  for (const std::string& n : registered) EXPECT_TRUE(kTestedPolicies.count(n)) << n << " has no tests in tests/sched";
  for (const std::string& n : kTestedPolicies) EXPECT_TRUE(registered.count(n)) << n << " is not registered";
}

TEST(PolicyCoverage, EveryPolicyDecidesOnTheFake) {
  // Each policy with its defaults issues ready warps of its own (a learning policy may idle by
  // choice now and then) and nothing when none is ready.
  for (const SchedulerFactory& f : scheduler_registry()) {
    FakeSm sm(8, 1, 2);
    auto p = make_policy(f.name, {}, 1, 2);
    sm.attach(*p);
    sm.start_kernel(0);
    for (int s : {1, 3, 5, 7}) sm.add_warp(s, uint64_t(s));
    int issued = 0;
    for (int c = 0; c < 8; ++c) {
      int got = sm.cycle();
      int sel = sm.last_selected();
      EXPECT_TRUE(sel == -1 || sel == 1 || sel == 3 || sel == 5 || sel == 7) << f.name << " selected " << sel;
      issued += got >= 0;
    }
    EXPECT_GE(issued, 4) << f.name;
    sm.set_all(WarpStatus::RAW);
    EXPECT_EQ(sm.cycle(), -1) << f.name;
  }
}

}  // namespace
}  // namespace warpsim::test

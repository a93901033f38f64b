// The fixed-order policies decision by decision against a fake SM: lrr, gto, oldest, youngest
// and tl (two-level).
#include <gtest/gtest.h>

#include <set>

#include "fake_sm.h"

namespace warpsim::test {
namespace {

using WS = WarpStatus;

// Four warps in slots 0..3 whose ages run against slot order: slot 3 is the oldest.
struct Fixture {
  FakeSm sm{4};
  std::unique_ptr<WarpScheduler> policy;
  explicit Fixture(const std::string& name, const std::vector<std::pair<std::string, std::string>>& params = {})
      : policy(make_policy(name, params)) {
    sm.attach(*policy);
    sm.start_kernel(0);
    for (int s = 0; s < 4; ++s) sm.add_warp(s, uint64_t(3 - s));
  }
};

TEST(Lrr, IssuesTheNextReadyWarpAfterTheLastInSlotOrderAndWraps) {
  Fixture f("lrr");
  // Slot order, whatever the ages: 0, 1, 2, 3, then back to 0.
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 1);
  EXPECT_EQ(f.sm.cycle(), 2);
  EXPECT_EQ(f.sm.cycle(), 3);
  EXPECT_EQ(f.sm.cycle(), 0);
}

TEST(Lrr, SkipsWarpsThatAreNotReady) {
  Fixture f("lrr");
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.set_status(2, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 3);  // after 1: 2 is not ready, 3 is
  f.sm.set_status(0, WS::UnitBusy);
  f.sm.set_status(1, WS::Barrier);
  EXPECT_EQ(f.sm.cycle(), 3);  // wrapping: 0, 1 and 2 are not ready, 3 is again
  f.sm.set_status(3, WS::Idle);
  EXPECT_EQ(f.sm.cycle(), -1);  // nothing ready
  f.sm.set_status(1, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 1);  // after 3, wrapping past 0
}

TEST(Lrr, ContinuesAfterALastWarpThatLeft) {
  Fixture f("lrr");
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.remove_warp(1);
  EXPECT_EQ(f.sm.cycle(), 2);  // the first slot after 1, though 1 is gone
}

TEST(Lrr, WalksOnlyItsOwnSlots) {
  // Scheduler 1 of 2 owns the odd slots.
  FakeSm sm(8, 1, 2);
  auto p = make_policy("lrr", {}, 1, 2);
  sm.attach(*p);
  sm.start_kernel(0);
  for (int s : {1, 3, 5, 7}) sm.add_warp(s, uint64_t(s));
  EXPECT_EQ(sm.cycle(), 1);
  EXPECT_EQ(sm.cycle(), 3);
  sm.set_status(5, WS::RAW);
  EXPECT_EQ(sm.cycle(), 7);
  EXPECT_EQ(sm.cycle(), 1);
}

TEST(Gto, KeepsTheGreedyWarpWhileReadyElseTheOldestReady) {
  Fixture f("gto");
  EXPECT_EQ(f.sm.cycle(), 3);  // no greedy warp yet: the oldest
  EXPECT_EQ(f.sm.cycle(), 3);  // greedy
  EXPECT_EQ(f.sm.cycle(), 3);
  f.sm.set_status(3, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 2);  // the oldest ready
  f.sm.set_status(3, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 2);  // 2 is greedy now, although 3 is older and ready
  f.sm.set_status(2, WS::UnitBusy);
  f.sm.set_status(3, WS::Barrier);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.set_all(WS::RAW);
  EXPECT_EQ(f.sm.cycle(), -1);
  f.sm.set_all(WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 1);  // an idle cycle keeps the greedy warp
}

TEST(Gto, AGreedyWarpThatLeftIsForgotten) {
  Fixture f("gto");
  f.sm.set_status(3, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 2);  // 2 is greedy
  // 2 finishes and a new, young warp takes its slot: it does not inherit the greed.
  f.sm.remove_warp(2);
  f.sm.add_warp(2, 10);
  EXPECT_EQ(f.sm.cycle(), 1);  // the oldest ready (3 still waits)
  f.sm.set_status(3, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 1);  // 1 is greedy now
}

TEST(OldestFirst, AlwaysTheOldestReadyWarp) {
  Fixture f("oldest");
  EXPECT_EQ(f.sm.cycle(), 3);
  f.sm.set_status(3, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 2);
  f.sm.set_status(3, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 3);  // no greediness: back to the oldest
  f.sm.set_status(3, WS::RAW);
  f.sm.set_status(2, WS::RAW);
  f.sm.set_status(1, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 0);
  f.sm.set_status(0, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), -1);
}

TEST(OldestFirst, StopsLookingAtTheFirstReadyWarp) {
  Fixture f("oldest");
  int before = f.sm.status_calls();
  EXPECT_EQ(f.sm.peek(), 3);
  EXPECT_EQ(f.sm.status_calls() - before, 1);  // status is lazy: only the oldest was asked
}

TEST(YoungestFirst, AlwaysTheYoungestReadyWarp) {
  Fixture f("youngest");
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 0);
  f.sm.set_status(0, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.set_status(0, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 0);
  f.sm.set_all(WS::Barrier);
  f.sm.set_status(3, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 3);
}

// TL with slots 0..3 in age order (slot 0 oldest) so that the active list starts as 0, 1, ...
struct TlFixture {
  FakeSm sm{4};
  std::unique_ptr<WarpScheduler> policy;
  explicit TlFixture(int active) : policy(make_policy("tl", {{"active", std::to_string(active)}})) {
    sm.attach(*policy);
    sm.start_kernel(0);
    for (int s = 0; s < 4; ++s) sm.add_warp(s, uint64_t(s));
  }
};

TEST(TwoLevel, IssuesRoundRobinWithinAnActiveSetOfN) {
  for (int n : {1, 2, 3}) {
    TlFixture f(n);
    std::set<int> issued;
    std::vector<int> order;
    for (int c = 0; c < 12; ++c) {
      int s = f.sm.cycle();
      issued.insert(s);
      order.push_back(s);
    }
    EXPECT_EQ(issued.size(), size_t(n)) << "active=" << n;
    for (int s : issued) EXPECT_LT(s, n) << "active=" << n;  // the first N slots
    for (size_t i = 0; i + 1 < order.size(); ++i)
      EXPECT_EQ(order[i + 1], (order[i] + 1) % n) << "active=" << n << " decision " << i;  // round robin
  }
}

TEST(TwoLevel, AWarpWaitingOnMemoryLeavesTheActiveSetForThePendingFront) {
  TlFixture f(2);
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 1);
  // Slot 0 waits on a load: it is demoted, slot 2 (front of the pending FIFO) promoted.
  f.sm.set_status(0, WS::RAW);
  f.sm.set_waiting_on_memory(0, true);
  std::set<int> issued;
  for (int c = 0; c < 6; ++c) issued.insert(f.sm.cycle());
  EXPECT_EQ(issued, (std::set<int>{1, 2}));
  // Slot 0 is ready again but pending: it does not come back while 1 and 2 stay.
  f.sm.set_status(0, WS::Ready);
  f.sm.set_waiting_on_memory(0, false);
  issued.clear();
  for (int c = 0; c < 6; ++c) issued.insert(f.sm.cycle());
  EXPECT_EQ(issued, (std::set<int>{1, 2}));
}

TEST(TwoLevel, AShortStallKeepsTheWarpActive) {
  TlFixture f(2);
  EXPECT_EQ(f.sm.cycle(), 0);
  // RAW on an ALU result (not memory) and a busy unit: slot 0 stays in the active set.
  f.sm.set_status(0, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.set_status(1, WS::UnitBusy);
  EXPECT_EQ(f.sm.cycle(), -1);  // 2 and 3 are ready but pending
  f.sm.set_status(0, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 0);
}

TEST(TwoLevel, BarrierAndFinishedWarpsAreDemoted) {
  TlFixture f(2);
  f.sm.set_status(0, WS::Barrier);
  EXPECT_EQ(f.sm.cycle(), 1);
  EXPECT_EQ(f.sm.cycle(), 2);  // 2 took 0's place
  f.sm.remove_warp(1);
  std::set<int> issued;
  for (int c = 0; c < 4; ++c) issued.insert(f.sm.cycle());
  EXPECT_EQ(issued, (std::set<int>{2, 3}));
}

}  // namespace
}  // namespace warpsim::test

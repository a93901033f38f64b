// The adaptive policies decision by decision against a fake SM: ipaws (sample, then commit to
// GTO or LRR), juggler and r-juggler (the mode their stall predictor says).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fake_sm.h"
#include "sched/juggler_predictor.h"
#include "sched/order_policies.h"
#include "sched/two_level_state.h"

namespace warpsim::test {
namespace {

using WS = WarpStatus;

// Four warps in slots 0..3, slot 0 the oldest.
struct Fixture {
  FakeSm sm{4};
  std::unique_ptr<WarpScheduler> policy;
  explicit Fixture(const std::string& name, const std::vector<std::pair<std::string, std::string>>& params = {})
      : policy(make_policy(name, params)) {
    sm.attach(*policy);
    sm.start_kernel(0);
    for (int s = 0; s < 4; ++s) sm.add_warp(s, uint64_t(s));
  }
  nlohmann::json report() const {
    nlohmann::json j;
    policy->report(j);
    return j;
  }
};

// Only `slot` is ready (the others wait on registers).
void only_ready(FakeSm& sm, int slot) {
  sm.set_all(WS::RAW);
  sm.set_status(slot, WS::Ready);
}

TEST(Ipaws, ConcentratedIssueDuringTheSampleCommitsToGto) {
  Fixture f("ipaws", {{"sample_insts", "8"}});
  // The sample runs GTO: with every warp ready, the oldest issues all 8 instructions.
  for (int c = 0; c < 8; ++c) EXPECT_EQ(f.sm.cycle(), 0) << "sample decision " << c;
  nlohmann::json r = f.report();
  EXPECT_EQ(r["decisions"]["gto"], 1.0);
  EXPECT_EQ(r["decisions"]["lrr"], 0.0);
  EXPECT_DOUBLE_EQ(r["metric_sum"].get<double>(), 1.0);  // the top quarter (one warp) issued everything
  // Committed to GTO: the greedy warp stays (LRR would move on to 1).
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 0);
  f.sm.set_status(0, WS::RAW);
  EXPECT_EQ(f.sm.cycle(), 1);
  f.sm.set_status(0, WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 1);
}

TEST(Ipaws, EvenIssueDuringTheSampleCommitsToLrr) {
  Fixture f("ipaws", {{"sample_insts", "8"}});
  // One warp ready at a time, in turn: each issues 2 of the 8.
  for (int c = 0; c < 8; ++c) {
    only_ready(f.sm, c % 4);
    EXPECT_EQ(f.sm.cycle(), c % 4);
  }
  nlohmann::json r = f.report();
  EXPECT_EQ(r["decisions"]["lrr"], 1.0);
  EXPECT_EQ(r["decisions"]["gto"], 0.0);
  EXPECT_DOUBLE_EQ(r["metric_sum"].get<double>(), 0.25);
  // Committed to LRR, continuing after the sample's last warp (3): 0, 1, 2 (GTO would keep 3).
  f.sm.set_all(WS::Ready);
  EXPECT_EQ(f.sm.cycle(), 0);
  EXPECT_EQ(f.sm.cycle(), 1);
  EXPECT_EQ(f.sm.cycle(), 2);
}

TEST(Ipaws, TheSampleRunsUnderTheSamplePolicy) {
  Fixture f("ipaws", {{"sample_insts", "8"}, {"sample_policy", "lrr"}});
  for (int c = 0; c < 8; ++c) EXPECT_EQ(f.sm.cycle(), c % 4) << "sample decision " << c;
  EXPECT_EQ(f.report()["decisions"]["lrr"], 1.0);  // even issue
}

TEST(Ipaws, AForcedPolicyOverridesTheMeasurement) {
  Fixture f("ipaws", {{"sample_insts", "8"}, {"force", "lrr"}});
  for (int c = 0; c < 8; ++c) EXPECT_EQ(f.sm.cycle(), 0);  // concentrated: GTO by the metric
  nlohmann::json r = f.report();
  EXPECT_EQ(r["decisions"]["lrr"], 1.0);
  EXPECT_EQ(r["forced"], 1.0);
  EXPECT_EQ(f.sm.cycle(), 1);  // LRR after 0
  EXPECT_EQ(f.sm.cycle(), 2);
}

TEST(Ipaws, ANewKernelStartsANewSample) {
  Fixture f("ipaws", {{"sample_insts", "8"}});
  for (int c = 0; c < 8; ++c) {
    only_ready(f.sm, c % 4);
    f.sm.cycle();
  }
  EXPECT_EQ(f.report()["decisions"]["lrr"], 1.0);
  f.sm.set_all(WS::Ready);
  f.sm.start_kernel(1);
  // Sampling again under GTO: the last warp issued (3) is greedy, whatever LRR would do.
  for (int c = 0; c < 8; ++c) EXPECT_EQ(f.sm.cycle(), 3);
  nlohmann::json r = f.report();
  EXPECT_EQ(r["samples"], 2.0);
  EXPECT_EQ(r["decisions"]["gto"], 1.0);
}

// Juggler's three orders from the state the test keeps alongside: which one the policy follows
// must be the one its predictor is in.
void check_follows_predictor(const std::string& name, bool reverse) {
  Fixture f(name, {{"uth", "2"}, {"lth", "1"}, {"fth", "3"}, {"active", "2"}});
  JugglerPredictorConfig c;
  c.uth = 2;
  c.lth = 1;
  c.fth = 3;
  c.reverse = reverse;
  JugglerPredictor pred(c);
  TwoLevelState tl(2);
  int last = -1;
  uint32_t rng = 12345;
  int cycles_in[kNumJugglerModes] = {};
  for (int cycle = 0; cycle < 600; ++cycle) {
    // Half the cycles stall outright (every warp waits); in the others each warp is ready or not.
    rng = rng * 1103515245u + 12345u;
    bool stall = (rng >> 16) % 2 == 0;
    for (int s = 0; s < 4; ++s) {
      rng = rng * 1103515245u + 12345u;
      uint32_t r = (rng >> 16) % 4;
      f.sm.set_status(s, !stall && r < 2 ? WS::Ready : WS::RAW);
      f.sm.set_waiting_on_memory(s, r == 3);
    }
    JugglerMode m = pred.mode();
    ++cycles_in[int(m)];
    int expect = m == JugglerMode::UM   ? first_ready_gto(f.sm, last)
                 : m == JugglerMode::FM ? first_ready_lrr(f.sm, last)
                                        : tl.select(f.sm);
    int got = f.sm.cycle();
    ASSERT_EQ(got, expect) << name << " cycle " << cycle << " mode " << juggler_mode_name(m);
    if (got >= 0) {
      last = got;
      tl.on_issue(got);
    }
    pred.cycle(got >= 0 ? JugglerPredictor::Event::Issue : JugglerPredictor::Event::Stall);
  }
  for (int m = 0; m < kNumJugglerModes; ++m)
    EXPECT_GT(cycles_in[m], 20) << name << " spent too little time in " << juggler_mode_name(JugglerMode(m));
  f.sm.set_now(f.sm.now() - 1);  // the GPU's last cycle is the last one decided: nothing to replay
  nlohmann::json r = f.report();
  EXPECT_GE(pred.counters().mode_switches(), 6u);
  EXPECT_EQ(r["mode_switches"].get<uint64_t>(), pred.counters().mode_switches());
}

TEST(Juggler, FollowsTheOrderOfTheModeItsPredictorIsIn) { check_follows_predictor("juggler", false); }
TEST(RJuggler, FollowsTheOrderOfTheModeItsPredictorIsIn) { check_follows_predictor("r-juggler", true); }

// Stalls past the UM threshold at the lowest confidence move Juggler from GTO to two-level and
// R-Juggler from GTO to LRR, decided at the next cycle.
int pick_after_two_stalls(const std::string& name) {
  Fixture f(name, {{"uth", "0"}, {"active", "2"}});
  only_ready(f.sm, 2);
  EXPECT_EQ(f.sm.cycle(), 2);  // UM (GTO) issues 2: 2 is greedy
  f.sm.set_all(WS::RAW);
  EXPECT_EQ(f.sm.cycle(), -1);  // a stall: confidence down
  f.sm.set_all(WS::Ready);
  EXPECT_EQ(f.sm.peek(), 2) << name << ": still UM after one stall";
  f.sm.set_all(WS::RAW);
  EXPECT_EQ(f.sm.cycle(), -1);  // a second stall at the lowest confidence: next mode
  f.sm.set_all(WS::Ready);
  return f.sm.peek();
}

TEST(Juggler, SwitchesFromGtoToTwoLevelOnStalls) {
  EXPECT_EQ(pick_after_two_stalls("juggler"), 0);  // the active set is 0, 1
}

TEST(RJuggler, SwitchesFromGtoToLrrOnStalls) {
  EXPECT_EQ(pick_after_two_stalls("r-juggler"), 3);  // the next after 2
}

}  // namespace
}  // namespace warpsim::test

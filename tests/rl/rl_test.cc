#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "rl/attributes.h"
#include "rl/linear_sarsa.h"
#include "rl/rl_config.h"
#include "sched/rl_scheduler.h"
#include "sched/rlws_actions.h"
#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using namespace rl;

TEST(Bucketing, IncreasingSizesFollowThePaperExample) {
  // Sec. IV-B: NRGMI with 4 buckets: 0-9 %, 10-29 %, 30-59 %, 60-100 %.
  EXPECT_EQ(bucketize(9.99, 100, 4, Spacing::Increasing), 0u);
  EXPECT_EQ(bucketize(10, 100, 4, Spacing::Increasing), 1u);
  EXPECT_EQ(bucketize(29.99, 100, 4, Spacing::Increasing), 1u);
  EXPECT_EQ(bucketize(30, 100, 4, Spacing::Increasing), 2u);
  EXPECT_EQ(bucketize(59.99, 100, 4, Spacing::Increasing), 2u);
  EXPECT_EQ(bucketize(60, 100, 4, Spacing::Increasing), 3u);
  EXPECT_EQ(bucketize(100, 100, 4, Spacing::Increasing), 3u);
  EXPECT_EQ(bucketize(-3, 100, 4, Spacing::Increasing), 0u);
  EXPECT_EQ(bucketize(250, 100, 4, Spacing::Increasing), 3u);
}

TEST(Bucketing, DecreasingSizesGiveFineResolutionAtTheTop) {
  // Three buckets of 3:2:1: [0, 50), [50, 83.3), [83.3, 100].
  EXPECT_EQ(bucketize(49.9, 100, 3, Spacing::Decreasing), 0u);
  EXPECT_EQ(bucketize(50, 100, 3, Spacing::Decreasing), 1u);
  EXPECT_EQ(bucketize(83.3, 100, 3, Spacing::Decreasing), 1u);
  EXPECT_EQ(bucketize(83.4, 100, 3, Spacing::Decreasing), 2u);
  // L1MP with the Table V count of 8: sizes 8:7:..:1 over 36; the first edge is 8/36 = 22.2 %.
  EXPECT_EQ(bucketize(22.2, 100, 8, Spacing::Decreasing), 0u);
  EXPECT_EQ(bucketize(22.3, 100, 8, Spacing::Decreasing), 1u);
  EXPECT_EQ(bucketize(97.3, 100, 8, Spacing::Decreasing), 7u);  // last edge 35/36 = 97.2 %
  EXPECT_EQ(bucketize(97.1, 100, 8, Spacing::Decreasing), 6u);
}

TEST(Bucketing, TableVAttributesAtTheirEdges) {
  // AGML, 2 buckets over 0-800 cycles, increasing: edge at 800/3.
  EXPECT_EQ(bucketize(266, 800, 2, attr_info(Attr::AGML).spacing), 0u);
  EXPECT_EQ(bucketize(267, 800, 2, attr_info(Attr::AGML).spacing), 1u);
  // GNMIE, 8 buckets over 0-600, increasing: first edge 600/36 = 16.7.
  EXPECT_EQ(bucketize(16, 600, 8, attr_info(Attr::GNMIE).spacing), 0u);
  EXPECT_EQ(bucketize(17, 600, 8, attr_info(Attr::GNMIE).spacing), 1u);
  // NRAI, 4 buckets over 24 warps: edges 2.4, 7.2, 14.4.
  EXPECT_EQ(bucketize(2, 24, 4, attr_info(Attr::NRAI).spacing), 0u);
  EXPECT_EQ(bucketize(3, 24, 4, attr_info(Attr::NRAI).spacing), 1u);
  EXPECT_EQ(bucketize(7, 24, 4, attr_info(Attr::NRAI).spacing), 1u);
  EXPECT_EQ(bucketize(8, 24, 4, attr_info(Attr::NRAI).spacing), 2u);
  EXPECT_EQ(bucketize(15, 24, 4, attr_info(Attr::NRAI).spacing), 3u);
  // Booleans.
  EXPECT_EQ(bucketize(0, 1, 2, attr_info(Attr::TBW).spacing), 0u);
  EXPECT_EQ(bucketize(1, 1, 2, attr_info(Attr::TBW).spacing), 1u);
  Attr a;
  EXPECT_TRUE(attr_by_name("smnmie", &a));
  EXPECT_EQ(a, Attr::SMNMIE);
  EXPECT_FALSE(attr_by_name("BOGUS", &a));
}

RlConfig two_attr_config(bool optimistic, bool fixed = false) {
  RlConfig c;
  c.gamma = 0.5;
  c.reward = 1;
  c.penalty = 0;
  c.optimistic = optimistic;
  c.fixed_point = fixed;
  c.attrs = {{Attr::NRAI, 4}, {Attr::L1MP, 4}};
  return c;
}

TEST(LinearSarsa, FeatureIsTwoToTheMinusBucket) {
  // Optimistic start: each weight r/(1-gamma)/N = 1/0.5/2 = 1.
  LinearSarsa agent(2, 3, two_attr_config(true));
  State s;
  s.v[0] = 0;
  s.v[1] = 1;
  EXPECT_DOUBLE_EQ(agent.q(s, 0), 1.0 + 0.5);
  s.v[0] = 3;
  s.v[1] = 2;
  EXPECT_DOUBLE_EQ(agent.q(s, 2), 0.125 + 0.25);
}

TEST(LinearSarsa, OneUpdateByHand) {
  RlConfig c = two_attr_config(false);
  LinearSarsa agent(2, 2, c);
  SarsaTrace tr;
  State s0, s1;
  s0.v[0] = 0;
  s0.v[1] = 1;  // phi(s0) = (1, 0.5)
  s1.v[0] = 2;
  s1.v[1] = 0;                          // phi(s1) = (0.25, 1)
  tr.step(agent, s0, 0, c.gamma, 0.5);  // first step: nothing to update
  EXPECT_DOUBLE_EQ(agent.weight(0, 0), 0.0);
  tr.reward = 1;
  tr.step(agent, s1, 1, c.gamma, 0.5);
  // delta = 1 + 0.5 * Q(s1,a1)=0 - Q(s0,a0)=0 = 1; theta_a0 += 0.5 * 1 * (1, 0.5).
  EXPECT_DOUBLE_EQ(agent.weight(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(agent.weight(0, 1), 0.25);
  EXPECT_DOUBLE_EQ(agent.weight(1, 0), 0.0);
  tr.reward = 0;
  tr.step(agent, s0, 0, c.gamma, 0.5);
  // delta = 0 + 0.5 * Q(s0,a0) - Q(s1,a1) = 0.5 * (0.5 + 0.125) - 0 = 0.3125;
  // theta_a1 += 0.5 * 0.3125 * (0.25, 1).
  EXPECT_DOUBLE_EQ(agent.weight(1, 0), 0.5 * 0.3125 * 0.25);
  EXPECT_DOUBLE_EQ(agent.weight(1, 1), 0.5 * 0.3125);
}

TEST(LinearSarsa, EligibilityTracesCreditEarlierPairsDecayedByGammaLambda) {
  // The steps of OneUpdateByHand, with and without traces (lambda 0.5, gamma 0.5: decay 0.25).
  RlConfig c = two_attr_config(false);
  State s0, s1;
  s0.v[0] = 0;
  s0.v[1] = 1;  // phi(s0) = (1, 0.5)
  s1.v[0] = 2;
  s1.v[1] = 0;  // phi(s1) = (0.25, 1)
  LinearSarsa agents[2] = {LinearSarsa(2, 2, c), LinearSarsa(2, 2, c)};
  for (int traced = 0; traced < 2; ++traced) {
    SarsaTrace tr;
    tr.lambda = traced ? 0.5 : 0.0;
    LinearSarsa& agent = agents[traced];
    tr.step(agent, s0, 0, c.gamma, 0.5);
    tr.reward = 1;
    tr.step(agent, s1, 1, c.gamma, 0.5);
    tr.reward = 0;
    tr.step(agent, s0, 0, c.gamma, 0.5);
  }
  // Both: the same first update of a0 and second update of a1 (delta 0.3125).
  for (int a = 0; a < 2; ++a) EXPECT_DOUBLE_EQ(agents[a].weight(1, 0), 0.5 * 0.3125 * 0.25);
  // Without traces the second TD error leaves a0 alone; with them a0 gets it too, through
  // its eligibility phi(s0) * gamma * lambda = (0.25, 0.125).
  EXPECT_DOUBLE_EQ(agents[0].weight(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(agents[0].weight(0, 1), 0.25);
  EXPECT_DOUBLE_EQ(agents[1].weight(0, 0), 0.5 + 0.5 * 0.3125 * 0.25);
  EXPECT_DOUBLE_EQ(agents[1].weight(0, 1), 0.25 + 0.5 * 0.3125 * 0.125);
}

TEST(LinearSarsa, BoundedTracedStepMovesQByAtMostTheTdError) {
  // One pair repeated with lambda = 1, gamma near 1: its eligibility grows to several times
  // phi, and alpha = 1 would move Q far past its target; the bound keeps each move <= delta.
  RlConfig c = two_attr_config(false);
  c.gamma = 0.9;
  LinearSarsa agent(2, 1, c);
  SarsaTrace tr;
  tr.lambda = 1.0;
  State s;  // phi = (1, 1)
  tr.step(agent, s, 0, c.gamma, 1.0);
  for (int i = 0; i < 20; ++i) {
    double before = agent.q(s, 0);
    double target = 1.0 + c.gamma * before;  // delta = target - before
    tr.reward = 1;
    tr.step(agent, s, 0, c.gamma, 1.0);
    double after = agent.q(s, 0);
    EXPECT_GE(after, before);
    EXPECT_LE(after, target + 1e-12) << "step " << i;
  }
  EXPECT_GT(tr.eligibility[0], 1.5);  // accumulated beyond one phi
  EXPECT_EQ(agent.resets(), 0u);
}

TEST(LinearSarsa, WeightsCanBeSetBack) {
  LinearSarsa agent(2, 2, two_attr_config(true));
  State s;
  LinearSarsa::Weights start = agent.weights();
  agent.update(s, 1, 0.7, 0.1);
  LinearSarsa::Weights moved = agent.weights();
  EXPECT_NE(moved.theta, start.theta);
  agent.set_weights(start);
  EXPECT_DOUBLE_EQ(agent.weight(1, 0), start.theta[2]);
  agent.set_weights(moved);
  EXPECT_EQ(agent.weights().theta, moved.theta);
  LinearSarsa other(3, 2, two_attr_config(true));
  EXPECT_THROW(other.set_weights(moved), std::invalid_argument);
}

TEST(LinearSarsa, FixedPointMatchesFloatingPoint) {
  LinearSarsa fl(2, 2, two_attr_config(true, false));
  LinearSarsa fx(2, 2, two_attr_config(true, true));
  SarsaTrace a, b;
  Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    State s;
    s.v[0] = uint8_t(rng.below(4));
    s.v[1] = uint8_t(rng.below(4));
    int act = int(rng.below(2));
    double r = double(rng.below(2));
    a.reward = b.reward = r;
    a.step(fl, s, act, 0.5, 0.1);
    b.step(fx, s, act, 0.5, 0.1);
  }
  for (int act = 0; act < 2; ++act)
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(fl.weight(act, i), fx.weight(act, i), 1e-3);
}

TEST(LinearSarsa, EpsilonGreedy) {
  RlConfig c = two_attr_config(false);
  LinearSarsa agent(2, 4, c);
  State s;
  agent.update(s, 2, 1.0, 1.0);  // action 2 is now the best
  Rng rng(9);
  bool explored;
  for (int i = 0; i < 50; ++i) EXPECT_EQ(agent.choose(s, 0b1111, 0.0, rng, &explored), 2);
  int best_unmasked = agent.choose(s, 0b1011, 0.0, rng, &explored);
  EXPECT_NE(best_unmasked, 2);
  std::map<int, int> freq;
  for (int i = 0; i < 40000; ++i) freq[agent.choose(s, 0b1011, 1.0, rng, &explored)]++;
  EXPECT_EQ(freq.count(2), 0u);  // masked out
  for (int a : {0, 1, 3}) EXPECT_NEAR(freq[a] / 40000.0, 1.0 / 3, 0.02);
  EXPECT_EQ(agent.choose(s, 0, 0.5, rng, &explored), -1);
}

TEST(LinearSarsa, BoundedStepMovesQByAtMostTheTdError) {
  // Two attributes in bucket 0: |phi|^2 = 2. With alpha 1 a plain step moves Q(s, a) by
  // alpha * |phi|^2 * delta = 2 delta, past the target; the bounded step by exactly delta.
  State s;
  for (TdUpdate u : {TdUpdate::Fresh, TdUpdate::Bounded}) {
    RlConfig c = two_attr_config(false);
    c.td_update = u;
    LinearSarsa agent(2, 2, c);
    EXPECT_DOUBLE_EQ(agent.feature_norm2(s), 2.0);
    ASSERT_TRUE(agent.update(s, 0, 3.0, 1.0));
    EXPECT_DOUBLE_EQ(agent.q(s, 0), u == TdUpdate::Bounded ? 3.0 : 6.0) << td_update_name(u);
    // Where alpha * |phi|^2 <= 1 both steps are the same: alpha 0.25 moves Q by 0.5 delta.
    ASSERT_TRUE(agent.update(s, 1, 3.0, 0.25));
    EXPECT_DOUBLE_EQ(agent.q(s, 1), 1.5);
  }
  State far;  // buckets 3 and 3: |phi|^2 = 2 / 64, no cap below alpha 32
  far.v[0] = far.v[1] = 3;
  RlConfig c = two_attr_config(false);
  LinearSarsa agent(2, 1, c);
  agent.update(far, 0, 1.0, 1.0);
  EXPECT_DOUBLE_EQ(agent.q(far, 0), 2.0 / 64);
}

TEST(LinearSarsa, FreshTdErrorSeesTheOtherChainsUpdates) {
  // Two chains (two schedulers) share one agent and step in turns on the same state-action
  // pair. With the stored (stale) Q each chain corrects an error the other already corrected,
  // and at alpha * |phi|^2 = 0.9 the weights grow without bound; with the fresh Q they settle
  // at Q = r / (1 - gamma).
  State s;
  for (TdUpdate u : {TdUpdate::Stale, TdUpdate::Fresh, TdUpdate::Bounded}) {
    RlConfig c = two_attr_config(false);
    c.gamma = 0.5;
    c.td_update = u;
    c.weight_limit = 1e6;
    LinearSarsa agent(2, 1, c);
    SarsaTrace a, b;
    uint64_t resets_before = agent.resets();
    for (int i = 0; i < 400; ++i) {
      a.reward = b.reward = 1;
      a.step(agent, s, 0, c.gamma, 0.45);
      b.step(agent, s, 0, c.gamma, 0.45);
    }
    SCOPED_TRACE(td_update_name(u));
    if (u == TdUpdate::Stale) {
      EXPECT_GT(agent.resets(), resets_before);  // diverged, detected, reset
    } else {
      EXPECT_EQ(agent.resets(), 0u);
      EXPECT_NEAR(agent.q(s, 0), 1.0 / (1.0 - c.gamma), 1e-6);
    }
  }
}

TEST(LinearSarsa, DivergedWeightsAreResetAndCounted) {
  for (bool fixed : {false, true}) {
    SCOPED_TRACE(fixed ? "fixed point" : "floating point");
    RlConfig c = two_attr_config(true, fixed);
    c.weight_limit = 10;
    LinearSarsa agent(2, 2, c);
    State s;
    double init = agent.weight(0, 0);
    EXPECT_DOUBLE_EQ(agent.weight_limit(), 10.0);
    EXPECT_TRUE(agent.update(s, 0, 4.0, 0.5));  // alpha |phi|^2 = 1: no cap; each weight + 2
    EXPECT_DOUBLE_EQ(agent.weight(0, 0), init + 2.0);
    EXPECT_FALSE(agent.update(s, 1, 50.0, 0.5));  // 1 + 25 > 10
    EXPECT_EQ(agent.resets(), 1u);
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 2; ++i) EXPECT_DOUBLE_EQ(agent.weight(a, i), init);  // every weight back
    EXPECT_FALSE(agent.update(s, 0, std::nan(""), 0.5));                       // not a number
    EXPECT_FALSE(agent.update(s, 0, std::numeric_limits<double>::infinity(), 0.5));
    EXPECT_EQ(agent.resets(), 3u);
    EXPECT_DOUBLE_EQ(agent.weight(0, 0), init);
  }
  // The automatic limit: 100 * max(|reward|, |penalty|) / (1 - gamma).
  RlConfig d = RlConfig::rlws_defaults();
  EXPECT_NEAR(d.effective_weight_limit(), 100.0 / 0.05, 1e-9);
  d.penalty = -3;
  EXPECT_NEAR(d.effective_weight_limit(), 300.0 / 0.05, 1e-9);
}

TEST(LinearSarsa, TieBreaking) {
  // Optimistic start: every action has the same Q. Among the possible {0 (NO_INSTR), 1} of 5
  // actions, the old rotation picks action 0 whenever the rotation starts at 2, 3, 4 or 0
  // (4 in 5); uniform picks each half the time; lowest always picks 0.
  State s;
  Rng rng(11);
  bool explored;
  for (TieBreak t : {TieBreak::Rotate, TieBreak::Uniform, TieBreak::Lowest}) {
    RlConfig c = two_attr_config(true);
    c.tie_break = t;
    LinearSarsa agent(2, 5, c);
    int zeros = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) zeros += agent.choose(s, 0b00011, 0.0, rng, &explored) == 0;
    double share = double(zeros) / n;
    SCOPED_TRACE(tie_break_name(t));
    EXPECT_NEAR(share, t == TieBreak::Rotate ? 0.8 : t == TieBreak::Uniform ? 0.5 : 1.0, 0.02);
    // A strictly better action wins whatever the rule.
    agent.update(s, 1, 0.5, 0.1);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(agent.choose(s, 0b00011, 0.0, rng, &explored), 1);
  }
}

WarpSummary ws(uint16_t slot, WarpStatus s, PipeClass p) { return {slot, s, p}; }
WarpSummaries summaries(std::initializer_list<WarpSummary> list) {
  WarpSummaries out;
  for (const WarpSummary& s : list) out.add(s);
  return out;
}

TEST(RlwsActions, MaskingAndTheNoInstrRule) {
  WarpSummaries w =
      summaries({ws(0, WarpStatus::Ready, PipeClass::SP), ws(1, WarpStatus::RAW, PipeClass::GMEM),
                 ws(2, WarpStatus::Ready, PipeClass::SFU), ws(3, WarpStatus::UnitBusy, PipeClass::STCMEM)});
  uint32_t all = rlws_possible_actions(w, kSpInstr);
  EXPECT_EQ(all, (1u << kNoInstr) | (1u << kSpInstr) | (1u << kSfuInstr));
  // Right after NO_INSTR it is not possible again while others are.
  EXPECT_EQ(rlws_possible_actions(w, kNoInstr), (1u << kSpInstr) | (1u << kSfuInstr));
  WarpSummaries none = summaries({ws(0, WarpStatus::RAW, PipeClass::SP)});
  EXPECT_EQ(rlws_possible_actions(none, kNoInstr), 1u << kNoInstr);
}

TEST(RlwsActions, WarpChoiceWithinAnAction) {
  // Age order: slots 5, 2, 7, 1 (5 is oldest).
  WarpSummaries w = summaries({ws(5, WarpStatus::Ready, PipeClass::GMEM), ws(2, WarpStatus::Ready, PipeClass::SP),
                               ws(7, WarpStatus::Ready, PipeClass::GMEM), ws(1, WarpStatus::RAW, PipeClass::GMEM)});
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, -1), 5);  // oldest matching
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, 7), 7);   // last issued still matches
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, 1), 5);   // last issued not ready
  EXPECT_EQ(rlws_warp_for(kSpInstr, w, 5), 2);     // last issued is not an SP warp
  EXPECT_EQ(rlws_warp_for(kSfuInstr, w, 5), -1);
  EXPECT_EQ(rlws_warp_for(kNoInstr, w, 5), -1);
}

TEST(RlwsActions, PhaseSwitching) {
  EXPECT_DOUBLE_EQ(rl_phase_factor(true, 0, 1000), 1.0);
  EXPECT_DOUBLE_EQ(rl_phase_factor(true, 1000, 1000), 0.5);
  EXPECT_DOUBLE_EQ(rl_phase_factor(true, 3000, 1000), 0.25);
  EXPECT_DOUBLE_EQ(rl_phase_factor(false, 3000, 1000), 1.0);  // last CTA dispatched: initial rates
}

TEST(RlConfig, DefaultsParseAndErrors) {
  RlConfig d = RlConfig::rlws_defaults();
  EXPECT_EQ(d.attrs.size(), 8u);
  EXPECT_EQ(d.storage_registers(5), 52u);  // the paper's 52 registers per SM
  RlConfig back = parse_rl_config(rl_config_to_toml(d), "roundtrip", RlConfig{});
  EXPECT_EQ(back.attrs.size(), d.attrs.size());
  EXPECT_DOUBLE_EQ(back.alpha, 0.09);
  EXPECT_EQ(back.attrs[1].buckets, 8u);
  EXPECT_THROW(parse_rl_config("alpah = 0.1\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("[attributes]\nL1MP = 3\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("[attributes]\nTBW = 4\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("[attributes]\nFOO = 4\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("alpha = 2\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("alpha = = 2\n", "x.toml", d), LocatedError);
  // The design choices, each with its alternatives, survive the round trip.
  RlConfig alt = d;
  alt.td_update = TdUpdate::Stale;
  alt.tie_break = TieBreak::Rotate;
  alt.decay = Decay::None;
  alt.rlmi = RlmiReading::Observed;
  alt.ratio_window = 5000;
  alt.long_latency = 300;
  alt.weight_limit = 77;
  RlConfig round = parse_rl_config(rl_config_to_toml(alt), "roundtrip", d);
  EXPECT_EQ(round.td_update, TdUpdate::Stale);
  EXPECT_EQ(round.tie_break, TieBreak::Rotate);
  EXPECT_EQ(round.decay, Decay::None);
  EXPECT_EQ(round.rlmi, RlmiReading::Observed);
  EXPECT_EQ(round.ratio_window, 5000u);
  EXPECT_EQ(round.long_latency, 300u);
  EXPECT_DOUBLE_EQ(round.weight_limit, 77.0);
  EXPECT_EQ(d.td_update, TdUpdate::Bounded);  // the defaults
  EXPECT_EQ(d.tie_break, TieBreak::Uniform);
  EXPECT_EQ(d.decay, Decay::Harmonic);
  EXPECT_EQ(d.rlmi, RlmiReading::GlobalLoad);
  EXPECT_EQ(d.ratio_window, 0u);
  EXPECT_THROW(parse_rl_config("td_update = \"sometimes\"\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("tie_break = 3\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("ratio_window = -5\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("long_latency = 0\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("weight_limit = -1\n", "x.toml", d), Error);
  SchedulerParams p;
  p.set("td_update", "fresh");
  p.set("tie_break", "lowest");
  p.set("decay", "none");
  p.set("rlmi", "observed");
  p.set("ratio_window", "2000");
  RlConfig fromp = rl_config_from_params(p, d);
  EXPECT_EQ(fromp.td_update, TdUpdate::Fresh);
  EXPECT_EQ(fromp.tie_break, TieBreak::Lowest);
  EXPECT_EQ(fromp.decay, Decay::None);
  EXPECT_EQ(fromp.rlmi, RlmiReading::Observed);
  EXPECT_EQ(fromp.ratio_window, 2000u);
  EXPECT_EQ(d.carry_weights, CarryWeights::None);
  EXPECT_DOUBLE_EQ(d.lambda, 0.0);
  RlConfig warm = d;
  warm.carry_weights = CarryWeights::Kernel;
  warm.lambda = 0.6;
  RlConfig warm_back = parse_rl_config(rl_config_to_toml(warm), "roundtrip", d);
  EXPECT_EQ(warm_back.carry_weights, CarryWeights::Kernel);
  EXPECT_DOUBLE_EQ(warm_back.lambda, 0.6);
  EXPECT_THROW(parse_rl_config("lambda = 1.5\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("lambda = 0.5\nfixed_point = true\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("carry_weights = \"cta\"\n", "x.toml", d), Error);
  EXPECT_THROW(parse_rl_config("carry_weights = \"kernel\"\nkeep_theta = true\n", "x.toml", d), Error);
  SchedulerParams pw;
  pw.set("carry_weights", "kernel");
  pw.set("lambda", "0.3");
  RlConfig fromw = rl_config_from_params(pw, d);
  EXPECT_EQ(fromw.carry_weights, CarryWeights::Kernel);
  EXPECT_DOUBLE_EQ(fromw.lambda, 0.3);
  SchedulerParams bad;
  bad.set("decay", "exponential");
  EXPECT_THROW(rl_config_from_params(bad, d), Error);
  SchedulerParams quote;
  quote.set("rlmi", "a\"b");
  EXPECT_THROW(rl_config_from_params(quote, d), Error);
}

synth::SyntheticKernel rl_kernel() {
  using synth::AccessPattern;
  synth::KernelBuilder b("rlmix");
  b.grid({24, 1, 1}).block({128, 1, 1}).loop(20, [](synth::KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced(), 4, 1, true).alu(Unit::SP, 3).alu(Unit::SFU, 1);
  });
  return b.build();
}

// A long kernel: several waves of CTAs (so both learning phases occur), loads, ALU and SFU work.
synth::SyntheticKernel long_rl_kernel() {
  using synth::AccessPattern;
  synth::KernelBuilder b("rllong");
  b.grid({64, 1, 1}).block({256, 1, 1}).loop(150, [](synth::KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced(), 4, 1, true).alu(Unit::SP, 4).alu(Unit::SFU, 1);
  });
  return b.build();
}

struct LearningOutcome {
  double max_weight = 0;  // largest |weight| of SM 0 at the end
  double resets = 0;      // weight resets, all SMs and schedulers
  uint64_t cycles = 0;
};

LearningOutcome run_learning(uint32_t schedulers, const char* td_update) {
  GpuConfig cfg = small_gpu(2, schedulers);
  cfg.core.max_warps = 16 * schedulers;
  SchedulerParams p;
  p.set("alpha", "0.09");  // Table V
  p.set("td_update", td_update);
  Gpu g(cfg, "rlws", p);
  g.enqueue(long_rl_kernel().source(), 0);
  g.run_until_idle();
  nlohmann::json r = g.scheduler_report()["rlws"];
  LearningOutcome o;
  for (auto& [action, ws] : r["final_theta_sm0"].items())
    for (auto& [attr, w] : ws.items()) o.max_weight = std::max(o.max_weight, std::abs(w.get<double>()));
  for (auto& [k, kr] : r["kernels"].items()) o.resets += kr["weight_resets"].get<double>();
  o.cycles = g.now();
  return o;
}

TEST(Rlws, LearningStaysBoundedWithSeveralSchedulersPerSmAtThePapersAlpha) {
  // Table V's alpha 0.09 with 8 attributes: alpha * |phi|^2 up to 0.72 per update. Two or four
  // schedulers update the SM's one weight vector; with the stored (stale) Q of each chain the
  // effective step passes 1 and the weights grow far beyond any Q value (with four, past the
  // limit: detected, reset and counted); with the default bounded update they stay bounded.
  for (uint32_t schedulers : {2u, 4u}) {
    SCOPED_TRACE(std::to_string(schedulers) + " schedulers");
    LearningOutcome ok = run_learning(schedulers, "bounded");
    EXPECT_GT(ok.cycles, 20000u);  // long enough to learn
    EXPECT_EQ(ok.resets, 0.0);
    EXPECT_LT(ok.max_weight, 100.0);
    EXPECT_TRUE(std::isfinite(ok.max_weight));
    LearningOutcome stale = run_learning(schedulers, "stale");
    // The old update: far larger weights (2 schedulers: ~170 here), or past the limit (4: reset).
    EXPECT_TRUE(stale.max_weight > 100.0 || stale.resets > 0) << stale.max_weight << " " << stale.resets;
  }
}

TEST(Rlws, RunsDeterministicallyAndReportsItsActions) {
  GpuConfig cfg = small_gpu(2, 2);
  for (const char* sched : {"rlws", "rlws_ms"}) {
    Gpu a(cfg, sched), b(cfg, sched);
    a.enqueue(rl_kernel().source(), 0);
    b.enqueue(rl_kernel().source(), 0);
    a.run_until_idle();
    b.run_until_idle();
    EXPECT_EQ(a.now(), b.now()) << sched;
    nlohmann::json r = a.scheduler_report()[sched];
    const auto& k = r["kernels"]["0"];
    double sum = 0;
    for (auto& [name, n] : k["actions"].items()) sum += n.get<double>();
    EXPECT_DOUBLE_EQ(sum, k["decisions"].get<double>()) << sched;
    EXPECT_DOUBLE_EQ(k["explored"].get<double>() + k["exploited"].get<double>(), sum);
    EXPECT_GT(k["explored"].get<double>(), 0);
    // Every issue earned the reward of 1: total reward = warp instructions issued.
    EXPECT_DOUBLE_EQ(k["reward"].get<double>(), double(a.snapshot().core.warp_insts)) << sched;
  }
  SchedulerParams p;
  p.set("seed", "7");
  p.set("decide_every", "4");
  Gpu c(cfg, "rlws", p);
  c.enqueue(rl_kernel().source(), 0);
  c.run_until_idle();
  EXPECT_GT(c.now(), 0u);
  SchedulerParams bad;
  bad.set("decide_every", "3");
  EXPECT_THROW(Gpu(cfg, "rlws", bad), Error);
}

TEST(Rlws, EveryKeyOfTheConfigurationFileIsAlsoASchedulerParameter) {
  // Booleans included: optimistic=false starts the weights at 0 instead of r_max / (1 - gamma) / N.
  SchedulerParams p;
  p.set("optimistic", "false");
  p.set("keep_theta", "true");
  p.set("fixed_point", "0");
  rl::RlConfig c = rl_config_from_params(p, rl::RlConfig::rlws_defaults());
  EXPECT_FALSE(c.optimistic);
  EXPECT_TRUE(c.keep_theta);
  EXPECT_FALSE(c.fixed_point);
  EXPECT_NO_THROW(p.check_all_used("rlws"));
  EXPECT_TRUE(rl_config_from_params(SchedulerParams{}, rl::RlConfig::rlws_defaults()).optimistic);
  SchedulerParams bad;
  bad.set("optimistic", "maybe");
  EXPECT_THROW(rl_config_from_params(bad, rl::RlConfig::rlws_defaults()), Error);
  // The simulation takes it: the same kernel, two initial weights, two action histories.
  GpuConfig cfg = small_gpu(1, 1);
  nlohmann::json reports[2];
  for (int optimistic = 0; optimistic < 2; ++optimistic) {
    SchedulerParams q;
    q.set("optimistic", optimistic ? "true" : "false");
    Gpu g(cfg, "rlws", q);
    g.enqueue(rl_kernel().source(), 0);
    g.run_until_idle();
    reports[optimistic] = g.scheduler_report()["rlws"]["kernels"]["0"]["actions"];
  }
  EXPECT_NE(reports[0], reports[1]);
}

TEST(Rlws, CarriedWeightsAreKeptPerKernelName) {
  RlConfig c = two_attr_config(true);
  c.carry_weights = CarryWeights::Kernel;
  RlAgent ag(c, 2, 1);
  State s;
  LinearSarsa::Weights initial = ag.sarsa.weights();
  ag.start_kernel("a");  // new to the SM: the initial weights
  EXPECT_EQ(ag.sarsa.weights().theta, initial.theta);
  ag.sarsa.update(s, 0, 0.5, 0.1);
  LinearSarsa::Weights end_a = ag.sarsa.weights();
  ag.start_kernel("b");
  EXPECT_EQ(ag.sarsa.weights().theta, initial.theta);
  ag.sarsa.update(s, 1, -0.5, 0.1);
  LinearSarsa::Weights end_b = ag.sarsa.weights();
  ag.start_kernel("a");  // launch 2 of a starts where launch 1 of a ended, not where b did
  EXPECT_EQ(ag.sarsa.weights().theta, end_a.theta);
  ag.start_kernel("b");
  EXPECT_EQ(ag.sarsa.weights().theta, end_b.theta);
  // carry_weights = none leaves the weights to on_kernel_start (reset, or kept with keep_theta).
  RlAgent none(two_attr_config(true), 2, 1);
  none.sarsa.update(s, 0, 0.5, 0.1);
  LinearSarsa::Weights moved = none.sarsa.weights();
  none.start_kernel("a");
  EXPECT_EQ(none.sarsa.weights().theta, moved.theta);
}

TEST(Rlws, ASecondLaunchOfTheSameKernelStartsFromTheCarriedWeights) {
  // One kernel launched twice: carry_weights = kernel continues from launch 1's weights exactly
  // as keep_theta = true does (the same cycles and final weights); the default starts launch 2
  // afresh, which ends elsewhere. lambda = 0 is the default: the same run.
  GpuConfig cfg = small_gpu(2, 2);
  auto run = [&](const char* key, const char* value) {
    SchedulerParams p;
    if (key) p.set(key, value);
    Gpu g(cfg, "rlws_ms", p);
    g.enqueue(rl_kernel().source(), 0);
    g.enqueue(rl_kernel().source(), 0);
    g.run_until_idle();
    return std::pair(g.now(), g.scheduler_report()["rlws_ms"]["final_theta_sm0"]);
  };
  auto fresh = run(nullptr, nullptr);
  auto carried = run("carry_weights", "kernel");
  auto kept = run("keep_theta", "true");
  auto lambda0 = run("lambda", "0");
  EXPECT_EQ(carried, kept);
  EXPECT_NE(carried.second, fresh.second);
  EXPECT_EQ(lambda0, fresh);
  auto traced = run("lambda", "0.8");
  EXPECT_NE(traced.second, fresh.second);
}

TEST(Rlws, AHeldActionWithoutAReadyWarpIsDecidedAfresh) {
  // decide_every = 4 holds the chosen action for 4 cycles; when it has no ready warp in one of
  // them, the scheduler decides again (default) instead of leaving the ready warps unissued
  // (hold_when_blocked = true). RLWS_MS has no "issue nothing" action, so without holding it
  // never declines a ready warp.
  GpuConfig cfg = small_gpu(1, 1);
  for (const char* sched : {"rlws", "rlws_ms"}) {
    uint64_t declined[2];
    for (int hold = 0; hold < 2; ++hold) {
      SchedulerParams p;
      p.set("decide_every", "4");
      p.set("hold_when_blocked", hold ? "true" : "false");
      Gpu g(cfg, sched, p);
      g.enqueue(rl_kernel().source(), 0);
      g.run_until_idle();
      declined[hold] = g.snapshot().core.sched_cycles[int(CycleClass::Declined)];
    }
    SCOPED_TRACE(sched);
    EXPECT_GT(declined[1], 0u);
    EXPECT_LT(declined[0], declined[1]);
    if (std::string(sched) == "rlws_ms") {
      EXPECT_EQ(declined[0], 0u);
    }
  }
}

}  // namespace
}  // namespace warpsim::test

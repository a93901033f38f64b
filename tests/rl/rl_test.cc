#include <gtest/gtest.h>

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

WarpSummary ws(uint16_t slot, WarpStatus s, PipeClass p) { return {slot, s, p}; }

TEST(RlwsActions, MaskingAndTheNoInstrRule) {
  WarpSummary w[] = {ws(0, WarpStatus::Ready, PipeClass::SP), ws(1, WarpStatus::RAW, PipeClass::GMEM),
                     ws(2, WarpStatus::Ready, PipeClass::SFU), ws(3, WarpStatus::UnitBusy, PipeClass::STCMEM)};
  uint32_t all = rlws_possible_actions(w, 4, kSpInstr);
  EXPECT_EQ(all, (1u << kNoInstr) | (1u << kSpInstr) | (1u << kSfuInstr));
  // Right after NO_INSTR it is not possible again while others are.
  EXPECT_EQ(rlws_possible_actions(w, 4, kNoInstr), (1u << kSpInstr) | (1u << kSfuInstr));
  WarpSummary none[] = {ws(0, WarpStatus::RAW, PipeClass::SP)};
  EXPECT_EQ(rlws_possible_actions(none, 1, kNoInstr), 1u << kNoInstr);
}

TEST(RlwsActions, WarpChoiceWithinAnAction) {
  // Age order: slots 5, 2, 7, 1 (5 is oldest).
  WarpSummary w[] = {ws(5, WarpStatus::Ready, PipeClass::GMEM), ws(2, WarpStatus::Ready, PipeClass::SP),
                     ws(7, WarpStatus::Ready, PipeClass::GMEM), ws(1, WarpStatus::RAW, PipeClass::GMEM)};
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, 4, -1), 5);  // oldest matching
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, 4, 7), 7);   // last issued still matches
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, 4, 1), 5);   // last issued not ready
  EXPECT_EQ(rlws_warp_for(kSpInstr, w, 4, 5), 2);     // last issued is not an SP warp
  EXPECT_EQ(rlws_warp_for(kSfuInstr, w, 4, 5), -1);
  EXPECT_EQ(rlws_warp_for(kNoInstr, w, 4, 5), -1);
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
}

synth::SyntheticKernel rl_kernel() {
  using synth::AccessPattern;
  synth::KernelBuilder b("rlmix");
  b.grid({24, 1, 1}).block({128, 1, 1}).loop(20, [](synth::KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced(), 4, 1, true).alu(Unit::SP, 3).alu(Unit::SFU, 1);
  });
  return b.build();
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
    if (std::string(sched) == "rlws_ms") EXPECT_EQ(declined[0], 0u);
  }
}

}  // namespace
}  // namespace warpsim::test

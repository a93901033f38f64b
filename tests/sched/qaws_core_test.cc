// QAWS decision logic on a scripted sub-core: the paper's Fig. 3 example (GTO, LRR, QAWS with
// K2 budgets 4 and 6), Algorithm 1 as written (decisions one cycle later), equal budgets against
// GTO, the ring of three budget groups, and budget parameters. Every expected issue order below
// was worked out by hand from the program and the rules in docs/qaws.md.
#include <gtest/gtest.h>

#include "core/error.h"
#include "scripted_subcore.h"

namespace warpsim::test {
namespace {

// Fig. 3: two kernels running the same nine-instruction program, two warps each on one
// sub-core; K1 = {w0, w1} arrives at cycle 0, K2 = {w2, w3} one cycle later. Instruction i
// makes the warp wait lat[i] cycles: a short stall after the first, a longer one after the
// third, a long one after the seventh.
const std::vector<int> kFig3Program = {2, 1, 3, 1, 1, 1, 5, 1, 1};

std::vector<ScriptKernel> fig3() { return {{2, 0, kFig3Program}, {2, 1, kFig3Program}}; }

uint64_t completion_sum(const ScriptRun& r) { return r.completion[0] + r.completion[1]; }

TEST(QawsFig3, GreedyThenOldestFinishesK1FirstAndK2Last) {
  ScriptRun g = run_gto(fig3());
  // w0 runs until its stall, w1 fills one cycle, w0 resumes; the older K1 warps keep the
  // issue slot whenever they are ready, and K2 only starts at cycle 16.
  EXPECT_EQ(g.order, "0100110000111100231122332222333322..33");
  EXPECT_EQ(g.completion, (std::vector<uint64_t>{20, 38}));
  // The paper: GTO's average execution time is 29 cycles.
  EXPECT_EQ(completion_sum(g), 2u * 29u);
}

TEST(QawsFig3, LooseRoundRobinIsFairAndSlowForBoth) {
  ScriptRun l = run_lrr(fig3());
  EXPECT_EQ(l.order, "0123012301230123012301230123.01230123");
  EXPECT_EQ(l.completion, (std::vector<uint64_t>{35, 37}));
  ScriptRun g = run_gto(fig3());
  EXPECT_GT(l.completion[0], g.completion[0]);
  EXPECT_LT(l.completion[1], g.completion[1]);  // GTO gives K2 the worst response time
}

TEST(QawsFig3, BudgetFourForK2) {
  ScriptRun q = run_qaws(fig3(), {1, 4}, QawsDecide::SameCycle);
  EXPECT_EQ(q.order, "0123223322220011223333000033111100..11");
  // w0 stalls at cycle 1: the switch to w1 is K1's one context switch.
  EXPECT_EQ(q.issued[0], 0);
  EXPECT_EQ(q.issued[1], 1);
  EXPECT_EQ(q.ncs[1][0], 1u);
  // The next stall (cycle 2) exceeds K1's budget: K2 gets the priority and issues until the
  // stall at cycle 12 that would be its fifth switch.
  EXPECT_EQ(q.prioritized[2], 4);
  for (int t = 2; t < 12; ++t) EXPECT_GE(q.issued[t], 2) << "cycle " << t;
  EXPECT_EQ(q.ncs[11][1], 4u);
  EXPECT_EQ(q.prioritized[12], 1);
  EXPECT_LT(q.issued[12], 2);
  EXPECT_EQ(q.ncs[12][1], 0u);  // reset when K2 passed the priority on
  // At cycle 22 w3 stalls with w2 finished: no switch inside K2, nothing counted, K2 keeps
  // the priority while K1 uses the idle slots, and w3 issues as soon as it is ready (26).
  EXPECT_EQ(q.issued[21], 3);
  for (int t = 22; t < 26; ++t) {
    EXPECT_EQ(q.prioritized[t], 4) << "cycle " << t;
    EXPECT_EQ(q.ncs[t][1], q.ncs[21][1]) << "cycle " << t;
    EXPECT_LT(q.issued[t], 2) << "cycle " << t;
  }
  EXPECT_EQ(q.issued[26], 3);
  EXPECT_EQ(q.completion, (std::vector<uint64_t>{38, 28}));
  ScriptRun g = run_gto(fig3());
  ScriptRun l = run_lrr(fig3());
  EXPECT_LT(q.completion[1], g.completion[1]);
  EXPECT_LT(q.completion[1], l.completion[1]);
}

TEST(QawsFig3, SameOrderWithoutGroupCache) {
  for (int64_t b2 : {4, 6})
    for (QawsDecide d : {QawsDecide::LastCycle, QawsDecide::SameCycle})
      EXPECT_EQ(run_qaws(fig3(), {1, b2}, d, nullptr, false).order, run_qaws(fig3(), {1, b2}, d).order);
}

TEST(QawsFig3, BudgetSixForK2) {
  ScriptRun q = run_qaws(fig3(), {1, 6}, QawsDecide::SameCycle);
  EXPECT_EQ(q.order, "0123223322223333220033000011..111100..11");
  // K2 keeps issuing past cycle 12 (its fifth and sixth switches are within budget) until
  // cycle 18, when w2 has finished and w3 waits.
  for (int t = 2; t < 18; ++t) EXPECT_GE(q.issued[t], 2) << "cycle " << t;
  EXPECT_EQ(q.ncs[12][1], 5u);
  EXPECT_EQ(q.ncs[16][1], 6u);
  EXPECT_LT(q.issued[18], 2);
  EXPECT_EQ(q.completion, (std::vector<uint64_t>{40, 22}));
  // The paper: 31 cycles on average against GTO's 29, and the best K2 response time of all.
  EXPECT_EQ(completion_sum(q), 2u * 31u);
  ScriptRun q4 = run_qaws(fig3(), {1, 4}, QawsDecide::SameCycle);
  EXPECT_LT(q.completion[1], q4.completion[1]);
}

TEST(QawsFig3, CountersOfTheBudgetFourRun) {
  QawsCore core;
  run_qaws(fig3(), {1, 4}, QawsDecide::SameCycle, &core);
  ASSERT_EQ(core.num_groups(), 2);
  for (int g = 0; g < 2; ++g) {
    const QawsGroupCounters& c = core.counters(g);
    if (core.group_budget(g) == 1) {
      EXPECT_EQ(c.switches, 2u);  // cycles 1 and 14
      EXPECT_EQ(c.yields, 2u);    // cycles 2 and 16
      EXPECT_EQ(c.gains, 3u);     // first decision, cycle 12, K2 gone at 28
    } else {
      EXPECT_EQ(c.switches, 4u);  // cycles 3, 4, 6, 8
      EXPECT_EQ(c.yields, 1u);    // cycle 12
      EXPECT_EQ(c.gains, 2u);     // cycles 2 and 16
    }
  }
  EXPECT_EQ(core.priority_changes(), 4u);
}

// Algorithm 1 as written decides at cycle t from cycle t-1: the switch that exceeds a budget
// is still made, and the priority moves one cycle later.
TEST(QawsFig3, AlgorithmOneDecidesOnTheNextCycle) {
  ScriptRun q = run_qaws(fig3(), {1, 4}, QawsDecide::LastCycle);
  // 0: w0; 1: w0 stalls, w1 (switch); 2: counted (K1 at budget), w1 stalls, w0 issues
  // (over budget); 3: K1 yields, K2's oldest w2 issues; K2 counts switches at 5, 6, 8, 10
  // (after the switches of cycles 4, 5, 7, 9); the switch of cycle 13 makes K2 yield at 14.
  EXPECT_EQ(q.order.substr(0, 15), "010232233222230");
  EXPECT_EQ(q.ncs[2][0], 1u);
  EXPECT_EQ(q.prioritized[2], 1);
  EXPECT_EQ(q.prioritized[3], 4);
  EXPECT_EQ(q.ncs[3][0], 0u);
  EXPECT_EQ(q.ncs[5][1], 1u);
  EXPECT_EQ(q.ncs[10][1], 4u);
  EXPECT_EQ(q.prioritized[13], 4);
  EXPECT_EQ(q.prioritized[14], 1);
  EXPECT_EQ(q.ncs[14][1], 0u);
}

TEST(QawsEqualBudgets, ReduceToGreedyThenOldest) {
  for (QawsDecide d : {QawsDecide::LastCycle, QawsDecide::SameCycle})
    for (int64_t b : {0, 1, 4}) {
      ScriptRun g = run_gto(fig3());
      ScriptRun q = run_qaws(fig3(), {b, b}, d);
      EXPECT_EQ(q.order, g.order) << "budget " << b;
      EXPECT_EQ(q.completion, g.completion);
      EXPECT_EQ(run_qaws(fig3(), {b, b}, d, nullptr, false).order, g.order) << "budget " << b;
    }
  // Three kernels with uneven programs and arrivals.
  std::vector<ScriptKernel> ks = {
      {3, 0, {1, 4, 1, 2, 7, 1, 1, 3}}, {2, 2, {3, 1, 1, 1, 6, 2, 1}}, {1, 5, {2, 2, 2, 2, 2, 2, 2, 2, 2}}};
  EXPECT_EQ(run_qaws(ks, {2, 2, 2}, QawsDecide::LastCycle).order, run_gto(ks).order);
  EXPECT_EQ(run_qaws(ks, {2, 2, 2}, QawsDecide::SameCycle).order, run_gto(ks).order);
}

TEST(QawsEqualBudgets, OneKernelIsGreedyThenOldestWhateverItsBudget) {
  std::vector<ScriptKernel> ks = {{4, 0, {1, 3, 1, 1, 5, 2, 1}}};
  EXPECT_EQ(run_qaws(ks, {0}, QawsDecide::LastCycle).order, run_gto(ks).order);
  EXPECT_EQ(run_qaws(ks, {9}, QawsDecide::SameCycle).order, run_gto(ks).order);
}

// Three kernels of two warps each whose every instruction makes the warp wait 2 cycles: inside
// a group the two warps alternate, every cycle after the first is a context switch, and a
// group issues budget+1 instructions (same-cycle decisions) before the next group of the ring.
std::vector<ScriptKernel> ring3(size_t len) {
  std::vector<int> p(len, 2);
  return {{2, 0, p}, {2, 0, p}, {2, 0, p}};
}

TEST(QawsRing, ThreeGroupsTakeTurnsByBudget) {
  // K1 budget 1 (w0, w1), K2 budget 2 (w2, w3), K3 budget 3 (w4, w5). No history: K3 first.
  ScriptRun q = run_qaws(ring3(12), {1, 2, 3}, QawsDecide::SameCycle);
  EXPECT_EQ(q.order.substr(0, 27), "454523201454523201454523201");
  const std::vector<int64_t> turn = {3, 3, 3, 3, 2, 2, 2, 1, 1};
  for (size_t t = 0; t < 27; ++t) EXPECT_EQ(q.prioritized[t], turn[t % 9]) << "cycle " << t;
}

TEST(QawsRing, RingOrderDoesNotDependOnLaunchOrder) {
  // The same budgets given to the kernels in another order: the ring still goes 3, 2, 1.
  ScriptRun q = run_qaws(ring3(12), {2, 3, 1}, QawsDecide::SameCycle);
  // K2 (w2, w3) has budget 3, K1 (w0, w1) budget 2, K3 (w4, w5) budget 1.
  EXPECT_EQ(q.order.substr(0, 18), "232301045232301045");
}

TEST(QawsRing, AlgorithmOneGivesEachGroupOneMoreIssue) {
  ScriptRun q = run_qaws(ring3(12), {1, 2, 3}, QawsDecide::LastCycle);
  EXPECT_EQ(q.order.substr(0, 24), "454542323010454542323010");
  const std::vector<int64_t> turn = {3, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1};
  for (size_t t = 0; t < 24; ++t) EXPECT_EQ(q.prioritized[t], turn[t % 12]) << "cycle " << t;
}

TEST(QawsRing, AGroupThatLeavesHandsOverToItsSuccessor) {
  // K2 (budget 2) runs two instructions per warp and leaves while it has the priority; the
  // priority goes to the next group of the ring (K1, budget 1), not back to the highest.
  std::vector<int> p(12, 2);
  std::vector<ScriptKernel> ks = {{2, 0, p}, {2, 0, {2, 2}}, {2, 0, p}};
  ScriptRun q = run_qaws(ks, {1, 2, 3}, QawsDecide::SameCycle);
  // 0-3 K3; 4-6 K2 (w2, w3, w2: w2 done); 7 w3's last; 8 K1.
  EXPECT_EQ(q.order.substr(0, 10), "4545232301");
  EXPECT_EQ(q.prioritized[7], 2);
  EXPECT_EQ(q.prioritized[8], 1);
}

TEST(QawsCore, AllStalledPrioritisedGroupIsNotCounted) {
  // K2 (budget 1) has one warp that waits 6 cycles after each instruction; K1 fills the gaps.
  std::vector<ScriptKernel> ks = {{2, 0, std::vector<int>(20, 1)}, {1, 0, {6, 6, 1}}};
  for (QawsDecide d : {QawsDecide::LastCycle, QawsDecide::SameCycle}) {
    ScriptRun q = run_qaws(ks, {1, 5}, d);
    // K2 first (no history, higher budget); then K1's w0 whenever w2 waits.
    EXPECT_EQ(q.order.substr(0, 14), "20000020000020");
    for (size_t t = 0; t < 13; ++t) {
      EXPECT_EQ(q.prioritized[t], 5) << "cycle " << t;
      EXPECT_EQ(q.ncs[t][1], 0u) << "cycle " << t;
    }
  }
}

TEST(QawsCore, UnregisteredKernelsUseTheDefaultGroup) {
  QawsCore core;
  core.set_unregistered_budget(7);
  EXPECT_EQ(core.kernel_budget(3), 7);  // before any kernel is registered
  core.set_kernel_budget(2, 3);
  EXPECT_EQ(core.kernel_budget(2), 3);
  EXPECT_EQ(core.kernel_budget(0), 7);
  EXPECT_EQ(core.kernel_budget(40), 7);
  EXPECT_THROW(core.set_kernel_budget(1, -1), Error);
}

TEST(QawsCore, TooManyDistinctBudgets) {
  QawsCore core;
  for (int k = 0; k < QawsCore::kMaxGroups - 1; ++k) core.set_kernel_budget(uint32_t(k), 100 + k);
  EXPECT_THROW(core.set_kernel_budget(200, 5000), Error);
}

// --- budget parameters -------------------------------------------------------------------------

SchedulerParams params(std::initializer_list<std::pair<const char*, std::string>> kv) {
  SchedulerParams p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

KernelLaunch launch(uint32_t id, std::string name, uint32_t stream) {
  KernelLaunch k;
  k.id = id;
  k.name = std::move(name);
  k.stream = stream;
  return k;
}

TEST(QawsBudgets, KeysAndPrecedence) {
  SchedulerParams p = params({{"budget.default", "2"},
                              {"budget.vecadd", "5"},
                              {"budget.1", "8"},
                              {"budget.stream.3", "6"},
                              {"budget._Z6kernelPfi", "9"}});
  QawsBudgets b = QawsBudgets::from_params(p);
  EXPECT_NO_THROW(p.check_all_used("qaws"));
  EXPECT_EQ(b.budget_of(launch(0, "other", 0)), 2);   // default
  EXPECT_EQ(b.budget_of(launch(0, "other", 3)), 6);   // stream
  EXPECT_EQ(b.budget_of(launch(0, "vecadd", 3)), 5);  // name before stream
  EXPECT_EQ(b.budget_of(launch(1, "vecadd", 3)), 8);  // launch index before name
  EXPECT_EQ(b.budget_of(launch(2, "_Z6kernelPfi", 0)), 9);
  QawsBudgets none = QawsBudgets::from_params(SchedulerParams{});
  EXPECT_EQ(none.budget_of(launch(4, "x", 1)), QawsBudgets::kDefaultBudget);
}

TEST(QawsBudgets, BadValuesAreErrors) {
  EXPECT_THROW(QawsBudgets::from_params(params({{"budget.k", "-1"}})), Error);
  EXPECT_THROW(QawsBudgets::from_params(params({{"budget.k", "four"}})), Error);
  EXPECT_THROW(QawsBudgets::from_params(params({{"budget.k", "99999999999"}})), Error);
  EXPECT_THROW(QawsBudgets::from_params(params({{"budget.", "2"}})), Error);
  EXPECT_THROW(QawsBudgets::from_params(params({{"budget.stream.x", "2"}})), Error);
  EXPECT_THROW(QawsBudgets::from_params(params({{"budget.stream.", "2"}})), Error);
  EXPECT_NO_THROW(QawsBudgets::from_params(params({{"budget.k", "0"}})));
}

}  // namespace
}  // namespace warpsim::test

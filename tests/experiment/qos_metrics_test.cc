// Formulas of the multikernel (QoS) experiments on hand-made numbers: STP, ANTT, the
// normalisation to K1 under the baseline, the best-budget choice, the budget search and the
// persistent grid size.
#include "experiment/qos_metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "config/config_loader.h"
#include "core/error.h"
#include "experiment/budget_search.h"
#include "experiment/multikernel.h"
#include "experiment/qos_output.h"

namespace warpsim::experiment {
namespace {

TEST(QosMetrics, StpAndAntt) {
  // Both kernels twice as slow as alone: STP = 0.5 + 0.5, ANTT = (2 + 2) / 2.
  EXPECT_DOUBLE_EQ(stp({100, 200}, {200, 400}), 1.0);
  EXPECT_DOUBLE_EQ(antt({100, 200}, {200, 400}), 2.0);
  // 100/150 + 100/300 = 2/3 + 1/3; (1.5 + 3) / 2.
  EXPECT_NEAR(stp({100, 100}, {150, 300}), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(antt({100, 100}, {150, 300}), 2.25);
  // Kernels that do not slow each other down: STP = number of kernels, ANTT = 1.
  EXPECT_DOUBLE_EQ(stp({70, 30, 50}, {70, 30, 50}), 3.0);
  EXPECT_DOUBLE_EQ(antt({70, 30, 50}, {70, 30, 50}), 1.0);
  EXPECT_THROW(stp({1, 2}, {1}), Error);
  EXPECT_THROW(stp({}, {}), Error);
  EXPECT_THROW(stp({1}, {0}), Error);
  EXPECT_THROW(antt({0}, {1}), Error);
}

QosRow row(const std::string& sched, uint32_t budget, double rt1, double rt2) {
  QosRow r;
  r.pair = "a:b";
  r.k1 = "a";
  r.k2 = "b";
  r.scheduler = sched;
  r.budget = budget;
  r.rt1 = rt1;
  r.rt2 = rt2;
  r.alone1 = 500;
  r.alone2 = 400;
  return r;
}

TEST(QosMetrics, NormalisationAgainstK1UnderTheBaseline) {
  std::vector<QosRow> rows = {row("lrr", 0, 1000, 1250), row("gto", 0, 800, 1600), row("qaws", 2, 1100, 1000),
                              row("qaws", 4, 1200, 800), row("qaws", 8, 1300, 800)};
  normalise_rows(rows, "lrr");
  const QosRow &lrr = rows[0], &gto = rows[1], &q2 = rows[2], &q4 = rows[3], &q8 = rows[4];
  EXPECT_DOUBLE_EQ(lrr.norm_rt1, 1.0);
  EXPECT_DOUBLE_EQ(lrr.norm_rt2, 1.25);
  EXPECT_DOUBLE_EQ(lrr.k2_speedup, 1.0);
  EXPECT_DOUBLE_EQ(gto.norm_rt1, 0.8);
  EXPECT_DOUBLE_EQ(gto.norm_rt2, 1.6);
  EXPECT_DOUBLE_EQ(gto.k2_speedup, 1250.0 / 1600.0);
  EXPECT_DOUBLE_EQ(q4.k2_speedup, 1250.0 / 800.0);
  // Average execution time of the pair, normalised to the baseline's (1125).
  EXPECT_DOUBLE_EQ(gto.avg_exec, 1200.0);
  EXPECT_DOUBLE_EQ(gto.norm_avg_exec, 1200.0 / 1125.0);
  EXPECT_DOUBLE_EQ(q2.norm_avg_exec, 1050.0 / 1125.0);
  EXPECT_DOUBLE_EQ(gto.stp, 500.0 / 800 + 400.0 / 1600);
  EXPECT_DOUBLE_EQ(gto.antt, (800.0 / 500 + 1600.0 / 400) / 2);
  // Best budget: the lowest K2 response, the smaller budget on a tie.
  EXPECT_TRUE(lrr.best);
  EXPECT_TRUE(gto.best);
  EXPECT_FALSE(q2.best);
  EXPECT_TRUE(q4.best);
  EXPECT_FALSE(q8.best);
  // Geometric mean over pairs of the best rows (one pair here).
  EXPECT_DOUBLE_EQ(mean_over_pairs(rows, "qaws", &QosRow::k2_speedup), 1250.0 / 800.0);

  std::vector<QosRow> no_base = {row("gto", 0, 800, 1600)};
  EXPECT_THROW(normalise_rows(no_base, "lrr"), Error);
}

TEST(QosMetrics, GeometricMeanOverPairs) {
  std::vector<QosRow> rows = {row("lrr", 0, 1000, 1000), row("gto", 0, 1000, 500)};
  QosRow b1 = row("lrr", 0, 1000, 1000), b2 = row("gto", 0, 1000, 2000);
  b1.pair = b2.pair = "c:d";
  rows.push_back(b1);
  rows.push_back(b2);
  normalise_rows(rows, "lrr");
  // K2 speedups 2 and 0.5: geometric mean 1.
  EXPECT_NEAR(mean_over_pairs(rows, "gto", &QosRow::k2_speedup), 1.0, 1e-12);
  EXPECT_TRUE(std::isnan(mean_over_pairs(rows, "qaws", &QosRow::k2_speedup)));
}

TEST(QosCharts, ThreePlotsWithShortLabels) {
  std::vector<QosRow> rows = {row("lrr", 0, 1000, 1250), row("gto", 0, 800, 1600), row("qaws", 2, 1100, 1000),
                              row("qaws", 4, 1200, 800)};
  for (auto& r : rows) {
    r.pair = "pc_pt:pc_pt";
    r.k1 = r.k2 = "pc_pt";
  }
  normalise_rows(rows, "lrr");
  QosCharts c = qos_charts(rows, {"lrr", "gto", "qaws"}, "lrr");
  for (const std::string* svg : {&c.response, &c.speedup, &c.avg_exec}) {
    EXPECT_EQ(svg->rfind("<svg", 0), 0u);
    EXPECT_NE(svg->find(">pc<"), std::string::npos);
    EXPECT_NE(svg->find(">mean<"), std::string::npos);
  }
  // The speedup plot shows the best QAWS budget (4: 1250 / 800) and leaves out the baseline.
  EXPECT_NE(c.speedup.find("pc / qaws: 1.562"), std::string::npos) << c.speedup;
  EXPECT_EQ(c.speedup.find("/ lrr:"), std::string::npos);
  EXPECT_NE(c.response.find("K2 qaws"), std::string::npos);
}

TEST(QosBudgetSearch, SmallestBudgetOnAMonotoneFunction) {
  int calls = 0;
  auto f = [&](uint32_t b) {
    ++calls;
    return 1000.0 / b;  // 1000, 500, 333.3, 250, 200, 125, 62.5, ...
  };
  std::vector<uint32_t> cands = {16, 1, 4, 2, 8, 3, 5};
  // 1000 / b <= 300 first holds at b = 4 (b = 3 gives 333.3).
  EXPECT_EQ(smallest_budget(cands, f, 300, BudgetSearch::Linear), 4u);
  calls = 0;
  EXPECT_EQ(smallest_budget(cands, f, 300, BudgetSearch::Bisect), 4u);
  EXPECT_LE(calls, 3);  // 7 candidates: at most ceil(log2(8)) evaluations
  EXPECT_EQ(smallest_budget(cands, f, 1000, BudgetSearch::Bisect), 1u);
  EXPECT_EQ(smallest_budget(cands, f, 62.5, BudgetSearch::Linear), 16u);
  EXPECT_EQ(smallest_budget(cands, f, 62.5, BudgetSearch::Bisect), 16u);
  // Unreachable target.
  EXPECT_EQ(smallest_budget(cands, f, 10, BudgetSearch::Linear), 0u);
  EXPECT_EQ(smallest_budget(cands, f, 10, BudgetSearch::Bisect), 0u);
  EXPECT_THROW(smallest_budget({}, f, 10), Error);
}

TEST(QosBudgetSearch, LinearAssumesNoMonotonicity) {
  // A dip at budget 3: linear search finds it even though 4 is worse.
  auto f = [](uint32_t b) { return b == 3 ? 100.0 : 1000.0 / b; };
  EXPECT_EQ(smallest_budget({1, 2, 3, 4, 8}, f, 150), 3u);
}

TEST(QosGrid, HalfOfEverySm) {
  GpuConfig titanv = load_preset("titanv");
  // 64 warps, 2048 threads, 32 CTAs per SM, 65536 registers, 96 KB shared (titanv preset);
  // two kernels of 8-warp CTAs with few registers: the warps limit, 4 CTAs each per SM.
  ASSERT_EQ(titanv.core.registers, 65536u);
  EXPECT_EQ(fitted_grid(titanv, {256, 16, 0}, 2), 4u * titanv.core.num_sms);
  EXPECT_EQ(fitted_grid(titanv, {128, 16, 0}, 2), 8u * titanv.core.num_sms);
  EXPECT_EQ(fitted_grid(titanv, {256, 16, 0}, 1), 8u * titanv.core.num_sms);
  // 40 registers per thread: 10240 per 8-warp CTA, 32768 per half SM -> 3 CTAs each.
  EXPECT_EQ(fitted_grid(titanv, {256, 40, 0}, 2), 3u * titanv.core.num_sms);
  // Shared memory: 20 KB per CTA, half of the SM's shared memory holds 2.
  ASSERT_LT(titanv.core.shared_mem / 2 / (20 * 1024), 4u);
  EXPECT_EQ(fitted_grid(titanv, {256, 16, 20 * 1024}, 2),
            (titanv.core.shared_mem / 2 / (20 * 1024)) * titanv.core.num_sms);
  // 48 warps, 1536 threads, 8 CTAs: 3 CTAs of 8 warps each per SM.
  GpuConfig gtx480 = load_preset("gtx480");
  EXPECT_EQ(fitted_grid(gtx480, {256, 16, 0}, 2), 3u * gtx480.core.num_sms);
  // Never below one CTA per SM.
  EXPECT_EQ(fitted_grid(gtx480, {1024, 16, 0}, 2), gtx480.core.num_sms);
  EXPECT_THROW(fitted_grid(gtx480, {0, 16, 0}, 2), Error);
}

TEST(QosParams, BudgetsOnStreams) {
  auto p = budget_params(1, 4, {{"budget.pc_kernel", "3"}});
  EXPECT_EQ(p.at("budget.stream.1"), "1");
  EXPECT_EQ(p.at("budget.stream.2"), "4");
  EXPECT_EQ(p.at("budget.pc_kernel"), "3");
  EXPECT_FALSE(takes_budgets("lrr"));
  EXPECT_FALSE(takes_budgets("gto"));
  EXPECT_THROW(takes_budgets("no-such-scheduler"), Error);
}

}  // namespace
}  // namespace warpsim::experiment

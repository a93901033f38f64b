// Metrics of the experiment harness on hand-made cycle tables.
#include "experiment/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"

using namespace warpsim::experiment;

namespace {

// Four kernels, three schedulers (cycles):
//          lrr   gto   tl
//   k1     100    50   100     gto best; lrr and tl tie for rank 2
//   k2     100   200    80     tl best, lrr 2, gto 3
//   k3     100   101   200     lrr best, gto within 1 %, tl 3
//   k4     100   100   100     three-way tie
CycleTable sample_table() {
  CycleTable t;
  t.kernels = {"k1", "k2", "k3", "k4"};
  t.schedulers = {"lrr", "gto", "tl"};
  t.cycles = {{100, 50, 100}, {100, 200, 80}, {100, 101, 200}, {100, 100, 100}};
  return t;
}

}  // namespace

TEST(Metrics, GeomeanOfHandValues) {
  EXPECT_DOUBLE_EQ(geomean({4.0}), 4.0);
  EXPECT_NEAR(geomean({2.0, 8.0}), 4.0, 1e-12);       // sqrt(16)
  EXPECT_NEAR(geomean({1.0, 3.0, 9.0}), 3.0, 1e-12);  // cbrt(27)
  EXPECT_NEAR(geomean({0.5, 2.0}), 1.0, 1e-12);
  EXPECT_TRUE(std::isnan(geomean({})));
  EXPECT_THROW(geomean({1.0, 0.0}), warpsim::Error);
  EXPECT_THROW(geomean({1.0, -2.0}), warpsim::Error);
  EXPECT_THROW(geomean({NAN}), warpsim::Error);
}

TEST(Metrics, RanksShareTheLowestRankOfATie) {
  EXPECT_EQ(rank_with_ties({100, 50, 100}), (std::vector<int>{2, 1, 2}));
  EXPECT_EQ(rank_with_ties({30, 10, 20, 10}), (std::vector<int>{4, 1, 3, 1}));
  EXPECT_EQ(rank_with_ties({7, 7, 7}), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(rank_with_ties({5}), (std::vector<int>{1}));
  // Missing results take no rank.
  EXPECT_EQ(rank_with_ties({NAN, 20, 10}), (std::vector<int>{0, 2, 1}));
  // With a 2 % tolerance 100 and 101 tie; 103 is more than 2 % above 100.
  EXPECT_EQ(rank_with_ties({101, 100, 103}, 0.02), (std::vector<int>{1, 1, 3}));
  EXPECT_EQ(rank_with_ties({101, 100, 103}), (std::vector<int>{2, 1, 3}));
}

TEST(Metrics, SpeedupsAndGeomeanOverBaseline) {
  CycleTable t = sample_table();
  auto sp = speedups(t, "lrr");
  EXPECT_DOUBLE_EQ(sp[0][1], 2.0);   // k1: 100 / 50
  EXPECT_DOUBLE_EQ(sp[1][1], 0.5);   // k2: 100 / 200
  EXPECT_DOUBLE_EQ(sp[1][2], 1.25);  // k2: 100 / 80
  EXPECT_DOUBLE_EQ(sp[2][0], 1.0);
  auto g = geomean_speedups(t, "lrr");
  EXPECT_DOUBLE_EQ(g[0], 1.0);
  // gto: (2 * 0.5 * 100/101 * 1)^(1/4)
  EXPECT_NEAR(g[1], std::pow(100.0 / 101.0, 0.25), 1e-12);
  // tl: (1 * 1.25 * 0.5 * 1)^(1/4)
  EXPECT_NEAR(g[2], std::pow(0.625, 0.25), 1e-12);
  EXPECT_THROW(speedups(t, "rlws"), warpsim::Error);
}

TEST(Metrics, RankTableRowsForOneScheduler) {
  CycleTable t = sample_table();
  // gto ranks: k1 1, k2 3, k3 2, k4 1.
  auto rows = rank_rows(t, "gto");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[0].kernels, 2);
  EXPECT_EQ(rows[0].kernel_names, (std::vector<std::string>{"k1", "k4"}));
  // On k1 and k4: over lrr sqrt(100/50 * 100/100), over tl sqrt(100/50 * 1).
  EXPECT_NEAR(rows[0].speedup_over.at("lrr"), std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(rows[0].speedup_over.at("tl"), std::sqrt(2.0), 1e-12);
  EXPECT_EQ(rows[0].speedup_over.count("gto"), 0u);
  EXPECT_EQ(rows[1].kernels, 1);  // k3
  EXPECT_NEAR(rows[1].speedup_over.at("lrr"), 100.0 / 101.0, 1e-12);
  EXPECT_NEAR(rows[1].speedup_over.at("tl"), 200.0 / 101.0, 1e-12);
  EXPECT_EQ(rows[2].kernels, 1);  // k2
  EXPECT_NEAR(rows[2].speedup_over.at("lrr"), 0.5, 1e-12);
  EXPECT_NEAR(rows[2].speedup_over.at("tl"), 0.4, 1e-12);

  // lrr ranks: k1 2 (tie with tl), k2 2, k3 1, k4 1: nobody at rank 3.
  auto lrr = rank_rows(t, "lrr");
  EXPECT_EQ(lrr[0].kernels, 2);
  EXPECT_EQ(lrr[1].kernels, 2);
  EXPECT_EQ(lrr[2].kernels, 0);
  EXPECT_TRUE(std::isnan(lrr[2].speedup_over.at("gto")));
  // Every kernel counted once per scheduler.
  for (const auto& s : t.schedulers) {
    int total = 0;
    for (const auto& r : rank_rows(t, s)) total += r.kernels;
    EXPECT_EQ(total, 4) << s;
  }
}

TEST(Metrics, IncompleteKernelsAreLeftOutOfRanks) {
  CycleTable t = sample_table();
  t.cycles[3][2] = NAN;  // k4 has no tl result
  int total = 0;
  for (const auto& r : rank_rows(t, "gto")) total += r.kernels;
  EXPECT_EQ(total, 3);
  EXPECT_EQ(best_or_within(t, "gto", 0.02), 2);  // k1 best, k3 within 1 %; k4 not counted
}

TEST(Metrics, BestOrWithinTwoPercent) {
  CycleTable t = sample_table();
  EXPECT_EQ(best_or_within(t, "lrr", 0.02), 2);  // k3 best, k4 tie (k1 and k2 far off)
  EXPECT_EQ(best_or_within(t, "gto", 0.02), 3);  // k1, k3 (101 <= 102), k4
  EXPECT_EQ(best_or_within(t, "gto", 0.0), 2);   // k1, k4
  EXPECT_EQ(best_or_within(t, "tl", 0.02), 2);   // k2, k4
}

TEST(Metrics, FriendlySplitByLrrAgainstGto) {
  CycleTable t = sample_table();
  FriendlySplit f = friendly_split(t, "lrr");
  // LRR beats GTO on k2 and k3; k1 goes to GTO, and the tie k4 is not LRR-friendly.
  EXPECT_EQ(f.lrr_friendly, (std::vector<std::string>{"k2", "k3"}));
  EXPECT_EQ(f.gto_friendly, (std::vector<std::string>{"k1", "k4"}));
  EXPECT_NEAR(f.lrr_geomean[1], std::sqrt(0.5 * 100.0 / 101.0), 1e-12);
  EXPECT_NEAR(f.lrr_geomean[2], std::sqrt(1.25 * 0.5), 1e-12);
  EXPECT_NEAR(f.gto_geomean[1], std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(f.gto_geomean[2], 1.0, 1e-12);
}

TEST(Metrics, BestStaticOracle) {
  CycleTable t = sample_table();
  auto o = best_static_oracle(t, {"lrr", "gto", "tl"});
  EXPECT_EQ(o, (std::vector<double>{50, 80, 100, 100}));
  auto two = best_static_oracle(t, {"lrr", "tl", "absent"});
  EXPECT_EQ(two, (std::vector<double>{100, 80, 100, 100}));
  auto none = best_static_oracle(t, {"absent"});
  EXPECT_TRUE(std::isnan(none[0]));
}

TEST(Metrics, StallFractionsSumOverKernels) {
  auto f = stall_fractions({{{"issued", 30}, {"raw", 10}}, {{"issued", 10}, {"raw", 30}, {"idle", 20}}});
  EXPECT_DOUBLE_EQ(f["issued"], 40.0 / 100.0);
  EXPECT_DOUBLE_EQ(f["raw"], 40.0 / 100.0);
  EXPECT_DOUBLE_EQ(f["idle"], 20.0 / 100.0);
  EXPECT_TRUE(stall_fractions({}).empty());
}

TEST(Metrics, CycleTableSetGrowsRowsAndColumns) {
  CycleTable t;
  t.set("a", "lrr", 10);
  t.set("b", "gto", 5);
  t.set("a", "gto", 20);
  ASSERT_EQ(t.kernels, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(t.schedulers, (std::vector<std::string>{"lrr", "gto"}));
  EXPECT_EQ(t.cycles[0][1], 20);
  EXPECT_TRUE(std::isnan(t.cycles[1][0]));
  EXPECT_TRUE(t.complete(0));
  EXPECT_FALSE(t.complete(1));
}

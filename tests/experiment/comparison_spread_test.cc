// The spread of a scheduler comparison over runs started a few cycles apart, on hand-made
// cycle tables (src/experiment/comparison_spread.h).
#include "experiment/comparison_spread.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace warpsim::experiment;

namespace {

CycleTable table(std::vector<std::string> kernels, std::vector<std::vector<double>> cycles) {
  CycleTable t;
  t.kernels = std::move(kernels);
  t.schedulers = {"lrr", "gto"};
  t.cycles = std::move(cycles);
  return t;
}

}  // namespace

// Three launches, run unperturbed and started 1 and 2 cycles later (cycles already taken off):
//            run 0        run 1        run 2       GTO/LRR range
//   a     100 / 80     100 / 90     100 / 95       1.053 .. 1.25   faster every time, wide
//   b     100 / 101    100 / 99     100 / 100      0.990 .. 1.010  either way
//   c     100 / 110    100 / 105       - / -       0.909 .. 0.952  slower (two runs), wide
// The perturbed tables list the launches in another order, as a sweep's rows may.
TEST(ComparisonSpread, RangesCountsAndGeomeansByHand) {
  CycleTable base = table({"a", "b", "c"}, {{100, 80}, {100, 101}, {100, 110}});
  CycleTable p1 = table({"c", "b", "a"}, {{100, 105}, {100, 99}, {100, 90}});
  CycleTable p2 = table({"a", "b"}, {{100, 95}, {100, 100}});
  ComparisonSpread s = comparison_spread(base, {p1, p2}, "lrr");
  EXPECT_EQ(s.perturb, 2u);
  ASSERT_EQ(s.schedulers.size(), 1u);  // the baseline has no row of its own
  const SchedulerSpread& g = s.schedulers[0];
  EXPECT_EQ(g.scheduler, "gto");
  ASSERT_EQ(g.launches.size(), 3u);
  EXPECT_EQ(g.launches[0].kernel, "a");
  EXPECT_DOUBLE_EQ(g.launches[0].at0, 100.0 / 80);
  EXPECT_DOUBLE_EQ(g.launches[0].range.lo, 100.0 / 95);
  EXPECT_DOUBLE_EQ(g.launches[0].range.hi, 100.0 / 80);
  EXPECT_EQ(g.launches[0].runs, 3u);
  EXPECT_DOUBLE_EQ(g.launches[1].range.lo, 100.0 / 101);
  EXPECT_DOUBLE_EQ(g.launches[1].range.hi, 100.0 / 99);
  EXPECT_EQ(g.launches[2].runs, 2u);
  EXPECT_DOUBLE_EQ(g.launches[2].range.hi, 100.0 / 105);
  EXPECT_EQ(g.faster, 1u);
  EXPECT_EQ(g.slower, 1u);
  EXPECT_EQ(g.within, 1u);
  EXPECT_EQ(g.wide, 2u);  // a (0.197) and c (0.043); b spans 0.020
  // Geomeans over the launches every run has (a and b), one per run.
  EXPECT_EQ(g.common, 2u);
  ASSERT_EQ(g.geomeans.size(), 3u);
  EXPECT_NEAR(g.geomeans[0], std::sqrt(100.0 / 80 * 100.0 / 101), 1e-12);
  EXPECT_NEAR(g.geomeans[1], std::sqrt(100.0 / 90 * 100.0 / 99), 1e-12);
  EXPECT_NEAR(g.geomeans[2], std::sqrt(100.0 / 95 * 1.0), 1e-12);
  // The CSV has a row per launch; a launch missing from a run leaves its range to the others.
  const std::string csv = spread_csv(s);
  EXPECT_EQ(csv.rfind("scheduler,kernel,speedup_over_lrr,speedup_lo,speedup_hi,runs\n", 0), 0u);
  EXPECT_NE(csv.find("gto,c,"), std::string::npos);
  EXPECT_NE(csv.find(",2\n"), std::string::npos);
  const std::string text = spread_summary(s);
  EXPECT_NE(text.find("faster 1, slower 1, either way 1"), std::string::npos) << text;
  EXPECT_EQ(spread_summary(comparison_spread(base, {}, "lrr")), "");
}

TEST(ComparisonSpread, StartedLaterAddsToTheLaunchLatency) {
  warpsim::GpuConfig cfg;
  cfg.core.kernel_launch_latency = 5000;
  EXPECT_EQ(started_later(cfg, 3).core.kernel_launch_latency, 5003u);
  EXPECT_EQ(started_later(cfg, 0).core.kernel_launch_latency, 5000u);
}

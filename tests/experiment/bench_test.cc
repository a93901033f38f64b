// The summaries of `warpsim bench` (experiment/bench.h) on rows with made-up timings: rates,
// per-(GPU, scheduler) geometric mean and minimum, and the growth of the cost per warp
// instruction along the SM-count and size axes.
#include "experiment/bench.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace warpsim::experiment {
namespace {

BenchRow row(const std::string& workload, const std::string& size, uint32_t sms, uint64_t insts, double seconds,
             const std::string& verification = "verified") {
  BenchRow r;
  r.c = BenchCase{workload, "gtx480", "gto", size, sms};
  r.sms = sms;
  r.cycles = insts / 2;
  r.warp_insts = insts;
  r.host_seconds = seconds;
  r.verification = verification;
  return r;
}

TEST(Bench, RatesOfOneRow) {
  BenchRow r = row("a", "small", 15, 2'000'000, 0.5);
  EXPECT_DOUBLE_EQ(r.warp_insts_per_s(), 4e6);
  EXPECT_DOUBLE_EQ(r.cycles_per_s(), 2e6);
  EXPECT_DOUBLE_EQ(r.ns_per_warp_inst(), 250.0);
  EXPECT_DOUBLE_EQ(row("a", "small", 15, 0, 0.5).ns_per_warp_inst(), 0.0);
  EXPECT_DOUBLE_EQ(row("a", "small", 15, 10, 0.0).warp_insts_per_s(), 0.0);
}

TEST(Bench, SummaryIsGeomeanAndMinimumOverRunsThatSucceeded) {
  std::vector<BenchRow> rows = {row("a", "default", 15, 1'000'000, 1.0), row("b", "default", 15, 4'000'000, 1.0),
                                row("c", "default", 15, 1'000, 1.0, "mismatch")};
  auto s = bench_summary(rows);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].runs, 2u);
  EXPECT_NEAR(s[0].geomean_winsts_per_s, 2e6, 1e-6);
  EXPECT_DOUBLE_EQ(s[0].min_winsts_per_s, 1e6);
  EXPECT_EQ(s[0].slowest, "a");
}

TEST(Bench, ScalingWithSmCountIsRelativeToTheSmallestAndFlagsGrowthAboveTheLimit) {
  // a: 100 ns/winst at 15 SMs, 120 at 30, 200 at 132 (2x); b: flat.
  std::vector<BenchRow> rows = {row("a", "default", 30, 1000, 120e-6), row("a", "default", 15, 1000, 100e-6),
                                row("a", "default", 132, 1000, 200e-6), row("b", "default", 15, 1000, 50e-6),
                                row("b", "default", 132, 2000, 100e-6)};
  auto g = bench_scaling(rows, "sms", {"15", "30", "132"});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].workload, "a");
  EXPECT_EQ(g[0].points, (std::vector<std::string>{"15", "30", "132"}));
  EXPECT_NEAR(g[0].ratio[1], 1.2, 1e-9);
  EXPECT_NEAR(g[0].max_ratio, 2.0, 1e-9);
  EXPECT_NEAR(g[1].max_ratio, 1.0, 1e-9);
  size_t over = 0;
  std::string text = bench_scaling_text(g, "sms", 1.5, &over);
  EXPECT_EQ(over, 1u);
  EXPECT_NE(text.find("max 2.00x  > 1.5x"), std::string::npos) << text;
  EXPECT_NE(text.find("max 1.00x\n"), std::string::npos) << text;
}

TEST(Bench, ScalingWithSizeFollowsTheGivenOrderAndSkipsFailedGroups) {
  std::vector<BenchRow> rows = {row("a", "paper", 15, 4000, 4e-3), row("a", "small", 15, 1000, 2e-3),
                                row("b", "small", 15, 1000, 1e-3), row("b", "paper", 15, 1000, 1e-3, "error"),
                                row("c", "default", 15, 1000, 1e-3)};
  auto g = bench_scaling(rows, "size", {"small", "paper"});
  ASSERT_EQ(g.size(), 1u);  // b has a failed run, c one point
  EXPECT_EQ(g[0].points, (std::vector<std::string>{"small", "paper"}));
  EXPECT_NEAR(g[0].ratio[1], 0.5, 1e-9);
  EXPECT_NEAR(g[0].max_ratio, 1.0, 1e-9);
}

TEST(Bench, CsvHasOneLinePerRowAndQuotesMessages) {
  BenchRow bad = row("a", "small", 15, 0, 0, "error");
  bad.message = "x, \"y\"";
  std::string csv = bench_csv({row("a", "small", 15, 1000, 1e-3), bad});
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(csv.find(",error,\"x, \"\"y\"\"\"\n"), std::string::npos) << csv;
  EXPECT_EQ(csv.rfind("workload,gpu,scheduler,size,sms,cycles,warp_insts,host_seconds,", 0), 0u);
}

TEST(Bench, CasesAreCheckedBeforeAnythingRuns) {
  BenchOptions o;
  o.workloads = {"vectoradd"};
  o.sms = {15, 30};
  o.sizes = {"small", "default"};
  auto cases = bench_cases(o);
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].size, "small");
  EXPECT_EQ(cases[1].num_sms, 30u);
  o.repeat = 0;
  EXPECT_THROW(bench_cases(o), Error);
  o.repeat = 1;
  o.workloads = {"nope"};
  EXPECT_THROW(bench_cases(o), Error);
}

}  // namespace
}  // namespace warpsim::experiment

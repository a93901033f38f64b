// iPAWS: parameters, the issue-pattern metric, the decision on the shipped GTO- and LRR-friendly
// synthetic kernels (gtx480 preset), forced decisions (iPAWS_Oracle), the recover step, the
// report's accounting, and the harness pieces of RLWS Table VII (oracle force list, "All
// kernels" row, choice counts).
#include "sched/ipaws.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "core/error.h"
#include "experiment/compare.h"
#include "experiment/metrics.h"
#include "experiment/report.h"
#include "synth/kernel_text.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

SchedulerParams params(std::initializer_list<std::pair<const char*, std::string>> kv) {
  SchedulerParams p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

struct SimRun {
  uint64_t cycles = 0;
  uint64_t warp_insts = 0;
  nlohmann::json report;
};

SimRun run(const std::vector<std::string>& kernels, const std::string& sched, const SchedulerParams& p = {}) {
  Gpu gpu(load_preset("gtx480"), sched, p);
  for (const auto& k : kernels) gpu.enqueue(synth::load_synthetic_kernel(k).source(), 0);
  gpu.run_until_idle();
  SimRun r;
  r.cycles = gpu.now();
  for (const auto& k : gpu.results()) r.warp_insts += k.warp_insts;
  r.report = gpu.scheduler_report();
  return r;
}

double num(const nlohmann::json& j, const char* a, const char* b = nullptr) {
  return b ? j[a][b].get<double>() : j[a].get<double>();
}

// gtx480: 15 SMs x 2 schedulers.
constexpr double kSchedulers = 30;

TEST(IpawsOptions, DefaultsAndValues) {
  IpawsOptions d = ipaws_options(SchedulerParams{});
  EXPECT_EQ(d.sample_insts, 1024u);
  EXPECT_EQ(d.sample_cycles, 0u);
  EXPECT_EQ(d.sample_policy, IpawsPolicy::Gto);
  EXPECT_DOUBLE_EQ(d.top, 0.25);
  EXPECT_DOUBLE_EQ(d.threshold, 0.5);
  EXPECT_TRUE(d.force.empty());
  IpawsOptions o = ipaws_options(params({{"sample_insts", "0"},
                                         {"sample_cycles", "300"},
                                         {"sample_policy", "lrr"},
                                         {"top", "0.5"},
                                         {"threshold", "0.7"},
                                         {"check_cycles", "0"},
                                         {"drop", "0.2"},
                                         {"max_resamples", "3"},
                                         {"force", "lrr,gto,lrr"}}));
  EXPECT_EQ(o.sample_insts, 0u);
  EXPECT_EQ(o.sample_cycles, 300u);
  EXPECT_EQ(o.sample_policy, IpawsPolicy::Lrr);
  EXPECT_DOUBLE_EQ(o.top, 0.5);
  EXPECT_DOUBLE_EQ(o.threshold, 0.7);
  EXPECT_EQ(o.check_cycles, 0u);
  EXPECT_DOUBLE_EQ(o.drop, 0.2);
  EXPECT_EQ(o.max_resamples, 3u);
  EXPECT_EQ(o.force, (std::vector<IpawsPolicy>{IpawsPolicy::Lrr, IpawsPolicy::Gto, IpawsPolicy::Lrr}));
}

TEST(IpawsOptions, BadValuesAreErrors) {
  for (auto kv : std::vector<std::pair<const char*, std::string>>{{"sample_insts", "-1"},
                                                                  {"sample_insts", "many"},
                                                                  {"sample_cycles", "-5"},
                                                                  {"sample_policy", "tl"},
                                                                  {"top", "0"},
                                                                  {"top", "1.5"},
                                                                  {"top", "x"},
                                                                  {"threshold", "-0.1"},
                                                                  {"threshold", "1.01"},
                                                                  {"drop", "2"},
                                                                  {"check_cycles", "-1"},
                                                                  {"max_resamples", "-1"},
                                                                  {"force", "tl"},
                                                                  {"force", "gto,,lrr"},
                                                                  {"force", "gto,"},
                                                                  {"force", "GTO"}}) {
    SchedulerParams p;
    p.set(kv.first, kv.second);
    EXPECT_THROW(ipaws_options(p), Error) << kv.first << "=" << kv.second;
  }
  EXPECT_THROW(ipaws_options(params({{"sample_insts", "0"}, {"sample_cycles", "0"}})), Error);
  // Through the registry: unknown keys are reported too.
  EXPECT_EQ(find_scheduler("ipaws").name, "ipaws");
  EXPECT_THROW(Gpu(load_preset("gtx480"), "ipaws", params({{"sample_inst", "10"}})), Error);
  EXPECT_THROW(Gpu(load_preset("gtx480"), "ipaws", params({{"threshold", "3"}})), Error);
  EXPECT_NO_THROW(Gpu(load_preset("gtx480"), "ipaws", params({{"threshold", "0.6"}, {"force", "gto"}})));
}

TEST(IpawsMetric, TopShareByHand) {
  std::vector<uint32_t> scratch;
  auto share = [&](std::vector<uint32_t> c, double top) { return ipaws_top_share(c, top, scratch); };
  EXPECT_DOUBLE_EQ(share({1, 1, 1, 1}, 0.25), 0.25);                    // even: the top warp has 1 of 4
  EXPECT_DOUBLE_EQ(share({0, 10, 0, 0}, 0.25), 1.0);                    // one warp issued everything
  EXPECT_DOUBLE_EQ(share({1, 5, 1, 3}, 0.5), 0.8);                      // top 2 of 4: (5 + 3) / 10
  EXPECT_DOUBLE_EQ(share({1, 5, 1, 3}, 0.3), 0.8);                      // ceil(0.3 * 4) = 2 warps
  EXPECT_DOUBLE_EQ(share({2, 2, 2, 2, 2, 2, 2, 6}, 0.25), 8.0 / 20.0);  // top 2 of 8: 6 + 2
  EXPECT_DOUBLE_EQ(share({4, 4, 4}, 1.0), 1.0);                         // every warp: always all issues
  EXPECT_DOUBLE_EQ(share({}, 0.25), 1.0);
  EXPECT_DOUBLE_EQ(share({7}, 0.25), 1.0);
  EXPECT_DOUBLE_EQ(share({0, 0, 0}, 0.25), 1.0);
}

TEST(IpawsMetric, EntropyByHand) {
  std::vector<uint32_t> even = {3, 3, 3, 3}, one = {0, 9, 0, 0}, mixed = {2, 1, 1};
  EXPECT_NEAR(ipaws_issue_entropy(even), 1.0, 1e-12);
  EXPECT_NEAR(ipaws_issue_entropy(one), 0.0, 1e-12);
  // p = 1/2, 1/4, 1/4: H = ln2/2 + 2 * ln4/4, normalised by ln 3.
  EXPECT_NEAR(ipaws_issue_entropy(mixed), (0.5 * std::log(2.0) + 0.5 * std::log(4.0)) / std::log(3.0), 1e-12);
  EXPECT_DOUBLE_EQ(ipaws_issue_entropy(std::vector<uint32_t>{}), 0.0);
}

TEST(IpawsMetric, Decision) {
  EXPECT_EQ(ipaws_decide(0.5, 0.5), IpawsPolicy::Gto);
  EXPECT_EQ(ipaws_decide(0.49, 0.5), IpawsPolicy::Lrr);
  EXPECT_EQ(ipaws_decide(0.0, 0.0), IpawsPolicy::Gto);
  EXPECT_STREQ(ipaws_policy_name(IpawsPolicy::Lrr), "lrr");
}

TEST(IpawsSim, PicksGtoOnConcentratedIssue) {
  SimRun gto = run({"thrash_gto"}, "gto");
  SimRun lrr = run({"thrash_gto"}, "lrr");
  SimRun ip = run({"thrash_gto"}, "ipaws");
  ASSERT_LT(gto.cycles, lrr.cycles);  // the kernel is GTO-friendly
  EXPECT_EQ(num(ip.report, "decisions", "gto"), kSchedulers);
  EXPECT_EQ(num(ip.report, "decisions", "lrr"), 0);
  EXPECT_GE(num(ip.report, "metric_mean"), 0.5);
  // Sampled under GTO, then GTO: the run is GTO's.
  EXPECT_EQ(ip.cycles, gto.cycles);
  // Every issue is counted once, under the mode it was made in; each sample is 1024 issues.
  EXPECT_EQ(num(ip.report, "issued", "sample") + num(ip.report, "issued", "gto") + num(ip.report, "issued", "lrr"),
            double(ip.warp_insts));
  EXPECT_EQ(num(ip.report, "issued", "sample"), kSchedulers * 1024);
  EXPECT_EQ(num(ip.report, "samples"), kSchedulers);
  EXPECT_EQ(num(ip.report, "resamples"), 0);
  EXPECT_EQ(ip.report["kernels"]["0"]["decisions"]["gto"].get<double>(), kSchedulers);
  // Cycles under each mode cover the kernel (a scheduler's last idle cycles may be missing).
  double cyc = num(ip.report, "cycles", "sample") + num(ip.report, "cycles", "gto");
  EXPECT_EQ(num(ip.report, "cycles", "lrr"), 0);
  EXPECT_LE(cyc, kSchedulers * double(ip.cycles));
  EXPECT_GE(cyc, 0.9 * kSchedulers * double(ip.cycles));
  EXPECT_NEAR(num(ip.report, "cycle_share", "sample") + num(ip.report, "cycle_share", "gto"), 1.0, 1e-9);
}

TEST(IpawsSim, PicksLrrOnEvenIssue) {
  SimRun gto = run({"lrr_friendly"}, "gto");
  SimRun lrr = run({"lrr_friendly"}, "lrr");
  SimRun ip = run({"lrr_friendly"}, "ipaws");
  ASSERT_LT(lrr.cycles, gto.cycles);  // the kernel is LRR-friendly
  EXPECT_EQ(num(ip.report, "decisions", "lrr"), kSchedulers);
  EXPECT_EQ(num(ip.report, "decisions", "gto"), 0);
  EXPECT_LT(num(ip.report, "metric_mean"), 0.5);
  EXPECT_LT(ip.cycles, gto.cycles);
  EXPECT_GT(num(ip.report, "cycles", "lrr"), num(ip.report, "cycles", "sample"));
}

TEST(IpawsSim, ForcedDecisionsAndTheOracle) {
  // force=gto after a GTO sample is GTO exactly; force=lrr overrides a GTO decision.
  SimRun gto = run({"lrr_friendly"}, "gto");
  SimRun forced_gto = run({"lrr_friendly"}, "ipaws", params({{"force", "gto"}}));
  EXPECT_EQ(forced_gto.cycles, gto.cycles);
  EXPECT_EQ(num(forced_gto.report, "forced"), kSchedulers);
  EXPECT_EQ(num(forced_gto.report, "decisions", "gto"), kSchedulers);
  // Every finished sample (each scheduler's first, and the re-samples a drop in issue rate
  // starts) ends in a decision, and every decision is the forced one.
  SimRun t_forced = run({"thrash_gto"}, "ipaws", params({{"force", "lrr"}}));
  EXPECT_GE(num(t_forced.report, "decisions", "lrr"), kSchedulers);
  EXPECT_EQ(num(t_forced.report, "decisions", "lrr"),
            num(t_forced.report, "samples") - num(t_forced.report, "unfinished_samples"));
  EXPECT_EQ(num(t_forced.report, "decisions", "gto"), 0);
  EXPECT_EQ(num(t_forced.report, "forced"), num(t_forced.report, "decisions", "lrr"));

  // iPAWS_Oracle per kernel: force the better of LRR and GTO. It is never worse than iPAWS
  // forced to the other policy, and equals GTO where GTO is better (the sample is GTO's).
  for (const char* k : {"lrr_friendly", "thrash_gto"}) {
    SimRun l = run({k}, "lrr"), g = run({k}, "gto");
    bool lrr_better = l.cycles < g.cycles;
    SimRun oracle = run({k}, "ipaws", params({{"force", lrr_better ? "lrr" : "gto"}}));
    SimRun wrong = run({k}, "ipaws", params({{"force", lrr_better ? "gto" : "lrr"}}));
    EXPECT_LE(oracle.cycles, wrong.cycles) << k;
    EXPECT_LT(oracle.cycles, std::max(l.cycles, g.cycles)) << k;
    // The best-static oracle over the same real runs is never worse than either.
    experiment::CycleTable t;
    t.set(k, "lrr", double(l.cycles));
    t.set(k, "gto", double(g.cycles));
    t.set(k, "ipaws_oracle", double(oracle.cycles));
    double best = experiment::best_static_oracle(t, {"lrr", "gto"})[0];
    EXPECT_LE(best, double(l.cycles));
    EXPECT_LE(best, double(g.cycles));
    EXPECT_EQ(best, double(std::min(l.cycles, g.cycles)));
    if (!lrr_better) {
      EXPECT_EQ(oracle.cycles, g.cycles) << k;
    }
  }
}

TEST(IpawsSim, ForceListPerLaunchAndResampleOnEachKernel) {
  // Two launches on one stream: a new sample at each, and force entry i for launch i.
  SimRun r = run({"thrash_gto", "lrr_friendly"}, "ipaws", params({{"force", "lrr,gto"}, {"check_cycles", "0"}}));
  EXPECT_EQ(num(r.report, "samples"), 2 * kSchedulers);
  EXPECT_EQ(r.report["kernels"]["0"]["decisions"]["lrr"].get<double>(), kSchedulers);
  EXPECT_EQ(r.report["kernels"]["0"]["decisions"]["gto"].get<double>(), 0);
  EXPECT_EQ(r.report["kernels"]["1"]["decisions"]["gto"].get<double>(), kSchedulers);
  // Without force the decisions follow each kernel's pattern.
  SimRun d = run({"thrash_gto", "lrr_friendly"}, "ipaws", params({{"check_cycles", "0"}}));
  EXPECT_EQ(d.report["kernels"]["0"]["decisions"]["gto"].get<double>(), kSchedulers);
  EXPECT_EQ(d.report["kernels"]["1"]["decisions"]["lrr"].get<double>(), kSchedulers);
}

TEST(IpawsSim, RecoverResamplesWhenTheIssueRateDrops) {
  // drop=0: any window slower than the first re-samples, at most max_resamples times per kernel.
  SimRun r = run({"thrash_gto"}, "ipaws", params({{"check_cycles", "500"}, {"drop", "0"}, {"max_resamples", "2"}}));
  double res = num(r.report, "resamples");
  EXPECT_GT(res, 0);
  EXPECT_LE(res, 2 * kSchedulers);
  EXPECT_EQ(num(r.report, "samples"), kSchedulers + res);
  double decided = num(r.report, "decisions", "gto") + num(r.report, "decisions", "lrr");
  EXPECT_EQ(decided + num(r.report, "unfinished_samples"), num(r.report, "samples"));
  SimRun none = run({"thrash_gto"}, "ipaws", params({{"check_cycles", "500"}, {"drop", "0"}, {"max_resamples", "0"}}));
  EXPECT_EQ(num(none.report, "resamples"), 0);
  SimRun off = run({"thrash_gto"}, "ipaws", params({{"check_cycles", "0"}, {"drop", "0"}}));
  EXPECT_EQ(num(off.report, "resamples"), 0);
}

TEST(IpawsSim, SampleByCycles) {
  SimRun r = run({"thrash_gto"}, "ipaws", params({{"sample_insts", "0"}, {"sample_cycles", "2000"}}));
  EXPECT_EQ(num(r.report, "decisions", "gto") + num(r.report, "decisions", "lrr"), kSchedulers);
  EXPECT_GE(num(r.report, "cycles", "sample"), kSchedulers * 2000);
  EXPECT_GT(num(r.report, "issued", "sample"), 0);
}

TEST(IpawsHarness, OracleForceFromLrrAndGtoRuns) {
  using experiment::ipaws_oracle_force;
  nlohmann::json l = {{"kernels",
                       {{{"launch", 0}, {"kernel_cycles", 100}},
                        {{"launch", 1}, {"kernel_cycles", 50}},
                        {{"launch", 2}, {"kernel_cycles", 90}}}}};
  nlohmann::json g = {{"kernels",
                       {{{"launch", 0}, {"kernel_cycles", 100}},
                        {{"launch", 1}, {"kernel_cycles", 60}},
                        {{"launch", 2}, {"kernel_cycles", 80}}}}};
  EXPECT_EQ(ipaws_oracle_force(l, g), "gto,lrr,gto");  // a tie goes to GTO
  nlohmann::json g2 = {{"kernels", {{{"launch", 0}, {"kernel_cycles", 100}}}}};
  EXPECT_EQ(ipaws_oracle_force(l, g2), "");
  EXPECT_EQ(ipaws_oracle_force(nlohmann::json::object(), g), "");
  // The force list is a valid ipaws parameter.
  EXPECT_NO_THROW(ipaws_options(params({{"force", ipaws_oracle_force(l, g)}})));
}

TEST(IpawsHarness, TableSevenRowsAndChoiceCounts) {
  using experiment::Comparison;
  Comparison c;
  c.baseline = "lrr";
  c.schedulers = {"lrr", "gto", "ipaws", "ipaws_oracle"};
  auto row = [&](const char* k, const char* s, double cycles, double dec_gto = 0, double dec_lrr = 0) {
    nlohmann::json r = {{"workload", k}, {"kernel_id", k}, {"scheduler", s}, {"cycles", cycles}, {"launch", 0}};
    if (std::string(s) == "ipaws") {
      r["sched.kernels.0.decisions.gto"] = dec_gto;
      r["sched.kernels.0.decisions.lrr"] = dec_lrr;
    }
    c.rows.push_back(r);
  };
  // a: LRR-friendly (lrr 100, gto 125), ipaws chose LRR. b: GTO-friendly (lrr 200, gto 100),
  // ipaws chose LRR (wrong). c: a tie, counted apart.
  row("a", "lrr", 100), row("a", "gto", 125), row("a", "ipaws", 110, 1, 3), row("a", "ipaws_oracle", 110);
  row("b", "lrr", 200), row("b", "gto", 100), row("b", "ipaws", 160, 0, 2), row("b", "ipaws_oracle", 100);
  row("c", "lrr", 100), row("c", "gto", 100), row("c", "ipaws", 100), row("c", "ipaws_oracle", 100);
  c.finish();
  experiment::FriendlySplit f = experiment::friendly_split(c.table, "lrr");
  ASSERT_EQ(f.all_geomean.size(), 4u);
  // gto over lrr: a 100/125, b 2, c 1.
  EXPECT_NEAR(f.all_geomean[1], std::cbrt(0.8 * 2.0 * 1.0), 1e-12);
  EXPECT_NEAR(f.gto_geomean[1], std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(f.all_geomean[3], std::cbrt(100.0 / 110.0 * 2.0 * 1.0), 1e-12);
  std::string s = experiment::text_summary(c);
  EXPECT_NE(s.find("All kernels"), std::string::npos) << s;
  EXPECT_NE(s.find("ipaws committed to the better policy on 1 of 1 LRR-friendly and 0 of 1 GTO-friendly kernel "
                   "launches (1 with LRR = GTO not counted)"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace warpsim

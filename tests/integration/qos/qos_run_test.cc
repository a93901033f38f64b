// Real multikernel runs on a cut-down titanv (four SMs): both kernels resident on every SM
// with equal CTAs, K2 launched `delay` cycles after K1, deterministic results, errors that
// stop the run cleanly, a budget search over real runs, and the command line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "config/config_loader.h"
#include "core/error.h"
#include "experiment/budget_search.h"
#include "experiment/multikernel.h"
#include "experiment/qos_output.h"
#include "experiment/qos_sweep.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {
namespace {

MultiKernelSpec small_spec(const std::string& k1, const std::string& k2, uint64_t delay) {
  MultiKernelSpec s;
  s.gpu = load_preset("titanv");
  s.gpu.core.num_sms = 4;
  s.workloads = {k1, k2};
  s.size = "small";
  s.delay = delay;
  s.scheduler = {"gto", {}};
  return s;
}

std::map<std::string, std::string> tiny_pc() { return {{"n", "4096"}, {"rounds", "6"}}; }

// A rebuilt warpsim (another timing model) must not reuse results an earlier build cached: the
// key of a concurrent-kernel run names the build, as a sweep pair's key does.
TEST(QosCache, KeyNamesTheBuild) {
  MultiKernelSpec spec;
  spec.workloads = {"pc_pt", "pc_pt"};
  spec.gpu = load_preset("titanv");
  const std::string key = multikernel_key_text(spec);
  EXPECT_NE(build_identity(), "");
  EXPECT_NE(key.find("\nbuild " + build_identity() + "\n"), std::string::npos) << key.substr(0, 200);
}

TEST(QosRun, BothKernelsShareEverySmAndK2StartsLater) {
  for (uint64_t delay : {8u, 40u}) {
    MultiKernelSpec s = small_spec("pc_pt", "pc_pt", delay);
    s.params = {tiny_pc(), tiny_pc()};
    MultiKernelResult r = run_multikernel(s);
    ASSERT_EQ(r.sides.size(), 2u);
    EXPECT_EQ(r.sms, 4u);
    EXPECT_EQ(r.shared_sms, 4u);
    EXPECT_TRUE(r.all_shared());
    for (size_t i = 0; i < 2; ++i) {
      const SideResult& side = r.sides[i];
      EXPECT_TRUE(side.checked && side.verified) << side.message;
      EXPECT_EQ(side.stream, i + 1);
      // Half of each SM: 64 warps / 2 kernels / 8 warps per CTA = 4 CTAs per SM.
      EXPECT_EQ(side.grid, 16u);
      ASSERT_EQ(side.ctas_per_sm.size(), 4u);
      for (uint32_t c : side.ctas_per_sm) EXPECT_EQ(c, 4u);
      ASSERT_EQ(side.kernels.size(), 1u);
      EXPECT_EQ(side.kernels[0].grid.x, 16u);
      EXPECT_EQ(side.kernels[0].stream, i + 1);
      EXPECT_GE(side.kernels[0].start_cycle, side.kernels[0].launch_cycle);
      EXPECT_EQ(side.response(), side.kernels[0].end_cycle - side.kernels[0].launch_cycle);
      EXPECT_GT(side.warp_insts, 0u);
    }
    EXPECT_EQ(r.sides[0].launch_cycle, 0u);
    EXPECT_EQ(r.sides[1].launch_cycle, delay);
    EXPECT_EQ(r.sides[1].kernels[0].start_cycle, delay);  // its own stream: nothing to wait for
    // Both ran at the same time: K2 started before K1 finished.
    EXPECT_LT(r.sides[1].kernels[0].start_cycle, r.sides[0].end_cycle);
    EXPECT_EQ(r.cycles, std::max(r.sides[0].end_cycle, r.sides[1].end_cycle) + 1);
  }
}

TEST(QosRun, FittedGridsCountRegistersSoEveryCtaOfThePairIsResident) {
  // dxtc_pt compiled for sm_75 needs 39 registers per thread (workload.toml): half of titanv's
  // 65536 registers holds 3 of its 8-warp CTAs, not the 4 the warp slots would allow. With 4
  // per kernel, 8 CTAs would not fit an SM and a second wave would run. (sm_70's ptxas gives it
  // 32, and 4 would fit.)
  MultiKernelSpec s = small_spec("dxtc_pt", "dxtc_pt", 0);
  s.gpu.core.num_sms = 2;
  s.gpu.core.register_target = 75;
  s.params = {{{"width", "64"}, {"height", "64"}}, {{"width", "64"}, {"height", "64"}}};
  MultiKernelResult r = run_multikernel(s);
  ASSERT_EQ(r.sides.size(), 2u);
  for (const SideResult& side : r.sides) {
    EXPECT_TRUE(side.checked && side.verified) << side.message;
    EXPECT_EQ(side.grid, 3u * 2);
    ASSERT_EQ(side.ctas_per_sm.size(), 2u);
    for (uint32_t c : side.ctas_per_sm) EXPECT_EQ(c, 3u);  // all resident from the start
  }
}

TEST(QosRun, DeterministicAndIndependentOfJobs) {
  MultiKernelSpec a = small_spec("pc_pt", "vectoradd_pt", 8);
  a.params = {tiny_pc(), {{"n", "8192"}}};
  MultiKernelSpec b = a;
  b.scheduler = {"lrr", {}};
  std::vector<MultiKernelResult> one = run_many({a, b}, 1);
  std::vector<MultiKernelResult> two = run_many({a, b}, 2);
  ASSERT_EQ(one.size(), 2u);
  for (size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(to_json(one[t]).dump(), to_json(two[t]).dump());
    EXPECT_TRUE(one[t].sides[0].verified && one[t].sides[1].verified);
  }
  // The JSON form reads back to the same result.
  EXPECT_EQ(to_json(multikernel_from_json(to_json(one[0]))).dump(), to_json(one[0]).dump());
}

TEST(QosRun, IsolatedKernelOnItsStream) {
  MultiKernelSpec s = small_spec("pc_pt", "pc_pt", 8);
  s.workloads = {"pc_pt"};
  s.streams = {2};
  s.params = {tiny_pc()};
  s.share = 2;
  MultiKernelResult r = run_multikernel(s);
  ASSERT_EQ(r.sides.size(), 1u);
  EXPECT_EQ(r.sides[0].stream, 2u);
  EXPECT_EQ(r.sides[0].kernels[0].stream, 2u);
  EXPECT_EQ(r.sides[0].grid, 16u);  // still half of each SM
  EXPECT_EQ(r.sides[0].launch_cycle, 0u);
  EXPECT_EQ(r.shared_sms, 4u);
}

TEST(QosRun, ErrorsStopTheRun) {
  MultiKernelSpec bad = small_spec("pc_pt", "pc_pt", 8);
  bad.params = {tiny_pc(), {{"n", "0"}}};  // K2's driver rejects it
  EXPECT_THROW(run_multikernel(bad), Error);
  MultiKernelSpec unknown = small_spec("pc_pt", "no_such_workload", 8);
  EXPECT_THROW(run_multikernel(unknown), Error);
  MultiKernelSpec same_stream = small_spec("pc_pt", "pc_pt", 8);
  same_stream.streams = {1, 1};
  EXPECT_THROW(run_multikernel(same_stream), Error);
  MultiKernelSpec none = small_spec("pc_pt", "pc_pt", 8);
  none.workloads.clear();
  EXPECT_THROW(run_multikernel(none), Error);
  MultiKernelSpec limit = small_spec("pc_pt", "pc_pt", 8);
  limit.params = {tiny_pc(), tiny_pc()};
  limit.gpu.max_cycles = 100;  // the simulation stops with a limit error while both drivers wait
  EXPECT_THROW(run_multikernel(limit), Error);
}

TEST(QosRun, BudgetSearchOnRealRuns) {
  if (!takes_budgets("qaws")) GTEST_SKIP() << "no scheduler 'qaws' that takes budgets";
  std::vector<uint32_t> budgets = {1, 2, 4, 8};
  std::map<uint32_t, double> rt2;
  for (uint32_t b : budgets) {
    MultiKernelSpec s = small_spec("pc_pt", "pc_pt", 8);
    s.params = {tiny_pc(), tiny_pc()};
    s.scheduler = {"qaws", budget_params(1, b, {})};
    MultiKernelResult r = run_multikernel(s);
    ASSERT_TRUE(r.sides[1].verified);
    rt2[b] = double(r.sides[1].response());
  }
  // Target: the best K2 response of the candidates; the search must return the smallest budget
  // that reaches it, and every smaller budget must miss it.
  double target = rt2.begin()->second;
  for (auto& [b, v] : rt2) target = std::min(target, v);
  size_t runs = 0;
  uint32_t found = smallest_budget(
      budgets,
      [&](uint32_t b) {
        ++runs;
        return rt2.at(b);
      },
      target);
  ASSERT_NE(found, 0u);
  EXPECT_LE(rt2.at(found), target);
  for (uint32_t b : budgets) {
    if (b < found) {
      EXPECT_GT(rt2.at(b), target);
    }
  }
  EXPECT_GE(runs, 1u);
  // A target below every response finds nothing.
  EXPECT_EQ(smallest_budget(
                budgets, [&](uint32_t b) { return rt2.at(b); }, target - 1),
            0u);
  // Giving K2 the larger budget helps K2 compared with equal budgets (QAWS with equal budgets is GTO).
  EXPECT_LE(target, rt2.at(1));
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(QosCli, SmokeRunWritesResultsAndPlots) {
  std::string bin = WARPSIM_BINARY;
  std::string dir = bin.substr(0, bin.rfind('/')) + "/qos-test-out";
  std::filesystem::remove_all(dir);
  std::string cmd = bin +
                    " qos pc_pt:pc_pt --schedulers lrr,gto --gpu titanv --set core.num_sms=2 --size small "
                    "--delay 8 --jobs 2 --out " +
                    dir + " > " + dir + ".log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read(dir + ".log");
  std::string csv = read(dir + "/qos.csv");
  EXPECT_NE(csv.find("pc_pt:pc_pt,pc_pt,pc_pt,lrr,0,1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("pc_pt:pc_pt,pc_pt,pc_pt,gto,0,1,"), std::string::npos) << csv;
  nlohmann::json j = nlohmann::json::parse(read(dir + "/qos.json"));
  ASSERT_EQ(j.at("rows").size(), 2u);
  for (const auto& row : j.at("rows")) {
    EXPECT_TRUE(row.at("verified").get<bool>());
    EXPECT_EQ(row.at("shared_sms").get<int>(), 2);
  }
  EXPECT_DOUBLE_EQ(j.at("rows")[0].at("norm_rt1").get<double>(), 1.0);
  for (const char* f : {"response.svg", "speedup.svg", "avg_exec.svg", "report.html"}) {
    std::string text = read(dir + "/" + f);
    EXPECT_NE(text.find("<svg"), std::string::npos) << f;
  }
  // The second run comes from the cache.
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read(dir + ".log");
  EXPECT_NE(read(dir + ".log").find("(4 cached)"), std::string::npos) << read(dir + ".log");
  // Bad input: a pair without ':' and a bad budget are errors, not crashes.
  std::string bad = bin + " qos pc_pt --schedulers lrr --out " + dir + " > " + dir + ".bad.log 2>&1";
  EXPECT_NE(std::system(bad.c_str()), 0);
  EXPECT_NE(read(dir + ".bad.log").find("K1:K2"), std::string::npos) << read(dir + ".bad.log");
  std::string bad2 =
      bin + " qos pc_pt:pc_pt --schedulers lrr --budgets 0 --out " + dir + " > " + dir + ".bad2.log 2>&1";
  EXPECT_NE(std::system(bad2.c_str()), 0);
  EXPECT_NE(read(dir + ".bad2.log").find("budget"), std::string::npos) << read(dir + ".bad2.log");
}

}  // namespace
}  // namespace warpsim::experiment

// The search end to end on a tiny real setup: fitness from cached harness runs of the warpsim
// binary, resume == uninterrupted, best.toml loadable as an RL configuration.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_loader.h"
#include "core/error.h"
#include "rl/rl_config.h"
#include "search/search.h"
#include "workloads/workload.h"

using namespace warpsim;
using namespace warpsim::search;
namespace fs = std::filesystem;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / fmt::format("warpsim_search_test_{}_{}", name, ::getpid());
  fs::remove_all(d);
  return d.string();
}

SearchOptions tiny_options(const std::string& dir) {
  SearchOptions o;
  o.ga.population = 3;
  o.ga.newcomers = 1;
  o.ga.generations = 3;
  o.ga.elite_period = 2;  // generation 2 brings back the best so far
  o.ga.seed = 4;
  o.train = {"dep_chain"};
  o.final_suite = {"dep_chain", "barrier"};
  o.top = 2;
  o.eval.scheduler = "rlws";
  o.eval.gpu = load_preset("gtx480");
  o.eval.size = "small";
  o.eval.dir = dir;
  o.eval.jobs = 2;
  o.eval.exe = WARPSIM_BINARY;
  o.eval.resolve = [](const std::string& spec) {
    auto w = resolve_workload(spec);
    return experiment::WorkloadIdentity{w->name(), w->fingerprint()};
  };
  o.log = nullptr;
  return o;
}

}  // namespace

TEST(SearchRun, GeomeanSpeedupByHand) {
  std::vector<KernelCycles> k = {{"a", "a", 100, 50}, {"b", "b/k1", 100, 200}, {"b", "b/k2", 90, 90}};
  EXPECT_NEAR(geomean_speedup(k), 1.0, 1e-12);  // cbrt(2 * 0.5 * 1)
  EXPECT_NEAR(geomean_speedup(k, {"a"}), 2.0, 1e-12);
  EXPECT_NEAR(geomean_speedup(k, {"b"}), std::sqrt(0.5), 1e-12);
  EXPECT_TRUE(std::isnan(geomean_speedup(k, {"c"})));
  k[0].cycles = 0;
  EXPECT_TRUE(std::isnan(geomean_speedup(k)));
}

TEST(SearchRun, DefaultsAreTheScheduler) {
  EXPECT_EQ(scheduler_defaults("rlws").alpha, rl::RlConfig::rlws_defaults().alpha);
  EXPECT_EQ(scheduler_defaults("rlws_ms").gamma, rl::RlConfig::rlws_ms_defaults().gamma);
  EXPECT_THROW(scheduler_defaults("gto"), Error);
}

TEST(SearchRun, TinyRealSearchResumesToTheSameResult) {
  std::string d1 = fresh_dir("whole"), d2 = fresh_dir("parts");
  SearchOptions o1 = tiny_options(d1);
  SearchResult whole = run_search(o1);
  ASSERT_TRUE(whole.finished);
  ASSERT_EQ(whole.generations.size(), 3u);
  EXPECT_GT(whole.runs, 0u);
  EXPECT_EQ(whole.failed_runs, 0u);

  // Fitness is baseline cycles / candidate cycles on the one training kernel.
  HarnessEvaluator ev(o1.eval);
  auto e = ev.evaluate({to_rl_config(whole.best, scheduler_defaults("rlws"))}, {"dep_chain"});
  ASSERT_TRUE(e[0].ok) << e[0].failure;
  ASSERT_EQ(e[0].kernels.size(), 1u);
  EXPECT_GT(e[0].kernels[0].cycles, 0);
  EXPECT_DOUBLE_EQ(e[0].fitness, e[0].kernels[0].baseline_cycles / e[0].kernels[0].cycles);
  EXPECT_DOUBLE_EQ(e[0].fitness, whole.best_train_fitness);
  EXPECT_EQ(ev.runs(), 0u);  // everything came from the cache

  // Final suite: top 2 and the defaults, training part = fitness on the training set.
  ASSERT_EQ(whole.final_rows.size(), 3u);
  EXPECT_EQ(whole.final_rows.back().label, "defaults");
  EXPECT_DOUBLE_EQ(whole.final_rows.back().train_fitness, whole.defaults_train_fitness);
  for (const auto& r : whole.final_rows) {
    ASSERT_TRUE(r.ok);
    EXPECT_NEAR(r.train, r.train_fitness, 1e-12);
    EXPECT_TRUE(std::isfinite(r.heldout));
    EXPECT_NEAR(r.suite, std::sqrt(r.train * r.heldout), 1e-9);  // one kernel each
  }

  // The best configuration loads as an RL configuration file and is the best chromosome.
  rl::RlConfig loaded = rl::load_rl_config(whole.best_file, rl::RlConfig::rlws_defaults());
  EXPECT_EQ(from_rl_config(loaded), whole.best);
  for (const char* f : {"history.csv", "generations.csv", "final.csv", "fitness.svg", "report.html", "state.json"})
    EXPECT_TRUE(fs::exists(fs::path(d1) / f)) << f;
  EXPECT_NE(read_all(d1 + "/fitness.svg").find("<svg"), std::string::npos);

  // The same search killed after one generation and resumed twice.
  SearchOptions o2 = tiny_options(d2);
  SearchResult p1 = run_search(o2, 1);
  EXPECT_FALSE(p1.finished);
  EXPECT_THROW(run_search(o2), Error);  // an existing search needs --resume
  o2.resume = true;
  run_search(o2, 1);
  SearchResult done = run_search(o2);
  EXPECT_TRUE(done.finished);
  EXPECT_EQ(read_all(d2 + "/history.csv"), read_all(d1 + "/history.csv"));
  EXPECT_EQ(done.best, whole.best);
  EXPECT_EQ(read_all(d2 + "/best.toml"), read_all(d1 + "/best.toml"));

  // Another seed does not resume that state.
  o2.ga.seed = 5;
  EXPECT_THROW(run_search(o2), Error);
  fs::remove_all(d1);
  fs::remove_all(d2);
}

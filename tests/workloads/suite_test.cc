// Every bundled workload verifies at small size under LRR, GTO and TL on every GPU preset.
#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "core/error.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

struct Case {
  std::string workload, gpu, sched;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  // Every preset shipped (a new preset gets the whole suite).
  for (const auto& w : bundled_workloads())
    for (const auto& gpu : list_presets())
      for (const char* sched : {"lrr", "gto", "tl"}) out.push_back({w->name(), gpu, sched});
  return out;
}

class Suite : public ::testing::TestWithParam<Case> {};

TEST_P(Suite, VerifiesAtSmallSize) {
  const Case& c = GetParam();
  auto w = make_bundled_workload(c.workload);
  ASSERT_TRUE(w);
  Gpu gpu(load_preset(c.gpu), c.sched);
  WorkloadOptions opts;
  opts.size = "small";
  WorkloadOutcome o = w->run(gpu, opts);
  EXPECT_TRUE(o.checked);
  EXPECT_TRUE(o.verified) << o.message;
  ASSERT_FALSE(gpu.results().empty());
  for (const auto& r : gpu.results()) EXPECT_GT(r.end_cycle, r.start_cycle);
}

INSTANTIATE_TEST_SUITE_P(Bundled, Suite, ::testing::ValuesIn(cases()), [](const ::testing::TestParamInfo<Case>& i) {
  return i.param.workload + "_" + i.param.gpu + "_" + i.param.sched;
});

TEST(SuiteMeta, EveryWorkloadHasThreeSizesAndMetadata) {
  auto all = bundled_workloads();
  EXPECT_GE(all.size(), 1u);
  for (const auto& w : all) {
    const BundledMeta& m = w->meta();
    EXPECT_FALSE(m.category.empty()) << m.name;
    EXPECT_FALSE(m.suite.empty()) << m.name;
    EXPECT_FALSE(m.kernels.empty()) << m.name;
    for (const char* s : {"small", "default", "paper"}) EXPECT_NO_THROW(w->size_params(s)) << m.name << " " << s;
  }
}

TEST(SuiteMeta, UnknownSizeAndParameterAreErrors) {
  auto w = make_bundled_workload("vectoradd");
  ASSERT_TRUE(w);
  EXPECT_THROW(w->size_params("huge"), Error);
  Gpu gpu(load_preset("gtx480"), "gto");
  WorkloadOptions o;
  o.size = "small";
  o.params["nonesuch"] = "1";
  EXPECT_THROW(w->run(gpu, o), Error);
}

}  // namespace
}  // namespace warpsim::test

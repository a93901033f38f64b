// The shipped scheduler-sensitivity kernels keep the property they were written for when run
// on the gtx480 preset (each file's header records the measured cycle counts).
#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "synth/kernel_text.h"
#include "timing/gpu.h"

namespace warpsim::synth {
namespace {

uint64_t cycles(const std::string& kernel, const std::string& scheduler,
                const ParamOverrides& params = {}) {
  Gpu gpu(load_preset("gtx480"), scheduler);
  gpu.enqueue(load_synthetic_kernel(kernel, params).source(), 0);
  gpu.run_until_idle();
  return gpu.now();
}

TEST(ShippedKernels, ThrashGtoFavoursGreedyScheduling) {
  const uint64_t lrr = cycles("thrash_gto", "lrr");
  const uint64_t gto = cycles("thrash_gto", "gto");
  EXPECT_LT(double(gto) * 1.10, double(lrr)) << "gto " << gto << " lrr " << lrr;
}

TEST(ShippedKernels, LrrFriendlyFavoursRoundRobin) {
  const uint64_t lrr = cycles("lrr_friendly", "lrr");
  const uint64_t gto = cycles("lrr_friendly", "gto");
  EXPECT_LT(double(lrr) * 1.10, double(gto)) << "lrr " << lrr << " gto " << gto;
}

TEST(ShippedKernels, TlFriendlyFavoursTwoLevel) {
  const uint64_t lrr = cycles("tl_friendly", "lrr");
  const uint64_t tl = cycles("tl_friendly", "tl");
  EXPECT_LT(double(tl) * 1.10, double(lrr)) << "tl " << tl << " lrr " << lrr;
}

TEST(ShippedKernels, RunsAreRepeatable) {
  const ParamOverrides small = {{"CTAS", "15"}, {"ITERS", "8"}};
  EXPECT_EQ(cycles("thrash_gto", "gto", small), cycles("thrash_gto", "gto", small));
}

}  // namespace
}  // namespace warpsim::synth

// The shipped scheduler-sensitivity kernels keep the property they were written for when run
// on the gtx480 preset (each file's header records the measured cycle counts).
#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "synth/kernel_text.h"
#include "timing/gpu.h"

namespace warpsim::synth {
namespace {

uint64_t cycles(const std::string& kernel, const std::string& scheduler, const ParamOverrides& params = {},
                bool result_slot_conflicts = true) {
  GpuConfig cfg = load_preset("gtx480");
  cfg.core.result_slot_conflicts = result_slot_conflicts;
  Gpu gpu(cfg, scheduler);
  gpu.enqueue(load_synthetic_kernel(kernel, params).source(), 0);
  gpu.run_until_idle();
  return gpu.now();
}

TEST(ShippedKernels, ThrashGtoFavoursGreedyScheduling) {
  const uint64_t lrr = cycles("thrash_gto", "lrr");
  const uint64_t gto = cycles("thrash_gto", "gto");
  EXPECT_LT(double(gto) * 1.10, double(lrr)) << "gto " << gto << " lrr " << lrr;
}

// The lock-step effect the kernel was written for holds with and without Fermi's result-slot
// conflicts (the file's header has the figures).
TEST(ShippedKernels, LrrFriendlyFavoursRoundRobin) {
  for (bool slots : {false, true}) {
    const uint64_t lrr = cycles("lrr_friendly", "lrr", {}, slots);
    const uint64_t gto = cycles("lrr_friendly", "gto", {}, slots);
    EXPECT_LT(double(lrr) * 1.04, double(gto)) << "lrr " << lrr << " gto " << gto << " slots " << slots;
  }
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

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

// The lock-step effect the kernel was written for holds without Fermi's result-slot conflicts;
// with them, round robin's interleaving of 1- and 4-cycle results on the two shared SP units
// costs it more than GTO (the file's header has the figures).
TEST(ShippedKernels, LrrFriendlyFavoursRoundRobin) {
  const uint64_t lrr = cycles("lrr_friendly", "lrr", {}, false);
  const uint64_t gto = cycles("lrr_friendly", "gto", {}, false);
  EXPECT_LT(double(lrr) * 1.08, double(gto)) << "lrr " << lrr << " gto " << gto;
  const uint64_t lrr_slots = cycles("lrr_friendly", "lrr");
  const uint64_t gto_slots = cycles("lrr_friendly", "gto");
  const double lrr_cost = double(lrr_slots) / double(lrr);
  const double gto_cost = double(gto_slots) / double(gto);
  EXPECT_GT(lrr_cost, 1.03) << "result slots cost lrr " << lrr_slots << " vs " << lrr;
  EXPECT_GT(lrr_cost, gto_cost + 0.005) << "gto " << gto_slots << " vs " << gto;
  EXPECT_LT(gto_cost, 1.05) << "gto " << gto_slots << " vs " << gto;
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

// Registers per thread of the bundled kernels: workload.toml records what ptxas gives each
// kernel of kernel.ptx per compile target (scripts/gen_workload_registers.sh), the presets pick
// a target (core.register_target), and the count decides how many CTAs an SM holds.
#include <gtest/gtest.h>

#include <string>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/occupancy.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

TEST(BundledRegisters, EveryKernelHasACountForEachRecordedTarget) {
  for (const auto& w : bundled_workloads()) {
    const BundledMeta& m = w->meta();
    ASSERT_EQ(m.registers.by_target.size(), 3u) << m.name;
    for (uint32_t target : {70u, 75u, 90u}) {
      ASSERT_EQ(m.registers.by_target.count(target), 1u) << m.name << " sm_" << target;
      for (const auto& k : m.kernels) {
        uint32_t n = m.registers.by_target.at(target).count(k) ? m.registers.by_target.at(target).at(k) : 0;
        EXPECT_GE(n, 2u) << m.name << " " << k << " sm_" << target;
        EXPECT_LE(n, 255u) << m.name << " " << k << " sm_" << target;
      }
    }
  }
}

// `registers` goes after the workload's other tables; `top`: before them.
std::string meta_error(const std::string& registers, bool top = false) {
  std::string head = "name = \"w\"\nkernels = [\"k\"]\n";
  std::string toml = top ? head + registers + "[sizes.small]\nn = 1\n" : head + "[sizes.small]\nn = 1\n" + registers;
  try {
    parse_bundled_meta("w", toml.c_str());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(BundledRegisters, MalformedTablesAreErrorsWithTheirPlace) {
  EXPECT_EQ(meta_error("[registers.sm_75]\nk = 30\n"), "");
  std::string m = meta_error("[registers.compute_75]\nk = 30\n");
  EXPECT_NE(m.find("workloads/w/workload.toml:"), std::string::npos) << m;
  EXPECT_NE(m.find("not a compile target"), std::string::npos) << m;
  EXPECT_NE(meta_error("[registers.sm_75]\nother = 30\n").find("'other' is not one of the workload's kernels"),
            std::string::npos);
  EXPECT_NE(meta_error("[registers.sm_75]\nk = 0\n").find("1 to 255"), std::string::npos);
  EXPECT_NE(meta_error("[registers.sm_75]\nk = 256\n").find("1 to 255"), std::string::npos);
  EXPECT_NE(meta_error("[registers.sm_75]\nk = \"many\"\n").find("1 to 255"), std::string::npos);
  EXPECT_NE(meta_error("registers = 3\n", true).find("must be a table"), std::string::npos);
  EXPECT_NE(meta_error("[registers]\nsm_75 = 3\n").find("must be a table of kernel = count"), std::string::npos);
}

// conv2d at size small is 64 CTAs of 256 threads. With the 26 registers ptxas gives it for
// sm_70 (the target the gtx480 preset falls back to) a GTX480 SM holds 4 CTAs (26 x 256 = 6656
// registers each, in 64-register units, of 32768), so 15 SMs take two waves; with the PTX
// estimate (17) it holds 6 (by threads: 1536 / 256) and one wave does. GPGPU-Sim 4.2 reports 4
// CTAs per SM "limited by regs" (data/reference/gpgpusim/registers.tsv).
TEST(BundledRegisters, Conv2dOnGtx480TakesTwoWavesWithTheCompilersCount) {
  auto w = make_bundled_workload("conv2d");
  ASSERT_TRUE(w);
  GpuConfig cfg = load_preset("gtx480");
  EXPECT_EQ(w->meta().registers.lookup("conv2d", cfg.core.register_target), 26u);
  EXPECT_EQ(ctas_per_sm(cfg.core, CtaDemand{256, 26, 0}), 4u);
  auto cycles = [&](bool compiled) {
    GpuConfig c = cfg;
    c.core.compiled_registers = compiled;
    Gpu gpu(c, "gto");
    WorkloadOptions opts;
    opts.size = "small";
    WorkloadOutcome o = w->run(gpu, opts);
    EXPECT_TRUE(o.verified) << o.message;
    EXPECT_EQ(gpu.results().size(), 1u);
    return gpu.results().empty() ? 0 : gpu.results()[0].end_cycle - gpu.results()[0].start_cycle;
  };
  uint64_t two_waves = cycles(true), one_wave = cycles(false);
  EXPECT_GT(double(two_waves), 1.15 * double(one_wave)) << two_waves << " vs " << one_wave;
}

}  // namespace
}  // namespace warpsim::test

// Issue to dependent issue of a shared-memory load, on the GPU presets, against GPGPU-Sim 4.2's
// figures for the same chain (its ldst_unit: -gpgpu_smem_latency L is a pipeline depth whose
// first stage is the cycle the load enters it, then one cycle in the writeback slot; the
// operand collector takes B = 4 cycles from issue to the LD/ST unit with one register-file
// port step per cycle, GTX480, and 3 with two, TITAN V): B + L + 2 = 32 cycles on GTX480
// (L 26), 25 on TITAN V (L 20), measured in GPGPU-Sim with a dependent ld.shared chain.
#include <gtest/gtest.h>

#include <string>

#include "config/config_loader.h"
#include "runtime/runtime.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

// One warp: `n` steps of `ld.shared` whose address is the previous load's value plus a base
// (each load depends on the one before), then `n` dependent adds; `with_loads` false leaves the
// loads out, so the difference of the two is the loads' share.
std::string chain_ptx(int n, bool with_loads) {
  std::string s =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry chain(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
      ".shared .align 4 .b32 sm[32];\n"
      "mov.u32 %r1, sm;\nmov.u32 %r3, 0;\nst.shared.u32 [%r1], %r3;\nbar.sync 0;\nmov.u32 %r2, 0;\n";
  for (int i = 0; i < n; ++i) {
    if (with_loads) s += "ld.shared.u32 %r2, [%r1];\n";
    s += "add.s32 %r1, %r1, %r2;\n";
  }
  s += "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";
  return s;
}

uint64_t kernel_cycles(const std::string& preset, int n, bool with_loads) {
  GpuConfig cfg = load_preset(preset);
  cfg.icache.perfect = true;  // straight-line code: instruction fetch is not measured here
  Gpu gpu(cfg, "gto");
  Runtime rt(&gpu);
  auto m = rt.load_module(chain_ptx(n, with_loads), "chain.ptx");
  DevPtr out = rt.malloc(4);
  rt.launch(rt.get_kernel(m, "chain"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(out));
  rt.synchronize();
  EXPECT_EQ(gpu.results().size(), 1u);
  return gpu.results().empty() ? 0 : gpu.results()[0].end_cycle - gpu.results()[0].start_cycle;
}

// Cycles one dependent shared load adds to the chain, from the slope over 16 more steps.
double load_hop(const std::string& preset) {
  const double with = double(kernel_cycles(preset, 24, true)) - double(kernel_cycles(preset, 8, true));
  const double without = double(kernel_cycles(preset, 24, false)) - double(kernel_cycles(preset, 8, false));
  return (with - without) / 16.0;
}

TEST(SharedLoadLatency, IssueToDependentIssueIsGpgpuSims) {
  EXPECT_DOUBLE_EQ(load_hop("gtx480"), 32.0);  // B 4 + L 26 + 2
  EXPECT_DOUBLE_EQ(load_hop("titanv"), 25.0);  // B 3 + L 20 + 2
}

}  // namespace
}  // namespace warpsim

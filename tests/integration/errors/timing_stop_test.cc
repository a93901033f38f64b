// The timing model's stops through the library API: the watchdog throws DeadlockError, the
// cycle and instruction caps throw LimitError, and the statistics so far stay readable.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/config.h"
#include "core/error.h"
#include "synth/kernel_text.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

// Two CTAs of two warps; each warp waits on 20 dependent global loads.
const char* kKernel =
    "kernel waits grid=2 block=64 regs=8\n"
    "loop 20\n"
    "  ld.global pattern=coalesced width=4 base=0x10000000\n"
    "  alu sp 1 use\n"
    "end\n"
    "exit\n";

GpuConfig base_config() {
  GpuConfig c;
  c.core.num_sms = 2;
  return c;
}

// Runs the kernel; returns the error message (empty when it finished).
template <class E>
std::string run_expecting(Gpu& gpu) {
  gpu.enqueue(synth::parse_kernel(kKernel, "waits.kern").source(), 0);
  try {
    gpu.run_until_idle();
  } catch (const E& e) {
    return e.what();
  }
  return {};
}

TEST(TimingStops, UnlimitedRunFinishes) {
  Gpu gpu(base_config(), "gto");
  EXPECT_EQ(run_expecting<Error>(gpu), "");
  ASSERT_EQ(gpu.results().size(), 1u);
  // 2 CTAs x 2 warps x (20 x (load + use + loop branch) + exit)
  EXPECT_EQ(gpu.snapshot().core.warp_insts, 4u * (20 * 3 + 1));
}

TEST(TimingStops, WatchdogThrowsDeadlockErrorNamingKernelAndWarps) {
  GpuConfig c = base_config();
  c.watchdog_cycles = 5;  // shorter than any memory round trip
  Gpu gpu(c, "gto");
  std::string msg = run_expecting<DeadlockError>(gpu);
  ASSERT_FALSE(msg.empty()) << "no deadlock reported";
  EXPECT_EQ(msg.rfind("deadlock: no warp made progress for 5 cycles", 0), 0u) << msg;
  EXPECT_NE(msg.find("running kernels: waits (launch 0, 0 of 2 CTAs done)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("memory requests in flight: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("instruction fetches in flight: "), std::string::npos) << msg;
  // One line per live warp: 2 SMs x 1 CTA x 2 warps.
  size_t lines = 0;
  for (size_t p = msg.find("\n  sm "); p != std::string::npos; p = msg.find("\n  sm ", p + 1)) ++lines;
  EXPECT_EQ(lines, 4u) << msg;
  EXPECT_NE(msg.find("sm 1 warp slot 1 (kernel 0 'waits', cta 1, warp 1): pc 0x"), std::string::npos) << msg;
  // The watchdog fires watchdog_cycles + 1 after the last progress, not at the next event (the
  // first load's return): a longer watchdog in the same stall fires exactly that much later.
  GpuConfig longer = c;
  longer.watchdog_cycles = 50;
  Gpu gpu50(longer, "gto");
  ASSERT_FALSE(run_expecting<DeadlockError>(gpu50).empty());
  EXPECT_GT(gpu.snapshot().cycle, 5u);
  EXPECT_EQ(gpu50.snapshot().cycle - gpu.snapshot().cycle, 45u) << msg;
}

TEST(TimingStops, CycleCapThrowsLimitErrorAndKeepsStatistics) {
  GpuConfig c = base_config();
  c.max_cycles = 300;
  Gpu gpu(c, "gto");
  std::string msg = run_expecting<LimitError>(gpu);
  ASSERT_FALSE(msg.empty()) << "the cap did not stop the run";
  EXPECT_EQ(msg.rfind("cycle limit reached: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("cycle limit reached: 300 cycles (max_cycles = 300)"), std::string::npos) << msg;
  StatsSnapshot s = gpu.snapshot();
  EXPECT_EQ(s.cycle, 300u);  // the cap stops the run at its cycle, not at the next event after it
  EXPECT_GT(s.core.warp_insts, 0u);
  EXPECT_LT(s.core.warp_insts, 4u * (20 * 3 + 1));
  EXPECT_TRUE(gpu.results().empty());  // the kernel did not finish
  EXPECT_TRUE(gpu.to_json().is_object());
}

TEST(TimingStops, InstructionCapThrowsLimitError) {
  GpuConfig c = base_config();
  c.max_insts = 10;
  Gpu gpu(c, "gto");
  std::string msg = run_expecting<LimitError>(gpu);
  ASSERT_FALSE(msg.empty()) << "the cap did not stop the run";
  EXPECT_EQ(msg.rfind("instruction limit reached: ", 0), 0u) << msg;
  uint64_t insts = gpu.snapshot().core.warp_insts;
  EXPECT_GE(insts, 10u);
  // Crossing the cap takes one cycle, in which each of the 2 SMs issues at most
  // schedulers x issue_per_scheduler instructions.
  EXPECT_LE(insts, 10u + 2 * c.core.schedulers * c.core.issue_per_scheduler);
}

}  // namespace
}  // namespace warpsim

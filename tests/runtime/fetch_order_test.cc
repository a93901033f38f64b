// Fetch after issue (core.fetch_after_issue), against GPGPU-Sim 4.2's shader cycle, which issues
// first and then runs -gpgpu_inst_fetch_throughput rounds of decode and fetch: a fetch is decoded
// by the next round, in the same cycle, unless it was the cycle's last round. Worked out by hand
// for one warp with a perfect I-cache (a fetch brings two instructions):
// - straight-line code: with four rounds (TITAN V) the warp refills its buffer in the cycle that
//   emptied it and issues every cycle; with one round (GTX480) the fetch is decoded the next
//   cycle, after that cycle's issue, so every second instruction costs a bubble;
// - a taken branch that ends its fetch: the target is fetched in the branch's cycle and issues
//   1 (four rounds) or 2 (one round) cycles after the branch; a taken branch that does not end
//   its fetch brought its sequential successor along, which the warp finds stale a cycle later:
//   2 or 3 cycles. Fetch before issue with a 2-cycle branch latency (the switch off) gives 3.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "ptx/decoder.h"
#include "ptx/parser.h"
#include "runtime/runtime.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

// Cycles at which the kernel's one warp issued, in program order.
std::vector<uint64_t> issue_cycles(const std::string& preset, bool after_issue, uint32_t branch_latency,
                                   const std::string& body, bool falls_through = false) {
  GpuConfig cfg = load_preset(preset);
  cfg.icache.perfect = true;
  cfg.core.fetch_after_issue = after_issue;
  cfg.core.branch_latency = branch_latency;
  cfg.core.fetch_falls_through = falls_through;
  Gpu gpu(cfg, "gto");
  std::vector<IssueRecord> log;
  gpu.set_issue_log(&log);
  Runtime rt(&gpu);
  const std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<40>;\n" + body + "ret;\n}\n";
  auto m = rt.load_module(ptx, "k.ptx");
  rt.launch(rt.get_kernel(m, "k"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs());
  rt.synchronize();
  std::vector<uint64_t> out;
  for (const IssueRecord& r : log)
    if (r.slot >= 0) out.push_back(r.cycle);
  return out;
}

std::string straight_line(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "mov.u32 %r" + std::to_string(i) + ", " + std::to_string(i) + ";\n";
  return s;
}

std::vector<uint64_t> gaps(const std::vector<uint64_t>& c) {
  std::vector<uint64_t> g;
  for (size_t i = 1; i < c.size(); ++i) g.push_back(c[i] - c[i - 1]);
  return g;
}

TEST(FetchOrder, FourFetchRoundsRefillTheBufferInTheCycleThatEmptiedIt) {
  const auto on = gaps(issue_cycles("titanv", true, 0, straight_line(16)));
  // 16 moves and ret; the gaps between the moves (ret waits for their results).
  ASSERT_EQ(on.size(), 16u);
  for (size_t i = 0; i < 15; ++i) EXPECT_EQ(on[i], 1u) << i;
  const auto off = gaps(issue_cycles("titanv", false, 0, straight_line(16)));
  ASSERT_EQ(off.size(), 16u);
  for (size_t i = 0; i < 15; ++i) EXPECT_EQ(off[i], i % 2 == 0 ? 1u : 2u) << i;
}

TEST(FetchOrder, OneFetchRoundDecodesInTheNextCycle) {
  for (bool after : {true, false}) {
    const auto g = gaps(issue_cycles("gtx480", after, 0, straight_line(16)));
    ASSERT_EQ(g.size(), 16u);
    for (size_t i = 0; i < 15; ++i) EXPECT_EQ(g[i], i % 2 == 0 ? 1u : 2u) << after << " " << i;
  }
}

// Instructions 0-1 are a fetch, the branch at 2 starts the next one (its successor, 3, is
// skipped), the target 4 starts a fetch, and the branch at 7 ends the fetch 6-7.
const char* kBranches =
    "mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nbra L1;\nmov.u32 %r3, 3;\n"
    "L1:\nmov.u32 %r4, 4;\nmov.u32 %r5, 5;\nmov.u32 %r6, 6;\nbra L2;\nmov.u32 %r7, 7;\n"
    "L2:\nmov.u32 %r8, 8;\n";

// Issue-to-issue cycles from each branch to its target: (first branch, second branch).
std::pair<uint64_t, uint64_t> branch_gaps(const std::string& preset, bool after, uint32_t latency,
                                          bool falls_through = false) {
  const auto c = issue_cycles(preset, after, latency, kBranches, falls_through);
  EXPECT_EQ(c.size(), 9u);  // 2 moves, bra, 3 moves, bra, move, ret
  if (c.size() < 9) return {0, 0};
  return {c[3] - c[2], c[7] - c[6]};
}

TEST(FetchOrder, TakenBranchTargetIssuesAsInGpgpuSim) {
  EXPECT_EQ(branch_gaps("titanv", true, 0), std::make_pair(uint64_t(2), uint64_t(1)));
  EXPECT_EQ(branch_gaps("gtx480", true, 0), std::make_pair(uint64_t(3), uint64_t(2)));
  // Fetch before issue, 2-cycle branch latency: the branch's position does not matter.
  EXPECT_EQ(branch_gaps("titanv", false, 2), std::make_pair(uint64_t(3), uint64_t(3)));
  // core.branch_latency adds to the fetch-after-issue figures.
  EXPECT_EQ(branch_gaps("titanv", true, 1), std::make_pair(uint64_t(3), uint64_t(2)));
}

// core.fetch_falls_through: GPGPU-Sim's issue_warp leaves the warp's fetch address at the
// instruction after the branch, so a taken branch that ends its fetch is followed by a fetch of
// its fall-through; the scheduler finds the fetched instruction is not at the target's pc when
// it becomes visible, flushes it (a "control hazard") and the target is fetched from then. One
// round (GTX480): the fall-through is fetched in the branch's cycle b, visible at b + 2, the
// target fetched then and issued at b + 4; four rounds (TITAN V): visible at b + 1, target
// issued at b + 2. A branch that does not end its fetch is unchanged (its stale successor came
// with it).
TEST(FetchOrder, ATakenBranchEndingItsFetchIsFollowedByAFetchOfItsFallThrough) {
  EXPECT_EQ(branch_gaps("gtx480", true, 0, true), std::make_pair(uint64_t(3), uint64_t(4)));
  EXPECT_EQ(branch_gaps("titanv", true, 0, true), std::make_pair(uint64_t(2), uint64_t(2)));
}

// core.module_code_layout: GPGPU-Sim assembles a module's functions one after another, 8 bytes per
// PTX instruction, in the order they are defined. Kernel `a` (two moves and ret: 24 bytes, after a
// .func of three instructions and a body-less declaration) ends inside the 128-byte I-cache line
// where `b` begins, so `b`, launched after `a`, finds its first instructions in the I-cache: one
// miss fewer than when each kernel has a region of its own, and its first issue a miss earlier.
TEST(FetchOrder, KernelsOfAModuleShareTheILineWhereOneEndsAndTheNextBegins) {
  const std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".func g();\n"
      ".func f()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, 1;\nmov.u32 %r2, 2;\nret;\n}\n"
      ".visible .entry a()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, 1;\nmov.u32 %r2, 2;\nret;\n}\n"
      ".visible .entry b()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, 1;\nmov.u32 %r2, 2;\nret;\n}\n";
  EXPECT_EQ(ptx::module_code_offset(ptx::parse_module(ptx, "m.ptx"), "f"), 0u);
  EXPECT_EQ(ptx::module_code_offset(ptx::parse_module(ptx, "m.ptx"), "a"), 24u);
  EXPECT_EQ(ptx::module_code_offset(ptx::parse_module(ptx, "m.ptx"), "b"), 48u);
  // I-cache misses and first issue cycle of kernel b.
  auto run = [&](bool layout, uint64_t* first_issue) {
    GpuConfig cfg = load_preset("gtx480");
    cfg.core.num_sms = 1;  // both kernels on the SM whose I-cache holds the line
    cfg.core.module_code_layout = layout;
    Gpu gpu(cfg, "gto");
    std::vector<IssueRecord> log;
    gpu.set_issue_log(&log);
    Runtime rt(&gpu);
    auto m = rt.load_module(ptx, "m.ptx");
    rt.launch(rt.get_kernel(m, "a"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs());
    rt.synchronize();
    const uint64_t misses_a = gpu.snapshot().core.icache_misses;
    const uint64_t b_start = gpu.results().back().end_cycle;
    rt.launch(rt.get_kernel(m, "b"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs());
    rt.synchronize();
    *first_issue = 0;
    for (const IssueRecord& r : log)
      if (r.slot >= 0 && r.cycle > b_start) {
        *first_issue = r.cycle - b_start;
        break;
      }
    return gpu.snapshot().core.icache_misses - misses_a;
  };
  uint64_t shared_first = 0, own_first = 0;
  EXPECT_EQ(run(true, &shared_first), 0u);
  EXPECT_EQ(run(false, &own_first), 1u);
  EXPECT_GT(own_first, shared_first + 100);
}

}  // namespace
}  // namespace warpsim

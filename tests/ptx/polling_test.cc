// Spin-waits: a warp polling memory (ld.volatile / ld.acquire) lets the warps it waits for run,
// the CTAs of a cooperative launch take turns the same way and read their grid workspace in
// %envreg1/%envreg2, and a wait nobody ends is reported instead of spinning to the
// instruction limit.
#include <gtest/gtest.h>

#include "ptx/harness.h"

namespace warpsim::test {
namespace {

// Thread 0 polls word 1 of thread 32's slot (with `load`) until thread 32, in the second warp,
// sets it; then it stores 7. `setter` false: nobody sets it.
std::string spin_body(const std::string& load, bool setter = true) {
  return std::string(setter ? "setp.ne.u32 %p1, %r99, 32;\n@%p1 bra NOT32;\nmov.u32 %r1, 1;\n"
                              "st.global.u32 [%rd99+8], %r1;\n"
                            : "") +
         "NOT32:\nsetp.ne.u32 %p2, %r99, 0;\n@%p2 bra DONE;\nadd.s64 %rd1, %rd99, 4104;\n"
         "WAIT:\n" +
         load +
         " %r2, [%rd1];\nsetp.eq.u32 %p3, %r2, 0;\n@%p3 bra WAIT;\nmov.u32 %r3, 7;\n"
         "st.global.u32 [%rd99], %r3;\nDONE:\n";
}

TEST(Polling, WarpWaitsForAnotherWarpOfItsCta) {
  for (const char* load : {"ld.volatile.global.u32", "ld.acquire.gpu.u32", "ld.relaxed.gpu.global.u32"}) {
    SnippetRun r;
    const auto& out = r.run(spin_body(load), 64);
    EXPECT_EQ(out[0], 7u) << load;
    EXPECT_EQ(out[32 * 16 + 1], 1u) << load;
  }
}

TEST(Polling, WaitNobodyEndsIsReported) {
  SnippetRun r;
  try {
    r.run(spin_body("ld.volatile.global.u32", false), 64);
    FAIL() << "the wait must fail";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("kernel 't': CTA (0,0,0) waits for a write none of its warps makes (100 rounds"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("thread (0,0,0), pc "), std::string::npos) << m;
    EXPECT_NE(m.find(": polls global memory"), std::string::npos) << m;
    EXPECT_NE(m.find("cudaLaunchCooperativeKernel"), std::string::npos) << m;
  }
}

// A poll loop that counts its iterations ends by itself: its registers change, so it is not a
// stuck wait although what it reads never does.
TEST(Polling, CountedPollLoopIsNotAWaitForever) {
  SnippetRun r;
  const auto& out = r.run(
      "mov.u32 %r5, 0;\nWAIT:\nld.volatile.global.u32 %r2, [%rd99+64];\nadd.u32 %r5, %r5, 1;\n"
      "setp.lt.u32 %p3, %r5, 500;\n@%p3 bra WAIT;\nst.global.u32 [%rd99], %r5;",
      32);
  EXPECT_EQ(out[0], 500u);
}

TEST(Polling, EnvironmentRegistersReadZeroInAnOrdinaryLaunch) {
  EXPECT_EQ(r32("mov.u32 %r1, %envreg1;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r1, %envreg2;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r1, %envreg31;"), 0u);
  EXPECT_NE(load_error(wrap_kernel("mov.u32 %r1, %envreg32;")), "");
}

// One-thread CTAs: each writes cta + 100, arrives at a counter in the grid workspace, waits
// until `need` CTAs arrived, then reads its neighbour's value and the workspace address.
std::string grid_kernel(int extra_arrivals_needed) {
  return ".version 9.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry g(.param .u64 out_param)\n{\n"
         ".reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .pred %p<5>;\n"
         "ld.param.u64 %rd1, [out_param];\n"
         "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %nctaid.x;\n"
         "add.u32 %r2, %r2, " +
         std::to_string(extra_arrivals_needed) +
         ";\n"
         "mov.u32 %r3, %envreg2;\ncvt.u64.u32 %rd2, %r3;\nmov.u32 %r4, %envreg1;\ncvt.u64.u32 %rd3, %r4;\n"
         "shl.b64 %rd3, %rd3, 32;\nor.b64 %rd2, %rd2, %rd3;\n"
         "mul.wide.u32 %rd4, %r1, 16;\nadd.s64 %rd5, %rd1, %rd4;\n"
         "add.u32 %r5, %r1, 100;\nst.global.u32 [%rd5], %r5;\nst.global.u64 [%rd5+8], %rd2;\n"
         "add.s64 %rd6, %rd2, 4;\natom.add.release.gpu.u32 %r6, [%rd6], 1;\n"
         "WAIT:\nld.acquire.gpu.u32 %r7, [%rd6];\nsetp.lt.u32 %p1, %r7, %r2;\n@%p1 bra WAIT;\n"
         "mov.u32 %r10, %nctaid.x;\nadd.u32 %r8, %r1, 1;\nrem.u32 %r8, %r8, %r10;\n"
         "mul.wide.u32 %rd7, %r8, 16;\nadd.s64 %rd8, %rd1, %rd7;\nld.global.u32 %r9, [%rd8];\n"
         "st.global.u32 [%rd5+4], %r9;\nret;\n}\n";
}

TEST(Polling, CooperativeLaunchCtasWaitForEachOther) {
  FunctionalTarget target;
  Runtime rt(&target);
  const uint32_t n = 8;
  auto m = rt.load_module(grid_kernel(0), "grid.ptx");
  DevPtr out = rt.malloc(n * 16);
  rt.memset(out, 0, n * 16);
  rt.launch_cooperative(rt.get_kernel(m, "g"), Dim3{n, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(out), 0, 0, 2);
  std::vector<uint32_t> got(n * 4);
  rt.memcpy_d2h(got.data(), out, n * 16);
  uint64_t ws = 0;
  std::memcpy(&ws, &got[2], 8);
  EXPECT_NE(ws, 0u);
  for (uint32_t c = 0; c < n; ++c) {
    EXPECT_EQ(got[4 * c], c + 100) << c;
    EXPECT_EQ(got[4 * c + 1], (c + 1) % n + 100) << c;
    uint64_t w = 0;
    std::memcpy(&w, &got[4 * c + 2], 8);
    EXPECT_EQ(w, ws) << c;  // one workspace for the grid
  }
  uint32_t arrivals = 0;
  rt.memcpy_d2h(&arrivals, ws + 4, 4);
  EXPECT_EQ(arrivals, n);
}

TEST(Polling, CooperativeGridWaitingForever) {
  FunctionalTarget target;
  Runtime rt(&target);
  auto m = rt.load_module(grid_kernel(1), "grid.ptx");
  DevPtr out = rt.malloc(4 * 16);
  rt.launch_cooperative(rt.get_kernel(m, "g"), Dim3{4, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(out), 0, 0, 2);
  try {
    rt.synchronize();
    FAIL() << "the grid must fail";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel 'g': grid deadlock in a cooperative launch: 4 of 4 CTAs wait for a write no CTA makes"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("polls global memory"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace warpsim::test

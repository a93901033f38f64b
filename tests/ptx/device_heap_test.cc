// Device-side malloc and free (what nvcc makes of malloc/free and C++ new/delete in a kernel):
// per-thread blocks that can be written and read back, handed out in lane order, exhaustion,
// free(0), reuse of freed blocks across launches, and the fault for a pointer malloc did not
// return.
#include "runtime/device_heap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "harness.h"

namespace warpsim::test {
namespace {

const char* kDecls =
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
    ".extern .func free(.param .b64 free_param_0);\n";

// %rd2 = malloc(%rd1)
const char* kMalloc =
    "{ .param .b64 p0; st.param.b64 [p0], %rd1; .param .b64 rv; call.uni (rv), malloc, (p0); "
    "ld.param.b64 %rd2, [rv]; }\n";
// free(%rd2)
const char* kFree = "{ .param .b64 p0; st.param.b64 [p0], %rd2; call.uni free, (p0); }\n";

TEST(DeviceHeap, PerThreadBlocksAreWrittenAndReadBackInLaneOrder) {
  // Thread t asks for 24 + t bytes, fills them with t * 1000 + i, sums them back, frees them
  // once every thread has its block.
  const std::string body = std::string("cvt.u64.u32 %rd1, %r99; add.u64 %rd1, %rd1, 24;\n") + kMalloc +
                           "st.global.u64 [%rd99], %rd2;\n"
                           "mov.u64 %rd3, 0; mul.lo.u32 %r2, %r99, 1000;\n"
                           "LW: cvt.u32.u64 %r3, %rd3; add.u32 %r4, %r2, %r3; add.u64 %rd4, %rd2, %rd3;\n"
                           "st.u8 [%rd4], %r4; add.u64 %rd3, %rd3, 1; setp.lt.u64 %p1, %rd3, %rd1; @%p1 bra LW;\n"
                           "mov.u64 %rd3, 0; mov.u32 %r5, 0;\n"
                           "LR: add.u64 %rd4, %rd2, %rd3; ld.u8 %r4, [%rd4]; add.u32 %r5, %r5, %r4;\n"
                           "add.u64 %rd3, %rd3, 1; setp.lt.u64 %p1, %rd3, %rd1; @%p1 bra LR;\n"
                           "st.global.u32 [%rd99+8], %r5;\n"
                           "bar.sync 0;\n" +  // every block is allocated before any is freed
                           kFree;
  SnippetRun r;
  const uint32_t threads = 64;
  auto& out = r.run(body, threads, kDecls);
  std::set<uint64_t> seen;
  uint64_t prev = 0;
  for (uint32_t t = 0; t < threads; ++t) {
    uint64_t p = out[t * 16];
    ASSERT_NE(p, 0u) << "thread " << t;
    EXPECT_EQ(p % 16, 0u) << "thread " << t;
    // First fit from the bottom, lane by lane, warp by warp: each block follows the last.
    if (t > 0) {
      EXPECT_GE(p, prev + 24 + (t - 1)) << "thread " << t;
    }
    prev = p;
    seen.insert(p);
    uint32_t want = 0;
    for (uint32_t i = 0; i < 24 + t; ++i) want += uint8_t(t * 1000 + i);
    EXPECT_EQ(uint32_t(out[t * 16 + 1]), want) << "thread " << t;
  }
  EXPECT_EQ(seen.size(), threads);
  EXPECT_EQ(r.rt.device_heap().bytes_in_use(), 0u);  // every block was freed
  EXPECT_EQ(r.rt.device_heap().size(), DeviceHeap::kDefaultSize);
}

TEST(DeviceHeap, ExhaustedHeapReturnsNullAndFreeOfNullDoesNothing) {
  SnippetRun r;
  ASSERT_TRUE(r.rt.device_heap().set_size(1024));
  // Four threads ask for 400 bytes each: two fit in 1024 bytes.
  const std::string body = std::string("mov.u64 %rd1, 400;\n") + kMalloc +
                           "st.global.u64 [%rd99], %rd2;\n"
                           "mov.u64 %rd2, 0;\n" +
                           kFree + "st.global.u32 [%rd99+8], 1;\n";
  auto& out = r.run(body, 4, kDecls);
  EXPECT_NE(out[0 * 16], 0u);
  EXPECT_NE(out[1 * 16], 0u);
  EXPECT_EQ(out[2 * 16], 0u);
  EXPECT_EQ(out[3 * 16], 0u);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(out[t * 16 + 1], 1u) << "free(0) did not return, thread " << t;
  EXPECT_EQ(r.rt.device_heap().bytes_in_use(), 800u);
  // The heap is in use: its size cannot change any more.
  EXPECT_FALSE(r.rt.device_heap().set_size(4096));
}

TEST(DeviceHeap, BlocksLiveAcrossLaunchesAndFreedOnesAreReused) {
  SnippetRun r;
  // Launch 1: three blocks of 32 bytes (one thread each).
  auto& a = r.run(std::string("mov.u64 %rd1, 32;\n") + kMalloc + "st.global.u64 [%rd99], %rd2;\n", 3, kDecls);
  const uint64_t p0 = a[0], p1 = a[16], p2 = a[32];
  ASSERT_TRUE(p0 && p1 && p2);
  // Launch 2: frees the first two; they merge into one free range of 64 bytes.
  std::string free_two =
      "setp.ge.u32 %p1, %r99, 2; @%p1 bra DONE;\n"
      "mov.u64 %rd2, " +
      std::to_string(p0) + "; setp.eq.u32 %p2, %r99, 1; @%p2 mov.u64 %rd2, " + std::to_string(p1) + ";\n" + kFree +
      "DONE:\n";
  r.run(free_two, 3, kDecls);
  // Launch 3: a block of 64 bytes fits there; the block of launch 1 still there is not touched.
  auto& c = r.run(std::string("mov.u64 %rd1, 64;\n") + kMalloc + "st.global.u64 [%rd99], %rd2;\n", 1, kDecls);
  EXPECT_EQ(c[0], std::min(p0, p1));
  EXPECT_EQ(r.rt.device_heap().bytes_in_use(), 32u + 64u);
}

TEST(DeviceHeap, FreeOfAPointerMallocDidNotReturnIsAKernelFault) {
  SnippetRun r;
  try {
    r.run(std::string("mov.u64 %rd1, 32;\n") + kMalloc + "add.u64 %rd2, %rd2, 16;\n" + kFree, 1, kDecls);
    ADD_FAILURE() << "free of a pointer into a block did not fail";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a block that device-side malloc returned"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace warpsim::test

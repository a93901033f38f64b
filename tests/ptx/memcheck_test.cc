// Global memory outside the allocations: hardware-like by default (the mapped device heap
// around the allocations can be read and written), exact under memcheck.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "runtime/device_memory.h"
#include "runtime/functional_target.h"
#include "runtime/runtime.h"

namespace warpsim::test {
namespace {

// One kernel `k(.param .u64 p, .param .u64 out)`: %rd1 = p, %rd2 = out + 8 * tid.x.
std::string kernel(const std::string& body) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry k(.param .u64 p, .param .u64 out)\n{\n"
         ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
         "ld.param.u64 %rd1, [p];\nld.param.u64 %rd2, [out];\n"
         "mov.u32 %r7, %tid.x;\nmul.wide.u32 %rd7, %r7, 8;\nadd.s64 %rd2, %rd2, %rd7;\n" +  // the body starts on line
                                                                                            // 13
         body +
         "\nret;\n}\n";
}

struct KernelRun {
  FunctionalTarget target;
  Runtime rt{&target};
  std::vector<uint64_t> out;
  std::string error;

  // Launches k(buf, out) with `threads` threads; returns the error ("" when none).
  const std::string& launch(const std::string& body, DevPtr buf, bool memcheck, uint32_t threads = 1) {
    rt.set_memcheck(memcheck);
    auto m = rt.load_module(kernel(body), "mc.ptx");
    DevPtr o = rt.malloc(uint64_t(threads) * 8);
    rt.memset(o, 0xff, uint64_t(threads) * 8);
    try {
      rt.launch(rt.get_kernel(m, "k"), Dim3{1, 1, 1}, Dim3{threads, 1, 1}, KernelArgs().add(buf).add(o));
      rt.synchronize();
      out.assign(threads, 0);
      rt.memcpy_d2h(out.data(), o, uint64_t(threads) * 8);
    } catch (const Error& e) {
      error = e.what();
    }
    return error;
  }
};

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Every thread reads the word 512 bytes (plus 4 * tid) before the first allocation, as
// Rodinia's srad_v2 does.
const char* kReadBefore =
    "mul.wide.u32 %rd3, %r7, 4;\nadd.s64 %rd3, %rd1, %rd3;\nsub.s64 %rd3, %rd3, 512;\n"
    "ld.global.u32 %r1, [%rd3];\n"  // line 16
    "cvt.u64.u32 %rd4, %r1;\nst.global.u64 [%rd2], %rd4;";

TEST(Memcheck, ReadBeforeTheFirstBufferSucceedsByDefault) {
  for (uint32_t threads : {1u, 32u}) {  // one lane and the whole-warp path
    KernelRun r;
    DevPtr buf = r.rt.malloc(1024);
    ASSERT_EQ(buf, DeviceMemory::kBase);
    EXPECT_EQ(r.launch(kReadBefore, buf, false, threads), "");
    ASSERT_EQ(r.out.size(), threads);
    for (uint64_t v : r.out) EXPECT_EQ(v, 0u);  // unwritten device memory reads as zeros
  }
}

TEST(Memcheck, ReadBeforeTheFirstBufferIsReported) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(1024);
  const std::string& e = r.launch(kReadBefore, buf, true, 32);
  EXPECT_TRUE(has(e, "memcheck: kernel 'k': 32 invalid global accesses (1 distinct)")) << e;
  EXPECT_TRUE(has(e, "kernel 'k', CTA (0,0,0), thread (0,0,0), pc 0x")) << e;
  EXPECT_TRUE(has(e,
                  "(mc.ptx:16): out-of-bounds global read of 4 bytes at address 0xbffffe00, 512 bytes before the "
                  "allocation at 0xc0000000 of 1024 bytes [31 more like it]"))
      << e;
}

// Writes 7 at p + 100 and 9 at p + 120 (past the end, nearer to it than to the next
// allocation), then reads
// them back.
const char* kWritePastEnd =
    "st.global.u32 [%rd1+100], 7;\n"  // line 13
    "st.global.u32 [%rd1+120], 9;\n"
    "ld.global.u32 %r1, [%rd1+100];\nld.global.u32 %r2, [%rd1+120];\n"
    "mul.lo.u32 %r1, %r1, %r2;\ncvt.u64.u32 %rd4, %r1;\nst.global.u64 [%rd2], %rd4;";

TEST(Memcheck, WritePastTheEndLandsByDefault) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(100);
  EXPECT_EQ(r.launch(kWritePastEnd, buf, false), "");
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(r.out[0], 63u);
}

TEST(Memcheck, WritePastTheEndIsReported) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(100);
  const std::string& e = r.launch(kWritePastEnd, buf, true);
  // Two writes and two reads at four pcs.
  EXPECT_TRUE(has(e, "memcheck: kernel 'k': 4 invalid global accesses (4 distinct)")) << e;
  EXPECT_TRUE(has(e,
                  "(mc.ptx:13): out-of-bounds global write of 4 bytes at address 0xc0000064, 0 bytes after the "
                  "end of the allocation at 0xc0000000 of 100 bytes"))
      << e;
  EXPECT_TRUE(has(e,
                  "(mc.ptx:14): out-of-bounds global write of 4 bytes at address 0xc0000078, 20 bytes after "
                  "the end of the allocation at 0xc0000000 of 100 bytes"))
      << e;
  EXPECT_TRUE(has(e, "(mc.ptx:15): out-of-bounds global read")) << e;
}

TEST(Memcheck, AccessStraddlingTheEndIsReported) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(98);
  const std::string& e = r.launch("st.global.u32 [%rd1+96], 1;", buf, true);
  EXPECT_TRUE(has(e,
                  "out-of-bounds global write of 4 bytes at address 0xc0000060, 2 bytes past the end of the "
                  "allocation at 0xc0000000 of 98 bytes"))
      << e;
  // In bounds up to the last byte: no report.
  KernelRun ok;
  DevPtr b2 = ok.rt.malloc(98);
  EXPECT_EQ(ok.launch("st.global.u16 [%rd1+96], 1; ld.global.u8 %r1, [%rd1+97]; st.global.u8 [%rd1], %r1;", b2, true),
            "");
}

TEST(Memcheck, NullPointerFaultsInBothModes) {
  for (bool memcheck : {false, true}) {
    KernelRun r;
    DevPtr buf = r.rt.malloc(64);
    const std::string& e = r.launch("mov.u64 %rd3, 0;\nst.global.u32 [%rd3+8], 1;", buf, memcheck);  // line 14
    EXPECT_TRUE(has(e, "kernel 'k', CTA (0,0,0), thread (0,0,0), pc 0x")) << e;
    EXPECT_TRUE(has(e, "(mc.ptx:14): out-of-bounds global write of 4 bytes at address 0x8")) << e;
  }
  // Far past every allocation (64 MiB) is unmapped too.
  KernelRun far;
  DevPtr buf = far.rt.malloc(64);
  const std::string& e = far.launch("add.s64 %rd3, %rd1, 0x4000000;\nld.global.u32 %r1, [%rd3];", buf, false);
  EXPECT_TRUE(has(e, "out-of-bounds global read of 4 bytes at address 0xc4000000")) << e;
}

TEST(Memcheck, FaultCarriesTheAccessesReportedBeforeIt) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(64);
  const std::string& e =
      r.launch("ld.global.u32 %r1, [%rd1+64];\nmov.u64 %rd3, 0;\nld.global.u32 %r1, [%rd3];", buf, true);
  EXPECT_TRUE(has(e, "out-of-bounds global read of 4 bytes at address 0x0")) << e;
  EXPECT_TRUE(has(e, "\nmemcheck: kernel 'k': 1 invalid global access (1 distinct)")) << e;
}

TEST(Memcheck, UseAfterFree) {
  const char* body = "ld.global.u32 %r1, [%rd1+16];\ncvt.u64.u32 %rd4, %r1;\nst.global.u64 [%rd2], %rd4;";  // line 13
  {
    KernelRun r;
    DevPtr buf = r.rt.malloc(256);
    r.rt.free(buf);
    EXPECT_EQ(r.launch(body, buf, false), "");
    EXPECT_EQ(r.out.at(0), 0u);
  }
  KernelRun r;
  DevPtr buf = r.rt.malloc(256);
  r.rt.free(buf);
  const std::string& e = r.launch(body, buf, true);
  EXPECT_TRUE(has(e,
                  "(mc.ptx:13): use after free: global read of 4 bytes at address 0xc0000010, 16 bytes inside "
                  "the freed allocation at 0xc0000000 of 256 bytes"))
      << e;
}

TEST(Memcheck, GenericAtomicAndVectorAccessesAreChecked) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(60);
  const std::string& e = r.launch(
      "atom.global.add.u32 %r1, [%rd1+60], 1;\n"            // line 13
      "ld.v2.u32 {%r1, %r2}, [%rd1+56];\n"                  // generic, straddles the end
      "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+32];",  // in bounds
      buf, true);
  EXPECT_TRUE(has(e, "2 invalid global accesses (2 distinct)")) << e;
  EXPECT_TRUE(has(e, "(mc.ptx:13): out-of-bounds global write of 4 bytes at address 0xc000003c, 0 bytes after")) << e;
  EXPECT_TRUE(has(e, "(mc.ptx:14): out-of-bounds generic read of 8 bytes at address 0xc0000038, 4 bytes past the end"))
      << e;
}

TEST(Memcheck, CleanKernelPassesAndTheLimitOfKindsHolds) {
  KernelRun r;
  DevPtr buf = r.rt.malloc(4096);
  std::string body;
  for (int i = 0; i < 120; ++i) body += "ld.global.u32 %r1, [%rd1+" + std::to_string(8192 + 4 * i) + "];\n";
  const std::string& e = r.launch(body, buf, true);
  EXPECT_TRUE(has(e, "120 invalid global accesses (100 distinct)")) << e;
  EXPECT_TRUE(has(e, "... 20 more accesses of further kinds")) << e;
  KernelRun ok;
  DevPtr b2 = ok.rt.malloc(4096);
  EXPECT_EQ(ok.launch("ld.global.u32 %r1, [%rd1+4092]; st.global.u32 [%rd1], %r1;", b2, true), "");
}

}  // namespace
}  // namespace warpsim::test

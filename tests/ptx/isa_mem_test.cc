// Memory spaces, atomics, warp-level operations, and memory-checker errors.
#include <gtest/gtest.h>

#include "core/error.h"
#include "harness.h"

namespace warpsim::test {
namespace {

std::string error_of(const std::string& body, uint32_t threads = 1, const std::string& extra = "") {
  try {
    SnippetRun r;
    r.run(body, threads, extra);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(IsaMem, SharedLocalAndGenericAddressing) {
  const std::string extra = ".shared .align 8 .b8 sbuf[64];\n.global .align 4 .u32 gvar[2] = {7, -3};\n";
  SnippetRun r;
  auto& out = r.run(
      ".local .align 8 .b8 depot[16];\n"
      "mov.u32 %r2, sbuf; st.shared.u32 [%r2+4], 41;"
      "cvta.shared.u64 %rd2, %rd0; mov.u64 %rd3, sbuf; cvta.shared.u64 %rd2, %rd3;"
      "ld.u32 %r1, [%rd2+4]; st.global.u32 [%rd99], %r1;"  // generic -> shared
      "mov.u64 %rd4, depot; st.local.u32 [%rd4+8], 99; cvta.local.u64 %rd5, %rd4;"
      "ld.u32 %r1, [%rd5+8]; st.global.u32 [%rd99+8], %r1;"  // generic -> local
      "cvta.to.local.u64 %rd6, %rd5; ld.local.u32 %r1, [%rd6+8]; st.global.u32 [%rd99+16], %r1;"
      "ld.global.s32 %r1, [gvar+4]; st.global.u32 [%rd99+24], %r1;"
      "mov.u64 %rd7, gvar; ld.u32 %r1, [%rd7]; st.global.u32 [%rd99+32], %r1;"
      "st.shared.v2.u32 [%r2+16], {%r1, %r1}; ld.shared.v2.u32 {%r3, %r4}, [%r2+16]; add.s32 %r1, %r3, %r4;"
      "st.global.u32 [%rd99+40], %r1;"
      "mov.u32 %r5, -200; st.shared.u8 [%r2+24], %r5; ld.shared.s8 %r1, [%r2+24]; st.global.u32 [%rd99+48], %r1;"
      "ld.shared.u8 %r1, [%r2+24]; st.global.u32 [%rd99+56], %r1;",
      1, extra);
  EXPECT_EQ(uint32_t(out[0]), 41u);
  EXPECT_EQ(uint32_t(out[1]), 99u);
  EXPECT_EQ(uint32_t(out[2]), 99u);
  EXPECT_EQ(uint32_t(out[3]), uint32_t(-3));
  EXPECT_EQ(uint32_t(out[4]), 7u);
  EXPECT_EQ(uint32_t(out[5]), 14u);
  EXPECT_EQ(uint32_t(out[6]), uint32_t(int8_t(-200)));  // 56 sign-extended
  EXPECT_EQ(uint32_t(out[7]), uint32_t(uint8_t(-200)));
}

TEST(IsaMem, SharedAddressWrapsModulo32Bits) {
  // nvcc emits [%r+imm] where %r alone is "negative" (here sbuf - 64) and the offset brings the
  // address back into the shared window; the sum wraps modulo 2^32.
  const std::string extra = ".shared .align 4 .b8 sbuf[64];\n";
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, sbuf; st.shared.u32 [%r2+8], 1234; sub.s32 %r3, %r2, 64;"
      "ld.shared.u32 %r1, [%r3+72]; st.global.u32 [%rd99], %r1;"
      "st.shared.u32 [%r3+76], 77; ld.shared.u32 %r1, [%r2+12]; st.global.u32 [%rd99+8], %r1;",
      1, extra);
  EXPECT_EQ(uint32_t(out[0]), 1234u);
  EXPECT_EQ(uint32_t(out[1]), 77u);
}

TEST(IsaMem, LocalAddressWrapsModulo32Bits) {
  // Same pattern in the local window: a 32-bit base "below" the depot plus an offset that
  // brings it back; the sum wraps modulo 2^32 for loads, stores and 64-bit bases alike.
  SnippetRun r;
  auto& out = r.run(
      ".local .align 8 .b8 depot[32];\n"
      "mov.u32 %r2, depot; st.local.u32 [%r2+8], 4321; sub.s32 %r3, %r2, 16;"
      "ld.local.u32 %r1, [%r3+24]; st.global.u32 [%rd99], %r1;"  // -16 + 24 = +8
      "st.local.u32 [%r3+28], 55; ld.local.u32 %r1, [%r2+12]; st.global.u32 [%rd99+8], %r1;"
      "cvt.u64.u32 %rd2, %r3; ld.local.u32 %r1, [%rd2+24]; st.global.u32 [%rd99+16], %r1;"
      "st.local.v2.u32 [%r3+32], {%r1, %r1}; ld.local.u64 %rd3, [%r2+16]; st.global.u64 [%rd99+24], %rd3;",
      1);
  EXPECT_EQ(uint32_t(out[0]), 4321u);
  EXPECT_EQ(uint32_t(out[1]), 55u);
  EXPECT_EQ(uint32_t(out[2]), 4321u);
  EXPECT_EQ(out[3], (uint64_t(4321) << 32) | 4321u);
  // Still checked: a wrapped address outside the depot is out of bounds.
  std::string e =
      error_of(".local .align 4 .b8 d[8];\nmov.u32 %r2, d; sub.s32 %r3, %r2, 16; ld.local.u32 %r1, [%r3+8];");
  EXPECT_NE(e.find("out-of-bounds local read"), std::string::npos) << e;
}

TEST(IsaMem, SharedAtomicAddressWraps) {
  const std::string extra = ".shared .align 4 .b8 sb[16];\n";
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, sb; st.shared.u32 [%r2+4], 10; sub.s32 %r3, %r2, 32;"
      "atom.shared.add.u32 %r1, [%r3+36], 5; st.global.u32 [%rd99], %r1;"
      "ld.shared.u32 %r1, [%r2+4]; st.global.u32 [%rd99+8], %r1;",
      1, extra);
  EXPECT_EQ(uint32_t(out[0]), 10u);
  EXPECT_EQ(uint32_t(out[1]), 15u);
}

TEST(IsaMem, WholeWarpLoadsSignAndZeroExtend) {
  // 32 threads: the whole-warp paths of shared and global loads, 8/16/32-bit, signed and not.
  const std::string extra = ".shared .align 4 .b8 sw[128];\n";
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, sw; shl.b32 %r3, %r99, 2; add.u32 %r4, %r2, %r3; neg.s32 %r5, %r99; sub.s32 %r5, %r5, 1;"
      "st.shared.u32 [%r4], %r5; bar.sync 0;"
      "ld.shared.s16 %r1, [%r4]; st.global.u32 [%rd99], %r1;"  // -(t+1) as s16
      "ld.shared.u16 %r1, [%r4]; st.global.u32 [%rd99+8], %r1;"
      "ld.shared.s8 %r1, [%r4]; st.global.u32 [%rd99+16], %r1;"
      "ld.shared.s32 %rd1, [%r4]; st.global.u64 [%rd99+24], %rd1;"
      "st.global.u32 [%rd99+32], %r5; ld.global.s8 %r1, [%rd99+32]; st.global.u32 [%rd99+40], %r1;"
      "ld.global.u8 %r1, [%rd99+32]; st.global.u32 [%rd99+48], %r1;",
      32, extra);
  for (int t = 0; t < 32; ++t) {
    const uint64_t* o = out.data() + t * 16;
    int32_t v = -(t + 1);
    EXPECT_EQ(uint32_t(o[0]), uint32_t(int32_t(int16_t(v)))) << t;
    EXPECT_EQ(uint32_t(o[1]), uint32_t(uint16_t(v))) << t;
    EXPECT_EQ(uint32_t(o[2]), uint32_t(int32_t(int8_t(v)))) << t;
    EXPECT_EQ(o[3], uint64_t(int64_t(v))) << t;
    EXPECT_EQ(uint32_t(o[5]), uint32_t(int32_t(int8_t(v)))) << t;
    EXPECT_EQ(uint32_t(o[6]), uint32_t(uint8_t(v))) << t;
  }
}

TEST(IsaMem, SharedAtomicsAndReductions) {
  const std::string extra = ".shared .align 8 .b8 s[64];\n";
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, s;"
      "atom.shared.add.u32 %r3, [%r2], 2;"
      "red.shared.add.u32 [%r2+4], 1;"
      "atom.shared.max.s32 %r4, [%r2+8], %r99;"
      "atom.shared.exch.b32 %r5, [%r2+12], %r99;"
      "atom.shared.cas.b32 %r6, [%r2+16], 0, 5;"  // only the first lane succeeds
      "mov.u64 %rd2, 3; atom.shared.add.u64 %rd3, [%r2+24], %rd2;"
      "mov.f32 %f2, 0f3F000000; atom.shared.add.f32 %f3, [%r2+32], %f2;"
      "red.shared.or.b32 [%r2+36], %r99;"
      "bar.sync 0;"
      "st.global.u32 [%rd99], %r3;"
      "ld.shared.u32 %r1, [%r2]; st.global.u32 [%rd99+8], %r1;"
      "ld.shared.u32 %r1, [%r2+4]; st.global.u32 [%rd99+16], %r1;"
      "ld.shared.u32 %r1, [%r2+8]; st.global.u32 [%rd99+24], %r1;"
      "ld.shared.u32 %r1, [%r2+16]; st.global.u32 [%rd99+32], %r1;"
      "st.global.u32 [%rd99+40], %r6;"
      "ld.shared.u64 %rd1, [%r2+24]; st.global.u64 [%rd99+48], %rd1;"
      "ld.shared.f32 %f1, [%r2+32]; st.global.f32 [%rd99+56], %f1;"
      "ld.shared.u32 %r1, [%r2+36]; st.global.u32 [%rd99+64], %r1;"
      "st.global.u32 [%rd99+72], %r5;",
      48, extra);
  for (uint32_t t = 0; t < 48; ++t) {
    const uint64_t* o = out.data() + t * 16;
    EXPECT_EQ(uint32_t(o[0]), 2 * t);  // lanes/warps apply in thread order
    EXPECT_EQ(uint32_t(o[1]), 96u);
    EXPECT_EQ(uint32_t(o[2]), 48u);
    EXPECT_EQ(uint32_t(o[3]), 47u);
    EXPECT_EQ(uint32_t(o[4]), 5u);
    EXPECT_EQ(uint32_t(o[5]), t == 0 ? 0u : 5u);
    EXPECT_EQ(o[6], 144u);
    EXPECT_EQ(u2f(o[7]), 24.0f);
    EXPECT_EQ(uint32_t(o[8]), 63u);
    EXPECT_EQ(uint32_t(o[9]), t == 0 ? 0u : t - 1);
  }
}

TEST(IsaMem, ShuffleClamping) {
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, %laneid; mul.lo.s32 %r2, %r2, 10;"
      "shfl.sync.up.b32 %r1|%p1, %r2, 3, 0, -1; st.global.u32 [%rd99], %r1; selp.u32 %r3, 1, 0, %p1; st.global.u32 "
      "[%rd99+8], %r3;"
      "shfl.sync.down.b32 %r1|%p1, %r2, 3, 31, -1; st.global.u32 [%rd99+16], %r1; selp.u32 %r3, 1, 0, %p1; "
      "st.global.u32 [%rd99+24], %r3;"
      "shfl.sync.idx.b32 %r1, %r2, 40, 31, -1; st.global.u32 [%rd99+32], %r1;"  // 40 & 31 = 8
      "shfl.sync.bfly.b32 %r1, %r2, 1, 0x1f, -1; st.global.u32 [%rd99+40], %r1;"
      "shfl.sync.idx.b32 %r1, %r2, 2, 0x181f, -1; st.global.u32 [%rd99+48], %r1;",  // 8-lane segments
      32);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint64_t* o = out.data() + l * 16;
    EXPECT_EQ(o[0], l >= 3 ? (l - 3) * 10 : l * 10) << l;
    EXPECT_EQ(o[1], l >= 3 ? 1u : 0u);
    EXPECT_EQ(o[2], l + 3 <= 31 ? (l + 3) * 10 : l * 10) << l;
    EXPECT_EQ(o[3], l + 3 <= 31 ? 1u : 0u);
    EXPECT_EQ(o[4], 80u);
    EXPECT_EQ(o[5], (l ^ 1) * 10);
    EXPECT_EQ(o[6], ((l & ~7u) | 2) * 10) << l;
  }
}

// A lane that does not execute the shuffle gives 0 (the PTX ISA: unpredictable; GPUs: 0), not
// its register: the CUDA sample reduction's reduce7 sums lanes 16 and 8 into lane 0 after they
// branched away. The source index and the predicate still follow the clamp.
TEST(IsaMem, ShuffleFromALaneThatDoesNotTakePartGivesZero) {
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r3, %laneid; add.s32 %r2, %r3, 100;"  // every lane holds 100 + lane
      "setp.ge.u32 %p2, %r3, 8; @%p2 bra SKIP;"       // lanes 8-31 leave
      "shfl.sync.down.b32 %r1|%p1, %r2, 16, 31, 0xff; st.global.u32 [%rd99], %r1;"
      "selp.u32 %r4, 1, 0, %p1; st.global.u32 [%rd99+8], %r4;"
      "shfl.sync.down.b32 %r1, %r2, 4, 31, 0xff; st.global.u32 [%rd99+16], %r1;"
      "setp.lt.u32 %p3, %r3, 4;"  // lanes 4-7 are predicated off: lanes 0-3 read lane 6
      "@%p3 shfl.sync.idx.b32 %r1, %r2, 6, 31, 0xf; @%p3 st.global.u32 [%rd99+24], %r1;"
      "@%p3 shfl.sync.idx.b32 %r1, %r2, 2, 31, 0xf; @%p3 st.global.u32 [%rd99+32], %r1;"
      "SKIP: ",
      32);
  for (uint32_t l = 0; l < 8; ++l) {
    const uint64_t* o = out.data() + l * 16;
    EXPECT_EQ(o[0], 0u) << l;  // lane l + 16 branched away
    EXPECT_EQ(o[1], 1u) << l;  // but lies within the clamp
    EXPECT_EQ(o[2], l + 4 < 8 ? 100 + l + 4 : 0u) << l;
    EXPECT_EQ(o[3], 0u) << l;                 // lane 6 was predicated off
    EXPECT_EQ(o[4], l < 4 ? 102u : 0u) << l;  // lane 2 took part
  }
}

// match.any / match.all (cooperative groups' labeled partitions and coalesced groups).
TEST(IsaMem, MatchGroupsLanesByValue) {
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, %laneid; and.b32 %r3, %r2, 3;"
      "match.any.sync.b32 %r1, %r3, -1; st.global.u32 [%rd99], %r1;"
      "cvt.u64.u32 %rd2, %r3; shl.b64 %rd2, %rd2, 40;"  // values that differ only above bit 31
      "match.any.sync.b64 %r1, %rd2, -1; st.global.u32 [%rd99+8], %r1;"
      "shr.u32 %r4, %r2, 5; match.all.sync.b32 %r1|%p1, %r4, -1; st.global.u32 [%rd99+16], %r1;"
      "selp.u32 %r5, 1, 0, %p1; st.global.u32 [%rd99+24], %r5;"
      "match.all.sync.b32 %r1|%p1, %r3, -1; st.global.u32 [%rd99+32], %r1;"
      "selp.u32 %r5, 1, 0, %p1; st.global.u32 [%rd99+40], %r5;"
      "setp.lt.u32 %p2, %r2, 8; @!%p2 bra SKIP;"  // only lanes 0-7 take part
      "match.any.sync.b32 %r1, %r3, 0xff; st.global.u32 [%rd99+48], %r1;"
      "SKIP: ",
      32);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint64_t* o = out.data() + l * 16;
    EXPECT_EQ(o[0], 0x11111111u << (l & 3)) << l;
    EXPECT_EQ(o[1], 0x11111111u << (l & 3)) << l;
    EXPECT_EQ(o[2], 0xffffffffu);
    EXPECT_EQ(o[3], 1u);
    EXPECT_EQ(o[4], 0u);
    EXPECT_EQ(o[5], 0u);
    EXPECT_EQ(o[6], l < 8 ? 0x11u << (l & 3) : 0u) << l;
  }
}

TEST(IsaMem, VotesWithDivergence) {
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r2, %laneid; setp.lt.u32 %p2, %r2, 20; @!%p2 bra SKIP;"
      "and.b32 %r3, %r2, 1; setp.eq.s32 %p3, %r3, 1;"
      "vote.sync.ballot.b32 %r1, %p3, 0xfffff; st.global.u32 [%rd99], %r1;"
      "vote.sync.any.pred %p4, %p3, 0xfffff; selp.u32 %r1, 1, 0, %p4; st.global.u32 [%rd99+8], %r1;"
      "vote.sync.all.pred %p4, !%p3, 0xfffff; selp.u32 %r1, 1, 0, %p4; st.global.u32 [%rd99+16], %r1;"
      "vote.sync.uni.pred %p4, %p2, 0xfffff; selp.u32 %r1, 1, 0, %p4; st.global.u32 [%rd99+24], %r1;"
      "activemask.b32 %r1; st.global.u32 [%rd99+32], %r1;"
      "SKIP: ",
      32);
  for (uint32_t l = 0; l < 20; ++l) {
    const uint64_t* o = out.data() + l * 16;
    EXPECT_EQ(o[0], 0xAAAAAu & 0xfffff);
    EXPECT_EQ(o[1], 1u);
    EXPECT_EQ(o[2], 0u);
    EXPECT_EQ(o[3], 1u);
    EXPECT_EQ(o[4], 0xfffffu);
  }
  EXPECT_EQ(out[20 * 16], 0u);
}

TEST(IsaMem, OutOfBoundsGlobalAccessIsReported) {
  // 64 MiB past the buffer: outside the mapped device heap (tests/ptx/memcheck_test.cc has the
  // accesses near allocations, which succeed unless memcheck is on).
  std::string e = error_of("add.s64 %rd2, %rd99, 0x4000000; ld.global.u32 %r1, [%rd2];");
  EXPECT_NE(e.find("out-of-bounds global read of 4 bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("kernel 't'"), std::string::npos) << e;
  EXPECT_NE(e.find("thread (0,0,0)"), std::string::npos) << e;
  EXPECT_NE(e.find("snippet.ptx:"), std::string::npos) << e;
  e = error_of("mov.u64 %rd2, 0; st.global.u32 [%rd2], 1;");
  EXPECT_NE(e.find("out-of-bounds global write"), std::string::npos) << e;
}

TEST(IsaMem, MisalignedAccessIsReported) {
  std::string e = error_of("ld.global.u32 %r1, [%rd99+2];");
  EXPECT_NE(e.find("misaligned global read"), std::string::npos) << e;
  e = error_of("st.global.v2.u32 [%rd99+4], {%r1, %r1};");
  EXPECT_NE(e.find("misaligned"), std::string::npos) << e;
}

TEST(IsaMem, SharedAndLocalBoundsAreChecked) {
  std::string e = error_of("mov.u32 %r2, s; ld.shared.u32 %r1, [%r2+16];", 1, ".shared .align 4 .b8 s[16];\n");
  EXPECT_NE(e.find("out-of-bounds shared read"), std::string::npos) << e;
  e = error_of(".local .align 4 .b8 d[8];\nmov.u64 %rd2, d; st.local.u32 [%rd2+64], 1;");
  EXPECT_NE(e.find("out-of-bounds local write"), std::string::npos) << e;
  e = error_of("mov.u64 %rd2, 0x123456789; cvta.to.global.u64 %rd3, %rd2; ld.global.u8 %r1, [%rd3];");
  EXPECT_NE(e.find("out-of-bounds"), std::string::npos) << e;
}

TEST(IsaMem, RunawayLoopHitsInstructionLimit) {
  FunctionalTarget target;
  Runtime rt(&target);
  rt.set_instruction_limit(10000);
  auto m = rt.load_module(wrap_kernel("LOOP: add.s32 %r1, %r1, 1; bra.uni LOOP;"), "loop.ptx");
  DevPtr buf = rt.malloc(128);
  rt.launch(rt.get_kernel(m, "t"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(buf));
  try {
    rt.synchronize();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("instruction limit of 10000"), std::string::npos) << e.what();
  }
}

// bar.red (__syncthreads_count/_and/_or): a barrier whose result is the reduction of a
// predicate over every thread of the CTA, the same in every thread.
TEST(IsaMem, BarrierReductionsCombineEveryThread) {
  SnippetRun r;
  auto& out = r.run(
      "rem.u32 %r4, %r99, 3; setp.eq.s32 %p1, %r4, 0;"  // tid % 3 == 0
      "bar.red.popc.u32 %r1, 0, %p1; st.global.u32 [%rd99], %r1;"
      "bar.red.popc.u32 %r1, 1, 64, !%p1; st.global.u32 [%rd99+8], %r1;"
      "bar.red.and.pred %p2, 0, %p1; selp.u32 %r5, 1, 0, %p2; st.global.u32 [%rd99+16], %r5;"
      "setp.lt.u32 %p3, %r99, 64; barrier.red.and.aligned.pred %p2, 2, %p3;"
      "selp.u32 %r5, 1, 0, %p2; st.global.u32 [%rd99+24], %r5;"
      "setp.eq.u32 %p3, %r99, 37; bar.red.or.pred %p2, 3, %p3; selp.u32 %r5, 1, 0, %p2; st.global.u32 [%rd99+32], %r5;"
      "setp.eq.u32 %p3, %r99, 99; bar.red.or.pred %p2, 3, %p3; selp.u32 %r5, 1, 0, %p2; st.global.u32 [%rd99+40], %r5;"
      "setp.lt.u32 %p3, %r99, 40; @%p3 bra SKIP;"  // lanes 8-31 of warp 1 take part, 0-7 branch away
      "bar.red.popc.u32 %r1, 4, %p1; st.global.u32 [%rd99+48], %r1; SKIP:",
      64);
  for (uint32_t t = 0; t < 64; ++t) {
    const uint64_t* o = out.data() + t * 16;
    EXPECT_EQ(o[0], 22u) << t;  // 0, 3, ..., 63
    EXPECT_EQ(o[1], 42u) << t;
    EXPECT_EQ(o[2], 0u) << t;
    EXPECT_EQ(o[3], 1u) << t;
    EXPECT_EQ(o[4], 1u) << t;
    EXPECT_EQ(o[5], 0u) << t;
    // Warp 0 never reaches barrier 4 (it has exited), so warp 1's lanes 40-63 complete it alone.
    EXPECT_EQ(o[6], t >= 40 ? 8u : 0u) << t;  // 42, 45, ..., 63
  }
}

TEST(IsaMem, TrapAndBarrierDeadlockAreErrors) {
  EXPECT_NE(error_of("trap;").find("trap"), std::string::npos);
  // warp 0 waits on barrier 1 expecting 64 threads while warp 1 waits on barrier 2
  std::string e = error_of(
      "mov.u32 %r2, %warpid; setp.eq.s32 %p1, %r2, 0; @%p1 bra A; bar.sync 2, 64; bra.uni B; A: bar.sync 1, 64; B:",
      64);
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
}

}  // namespace
}  // namespace warpsim::test

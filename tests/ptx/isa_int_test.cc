// Integer, bit and predicate instruction semantics, including edge cases.
#include <gtest/gtest.h>

#include "harness.h"

namespace warpsim::test {
namespace {

TEST(IsaInt, AddSubWrapAndSaturate) {
  EXPECT_EQ(r32("mov.u32 %r2, 2147483647; add.s32 %r1, %r2, 1;"), 0x80000000u);
  EXPECT_EQ(r32("mov.u32 %r2, 2147483647; add.sat.s32 %r1, %r2, 1;"), 0x7fffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, -2147483648; sub.sat.s32 %r1, %r2, 1;"), 0x80000000u);
  EXPECT_EQ(r32("mov.u32 %r2, 5; sub.s32 %r1, %r2, 7;"), uint32_t(-2));
  EXPECT_EQ(r64("mov.u64 %rd2, -1; add.s64 %rd1, %rd2, 2;"), 1u);
}

TEST(IsaInt, MultiplyModes) {
  EXPECT_EQ(r32("mov.u32 %r2, 100000; mul.lo.s32 %r1, %r2, %r2;"), uint32_t(100000u * 100000u));
  // -3 * 2^30 = -3221225472 = 0xFFFFFFFF_40000000
  EXPECT_EQ(r32("mov.u32 %r2, -3; mul.hi.s32 %r1, %r2, 1073741824;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, -1; mul.hi.u32 %r1, %r2, %r2;"), 0xfffffffeu);
  EXPECT_EQ(r64("mov.u32 %r2, -2; mul.wide.s32 %rd1, %r2, 3;"), uint64_t(-6));
  EXPECT_EQ(r64("mov.u32 %r2, -2; mul.wide.u32 %rd1, %r2, 3;"), 3ull * 0xfffffffeull);
  EXPECT_EQ(r32("mov.u32 %r2, 7; mad.lo.s32 %r1, %r2, 6, -50;"), uint32_t(-8));
  EXPECT_EQ(r64("mov.u32 %r2, -1; mov.u64 %rd2, 1; mad.wide.u32 %rd1, %r2, %r2, %rd2;"), 0xfffffffe00000002ull);
  EXPECT_EQ(r32("mov.u16 %rs1, 300; mul.wide.u16 %r1, %rs1, %rs1;"), 90000u);
}

TEST(IsaInt, DivisionByZeroAndOverflow) {
  EXPECT_EQ(r32("mov.u32 %r2, 17; mov.u32 %r3, 0; div.u32 %r1, %r2, %r3;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, 17; mov.u32 %r3, 0; div.s32 %r1, %r2, %r3;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, -17; mov.u32 %r3, 0; div.s32 %r1, %r2, %r3;"), 1u);
  EXPECT_EQ(r32("mov.u32 %r2, 17; mov.u32 %r3, 0; rem.u32 %r1, %r2, %r3;"), 17u);
  EXPECT_EQ(r32("mov.u32 %r2, -17; mov.u32 %r3, 0; rem.s32 %r1, %r2, %r3;"), uint32_t(-17));
  EXPECT_EQ(r32("mov.u32 %r2, -2147483648; div.s32 %r1, %r2, -1;"), 0x80000000u);
  EXPECT_EQ(r32("mov.u32 %r2, -2147483648; rem.s32 %r1, %r2, -1;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, -7; rem.s32 %r1, %r2, 3;"), uint32_t(-1));
  EXPECT_EQ(r32("mov.u32 %r2, -7; div.s32 %r1, %r2, 2;"), uint32_t(-3));
  EXPECT_EQ(r64("mov.u64 %rd2, 100; mov.u64 %rd3, 0; div.u64 %rd1, %rd2, %rd3;"), ~0ull);
}

TEST(IsaInt, ShiftsPastTheWidth) {
  EXPECT_EQ(r32("mov.u32 %r2, 1; shl.b32 %r1, %r2, 31;"), 0x80000000u);
  EXPECT_EQ(r32("mov.u32 %r2, 1; shl.b32 %r1, %r2, 32;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, -1; shr.u32 %r1, %r2, 40;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, -8; shr.s32 %r1, %r2, 1;"), uint32_t(-4));
  EXPECT_EQ(r32("mov.u32 %r2, -8; shr.s32 %r1, %r2, 100;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, 8; shr.s32 %r1, %r2, 100;"), 0u);
  EXPECT_EQ(r64("mov.u64 %rd2, 1; shl.b64 %rd1, %rd2, 63;"), 1ull << 63);
  EXPECT_EQ(r64("mov.u64 %rd2, 1; shl.b64 %rd1, %rd2, 64;"), 0u);
  EXPECT_EQ(r32("mov.u16 %rs1, -4; shr.s16 %rs2, %rs1, 1; cvt.s32.s16 %r1, %rs2;"), uint32_t(-2));
  // funnel shifts
  EXPECT_EQ(r32("mov.u32 %r2, 0x80000001; mov.u32 %r3, 0x12345678; shf.l.wrap.b32 %r1, %r2, %r3, 36;"), 0x23456788u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x80000001; mov.u32 %r3, 0x12345678; shf.r.clamp.b32 %r1, %r2, %r3, 40;"), 0x12345678u);
}

TEST(IsaInt, MinMaxAbsNegNot) {
  EXPECT_EQ(r32("mov.u32 %r2, -5; min.s32 %r1, %r2, 3;"), uint32_t(-5));
  EXPECT_EQ(r32("mov.u32 %r2, -5; min.u32 %r1, %r2, 3;"), 3u);
  EXPECT_EQ(r32("mov.u32 %r2, -5; max.u32 %r1, %r2, 3;"), uint32_t(-5));
  EXPECT_EQ(r32("mov.u32 %r2, -2147483648; abs.s32 %r1, %r2;"), 0x80000000u);
  EXPECT_EQ(r32("mov.u32 %r2, -9; abs.s32 %r1, %r2;"), 9u);
  EXPECT_EQ(r32("mov.u32 %r2, 9; neg.s32 %r1, %r2;"), uint32_t(-9));
  EXPECT_EQ(r32("mov.u32 %r2, 0xF0F0F0F0; not.b32 %r1, %r2;"), 0x0F0F0F0Fu);
  EXPECT_EQ(r32("mov.u32 %r2, 0; cnot.b32 %r1, %r2;"), 1u);
}

TEST(IsaInt, BitManipulation) {
  EXPECT_EQ(r32("mov.u32 %r2, 0; clz.b32 %r1, %r2;"), 32u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x00010000; clz.b32 %r1, %r2;"), 15u);
  EXPECT_EQ(r32("mov.u64 %rd2, 1; clz.b64 %r1, %rd2;"), 63u);
  EXPECT_EQ(r32("mov.u32 %r2, 0xF00F0001; popc.b32 %r1, %r2;"), 9u);
  EXPECT_EQ(r32("mov.u32 %r2, 1; brev.b32 %r1, %r2;"), 0x80000000u);
  EXPECT_EQ(r32("mov.u32 %r2, 0; bfind.u32 %r1, %r2;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, 0x10; bfind.u32 %r1, %r2;"), 4u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x10; bfind.shiftamt.u32 %r1, %r2;"), 27u);
  EXPECT_EQ(r32("mov.u32 %r2, -1; bfind.s32 %r1, %r2;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, -2; bfind.s32 %r1, %r2;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, 0xF0F0; bfe.u32 %r1, %r2, 4, 8;"), 0x0Fu);
  EXPECT_EQ(r32("mov.u32 %r2, 0xF0; bfe.s32 %r1, %r2, 4, 4;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, 0xF0; bfe.u32 %r1, %r2, 40, 4;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, 0xAB; mov.u32 %r3, 0xFFFF0000; bfi.b32 %r1, %r2, %r3, 8, 8;"), 0xFFFFAB00u);
  EXPECT_EQ(r64("mov.u64 %rd2, 0x12345678; mov.u64 %rd3, 0x9abcdef0; bfi.b64 %rd1, %rd2, %rd3, 32, 32;"),
            0x123456789abcdef0ull);
  EXPECT_EQ(r32("mov.u32 %r2, 0x33221100; mov.u32 %r3, 0x77665544; prmt.b32 %r1, %r2, %r3, 0x3210;"), 0x33221100u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x33221100; mov.u32 %r3, 0x77665544; prmt.b32 %r1, %r2, %r3, 0x4567;"), 0x44556677u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x00008000; prmt.b32 %r1, %r2, 0, 0x9999;"), 0xffffffffu);
}

// bmsk and szext (CUB/Thrust radix sort): the PTX ISA's .clamp and .wrap rules.
TEST(IsaInt, BitMaskAndSignZeroExtend) {
  EXPECT_EQ(r32("bmsk.wrap.b32 %r1, 1, 2;"), 0x6u);
  EXPECT_EQ(r32("bmsk.clamp.b32 %r1, 3, 3;"), 0x38u);
  EXPECT_EQ(r32("bmsk.clamp.b32 %r1, 4, 0;"), 0u);            // width 0: empty
  EXPECT_EQ(r32("bmsk.clamp.b32 %r1, 28, 8;"), 0xf0000000u);  // runs past bit 31
  EXPECT_EQ(r32("bmsk.clamp.b32 %r1, 40, 2;"), 0u);           // position >= 32
  EXPECT_EQ(r32("bmsk.wrap.b32 %r1, 33, 2;"), 0x6u);          // 33 & 31 = 1
  EXPECT_EQ(r32("bmsk.clamp.b32 %r1, 0, 32;"), 0xffffffffu);
  EXPECT_EQ(r32("szext.clamp.s32 %r1, 0x0000000c, 4;"), 0xfffffffcu);
  EXPECT_EQ(r32("szext.clamp.u32 %r1, 0xfffffffc, 4;"), 0xcu);
  EXPECT_EQ(r32("szext.clamp.s32 %r1, 0x00000004, 4;"), 4u);
  EXPECT_EQ(r32("szext.wrap.u32 %r1, 0xffffffff, 0;"), 0u);
  EXPECT_EQ(r32("szext.clamp.s32 %r1, 0x80000001, 40;"), 0x80000001u);  // N >= 32: a unchanged
  EXPECT_EQ(r32("szext.wrap.s32 %r1, 0x000000ff, 40;"), 0xffffffffu);   // 40 & 31 = 8 bits
}

// Forms nvcc emits that the front end once refused: a .func declared before the kernel and
// defined after it (double pow/sin/cos helpers), WARP_SZ (device-side warpSize), and registers
// declared without '%' inside a brace scope (inline assembly of cuda_fp16.hpp).
TEST(IsaInt, NvccModuleForms) {
  const std::string ptx =
      ".version 7.8\n.target sm_75\n.address_size 64\n"
      ".func (.param .b64 func_retval0) twice(.param .b64 twice_param_0);\n"
      ".visible .entry t(.param .u64 out_param)\n{\n"
      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<2>;\n  .reg .f64 %fd<3>;\n"
      "  ld.param.u64 %rd1, [out_param];\n"
      "  mov.f64 %fd1, 0d4008000000000000;\n"  // 3.0
      "  { .param .b64 param0;\n  st.param.f64 [param0+0], %fd1;\n  .param .b64 retval0;\n"
      "  call.uni (retval0), twice, (param0);\n  ld.param.f64 %fd2, [retval0+0];\n  }\n"
      "  st.global.f64 [%rd1], %fd2;\n"
      "  mov.u32 %r1, WARP_SZ;\n  st.global.u32 [%rd1+8], %r1;\n"
      "  mov.f32 %f1, 0f3F800000;\n"
      "  { .reg .b16 low;\n  cvt.rn.f16.f32 low, %f1;\n  mov.b32 %r2, {low, low};\n  }\n"
      "  st.global.u32 [%rd1+16], %r2;\n"
      "  ret;\n}\n"
      ".func (.param .b64 func_retval0) twice(.param .b64 twice_param_0)\n{\n"
      "  .reg .f64 %fd<3>;\n  ld.param.f64 %fd1, [twice_param_0];\n  add.f64 %fd2, %fd1, %fd1;\n"
      "  st.param.f64 [func_retval0+0], %fd2;\n  ret;\n}\n";
  FunctionalTarget target;
  Runtime rt{&target};
  auto m = rt.load_module(ptx, "forms.ptx");
  DevPtr buf = rt.malloc(24);
  rt.launch(rt.get_kernel(m, "t"), Dim3{1, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(buf));
  uint64_t out[3] = {};
  rt.memcpy_d2h(out, buf, 24);
  EXPECT_EQ(u2d(out[0]), 6.0);
  EXPECT_EQ(uint32_t(out[1]), 32u);
  EXPECT_EQ(uint32_t(out[2]), 0x3C003C00u);  // half 1.0 twice
}

TEST(IsaInt, CarryChains) {
  EXPECT_EQ(r32("mov.u32 %r2, -1; add.cc.u32 %r3, %r2, 1; addc.u32 %r1, 0, 0;"), 1u);
  EXPECT_EQ(r32("mov.u32 %r2, 5; add.cc.u32 %r3, %r2, 1; addc.u32 %r1, 0, 0;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, 0; sub.cc.u32 %r3, %r2, 1; subc.u32 %r1, 5, 1;"), 3u);
  EXPECT_EQ(r32("mov.u32 %r2, 3; sub.cc.u32 %r3, %r2, 1; subc.u32 %r1, 5, 1;"), 4u);
  // 64-bit add built from 32-bit halves: 0x1_FFFFFFFF + 0x1 = 0x2_00000000
  EXPECT_EQ(r32("mov.u32 %r2, -1; add.cc.u32 %r3, %r2, 1; addc.cc.u32 %r1, 1, 0;"), 2u);
  EXPECT_EQ(r32("mov.u32 %r2, -1; mad.lo.cc.u32 %r3, %r2, %r2, 0; madc.hi.u32 %r1, %r2, %r2, 0;"), 0xfffffffeu);
}

TEST(IsaInt, ComparisonsAndPredicates) {
  EXPECT_EQ(pred("mov.u32 %r2, -1; setp.lt.s32 %p1, %r2, 0;"), 1u);
  EXPECT_EQ(pred("mov.u32 %r2, -1; setp.lt.u32 %p1, %r2, 0;"), 0u);
  EXPECT_EQ(pred("mov.u32 %r2, -1; setp.hi.u32 %p1, %r2, 5;"), 1u);
  EXPECT_EQ(pred("mov.u32 %r2, 5; setp.ls.u32 %p1, %r2, 5;"), 1u);
  EXPECT_EQ(pred("mov.u64 %rd2, -1; setp.gt.s64 %p1, %rd2, 0;"), 0u);
  EXPECT_EQ(pred("mov.u16 %rs1, 40000; setp.gt.u16 %p1, %rs1, 30000;"), 1u);
  EXPECT_EQ(pred("mov.u16 %rs1, 40000; setp.gt.s16 %p1, %rs1, 30000;"), 0u);
  // combining forms and the complement output
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 1; mov.u32 %r2, 3; setp.gt.and.s32 %p1, %r2, 2, %p2;"), 1u);
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 0; mov.u32 %r2, 3; setp.gt.and.s32 %p1, %r2, 2, %p2;"), 0u);
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 0; mov.u32 %r2, 3; setp.gt.or.s32 %p1, %r2, 9, !%p2;"), 1u);
  EXPECT_EQ(pred("mov.u32 %r2, 3; setp.gt.s32 %p3|%p1, %r2, 9;"), 1u);
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 1; setp.eq.s32 %p3, 1, 0; xor.pred %p1, %p2, %p3;"), 1u);
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 1; not.pred %p1, %p2;"), 0u);
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 1; setp.eq.s32 %p3, 1, 0; and.pred %p1, %p2, %p3;"), 0u);
  EXPECT_EQ(pred("setp.eq.s32 %p2, 1, 1; setp.eq.s32 %p3, 1, 0; or.pred %p1, %p2, %p3;"), 1u);
  EXPECT_EQ(r32("setp.eq.s32 %p2, 1, 0; selp.b32 %r1, 11, 22, %p2;"), 22u);
  // predicated execution: @!%p skips
  EXPECT_EQ(r32("mov.u32 %r1, 5; setp.eq.s32 %p2, 1, 1; @!%p2 mov.u32 %r1, 9; @%p2 add.s32 %r1, %r1, 1;"), 6u);
}

TEST(IsaInt, MovePackUnpack) {
  EXPECT_EQ(r64("mov.u32 %r2, 0x11111111; mov.u32 %r3, 0x22222222; mov.b64 %rd1, {%r2, %r3};"), 0x2222222211111111ull);
  EXPECT_EQ(r32("mov.u64 %rd2, 0x123456789abcdef0; mov.b64 {%r3, %r1}, %rd2;"), 0x12345678u);
  EXPECT_EQ(r32("mov.u32 %r2, 0xAAAABBBB; mov.b32 {%rs1, %rs2}, %r2; cvt.u32.u16 %r1, %rs2;"), 0xAAAAu);
}

TEST(IsaInt, SpecialRegisters) {
  SnippetRun r;
  auto& out = r.run(
      "mov.u32 %r1, %laneid; st.global.u32 [%rd99], %r1;"
      "mov.u32 %r1, %lanemask_lt; st.global.u32 [%rd99+8], %r1;"
      "mov.u32 %r1, %lanemask_ge; st.global.u32 [%rd99+16], %r1;"
      "mov.u32 %r1, %warpid; st.global.u32 [%rd99+24], %r1;"
      "mov.u32 %r1, %ntid.x; st.global.u32 [%rd99+32], %r1;"
      "mov.u32 %r1, %nctaid.x; st.global.u32 [%rd99+40], %r1;"
      "mov.u64 %rd1, %clock64; st.global.u64 [%rd99+48], %rd1;",
      40);
  for (uint32_t t = 0; t < 40; ++t) {
    const uint64_t* o = out.data() + t * 16;
    uint32_t lane = t % 32;
    EXPECT_EQ(o[0], lane);
    EXPECT_EQ(o[1], (1u << lane) - 1);
    EXPECT_EQ(o[2], uint32_t(~((1u << lane) - 1)));
    EXPECT_EQ(o[3], t / 32);
    EXPECT_EQ(o[4], 40u);
    EXPECT_EQ(o[5], 1u);
    EXPECT_GT(o[6], 0u);
  }
}

}  // namespace
}  // namespace warpsim::test

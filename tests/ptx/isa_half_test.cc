// Half-precision arithmetic, set, testp, mul24/mad24 and sad against hand-computed values.
// binary16 reference points: 1.0 = 0x3c00, 2.0 = 0x4000, 0.5 = 0x3800, 1.5 = 0x3e00,
// 3.0 = 0x4200, 65504 (largest finite) = 0x7bff, +inf = 0x7c00, 2^-14 (smallest normal) =
// 0x0400, 2^-24 (smallest subnormal) = 0x0001; the ulp of 1.0 is 2^-10 (0x3c01 = 1 + 2^-10).
#include <gtest/gtest.h>

#include "core/error.h"
#include "harness.h"

namespace warpsim::test {
namespace {

// Computes into %rs1 and returns its 16 bits.
uint16_t h16(const std::string& body) { return uint16_t(run1(body + "\nst.global.b16 [%rd99], %rs1;")); }

std::string load_error(const std::string& body) { return test::load_error(wrap_kernel(body), "snippet.ptx"); }

TEST(IsaHalf, ArithmeticRoundsToNearestEven) {
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c00; add.f16 %rs1, %rs2, %rs2;"), 0x4000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c00; mov.b16 %rs3, 0x3800; sub.f16 %rs1, %rs3, %rs2;"), 0xb800);     // 0.5 - 1
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3e00; mov.b16 %rs3, 0x4000; mul.rn.f16 %rs1, %rs2, %rs3;"), 0x4200);  // 1.5 * 2
  // 1 + 2^-11 is halfway between 1.0 and 0x3c01: ties to the even 1.0; from 0x3c01 it goes to 0x3c02.
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c00; mov.b16 %rs3, 0x1000; add.f16 %rs1, %rs2, %rs3;"), 0x3c00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c01; mov.b16 %rs3, 0x1000; add.f16 %rs1, %rs2, %rs3;"), 0x3c02);
  // Overflow to infinity; 2^-14 * 0.5 is the subnormal 2^-15 (0x0200).
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7bff; mov.b16 %rs3, 0x4000; mul.f16 %rs1, %rs2, %rs3;"), 0x7c00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x0400; mov.b16 %rs3, 0x3800; mul.f16 %rs1, %rs2, %rs3;"), 0x0200);
}

TEST(IsaHalf, FmaRoundsOnce) {
  // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly (subnormal 16 * 2^-24); mul then sub gives 0.
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c01; mov.b16 %rs3, 0xbc02; fma.rn.f16 %rs1, %rs2, %rs2, %rs3;"), 0x0010);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c01; mov.b16 %rs3, 0xbc02; mul.f16 %rs4, %rs2, %rs2; add.f16 %rs1, %rs4, %rs3;"),
            0x0000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x4000; mov.b16 %rs3, 0x3c00; fma.rn.f16 %rs1, %rs2, %rs2, %rs3;"),
            0x4500);  // 2*2+1 = 5
}

TEST(IsaHalf, FtzSatAndNaN) {
  EXPECT_EQ(h16("mov.b16 %rs2, 0x0400; mov.b16 %rs3, 0x3800; mul.ftz.f16 %rs1, %rs2, %rs3;"), 0x0000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x0001; mov.b16 %rs3, 0x0001; add.ftz.f16 %rs1, %rs2, %rs3;"), 0x0000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x0001; mov.b16 %rs3, 0x0001; add.f16 %rs1, %rs2, %rs3;"), 0x0002);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c00; add.sat.f16 %rs1, %rs2, %rs2;"), 0x3c00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c00; mov.b16 %rs3, 0x0000; sub.sat.f16 %rs1, %rs3, %rs2;"), 0x0000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7e00; mov.b16 %rs3, 0x3c00; add.sat.f16 %rs1, %rs2, %rs3;"), 0x0000);
  // NaN results are the canonical 0x7fff, whatever the input payload or sign.
  EXPECT_EQ(h16("mov.b16 %rs2, 0xfe01; mov.b16 %rs3, 0x3c00; add.f16 %rs1, %rs2, %rs3;"), 0x7fff);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7c00; sub.f16 %rs1, %rs2, %rs2;"), 0x7fff);  // inf - inf
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7c00; mov.b16 %rs3, 0x0000; mul.f16 %rs1, %rs2, %rs3;"), 0x7fff);
}

TEST(IsaHalf, NegAbsMinMax) {
  EXPECT_EQ(h16("mov.b16 %rs2, 0x3c00; neg.f16 %rs1, %rs2;"), 0xbc00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0xbc00; abs.f16 %rs1, %rs2;"), 0x3c00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7e00; mov.b16 %rs3, 0x3c00; min.f16 %rs1, %rs2, %rs3;"), 0x3c00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7e00; mov.b16 %rs3, 0x3c00; max.f16 %rs1, %rs3, %rs2;"), 0x3c00);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x7e00; min.f16 %rs1, %rs2, %rs2;"), 0x7fff);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x8000; mov.b16 %rs3, 0x0000; min.f16 %rs1, %rs3, %rs2;"), 0x8000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0x8000; mov.b16 %rs3, 0x0000; max.f16 %rs1, %rs2, %rs3;"), 0x0000);
  EXPECT_EQ(h16("mov.b16 %rs2, 0xc200; mov.b16 %rs3, 0x3800; min.f16 %rs1, %rs2, %rs3;"), 0xc200);  // -3 < 0.5
}

TEST(IsaHalf, PackedPairs) {
  // {1.0, 2.0} + {0.5, -3.0} = {1.5, -1.0}; element 0 in the low half.
  EXPECT_EQ(r32("mov.b32 %r2, 0x40003c00; mov.b32 %r3, 0xc2003800; add.f16x2 %r1, %r2, %r3;"), 0xbc003e00u);
  EXPECT_EQ(r32("mov.b32 %r2, 0x40003c00; mov.b32 %r3, 0x42004000; mul.f16x2 %r1, %r2, %r3;"), 0x46004000u);  // {2, 6}
  EXPECT_EQ(r32("mov.b32 %r2, 0x40003c00; fma.rn.f16x2 %r1, %r2, %r2, %r2;"), 0x46004000u);  // {1*1+1, 2*2+2}
  EXPECT_EQ(r32("mov.b32 %r2, 0xbc003c00; neg.f16x2 %r1, %r2;"), 0x3c00bc00u);
  // Built from halves and split again.
  EXPECT_EQ(r32("mov.b16 %rs2, 0x3c00; mov.b16 %rs3, 0x4000; mov.b32 %r2, {%rs2, %rs3};"
                "add.f16x2 %r3, %r2, %r2; mov.b32 {%rs4, %rs5}, %r3; cvt.u32.u16 %r1, %rs5;"),
            0x4400u);  // 2 * 2.0 = 4.0
  // setp.f16x2 writes the low-half comparison to the first predicate, the high half to the second.
  EXPECT_EQ(r32("mov.b32 %r2, 0x42003c00; mov.b32 %r3, 0x40004000; setp.lt.f16x2 %p1|%p2, %r2, %r3;"
                "selp.u32 %r4, 1, 0, %p1; selp.u32 %r5, 2, 0, %p2; or.b32 %r1, %r4, %r5;"),
            1u);
  EXPECT_EQ(pred("mov.b16 %rs2, 0x7e00; mov.b16 %rs3, 0x3c00; setp.eq.f16 %p1, %rs2, %rs3;"), 0u);
  EXPECT_EQ(pred("mov.b16 %rs2, 0x7e00; mov.b16 %rs3, 0x3c00; setp.equ.f16 %p1, %rs2, %rs3;"), 1u);
  EXPECT_EQ(pred("mov.b16 %rs2, 0x8000; mov.b16 %rs3, 0x0000; setp.eq.f16 %p1, %rs2, %rs3;"), 1u);
}

TEST(IsaHalf, ConversionsHonourRoundingModes) {
  // 1 + 1.5 * 2^-10 (f32 0x3f803000) lies halfway between 0x3c01 and 0x3c02.
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F803000; cvt.rn.f16.f32 %rs1, %f2;"), 0x3c02);
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F803000; cvt.rz.f16.f32 %rs1, %f2;"), 0x3c01);
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F803000; cvt.rm.f16.f32 %rs1, %f2;"), 0x3c01);
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F803000; cvt.rp.f16.f32 %rs1, %f2;"), 0x3c02);
  EXPECT_EQ(h16("mov.b32 %f2, 0fBF803000; cvt.rm.f16.f32 %rs1, %f2;"), 0xbc02);
  EXPECT_EQ(h16("mov.b32 %f2, 0fBF803000; cvt.rp.f16.f32 %rs1, %f2;"), 0xbc01);
  // 65520 ties away from 65504 (odd mantissa) to infinity; 65519 stays; .rz saturates to 65504.
  EXPECT_EQ(h16("mov.b32 %f2, 0f477FF000; cvt.rn.f16.f32 %rs1, %f2;"), 0x7c00);
  EXPECT_EQ(h16("mov.b32 %f2, 0f477FEF00; cvt.rn.f16.f32 %rs1, %f2;"), 0x7bff);
  EXPECT_EQ(h16("mov.b32 %f2, 0f49742400; cvt.rz.f16.f32 %rs1, %f2;"), 0x7bff);  // 1e6
  EXPECT_EQ(h16("mov.b32 %f2, 0f7FC00000; cvt.rn.f16.f32 %rs1, %f2;"), 0x7fff);
  // From f64 with one rounding: 1 + 2^-11 + 2^-40 is just above the midpoint (through f32 it
  // would first become the midpoint and then round to even 1.0).
  EXPECT_EQ(h16("mov.b64 %fd2, 0d3FF0020000001000; cvt.rn.f16.f64 %rs1, %fd2;"), 0x3c01);
  // Integers: 2049 ties to even 2048 (0x6800), 2051 to 2052 (0x6802); .rz saturates.
  EXPECT_EQ(h16("mov.u32 %r2, 2049; cvt.rn.f16.s32 %rs1, %r2;"), 0x6800);
  EXPECT_EQ(h16("mov.u32 %r2, 2051; cvt.rn.f16.u32 %rs1, %r2;"), 0x6802);
  EXPECT_EQ(h16("mov.u32 %r2, 70000; cvt.rz.f16.u32 %rs1, %r2;"), 0x7bff);
  EXPECT_EQ(h16("mov.u32 %r2, -3; cvt.rn.f16.s32 %rs1, %r2;"), 0xc200);
  // Back to f32 exactly (smallest subnormal 2^-24 = f32 0x33800000), and to integers.
  EXPECT_EQ(f32bits("mov.b16 %rs2, 0x0001; cvt.f32.f16 %f1, %rs2;"), 0x33800000u);
  EXPECT_EQ(r32("mov.b16 %rs2, 0xc300; cvt.rzi.s32.f16 %r1, %rs2;"), uint32_t(-3));  // -3.5
  EXPECT_EQ(r32("mov.b16 %rs2, 0xc300; cvt.rni.s32.f16 %r1, %rs2;"), uint32_t(-4));
}

TEST(IsaHalf, BFloat16Conversions) {
  // bf16 is the top half of an f32: 1.0 = 0x3f80, ulp(1) = 2^-7.
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F808000; cvt.rn.bf16.f32 %rs1, %f2;"), 0x3f80);  // 1 + 2^-8: tie to even
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F818000; cvt.rn.bf16.f32 %rs1, %f2;"), 0x3f82);  // 1 + 3 * 2^-8: tie to even
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F80FFFF; cvt.rz.bf16.f32 %rs1, %f2;"), 0x3f80);
  EXPECT_EQ(h16("mov.b32 %f2, 0f3F800001; cvt.rp.bf16.f32 %rs1, %f2;"), 0x3f81);
  EXPECT_EQ(h16("mov.b32 %f2, 0fBF800001; cvt.rm.bf16.f32 %rs1, %f2;"), 0xbf81);
  // The largest f32 is above the midpoint between the largest bf16 (0x7f7f) and 2^128.
  EXPECT_EQ(h16("mov.b32 %f2, 0f7F7FFFFF; cvt.rn.bf16.f32 %rs1, %f2;"), 0x7f80);
  EXPECT_EQ(h16("mov.b32 %f2, 0f7F7FFFFF; cvt.rz.bf16.f32 %rs1, %f2;"), 0x7f7f);
  EXPECT_EQ(h16("mov.b32 %f2, 0fFFC00001; cvt.rn.bf16.f32 %rs1, %f2;"), 0x7fff);  // canonical NaN
  EXPECT_EQ(h16("mov.b32 %f2, 0f00010000; cvt.rn.bf16.f32 %rs1, %f2;"), 0x0001);  // smallest subnormal
  EXPECT_EQ(h16("mov.b32 %f2, 0f00010000; cvt.rn.ftz.bf16.f32 %rs1, %f2;"), 0x0000);
  EXPECT_EQ(h16("mov.u32 %r2, 257; cvt.rn.bf16.u32 %rs1, %r2;"), 0x4380);  // 257 ties to 256
  EXPECT_EQ(f32bits("mov.b16 %rs2, 0x3f81; cvt.f32.bf16 %f1, %rs2;"), 0x3f810000u);
  EXPECT_EQ(f64v("mov.b16 %rs2, 0xc040; cvt.f64.bf16 %fd1, %rs2;"), -3.0);
}

TEST(IsaSet, WritesMaskOrOne) {
  EXPECT_EQ(r32("mov.u32 %r2, -1; set.lt.u32.s32 %r1, %r2, 1;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, -1; set.lt.u32.u32 %r1, %r2, 1;"), 0u);
  EXPECT_EQ(r32("mov.u32 %r2, -1; set.lo.s32.u32 %r1, %r2, 1;"), 0u);
  EXPECT_EQ(f32bits("set.gt.f32.f32 %f1, 0f40000000, 0f3F800000;"), 0x3f800000u);
  EXPECT_EQ(f32bits("set.gt.f32.f32 %f1, 0f3F800000, 0f40000000;"), 0u);
  EXPECT_EQ(r32("mov.b32 %f2, 0f7FC00000; set.eq.u32.f32 %r1, %f2, %f2;"), 0u);
  EXPECT_EQ(r32("mov.b32 %f2, 0f7FC00000; set.neu.s32.f32 %r1, %f2, 0f3F800000;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.b64 %fd2, 0d3FF0000000000000; set.ge.u32.f64 %r1, %fd2, %fd2;"), 0xffffffffu);
  // Subnormal inputs compare as zero with .ftz.
  EXPECT_EQ(r32("mov.b32 %f2, 0f00000001; set.eq.ftz.u32.f32 %r1, %f2, 0f00000000;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.b32 %f2, 0f00000001; set.eq.u32.f32 %r1, %f2, 0f00000000;"), 0u);
  // Boolean combination with a (negated) predicate.
  EXPECT_EQ(r32("setp.eq.s32 %p2, 0, 0; set.lt.and.u32.s32 %r1, 1, 2, !%p2;"), 0u);
  EXPECT_EQ(r32("setp.eq.s32 %p2, 0, 0; set.lt.and.u32.s32 %r1, 1, 2, %p2;"), 0xffffffffu);
  EXPECT_EQ(r32("setp.eq.s32 %p2, 0, 0; set.gt.or.u32.s32 %r1, 1, 2, %p2;"), 0xffffffffu);
  EXPECT_EQ(r32("setp.eq.s32 %p2, 0, 0; set.lt.xor.u32.s32 %r1, 1, 2, %p2;"), 0u);
}

TEST(IsaTestp, ClassifiesFloats) {
  EXPECT_EQ(pred("mov.b32 %f2, 0f7F800000; testp.finite.f32 %p1, %f2;"), 0u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f3F800000; testp.finite.f32 %p1, %f2;"), 1u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f7F800000; testp.infinite.f32 %p1, %f2;"), 1u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f7FC00000; testp.notanumber.f32 %p1, %f2;"), 1u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f7FC00000; testp.number.f32 %p1, %f2;"), 0u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f00000001; testp.subnormal.f32 %p1, %f2;"), 1u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f00000001; testp.normal.f32 %p1, %f2;"), 0u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f00000000; testp.normal.f32 %p1, %f2;"), 0u);
  EXPECT_EQ(pred("mov.b32 %f2, 0f00000000; testp.subnormal.f32 %p1, %f2;"), 0u);
  EXPECT_EQ(pred("mov.b64 %fd2, 0dFFF0000000000000; testp.infinite.f64 %p1, %fd2;"), 1u);
  EXPECT_EQ(pred("mov.b64 %fd2, 0d7FF0000000000000; testp.number.f64 %p1, %fd2;"), 1u);
  EXPECT_EQ(pred("mov.b64 %fd2, 0d3FF0000000000000; testp.normal.f64 %p1, %fd2;"), 1u);
  EXPECT_EQ(pred("mov.b64 %fd2, 0d0000000000000001; testp.subnormal.f64 %p1, %fd2;"), 1u);
}

TEST(IsaMul24, UsesLow24BitsOfEachOperand) {
  EXPECT_EQ(r32("mov.u32 %r2, 0x01000003; mul24.lo.u32 %r1, %r2, 2;"), 6u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x00ffffff; mul24.lo.s32 %r1, %r2, 5;"), uint32_t(-5));  // 24-bit -1
  // (2^24 - 1)^2 = 0xfffffe000001: bits 16..47.
  EXPECT_EQ(r32("mov.u32 %r2, 0x00ffffff; mul24.hi.u32 %r1, %r2, %r2;"), 0xfffffe00u);
  // (-2^23)^2 = 2^46: bits 16..47 = 2^30.
  EXPECT_EQ(r32("mov.u32 %r2, 0x00800000; mul24.hi.s32 %r1, %r2, %r2;"), 0x40000000u);
  EXPECT_EQ(r32("mov.u32 %r2, 0x00800000; mov.u32 %r3, 3; mul24.hi.s32 %r1, %r2, %r3;"),
            uint32_t(-384));  // -3 * 2^23 >> 16
  EXPECT_EQ(r32("mad24.lo.u32 %r1, 3, 4, 10;"), 22u);
  EXPECT_EQ(r32("mov.u32 %r2, 0xff000003; mad24.lo.s32 %r1, %r2, 4, -20;"), uint32_t(-8));
  // (2^23 - 1)^2 >> 16 = 0x3fffff00; + INT_MAX saturates with .sat, wraps without.
  EXPECT_EQ(r32("mov.u32 %r2, 0x007fffff; mad24.hi.sat.s32 %r1, %r2, %r2, 0x7fffffff;"), 0x7fffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, 0x007fffff; mad24.hi.s32 %r1, %r2, %r2, 0x7fffffff;"), 0x3fffff00u + 0x7fffffffu);
  EXPECT_NE(load_error("mad24.lo.sat.s32 %r1, %r2, %r2, %r2;").find(".sat requires mad24.hi.s32"), std::string::npos);
  EXPECT_NE(load_error("mul24.u32 %r1, %r2, %r2;").find("needs .lo or .hi"), std::string::npos);
}

TEST(IsaSad, AbsoluteDifferencePlusAccumulator) {
  EXPECT_EQ(r32("sad.u32 %r1, 3, 10, 100;"), 107u);
  EXPECT_EQ(r32("sad.u32 %r1, 10, 3, 100;"), 107u);
  EXPECT_EQ(r32("mov.u32 %r2, -5; sad.s32 %r1, %r2, 3, 1;"), 9u);
  EXPECT_EQ(r32("mov.u32 %r2, -5; sad.u32 %r1, %r2, 3, 1;"), uint32_t(-5) - 3u + 1u);  // unsigned: 0xfffffffb - 3
  EXPECT_EQ(r64("mov.u64 %rd2, -7; sad.s64 %rd1, %rd2, 7, 0;"), 14u);
}

TEST(IsaHalf, UnsupportedCombinationsAreLocatedErrors) {
  EXPECT_NE(load_error("set.lt.u16.s32 %rs1, %r2, %r3;").find("set destination type"), std::string::npos);
  EXPECT_NE(load_error("testp.finite.f16 %p1, %rs2;").find("testp needs .f32 or .f64"), std::string::npos);
  EXPECT_NE(load_error("testp.odd.f32 %p1, %f2;").find("snippet.ptx:"), std::string::npos);
  EXPECT_NE(load_error("ex2.approx.f16 %rs1, %rs2;").find("unsupported"), std::string::npos);
}

}  // namespace
}  // namespace warpsim::test

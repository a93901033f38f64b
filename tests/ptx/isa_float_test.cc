// Floating-point and conversion semantics: rounding modes, NaN handling, saturation, ftz.
#include <gtest/gtest.h>

#include <cmath>

#include "harness.h"

namespace warpsim::test {
namespace {

TEST(IsaFloat, FmaRoundsOnceOnEveryPath) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly (0x3A000400); rounding the product first loses
  // the 2^-24 (tie to even), leaving 2^-11 (0x3A000000).
  const std::string s = "mov.b32 %f2, 0f3F800800; mov.b32 %f3, 0fBF800000;";
  EXPECT_EQ(f32bits(s + "fma.rn.f32 %f1, %f2, %f2, %f3;"), 0x3A000400u);
  EXPECT_EQ(f32bits(s + "mad.rn.f32 %f1, %f2, %f2, %f3;"), 0x3A000400u);
  EXPECT_EQ(f32bits(s + "fma.rn.ftz.f32 %f1, %f2, %f2, %f3;"), 0x3A000400u);
  EXPECT_EQ(f32bits(s + "mul.rn.f32 %f4, %f2, %f2; add.rn.f32 %f1, %f4, %f3;"), 0x3A000000u);
  // A partial warp (only thread 1 executes) takes the per-lane path.
  SnippetRun r;
  auto& out = r.run(s + "mov.b32 %f1, 0f00000000; setp.eq.u32 %p1, %r99, 1; @%p1 fma.rn.f32 %f1, %f2, %f2, %f3;"
                        "st.global.f32 [%rd99], %f1;",
                    2);
  EXPECT_EQ(uint32_t(out[0]), 0u);
  EXPECT_EQ(uint32_t(out[16]), 0x3A000400u);
}

TEST(IsaFloat, DivApproxIsMultiplicationByTheReciprocal) {
  // 3/7: correctly rounded 0x3EDB6DB7; 3 * rn(1/7) rounds to 0x3EDB6DB8.
  const std::string s = "mov.b32 %f2, 0f40400000; mov.b32 %f3, 0f40E00000;";
  EXPECT_EQ(f32bits(s + "div.rn.f32 %f1, %f2, %f3;"), 0x3EDB6DB7u);
  EXPECT_EQ(f32bits(s + "div.approx.f32 %f1, %f2, %f3;"), 0x3EDB6DB8u);
  EXPECT_EQ(f32bits(s + "div.approx.ftz.f32 %f1, %f2, %f3;"), 0x3EDB6DB8u);
  // 2^126 < |b| < 2^128: the reciprocal flushes to zero, so a finite a gives 0 and an
  // infinite a NaN, while the IEEE division gives the subnormal 2^-127.
  const std::string big = "mov.b32 %f3, 0f7F000000;";
  EXPECT_EQ(f32bits(big + "mov.b32 %f2, 0f3F800000; div.approx.f32 %f1, %f2, %f3;"), 0u);
  EXPECT_EQ(f32bits(big + "mov.b32 %f2, 0f3F800000; div.rn.f32 %f1, %f2, %f3;"), 0x00400000u);
  EXPECT_TRUE(std::isnan(u2f(f32bits(big + "mov.b32 %f2, 0f7F800000; div.approx.f32 %f1, %f2, %f3;"))));
  EXPECT_EQ(f32bits(big + "mov.b32 %f2, 0fBF800000; div.approx.f32 %f1, %f2, %f3;"), 0x80000000u);  // -1 * +0
}

TEST(IsaFloat, RoundingModesOfAdd) {
  // 1 + 0.75 ulp(1): nearest rounds up, toward zero/minus rounds down, plus rounds up.
  const char* setup = "mov.f32 %f2, 0f3F800000; mov.f32 %f3, 0f33C00000;";
  EXPECT_EQ(f32bits(std::string(setup) + "add.rn.f32 %f1, %f2, %f3;"), 0x3F800001u);
  EXPECT_EQ(f32bits(std::string(setup) + "add.rz.f32 %f1, %f2, %f3;"), 0x3F800000u);
  EXPECT_EQ(f32bits(std::string(setup) + "add.rm.f32 %f1, %f2, %f3;"), 0x3F800000u);
  EXPECT_EQ(f32bits(std::string(setup) + "add.rp.f32 %f1, %f2, %f3;"), 0x3F800001u);
  // negative: -1 - 0.75ulp: rm rounds away from zero, rz toward
  const char* neg = "mov.f32 %f2, 0fBF800000; mov.f32 %f3, 0f33C00000;";
  EXPECT_EQ(f32bits(std::string(neg) + "sub.rm.f32 %f1, %f2, %f3;"), 0xBF800001u);
  EXPECT_EQ(f32bits(std::string(neg) + "sub.rz.f32 %f1, %f2, %f3;"), 0xBF800000u);
  // fma rounding: 1 * 1 + tiny
  EXPECT_EQ(f32bits(std::string(setup) + "fma.rm.f32 %f1, %f2, %f2, %f3;"), 0x3F800000u);
  EXPECT_EQ(f32bits(std::string(setup) + "fma.rp.f32 %f1, %f2, %f2, %f3;"), 0x3F800001u);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d3FF0000000000000; mov.f64 %fd3, 0d3CA8000000000000; add.rp.f64 %fd1, %fd2, %fd3;"),
            std::nextafter(1.0, 2.0));
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d3FF0000000000000; mov.f64 %fd3, 0d3CA8000000000000; add.rz.f64 %fd1, %fd2, %fd3;"),
            1.0);
}

TEST(IsaFloat, DivisionSqrtReciprocal) {
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f3F800000; mov.f32 %f3, 0f40400000; div.rn.f32 %f1, %f2, %f3;"), 0x3EAAAAABu);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f3F800000; mov.f32 %f3, 0f00000000; div.rn.f32 %f1, %f2, %f3;"), 0x7F800000u);
  EXPECT_TRUE(std::isnan(u2f(f32bits("mov.f32 %f2, 0f00000000; div.rn.f32 %f1, %f2, %f2;"))));
  EXPECT_TRUE(std::isnan(u2f(f32bits("mov.f32 %f2, 0fBF800000; sqrt.rn.f32 %f1, %f2;"))));
  EXPECT_EQ(u2f(f32bits("mov.f32 %f2, 0f41100000; sqrt.rn.f32 %f1, %f2;")), 3.0f);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d4010000000000000; rcp.rn.f64 %fd1, %fd2;"), 0.25);
  EXPECT_NEAR(u2f(f32bits("mov.f32 %f2, 0f40800000; rsqrt.approx.f32 %f1, %f2;")), 0.5f, 1e-6);
  EXPECT_NEAR(u2f(f32bits("mov.f32 %f2, 0f40400000; ex2.approx.f32 %f1, %f2;")), 8.0f, 1e-5);
  EXPECT_NEAR(u2f(f32bits("mov.f32 %f2, 0f41000000; lg2.approx.f32 %f1, %f2;")), 3.0f, 1e-6);
  EXPECT_NEAR(u2f(f32bits("mov.f32 %f2, 0f00000000; cos.approx.f32 %f1, %f2;")), 1.0f, 1e-6);
}

TEST(IsaFloat, NaNHandlingInMinMaxAndCompares) {
  const char* nan = "mov.f32 %f2, 0f7FC00000; mov.f32 %f3, 0f3F800000;";
  EXPECT_EQ(u2f(f32bits(std::string(nan) + "min.f32 %f1, %f2, %f3;")), 1.0f);
  EXPECT_EQ(u2f(f32bits(std::string(nan) + "max.f32 %f1, %f3, %f2;")), 1.0f);
  EXPECT_TRUE(std::isnan(u2f(f32bits(std::string(nan) + "min.f32 %f1, %f2, %f2;"))));
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f80000000; mov.f32 %f3, 0f00000000; min.f32 %f1, %f3, %f2;"), 0x80000000u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f80000000; mov.f32 %f3, 0f00000000; max.f32 %f1, %f2, %f3;"), 0x00000000u);
  EXPECT_EQ(pred(std::string(nan) + "setp.lt.f32 %p1, %f2, %f3;"), 0u);
  EXPECT_EQ(pred(std::string(nan) + "setp.ltu.f32 %p1, %f2, %f3;"), 1u);
  EXPECT_EQ(pred(std::string(nan) + "setp.ne.f32 %p1, %f2, %f3;"), 0u);
  EXPECT_EQ(pred(std::string(nan) + "setp.neu.f32 %p1, %f2, %f3;"), 1u);
  EXPECT_EQ(pred(std::string(nan) + "setp.geu.f32 %p1, %f3, %f3;"), 1u);
  EXPECT_EQ(pred(std::string(nan) + "setp.nan.f32 %p1, %f3, %f2;"), 1u);
  EXPECT_EQ(pred(std::string(nan) + "setp.num.f32 %p1, %f3, %f2;"), 0u);
  EXPECT_EQ(pred("mov.f64 %fd2, 0d7FF8000000000000; setp.gtu.f64 %p1, %fd2, %fd2;"), 1u);
  EXPECT_EQ(pred("mov.f64 %fd2, 0d7FF8000000000000; setp.eq.f64 %p1, %fd2, %fd2;"), 0u);
}

TEST(IsaFloat, SaturationAndFlushToZero) {
  EXPECT_EQ(u2f(f32bits("mov.f32 %f2, 0f3FC00000; cvt.sat.f32.f32 %f1, %f2;")), 1.0f);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0fC0000000; cvt.sat.f32.f32 %f1, %f2;"), 0u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f7FC00000; cvt.sat.f32.f32 %f1, %f2;"), 0u);
  EXPECT_EQ(u2f(f32bits("mov.f32 %f2, 0f3F400000; add.sat.f32 %f1, %f2, %f2;")), 1.0f);
  // subnormal input flushed with .ftz, kept without
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f00000001; mov.f32 %f3, 0f3F800000; mul.ftz.f32 %f1, %f2, %f3;"), 0u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f00000001; mov.f32 %f3, 0f3F800000; mul.f32 %f1, %f2, %f3;"), 1u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f80000001; mov.f32 %f3, 0f3F800000; mul.ftz.f32 %f1, %f2, %f3;"), 0x80000000u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0fBF800000; abs.f32 %f1, %f2;"), 0x3F800000u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0f3F800000; neg.f32 %f1, %f2;"), 0xBF800000u);
  EXPECT_EQ(f32bits("mov.f32 %f2, 0fBF800000; mov.f32 %f3, 0f40000000; copysign.f32 %f1, %f2, %f3;"), 0xC0000000u);
}

TEST(IsaFloat, FloatToIntConversions) {
  EXPECT_EQ(r32("mov.f32 %f2, 0f402CCCCD; cvt.rzi.s32.f32 %r1, %f2;"), 2u);            // 2.7
  EXPECT_EQ(r32("mov.f32 %f2, 0fC02CCCCD; cvt.rzi.s32.f32 %r1, %f2;"), uint32_t(-2));  // -2.7
  EXPECT_EQ(r32("mov.f32 %f2, 0f40200000; cvt.rni.s32.f32 %r1, %f2;"), 2u);            // 2.5 -> even
  EXPECT_EQ(r32("mov.f32 %f2, 0f40600000; cvt.rni.s32.f32 %r1, %f2;"), 4u);            // 3.5
  EXPECT_EQ(r32("mov.f32 %f2, 0fC0200000; cvt.rmi.s32.f32 %r1, %f2;"), uint32_t(-3));  // -2.5
  EXPECT_EQ(r32("mov.f32 %f2, 0f40200000; cvt.rpi.s32.f32 %r1, %f2;"), 3u);
  EXPECT_EQ(r32("mov.f32 %f2, 0f7FC00000; cvt.rzi.s32.f32 %r1, %f2;"), 0u);           // NaN
  EXPECT_EQ(r32("mov.f32 %f2, 0f501502F9; cvt.rzi.s32.f32 %r1, %f2;"), 0x7fffffffu);  // 1e10
  EXPECT_EQ(r32("mov.f32 %f2, 0fD01502F9; cvt.rzi.s32.f32 %r1, %f2;"), 0x80000000u);  // -1e10
  EXPECT_EQ(r32("mov.f32 %f2, 0fC0A00000; cvt.rzi.u32.f32 %r1, %f2;"), 0u);           // -5 -> 0
  EXPECT_EQ(r64("mov.f64 %fd2, 0dC0F86A0000000000; cvt.rzi.s64.f64 %rd1, %fd2;"), uint64_t(-100000));
  EXPECT_EQ(u2f(f32bits("mov.f32 %f2, 0f402CCCCD; cvt.rmi.f32.f32 %f1, %f2;")), 2.0f);
  EXPECT_EQ(u2f(f32bits("mov.f32 %f2, 0f402CCCCD; cvt.rpi.f32.f32 %f1, %f2;")), 3.0f);
}

TEST(IsaFloat, IntToFloatAndIntToInt) {
  EXPECT_EQ(u2f(f32bits("mov.u32 %r2, 16777217; cvt.rn.f32.s32 %f1, %r2;")), 16777216.0f);
  EXPECT_EQ(u2f(f32bits("mov.u32 %r2, 16777219; cvt.rz.f32.s32 %f1, %r2;")), 16777218.0f);
  EXPECT_EQ(u2f(f32bits("mov.u32 %r2, 16777219; cvt.rp.f32.u32 %f1, %r2;")), 16777220.0f);
  EXPECT_EQ(u2f(f32bits("mov.u32 %r2, -1; cvt.rn.f32.u32 %f1, %r2;")), 4294967296.0f);
  EXPECT_EQ(f32bits("mov.f64 %fd2, 0d3FB999999999999A; cvt.rn.f32.f64 %f1, %fd2;"), 0x3DCCCCCDu);  // 0.1
  EXPECT_EQ(f32bits("mov.f64 %fd2, 0d3FB999999999999A; cvt.rz.f32.f64 %f1, %fd2;"), 0x3DCCCCCCu);
  EXPECT_EQ(f64v("mov.f32 %f2, 0f3DCCCCCD; cvt.f64.f32 %fd1, %f2;"), double(0.1f));
  EXPECT_EQ(r32("mov.u32 %r2, 300; cvt.sat.u8.s32 %r3, %r2; cvt.u32.u8 %r1, %r3;"), 255u);
  EXPECT_EQ(r32("mov.u32 %r2, -300; cvt.sat.s8.s32 %r3, %r2; cvt.s32.s8 %r1, %r3;"), uint32_t(-128));
  EXPECT_EQ(r32("mov.u32 %r2, 0x1FF; cvt.s8.s32 %r3, %r2; cvt.s32.s8 %r1, %r3;"), 0xffffffffu);
  EXPECT_EQ(r32("mov.u32 %r2, 0x12345; cvt.u16.u32 %rs1, %r2; cvt.u32.u16 %r1, %rs1;"), 0x2345u);
  EXPECT_EQ(r64("mov.u32 %r2, -1; cvt.s64.s32 %rd1, %r2;"), ~0ull);
  EXPECT_EQ(r64("mov.u32 %r2, -1; cvt.u64.u32 %rd1, %r2;"), 0xffffffffull);
  EXPECT_EQ(r32("mov.u64 %rd2, -5; cvt.sat.u32.s64 %r1, %rd2;"), 0u);
  EXPECT_EQ(r32("mov.u64 %rd2, 0x100000000; cvt.sat.s32.u64 %r1, %rd2;"), 0x7fffffffu);
}

TEST(IsaFloat, DoubleArithmetic) {
  EXPECT_EQ(
      f64v("mov.f64 %fd2, 0d4000000000000000; mov.f64 %fd3, 0d4008000000000000; fma.rn.f64 %fd1, %fd2, %fd3, %fd2;"),
      8.0);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d3FF0000000000000; mov.f64 %fd3, 0d4008000000000000; div.rn.f64 %fd1, %fd2, %fd3;"),
            1.0 / 3.0);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0dC000000000000000; abs.f64 %fd1, %fd2;"), 2.0);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d7FF8000000000000; mov.f64 %fd3, 0d4000000000000000; max.f64 %fd1, %fd2, %fd3;"), 2.0);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d4022000000000000; sqrt.rn.f64 %fd1, %fd2;"), 3.0);
  EXPECT_EQ(f64v("mov.u64 %rd2, -7; cvt.rn.f64.s64 %fd1, %rd2;"), -7.0);
  EXPECT_EQ(f64v("mov.f64 %fd2, 0d4004000000000000; cvt.rni.f64.f64 %fd1, %fd2;"), 2.0);  // 2.5 -> 2
  EXPECT_EQ(f64v("mov.f64 %fd1, 1.5;"), 1.5);
}

}  // namespace
}  // namespace warpsim::test

// Lane-parallel semantics of the ALU instructions and the helpers they share with the executor.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "ptx/ir.h"

namespace warpsim::ptx {

// Picks the handler implementing `in` (op, types, modifiers). Returns null when the combination
// is not an ALU operation or is not supported; the decoder reports that as an error.
Handler select_alu_handler(const Inst& in);

// Population count without relying on a hardware instruction being enabled.
inline uint32_t popc32(uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

// Calls f(lane) for each lane set in m.
template <class F>
inline void for_lanes(uint32_t m, F&& f) {
  if (m == 0xffffffffu) {
    for (int l = 0; l < 32; ++l) f(l);
  } else {
    while (m) {
      int l = std::countr_zero(m);
      m &= m - 1;
      f(l);
    }
  }
}

inline float as_f32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
inline double as_f64(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t from_f32(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t from_f64(double d) { return std::bit_cast<uint64_t>(d); }

inline float ftz32(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }
inline double ftz64(double f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0, f) : f; }

// Rounds an (exactly or nearly exactly represented) double to float with a PTX rounding mode.
float round_to_f32(double x, Rnd r);
// Float -> integer conversion with PTX saturation (NaN -> 0) and rounding.
int64_t f2i_signed(double x, Rnd r, int bits);
uint64_t f2i_unsigned(double x, Rnd r, int bits);
double round_integral(double x, Rnd r);
// Applies directed rounding to an f64 binary op result via the host FPU.
double f64_op_rounded(Op op, double a, double b, double c, Rnd r);

// Half precision conversions: f32_to_f16 rounds to nearest even; f64_to_f16 rounds with a PTX
// rounding mode (.rn/.rz/.rm/.rp, or their integer forms). NaN becomes the canonical 0x7fff.
uint16_t f32_to_f16(float f);
uint16_t f64_to_f16(double x, Rnd r);
// bfloat16 (8-bit exponent, 7 stored mantissa bits) conversions, same rounding rules.
uint16_t f64_to_bf16(double x, Rnd r);
float bf16_to_f32(uint16_t h);
float f16_to_f32(uint16_t h);

}  // namespace warpsim::ptx

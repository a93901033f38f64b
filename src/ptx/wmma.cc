#include "ptx/wmma.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <vector>

#include "ptx/ops.h"

namespace warpsim::ptx {

uint32_t wmma_element_bits(Type t) {
  switch (t) {
    case Type::F16:
      return 16;
    case Type::F32:
    case Type::S32:
      return 32;
    case Type::S8:
    case Type::U8:
      return 8;
    default:
      return 0;
  }
}

uint32_t wmma_fragment_regs(WmmaOp op, const WmmaFragment& f) {
  const bool ab = op == WmmaOp::LoadA || op == WmmaOp::LoadB;
  if (ab && f.type == Type::F16) return 8;  // 16 halves per lane, whatever the shape
  return f.per_lane() * wmma_element_bits(f.type) / 32;
}

uint32_t fragment_get(const uint64_t* regs, const WmmaFragment& f, int lane, uint32_t e) {
  const uint32_t bits = wmma_element_bits(f.type), per_reg = 32 / bits;
  const uint64_t v = regs[size_t(f.regs[e / per_reg]) * 32 + uint32_t(lane)];
  const uint32_t shift = (e % per_reg) * bits;
  return bits == 32 ? uint32_t(v) : uint32_t(v >> shift) & ((1u << bits) - 1);
}

void fragment_set(uint64_t* regs, const WmmaFragment& f, int lane, uint32_t e, uint32_t raw) {
  const uint32_t bits = wmma_element_bits(f.type), per_reg = 32 / bits;
  uint64_t& v = regs[size_t(f.regs[e / per_reg]) * 32 + uint32_t(lane)];
  if (bits == 32) {
    v = raw;
    return;
  }
  const uint32_t shift = (e % per_reg) * bits, mask = ((1u << bits) - 1) << shift;
  v = (uint32_t(v) & ~mask) | ((raw << shift) & mask);
}

namespace {

double element_value(Type t, uint32_t raw) {
  switch (t) {
    case Type::F16:
      return f16_to_f32(uint16_t(raw));
    case Type::F32:
      return std::bit_cast<float>(raw);
    case Type::S32:
      return int32_t(raw);
    case Type::S8:
      return int8_t(raw);
    default:
      return uint8_t(raw);
  }
}

// The whole tile of a fragment, from every lane (the first copy of each element).
std::vector<double> gather(const uint64_t* regs, const WmmaFragment& f) {
  std::vector<double> v(size_t(f.rows) * f.cols);
  for (int l = 0; l < 32; ++l)
    for (uint32_t e = 0; e < f.per_lane(); ++e)
      v[fragment_element(f, l, e)] = element_value(f.type, fragment_get(regs, f, l, e));
  return v;
}

}  // namespace

void wmma_mma(uint64_t* regs, const WmmaInfo& w, uint32_t lanes) {
  const std::vector<double> a = gather(regs, w.a), b = gather(regs, w.b), c = gather(regs, w.c);
  std::vector<uint32_t> d(size_t(w.m) * w.n);
  const bool integer = w.d.type == Type::S32;
  for (uint32_t i = 0; i < w.m; ++i)
    for (uint32_t j = 0; j < w.n; ++j) {
      if (integer) {
        // Integer products and sums are exact in int64 (|a*b| < 2^16, k = 16); the result wraps
        // to 32 bits, or saturates with .satfinite.
        int64_t acc = int64_t(c[i * w.n + j]);
        for (uint32_t p = 0; p < w.k; ++p) acc += int64_t(a[i * w.k + p]) * int64_t(b[p * w.n + j]);
        if (w.satfinite)
          acc = std::clamp<int64_t>(acc, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
        d[i * w.n + j] = uint32_t(acc);
        continue;
      }
      // The sum is formed in f32, in k order, after C. A product of two halves is exact in f32,
      // so each step rounds once, as a fused multiply-add does (without the cost of std::fma).
      float acc = float(c[i * w.n + j]);
      for (uint32_t p = 0; p < w.k; ++p) acc += float(a[i * w.k + p]) * float(b[p * w.n + j]);
      d[i * w.n + j] = w.d.type == Type::F16 ? f32_to_f16(acc) : std::bit_cast<uint32_t>(acc);
    }
  for (uint32_t m = lanes; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    for (uint32_t e = 0; e < fragment_slots(w.d); ++e) fragment_set(regs, w.d, l, e, d[fragment_element(w.d, l, e)]);
  }
}

}  // namespace warpsim::ptx

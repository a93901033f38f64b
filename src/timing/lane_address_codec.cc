#include "timing/lane_address_codec.h"

#include <bit>
#include <cstring>

namespace warpsim::lane_addresses {
namespace {

// The record's first word. Every kind but Raw leaves the inactive lanes 0.
enum Kind : uint32_t {
  Stride = 0,  // base (2 words), stride (1 word, signed): active lane l at base + stride * l
  Delta = 1,   // base (2 words), then per active lane a signed 32-bit offset from base
  Full = 2,    // per active lane its 64-bit address (2 words)
  Raw = 3,     // the 32 lanes' 64-bit addresses (64 words): an inactive lane is not 0
};

void put64(std::vector<uint32_t>& out, uint64_t v) {
  out.push_back(uint32_t(v));
  out.push_back(uint32_t(v >> 32));
}
uint64_t get64(const uint32_t* p) { return uint64_t(p[0]) | uint64_t(p[1]) << 32; }
bool fits_i32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

struct Shape {
  Kind kind;
  uint64_t base;
  int32_t stride;
};

Shape classify(const uint64_t* addrs, uint32_t mask) {
  for (uint32_t m = ~mask; m; m &= m - 1)
    if (addrs[std::countr_zero(m)] != 0) return {Raw, 0, 0};
  if (mask == 0) return {Stride, 0, 0};
  const int first = std::countr_zero(mask);
  const uint32_t rest = mask & (mask - 1);
  int64_t stride = 0;
  if (rest) {
    const int second = std::countr_zero(rest);
    stride = int64_t(addrs[second] - addrs[first]) / (second - first);
  }
  if (fits_i32(stride)) {
    // Arithmetic modulo 2^64, as the decoder's.
    const uint64_t base = addrs[first] - uint64_t(stride) * uint64_t(first);
    bool strided = true;
    for (uint32_t m = mask; m && strided; m &= m - 1) {
      const int l = std::countr_zero(m);
      strided = addrs[l] == base + uint64_t(stride) * uint64_t(l);
    }
    if (strided) return {Stride, base, int32_t(stride)};
  }
  const uint64_t base = addrs[first];
  for (uint32_t m = mask; m; m &= m - 1)
    if (!fits_i32(int64_t(addrs[std::countr_zero(m)] - base))) return {Full, 0, 0};
  return {Delta, base, 0};
}

}  // namespace

void encode(const uint64_t* addrs, uint32_t mask, std::vector<uint32_t>& out) {
  const Shape s = classify(addrs, mask);
  out.push_back(s.kind);
  switch (s.kind) {
    case Stride:
      put64(out, s.base);
      out.push_back(uint32_t(s.stride));
      break;
    case Delta:
      put64(out, s.base);
      for (uint32_t m = mask; m; m &= m - 1) out.push_back(uint32_t(addrs[std::countr_zero(m)] - s.base));
      break;
    case Full:
      for (uint32_t m = mask; m; m &= m - 1) put64(out, addrs[std::countr_zero(m)]);
      break;
    case Raw:
      for (int l = 0; l < 32; ++l) put64(out, addrs[l]);
      break;
  }
}

const uint32_t* decode(const uint32_t* in, uint32_t mask, uint64_t* addrs) {
  const uint32_t kind = *in++;
  if (kind == Raw) {
    for (int l = 0; l < 32; ++l, in += 2) addrs[l] = get64(in);
    return in;
  }
  if (kind == Stride && mask == ~0u) {  // the common case: every lane, no inactive lane to clear
    const uint64_t base = get64(in);
    const uint64_t stride = uint64_t(int64_t(int32_t(in[2])));
    for (int l = 0; l < 32; ++l) addrs[l] = base + stride * uint64_t(l);
    return in + 3;
  }
  std::memset(addrs, 0, 32 * sizeof(uint64_t));
  if (kind == Stride) {
    const uint64_t base = get64(in);
    const uint64_t stride = uint64_t(int64_t(int32_t(in[2])));
    for (uint32_t m = mask; m; m &= m - 1) {
      const int l = std::countr_zero(m);
      addrs[l] = base + stride * uint64_t(l);
    }
    return in + 3;
  }
  if (kind == Delta) {
    const uint64_t base = get64(in);
    in += 2;
    for (uint32_t m = mask; m; m &= m - 1) addrs[std::countr_zero(m)] = base + uint64_t(int64_t(int32_t(*in++)));
    return in;
  }
  for (uint32_t m = mask; m; m &= m - 1, in += 2) addrs[std::countr_zero(m)] = get64(in);
  return in;
}

}  // namespace warpsim::lane_addresses

// Warp matrix instructions (wmma.load, wmma.store, wmma.mma): the fragment layout (ir.h,
// WmmaFragment) and the arithmetic of wmma.mma. The executor does the memory accesses.
#pragma once
#include <cstdint>

#include "ptx/ir.h"

namespace warpsim::ptx {

// Bits of one fragment element of `t` (f16: 16, f32 and s32: 32, s8 and u8: 8; 0: not a wmma
// element type).
uint32_t wmma_element_bits(Type t);
// The registers a fragment of this kind takes (PTX ISA, "Matrix fragments for WMMA").
uint32_t wmma_fragment_regs(WmmaOp op, const WmmaFragment& f);

// Element slot `e` of lane `lane` (raw bits) and the tile element it holds (row-major index).
uint32_t fragment_get(const uint64_t* regs, const WmmaFragment& f, int lane, uint32_t e);
void fragment_set(uint64_t* regs, const WmmaFragment& f, int lane, uint32_t e, uint32_t raw);
inline uint32_t fragment_slots(const WmmaFragment& f) {
  return uint32_t(f.regs.size()) * (32 / wmma_element_bits(f.type));
}
inline uint32_t fragment_element(const WmmaFragment& f, int lane, uint32_t e) {
  return uint32_t(lane) * f.per_lane() + e % f.per_lane();
}
// Offset in elements, from the tile's start in memory, of tile element `idx` (row-major index)
// in a matrix stored row- or column-major with `stride` elements between rows (columns).
inline uint64_t fragment_offset(const WmmaFragment& f, bool col_major, uint32_t idx, uint64_t stride) {
  uint32_t r = idx / f.cols, c = idx % f.cols;
  return col_major ? uint64_t(c) * stride + r : uint64_t(r) * stride + c;
}

// D = A * B + C over the whole warp's fragments; writes D's slots of the lanes in `lanes`.
void wmma_mma(uint64_t* regs, const WmmaInfo& w, uint32_t lanes);

}  // namespace warpsim::ptx

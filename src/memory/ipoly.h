// IPOLY hashing (Rau, "Pseudo-randomly interleaved memory", ISCA 1991): an index of n bits is
// combined with the address bits above it through the H-matrix of an irreducible polynomial of
// degree n, so that every power-of-two stride spreads over all 2^n sets or channels. The
// polynomials are those GPGPU-Sim uses for 16, 32 and 64 ways (IPOLY(5), IPOLY(37), IPOLY(67)):
// row i of a table is the set of high-address bits whose parity flips output bit i.
#pragma once
#include <bit>
#include <cstdint>

namespace warpsim {

// True when ipoly_hash supports 2^bits outputs.
inline bool ipoly_supported(uint32_t bits) { return bits >= 4 && bits <= 6; }

// `index` (bits wide) hashed with `high`; bits must satisfy ipoly_supported().
inline uint32_t ipoly_hash(uint64_t high, uint32_t index, uint32_t bits) {
  static constexpr uint32_t kRows16[4] = {0xf59, 0x11eb, 0x3d6, 0x7ac};
  static constexpr uint32_t kRows32[5] = {0x3e69, 0x7cd2, 0x47cd, 0xf9a, 0x1f34};
  static constexpr uint32_t kRows64[6] = {0x79461, 0xbca3, 0x17946, 0x2f28c, 0x5e518, 0x3ca30};
  const uint32_t* rows = bits == 4 ? kRows16 : bits == 5 ? kRows32 : kRows64;
  uint32_t out = 0;
  for (uint32_t i = 0; i < bits; ++i) out |= uint32_t((std::popcount(high & rows[i]) ^ (index >> i)) & 1) << i;
  return out;
}

}  // namespace warpsim

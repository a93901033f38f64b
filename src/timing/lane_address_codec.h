// The lane addresses of one memory instruction in a few 32-bit words, as the SM keeps them for
// a resident CTA (PackedCta). A warp's lanes usually access base + stride * lane (unit-stride
// loads, broadcasts) or addresses close to one another, so one record is 4 words where the
// front ends hand over 32 64-bit addresses (64 words). Decoding gives back exactly the 32
// addresses that were encoded, inactive lanes included.
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::lane_addresses {

// Appends the record of `addrs[0..32)` (the lanes of `mask` active) to `out`.
void encode(const uint64_t* addrs, uint32_t mask, std::vector<uint32_t>& out);
// Writes the 32 addresses of the record at `in`, encoded with the same `mask`, to `addrs`;
// returns the position after the record.
const uint32_t* decode(const uint32_t* in, uint32_t mask, uint64_t* addrs);

}  // namespace warpsim::lane_addresses

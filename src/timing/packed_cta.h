// A CTA's instruction streams as the SM holds them while the CTA is resident. Front ends hand
// over 40 bytes per warp instruction and 32 64-bit addresses per memory instruction
// (CtaStreams); a long CTA then takes tens of megabytes, and a GPU holds hundreds of CTAs at
// once. Packed, each warp instruction is a 4-byte index into a table of the CTA's distinct
// instructions (the executions of one static instruction with one active mask share an entry)
// and the addresses of each memory instruction are a record of usually 4 words
// (lane_address_codec.h), read in order as the warp issues. Packing changes nothing the timing
// model sees: the SM gets the same instructions and addresses back.
#pragma once
#include <cstdint>
#include <vector>

#include "core/kernel_source.h"
#include "core/warp_inst.h"

namespace warpsim {

struct PackedWarp {
  std::vector<uint32_t> codes;       // per instruction, in order: its index in PackedCta::table
  std::vector<uint32_t> addr_words;  // the address records of its memory instructions, in order
};

struct PackedCta {
  uint32_t cta_id = 0;
  // The distinct instructions; addr_index is 0 for those with an address record, else kNoAddr.
  std::vector<WarpInst> table;
  std::vector<PackedWarp> warps;
  // Heap bytes held (what the resident CTAs' streams cost the host).
  uint64_t bytes() const;
  // The stream of warp `w` as a front end would have produced it (addresses renumbered, 32 per
  // memory instruction in order): for tests and tools, not the timing model's path.
  WarpStream unpack(uint32_t w) const;
};

// Packs the CTAs of a run; keeps its lookup table's storage from one CTA to the next.
class CtaPacker {
 public:
  // Fills `out` from `in` (reusing none of `out`'s storage: it is sized to fit). Throws
  // warpsim::Error when an instruction's addresses lie outside its warp's address pool.
  void pack(const CtaStreams& in, PackedCta& out);

 private:
  uint32_t code_of(const WarpInst& in, PackedCta& out);
  std::vector<uint32_t> slots_;  // open addressing: table index + 1, 0 when free
  std::vector<uint32_t> words_;  // a warp's address records before they are copied to their size
};

}  // namespace warpsim

// Where an address lives below the SMs: memory partition, L2 slice, DRAM bank and row.
//
// 1. Partition. The address space is cut into chunks of l2.interleave bytes;
//    chunk = addr >> log2(interleave), r = chunk % P, q = chunk / P (P = l2.partitions).
//    - "linear": partition = r.
//    - "xor":    h = XOR of the k-bit groups of q (k = ceil(log2 P); bits 0..k-1 of q, then
//                bits k..2k-1, ...); partition = r ^ h when P is a power of two, else
//                (r + h) % P. For a fixed q this permutes the P partitions, so every partition
//                still owns exactly one chunk of each group of P chunks, while strides that are
//                multiples of P chunks (which "linear" sends to a single partition) spread.
//    - "ipoly":  partition and slice together (below): GPGPU-Sim's IPOLY indexing
//                (-gpgpu_memory_partition_indexing 2).
//    - "random": every block of interleave / S bytes (S = l2.slices_per_partition, a power of
//                two; else interleave) goes to a slice drawn from a fixed hash of its block
//                number (splitmix64), uniform over all P * S slices: GPGPU-Sim's RANDOM
//                indexing (-gpgpu_memory_partition_indexing 4), which draws rand() on first
//                touch, without its dependence on the order of first touches. Slice-local
//                addresses as for "ipoly".
//    The partition-local address drops the partition digit: pa = q * interleave + offset.
// 2. Slice. Within a partition, with l2.slice_select = "line" the line index
//    li = pa >> log2(line) goes to slice li % S (S = l2.slices_per_partition) and the slice's
//    cache sees sa = (li / S) * line + offset; with "chunk" the digit above the partition digit
//    picks it, slice q % S, and sa = (q / S) * interleave + offset. Either way the slice's sets
//    are indexed by the bits above the slice digit.
//    "ipoly": let P2 = P rounded up to a power of two, N = P2 * S (16, 32 or 64). The raw slice
//    index is x = r * S + (q % S); it is hashed with the high bits h (h = q when P is not a
//    power of two, else q / S) through the IPOLY polynomial of degree log2 N (each output bit
//    is bit i of x XOR the parity of h masked by row i of the polynomial's H-matrix), then
//    taken modulo P * S. Partition = slice / S. When P is not a power of two, the N - P*S
//    largest hash values fold onto the first slices, which then see twice the traffic: the
//    imbalance GPGPU-Sim has on TITAN V's 24 channels. The slice-local address is pa with the
//    raw partition digit r in bits 56 and up, so that distinct lines never share a tag.
// 3. DRAM. From pa: rb = pa / row_bytes, bank = rb % banks, row = rb / banks. Consecutive
//    lines of a row stay in one bank (a stream gets row hits); consecutive rows rotate over the
//    banks. With dram.bank_hash = "xor" the bank is XORed with the low bits of the row, so that
//    rows that are a multiple of banks x row_bytes apart fall in different banks.
#pragma once
#include <cstdint>

#include "core/config.h"

namespace warpsim {

struct MemLocation {
  uint32_t partition = 0;
  uint32_t slice = 0;  // global slice index: partition * slices_per_partition + local
  uint64_t partition_addr = 0;
  uint64_t slice_addr = 0;
};

class AddressMap {
 public:
  explicit AddressMap(const GpuConfig& cfg);

  uint32_t partition(uint64_t addr) const;
  uint64_t partition_addr(uint64_t addr) const {
    uint64_t chunk = addr >> chunk_shift_;
    return ((chunk / partitions_) << chunk_shift_) | (addr & chunk_mask_);
  }
  MemLocation locate(uint64_t addr) const;
  // Inverse of the slice step: slice-local address of local slice `s` -> partition address.
  uint64_t partition_addr_of_slice(uint32_t local_slice, uint64_t slice_addr) const;
  uint32_t bank(uint64_t partition_addr) const {
    const uint64_t rb = partition_addr >> row_shift_;
    uint32_t b = uint32_t(rb % banks_);
    if (bank_xor_) b ^= uint32_t(rb / banks_) & (banks_ - 1);
    return b;
  }
  uint32_t row(uint64_t partition_addr) const { return uint32_t((partition_addr >> row_shift_) / banks_); }
  uint32_t partitions() const { return partitions_; }
  uint32_t slices_per_partition() const { return slices_; }

 private:
  enum class Mode : uint8_t { Linear, Xor, Ipoly, Random };
  static constexpr uint32_t kRawShift = 56;
  uint32_t ipoly_slice(uint64_t chunk) const;
  // The partition address less the bits that pick the slice under linear indexing (`local`).
  uint64_t strip_slice_bits(uint64_t partition_addr, uint32_t& local) const;
  uint32_t random_slice(uint64_t addr) const;
  uint32_t partitions_, slices_, banks_;
  uint32_t chunk_shift_, line_shift_, row_shift_, fold_bits_, random_shift_ = 0;
  uint64_t chunk_mask_, line_mask_;
  Mode mode_ = Mode::Linear;
  bool pow2_, chunk_slices_ = false;
  bool bank_xor_ = false;    // dram.bank_hash = "xor"
  uint32_t ipoly_bits_ = 0;  // log2 of the hashed slice count
};

}  // namespace warpsim

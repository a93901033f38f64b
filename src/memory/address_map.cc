#include "memory/address_map.h"

#include <bit>

#include "core/error.h"
#include "memory/ipoly.h"

namespace warpsim {

namespace {
bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
}  // namespace

AddressMap::AddressMap(const GpuConfig& cfg) {
  partitions_ = cfg.l2.partitions;
  slices_ = cfg.l2.slices_per_partition;
  banks_ = cfg.dram.banks;
  bank_xor_ = cfg.dram.bank_hash == "xor";
  if (!partitions_ || !slices_ || !banks_)
    throw Error("memory: l2.partitions, l2.slices_per_partition and dram.banks must be at least 1");
  if (!is_pow2(cfg.l2.interleave)) throw Error("memory: l2.interleave must be a power of two");
  if (!is_pow2(cfg.dram.row_bytes)) throw Error("memory: dram.row_bytes must be a power of two");
  if (cfg.l2.hash == "linear")
    mode_ = Mode::Linear;
  else if (cfg.l2.hash == "xor")
    mode_ = Mode::Xor;
  else if (cfg.l2.hash == "ipoly")
    mode_ = Mode::Ipoly;
  else if (cfg.l2.hash == "random")
    mode_ = Mode::Random;
  else
    throw Error("memory: l2.hash '" + cfg.l2.hash + "' is not one of linear|xor|ipoly|random");
  chunk_slices_ = cfg.l2.slice_select == "chunk";
  uint32_t line = is_pow2(cfg.l2.cache.line) ? cfg.l2.cache.line : 128;
  if (cfg.l2.interleave < line) throw Error("memory: l2.interleave must be at least the L2 line size");
  chunk_shift_ = uint32_t(std::countr_zero(uint64_t(cfg.l2.interleave)));
  line_shift_ = uint32_t(std::countr_zero(uint64_t(line)));
  row_shift_ = uint32_t(std::countr_zero(uint64_t(cfg.dram.row_bytes)));
  chunk_mask_ = cfg.l2.interleave - 1;
  line_mask_ = line - 1;
  pow2_ = is_pow2(partitions_);
  fold_bits_ = partitions_ > 1 ? uint32_t(std::bit_width(partitions_ - 1)) : 0;
  if (mode_ == Mode::Ipoly) {
    uint64_t n = std::bit_ceil(uint64_t(partitions_)) * slices_;
    if (!is_pow2(slices_) || (n != 16 && n != 32 && n != 64))
      throw Error(
          "memory: l2.hash 'ipoly' needs 16, 32 or 64 slices once the partitions are rounded up to a power of two");
    ipoly_bits_ = uint32_t(std::countr_zero(n));
  }
  if (mode_ == Mode::Random) {
    // One draw per 1/S of a chunk: GPGPU-Sim draws per address above its chip digit less the
    // sub-partition bits.
    uint32_t sub_bits = is_pow2(slices_) ? uint32_t(std::countr_zero(uint64_t(slices_))) : 0;
    random_shift_ = chunk_shift_ > sub_bits ? chunk_shift_ - sub_bits : 0;
  }
}

uint32_t AddressMap::random_slice(uint64_t addr) const {
  // splitmix64 finaliser of the block number: a fixed, uniformly spread choice per block.
  uint64_t z = (addr >> random_shift_) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return uint32_t(z % (uint64_t(partitions_) * slices_));
}

uint32_t AddressMap::ipoly_slice(uint64_t chunk) const {
  uint64_t q = chunk / partitions_;
  uint32_t raw = uint32_t(chunk % partitions_) * slices_ + uint32_t(q % slices_);
  uint64_t high = pow2_ ? q / slices_ : q;
  return ipoly_hash(high, raw, ipoly_bits_) % (partitions_ * slices_);
}

uint32_t AddressMap::partition(uint64_t addr) const {
  uint64_t chunk = addr >> chunk_shift_;
  if (mode_ == Mode::Ipoly) return ipoly_slice(chunk) / slices_;
  if (mode_ == Mode::Random) return random_slice(addr) / slices_;
  uint32_t r = uint32_t(chunk % partitions_);
  if (mode_ != Mode::Xor || fold_bits_ == 0) return r;
  uint64_t q = chunk / partitions_;
  uint64_t h = 0;
  const uint64_t mask = (uint64_t(1) << fold_bits_) - 1;
  for (; q; q >>= fold_bits_) h ^= q & mask;
  return pow2_ ? uint32_t((r ^ h) & (partitions_ - 1)) : uint32_t((r + h) % partitions_);
}

uint64_t AddressMap::strip_slice_bits(uint64_t partition_addr, uint32_t& local) const {
  if (chunk_slices_) {
    uint64_t q = partition_addr >> chunk_shift_;
    local = uint32_t(q % slices_);
    return ((q / slices_) << chunk_shift_) | (partition_addr & chunk_mask_);
  }
  uint64_t li = partition_addr >> line_shift_;
  local = uint32_t(li % slices_);
  return ((li / slices_) << line_shift_) | (partition_addr & line_mask_);
}

uint64_t AddressMap::partition_addr_of_slice(uint32_t local_slice, uint64_t slice_addr) const {
  if (mode_ == Mode::Ipoly || mode_ == Mode::Random) {
    local_slice = uint32_t((slice_addr >> kRawShift) % slices_);
    slice_addr &= (uint64_t(1) << kRawShift) - 1;
  }
  if (chunk_slices_) {
    uint64_t q = (slice_addr >> chunk_shift_) * slices_ + local_slice;
    return (q << chunk_shift_) | (slice_addr & chunk_mask_);
  }
  uint64_t li = (slice_addr >> line_shift_) * slices_ + local_slice;
  return (li << line_shift_) | (slice_addr & line_mask_);
}

MemLocation AddressMap::locate(uint64_t addr) const {
  MemLocation loc;
  loc.partition_addr = partition_addr(addr);
  uint32_t local = 0;
  // The slice-local address leaves out the bits that would pick the slice under linear
  // indexing (GPGPU-Sim removes them, its sub-partition id bits, from the address its L2 sets
  // are indexed with, whatever the partition indexing).
  const uint64_t stripped = strip_slice_bits(loc.partition_addr, local);
  if (mode_ == Mode::Ipoly || mode_ == Mode::Random) {
    uint64_t chunk = addr >> chunk_shift_;
    loc.slice = mode_ == Mode::Ipoly ? ipoly_slice(chunk) : random_slice(addr);
    loc.partition = loc.slice / slices_;
    // The hashed slice does not follow from the stripped address: the partition digit and the
    // stripped bits go above it, so that slice addresses stay distinct.
    loc.slice_addr = stripped | ((uint64_t(chunk % partitions_) * slices_ + local) << kRawShift);
    return loc;
  }
  loc.partition = partition(addr);
  loc.slice = loc.partition * slices_ + local;
  loc.slice_addr = stripped;
  return loc;
}

}  // namespace warpsim

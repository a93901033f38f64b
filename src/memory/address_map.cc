#include "memory/address_map.h"

#include <bit>

#include "core/error.h"

namespace warpsim {

namespace {
bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
}  // namespace

AddressMap::AddressMap(const GpuConfig& cfg) {
  partitions_ = cfg.l2.partitions;
  slices_ = cfg.l2.slices_per_partition;
  banks_ = cfg.dram.banks;
  if (!partitions_ || !slices_ || !banks_)
    throw Error("memory: l2.partitions, l2.slices_per_partition and dram.banks must be at least 1");
  if (!is_pow2(cfg.l2.interleave)) throw Error("memory: l2.interleave must be a power of two");
  if (!is_pow2(cfg.dram.row_bytes)) throw Error("memory: dram.row_bytes must be a power of two");
  if (cfg.l2.hash != "linear" && cfg.l2.hash != "xor")
    throw Error("memory: l2.hash '" + cfg.l2.hash + "' is not one of linear|xor");
  uint32_t line = is_pow2(cfg.l2.cache.line) ? cfg.l2.cache.line : 128;
  if (cfg.l2.interleave < line)
    throw Error("memory: l2.interleave must be at least the L2 line size");
  chunk_shift_ = uint32_t(std::countr_zero(uint64_t(cfg.l2.interleave)));
  line_shift_ = uint32_t(std::countr_zero(uint64_t(line)));
  row_shift_ = uint32_t(std::countr_zero(uint64_t(cfg.dram.row_bytes)));
  chunk_mask_ = cfg.l2.interleave - 1;
  line_mask_ = line - 1;
  xor_ = cfg.l2.hash == "xor";
  pow2_ = is_pow2(partitions_);
  fold_bits_ = partitions_ > 1 ? uint32_t(std::bit_width(partitions_ - 1)) : 0;
}

uint32_t AddressMap::partition(uint64_t addr) const {
  uint64_t chunk = addr >> chunk_shift_;
  uint32_t r = uint32_t(chunk % partitions_);
  if (!xor_ || fold_bits_ == 0) return r;
  uint64_t q = chunk / partitions_;
  uint64_t h = 0;
  const uint64_t mask = (uint64_t(1) << fold_bits_) - 1;
  for (; q; q >>= fold_bits_) h ^= q & mask;
  return pow2_ ? uint32_t((r ^ h) & (partitions_ - 1)) : uint32_t((r + h) % partitions_);
}

MemLocation AddressMap::locate(uint64_t addr) const {
  MemLocation loc;
  loc.partition = partition(addr);
  loc.partition_addr = partition_addr(addr);
  uint64_t li = loc.partition_addr >> line_shift_;
  uint32_t local = uint32_t(li % slices_);
  loc.slice = loc.partition * slices_ + local;
  loc.slice_addr = ((li / slices_) << line_shift_) | (loc.partition_addr & line_mask_);
  return loc;
}

}  // namespace warpsim

// Address hashing that GPGPU-Sim's configurations use: IPOLY partition indexing (TITAN V), the
// set-index functions of caches (Fermi's L1 hash, IPOLY, XOR), chunk-selected L2 slices, and
// perfect caches.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "core/error.h"
#include "memory/address_map.h"
#include "memory/cache.h"
#include "memory/ipoly.h"

namespace warpsim {
namespace {

GpuConfig map_cfg(uint32_t partitions, const char* hash, uint32_t slices) {
  GpuConfig c;
  c.l2.partitions = partitions;
  c.l2.slices_per_partition = slices;
  c.l2.hash = hash;
  c.l2.interleave = 256;
  c.l2.cache.line = 128;
  return c;
}

TEST(Ipoly, IsALinearMapOverGf2) {
  // hash(h1 ^ h2, i1 ^ i2) = hash(h1, i1) ^ hash(h2, i2): every output bit is a parity.
  for (uint32_t bits : {4u, 5u, 6u})
    for (uint64_t h1 : {0x3ull, 0x1234ull, 0x7ffffull})
      for (uint64_t h2 : {0x5ull, 0x42ull})
        for (uint32_t i : {0u, 1u, 6u})
          EXPECT_EQ(ipoly_hash(h1 ^ h2, i ^ 3u, bits), ipoly_hash(h1, i, bits) ^ ipoly_hash(h2, 3u, bits));
  // With no high bits the index is unchanged; high bit 0 flips output bits 0 and 1 of the
  // degree-5 polynomial (its H-matrix column 0).
  EXPECT_EQ(ipoly_hash(0, 21, 5), 21u);
  EXPECT_EQ(ipoly_hash(1, 0, 5), 0b00101u);
}

TEST(Ipoly, SpreadsEveryPowerOfTwoStrideOverAllSlices) {
  AddressMap m(map_cfg(16, "ipoly", 2));  // 32 slices
  for (uint64_t stride = 256; stride <= (1u << 20); stride *= 2) {
    std::set<uint32_t> slices;
    for (uint64_t i = 0; i < 32; ++i) slices.insert(m.locate(i * stride).slice);
    EXPECT_GE(slices.size(), 16u) << "stride " << stride;
  }
}

TEST(Ipoly, TwentyFourChannelsFoldSoTheFirstEightTakeTwiceTheTraffic) {
  // TITAN V: 24 channels x 2 slices hash over 64 values; the 16 values above 47 fold onto
  // slices 0-15 (channels 0-7).
  AddressMap m(map_cfg(24, "ipoly", 2));
  std::vector<uint64_t> per_partition(24, 0);
  const uint64_t lines = 24 * 64 * 512;
  for (uint64_t l = 0; l < lines; ++l) per_partition[m.locate(l * 128).partition]++;
  double low = 0, high = 0;
  for (int p = 0; p < 8; ++p) low += double(per_partition[size_t(p)]);
  for (int p = 8; p < 24; ++p) high += double(per_partition[size_t(p)]);
  double ratio = (low / 8) / (high / 16);
  EXPECT_GT(ratio, 1.9);
  EXPECT_LT(ratio, 2.1);
  // A power-of-two channel count has nothing to fold: balanced.
  AddressMap pow2(map_cfg(16, "ipoly", 2));
  std::vector<uint64_t> even(16, 0);
  for (uint64_t l = 0; l < 16 * 64 * 512; ++l) even[pow2.locate(l * 128).partition]++;
  for (uint64_t n : even) EXPECT_EQ(n, even[0]);
}

TEST(Ipoly, DistinctLinesNeverShareASliceAddress) {
  AddressMap m(map_cfg(24, "ipoly", 2));
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> seen;
  for (uint64_t l = 0; l < 24 * 2 * 256; ++l) {
    MemLocation loc = m.locate(l * 128);
    auto key = std::make_pair(loc.slice, loc.slice_addr);
    ASSERT_EQ(seen.count(key), 0u) << "lines " << seen[key] << " and " << l;
    seen[key] = l;
    // The DRAM address of the slice address is the partition address.
    EXPECT_EQ(m.partition_addr_of_slice(loc.slice % 2, loc.slice_addr), loc.partition_addr);
  }
}

TEST(Ipoly, SliceAddressLeavesOutTheSubPartitionBit) {
  // GPGPU-Sim indexes the L2 sets with partition_address(): the channel digit removed, and
  // its sub-partition id bits (the lowest bank bit: on TITAN V the bit above the channel
  // digit) removed too, whatever the partition indexing. Below bit 56 the slice-local
  // address is exactly that, so the set a line takes is GPGPU-Sim's.
  GpuConfig c = map_cfg(24, "ipoly", 2);
  c.l2.slice_select = "chunk";
  AddressMap m(c);
  const uint64_t low56 = (uint64_t(1) << 56) - 1;
  for (uint64_t a = 0xC0000000; a < 0xC0000000 + (uint64_t(1) << 22); a += 96) {
    const uint64_t q = (a >> 8) / 24;
    const uint64_t gpgpusim = ((q >> 1) << 8) | (a & 255);
    MemLocation loc = m.locate(a);
    ASSERT_EQ(loc.slice_addr & low56, gpgpusim) << a;
    ASSERT_EQ(m.partition_addr_of_slice(0, loc.slice_addr), loc.partition_addr) << a;
  }
  // Lines that differ only in that bit can meet in one slice: there they have the same
  // address for the set index (one set) and distinct tags.
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> by_set_address;
  int met = 0;
  for (uint64_t a = 0; a < (uint64_t(1) << 24); a += 128) {
    MemLocation loc = m.locate(a);
    auto [it, fresh] = by_set_address.try_emplace({loc.slice, loc.slice_addr & low56}, loc.slice_addr);
    if (fresh) continue;
    EXPECT_NE(it->second, loc.slice_addr);
    ++met;
  }
  EXPECT_GT(met, 0);
}

TEST(AddressMapSlices, ChunkSelectUsesTheDigitAboveThePartition) {
  GpuConfig c = map_cfg(6, "linear", 2);
  c.l2.slice_select = "chunk";
  AddressMap m(c);
  for (uint64_t chunk = 0; chunk < 120; ++chunk) {
    uint64_t a = chunk * 256 + 130;  // second line of the chunk
    MemLocation loc = m.locate(a);
    EXPECT_EQ(loc.partition, chunk % 6);
    EXPECT_EQ(loc.slice, loc.partition * 2 + (chunk / 6) % 2);
    EXPECT_EQ(m.partition_addr_of_slice(loc.slice % 2, loc.slice_addr), loc.partition_addr);
  }
}

CacheConfig l1(const char* index, uint32_t sets) {
  CacheConfig c;
  c.size = sets * 4 * 128;
  c.assoc = 4;
  c.line = 128;
  c.sector = 128;
  c.mshr_entries = 64;
  c.set_index = index;
  return c;
}

// Hits of a second pass over `n` lines `stride` bytes apart.
int second_pass_hits(Cache& c, uint64_t stride, int n) {
  int hits = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < n; ++i) {
      uint64_t a = uint64_t(i) * stride;
      Cache::Result r = c.read(a, 1, 0, 0);
      if (r.outcome == Cache::Outcome::Miss) c.fill(r.mshr, 0);
      if (pass == 1 && r.outcome == Cache::Outcome::Hit) ++hits;
    }
  return hits;
}

TEST(SetIndex, FermiHashSpreadsKilobyteStridedRows) {
  // 32 rows 1 KB apart: a linear index puts them in 4 of 32 sets (16 ways in all), the Fermi
  // hash XORs address bits 13-15, 17 and 19 into the set and keeps them all.
  Cache lin(l1("linear", 32)), fermi(l1("fermi", 32));
  EXPECT_EQ(second_pass_hits(lin, 1024, 32), 0);
  EXPECT_EQ(second_pass_hits(fermi, 1024, 32), 32);
}

TEST(SetIndex, IpolyAndXorSpreadPowerOfTwoStrides) {
  for (const char* f : {"ipoly", "xor"}) {
    Cache c(l1(f, 32)), lin(l1("linear", 32));
    EXPECT_GT(second_pass_hits(c, 4096, 64), second_pass_hits(lin, 4096, 64)) << f;
  }
}

TEST(SetIndex, UnsupportedGeometriesAreErrors) {
  EXPECT_THROW(Cache(l1("fermi", 16)), Error);
  EXPECT_THROW(Cache(l1("ipoly", 8)), Error);
  GpuConfig c;
  c.l1d.set_index = "modulo";
  EXPECT_THROW(validate(c), Error);
}

TEST(PerfectCache, EveryReadHits) {
  CacheConfig cfg = l1("linear", 4);
  cfg.perfect = true;
  Cache c(cfg);
  for (uint64_t a = 0; a < (1u << 20); a += 4096) EXPECT_EQ(c.read(a, 1, 0, 0).outcome, Cache::Outcome::Hit);
  EXPECT_EQ(c.misses, 0u);
}

}  // namespace
}  // namespace warpsim

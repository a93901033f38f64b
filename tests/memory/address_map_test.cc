#include "memory/address_map.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "core/error.h"

namespace warpsim {
namespace {

GpuConfig map_cfg(uint32_t partitions, const char* hash, uint32_t slices = 1) {
  GpuConfig c;
  c.l2.partitions = partitions;
  c.l2.slices_per_partition = slices;
  c.l2.hash = hash;
  c.l2.interleave = 256;
  c.l2.cache.line = 128;
  c.dram.banks = 16;
  c.dram.row_bytes = 2048;
  return c;
}

TEST(AddressMap, LinearInterleavesChunks) {
  AddressMap m(map_cfg(6, "linear"));
  for (uint64_t chunk = 0; chunk < 60; ++chunk) {
    EXPECT_EQ(m.partition(chunk * 256), chunk % 6);
    EXPECT_EQ(m.partition(chunk * 256 + 255), chunk % 6);
    EXPECT_EQ(m.partition_addr(chunk * 256 + 17), (chunk / 6) * 256 + 17);
  }
  // A stride of partitions * interleave bytes hits a single partition.
  for (uint64_t i = 0; i < 32; ++i) EXPECT_EQ(m.partition(i * 6 * 256), 0u);
}

TEST(AddressMap, XorFoldsHigherBitsPowerOfTwo) {
  AddressMap m(map_cfg(8, "xor"));
  // chunk = q * 8 + r; partition = r ^ (XOR of the 3-bit groups of q).
  EXPECT_EQ(m.partition(0 * 256), 0u);
  EXPECT_EQ(m.partition(8 * 256), 1u);                   // q = 1, r = 0
  EXPECT_EQ(m.partition(9 * 256), 0u);                   // q = 1, r = 1
  EXPECT_EQ(m.partition((64 + 3) * 256), 2u);            // q = 8 = 0b001'000 -> h = 1, r = 3
  EXPECT_EQ(m.partition((8 * 0b101101 + 5) * 256), 5u);  // h = 5 ^ 5 = 0, r = 5
  EXPECT_EQ(m.partition((8 * 0b110011 + 1) * 256), 4u);  // h = 3 ^ 6 = 5, r = 1 -> 4
  // Six partitions (not a power of two): partition = (r + h) % 6 with 3-bit groups.
  AddressMap six(map_cfg(6, "xor"));
  EXPECT_EQ(six.partition((6 * 1 + 0) * 256), 1u);         // q = 1: h = 1
  EXPECT_EQ(six.partition((6 * 7 + 5) * 256), 0u);         // q = 7: h = 7, (5 + 7) % 6 = 0
  EXPECT_EQ(six.partition((6 * 0b001111 + 2) * 256), 2u);  // h = 7 ^ 1 = 6, (2 + 6) % 6 = 2
}

TEST(AddressMap, XorSpreadsPartitionStrides) {
  for (uint32_t parts : {6u, 8u}) {
    AddressMap lin(map_cfg(parts, "linear")), x(map_cfg(parts, "xor"));
    std::vector<int> hist(parts, 0);
    std::set<uint32_t> lin_parts;
    const int n = 64 * int(parts);
    for (int i = 0; i < n; ++i) {
      uint64_t a = uint64_t(i) * parts * 256;
      lin_parts.insert(lin.partition(a));
      ++hist[x.partition(a)];
    }
    EXPECT_EQ(lin_parts.size(), 1u);
    for (uint32_t p = 0; p < parts; ++p) {
      EXPECT_GT(hist[p], n / int(parts) / 2) << "partition " << p << " of " << parts;
      EXPECT_LT(hist[p], n / int(parts) * 2) << "partition " << p << " of " << parts;
    }
  }
}

TEST(AddressMap, EveryGroupOfChunksCoversAllPartitions) {
  for (uint32_t parts : {1u, 3u, 6u, 8u, 12u}) {
    for (const char* hash : {"linear", "xor"}) {
      AddressMap m(map_cfg(parts, hash));
      for (uint64_t q = 0; q < 200; q += 7) {
        std::set<uint32_t> seen;
        for (uint64_t r = 0; r < parts; ++r) {
          uint64_t a = (q * parts + r) * 256;
          uint32_t p = m.partition(a);
          ASSERT_LT(p, parts);
          seen.insert(p);
          EXPECT_EQ(m.partition_addr(a), q * 256);
        }
        EXPECT_EQ(seen.size(), parts) << hash << " with " << parts << " partitions";
      }
    }
  }
}

TEST(AddressMap, SlicesAndRoundTrip) {
  AddressMap m(map_cfg(6, "xor", 2));
  std::set<std::tuple<uint32_t, uint64_t>> seen;
  for (uint64_t line = 0; line < 4096; ++line) {
    uint64_t a = line * 128 + 5;
    MemLocation loc = m.locate(a);
    EXPECT_EQ(loc.partition, m.partition(a));
    EXPECT_EQ(loc.slice / 2, loc.partition);
    uint32_t local = loc.slice % 2;
    EXPECT_EQ(local, (loc.partition_addr / 128) % 2);
    EXPECT_EQ(loc.slice_addr, (loc.partition_addr / 128 / 2) * 128 + 5);
    EXPECT_EQ(m.partition_addr_of_slice(local, loc.slice_addr), loc.partition_addr);
    EXPECT_TRUE(seen.insert({loc.slice, loc.slice_addr}).second) << "address collision";
  }
}

TEST(AddressMap, RandomSpreadsBlocksOverAllSlicesWithoutCollisions) {
  // GPGPU-Sim's RANDOM indexing: each block of interleave / S = 128 bytes goes to any of the
  // P * S slices, the same one every time; no two addresses share a slice-local address.
  AddressMap m(map_cfg(6, "random", 2));
  AddressMap again(map_cfg(6, "random", 2));
  std::vector<int> per_slice(12);
  std::set<std::tuple<uint32_t, uint64_t>> seen;
  for (uint64_t line = 0; line < 12000; ++line) {
    uint64_t a = line * 128 + 9;
    MemLocation loc = m.locate(a);
    EXPECT_EQ(loc.partition, m.partition(a));
    EXPECT_EQ(loc.slice / 2, loc.partition);
    EXPECT_EQ(m.locate(line * 128 + 127).slice, loc.slice);  // one draw per block
    EXPECT_EQ(again.locate(a).slice, loc.slice);             // deterministic
    EXPECT_EQ(m.partition_addr_of_slice(loc.slice % 2, loc.slice_addr), loc.partition_addr);
    EXPECT_TRUE(seen.insert({loc.slice, loc.slice_addr}).second) << "address collision";
    ++per_slice[loc.slice];
  }
  // Uniform: 1000 expected per slice; a linear or XOR map of consecutive lines would be exact,
  // a random one is within a few standard deviations (~30).
  for (int n : per_slice) EXPECT_NEAR(n, 1000, 150);
  // Unlike linear interleaving, a stride of P * interleave bytes does not stay on one partition.
  std::set<uint32_t> parts;
  for (uint64_t i = 0; i < 64; ++i) parts.insert(m.partition(i * 6 * 256));
  EXPECT_GE(parts.size(), 5u);
}

TEST(AddressMap, DramBankAndRow) {
  AddressMap m(map_cfg(1, "linear"));
  // 2048-byte rows: the 16 lines of a row share a bank; rows rotate over the 16 banks.
  for (uint64_t pa = 0; pa < 2048; pa += 128) {
    EXPECT_EQ(m.bank(pa), 0u);
    EXPECT_EQ(m.row(pa), 0u);
  }
  EXPECT_EQ(m.bank(2048), 1u);
  EXPECT_EQ(m.bank(15 * 2048), 15u);
  EXPECT_EQ(m.bank(16 * 2048), 0u);
  EXPECT_EQ(m.row(16 * 2048), 1u);
  EXPECT_EQ(m.row(16 * 2048 * 5 + 3 * 2048), 5u);
  EXPECT_EQ(m.bank(16 * 2048 * 5 + 3 * 2048), 3u);
}

// dram.bank_hash = "xor" (GPGPU-Sim's -dram_bnk_indexing_policy 1): bank XOR the row's low bits.
// A stride of banks x row_bytes, which hits one bank linearly, visits every bank.
TEST(AddressMap, XorBankHashSpreadsRowsOfOneLinearBank) {
  GpuConfig c = map_cfg(1, "linear");
  c.dram.bank_hash = "xor";
  AddressMap m(c);
  std::set<uint32_t> banks;
  for (uint64_t row = 0; row < 16; ++row) {
    const uint64_t pa = row * 16 * 2048 + 3 * 2048;  // linear bank 3
    EXPECT_EQ(m.row(pa), row);
    EXPECT_EQ(m.bank(pa), uint32_t(3 ^ row));
    banks.insert(m.bank(pa));
  }
  EXPECT_EQ(banks.size(), 16u);
  // The lines of one row still share a bank.
  for (uint64_t pa = 5 * 16 * 2048; pa < 5 * 16 * 2048 + 2048; pa += 128) EXPECT_EQ(m.bank(pa), 5u);
  c.dram.banks = 12;
  EXPECT_THROW(validate(c), Error);
}

TEST(AddressMap, BadConfigThrows) {
  GpuConfig c = map_cfg(6, "diagonal");
  EXPECT_THROW(AddressMap{c}, Error);
  c = map_cfg(0, "linear");
  EXPECT_THROW(AddressMap{c}, Error);
  c = map_cfg(6, "linear");
  c.l2.interleave = 300;
  EXPECT_THROW(AddressMap{c}, Error);
  c.l2.interleave = 64;  // below the line size: lines would straddle partitions
  EXPECT_THROW(AddressMap{c}, Error);
}

}  // namespace
}  // namespace warpsim

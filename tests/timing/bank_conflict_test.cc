// Shared-memory bank conflicts: the degree is the most distinct words any one bank must serve,
// lanes on the same word sharing a broadcast. The per-bank lists must give what sorting every
// word gives, including accesses that overflow a list and fall back to the sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "timing/ldst_unit.h"

namespace warpsim {
namespace {

uint32_t degree(const uint64_t* addrs, uint32_t mask, uint32_t width, uint32_t banks = 32, uint32_t bank_width = 4) {
  return LdstUnit::bank_conflict_degree(addrs, mask, width, banks, bank_width);
}

TEST(BankConflict, HandCases) {
  uint64_t a[32];
  for (int i = 0; i < 32; ++i) a[i] = 4 * i;  // one word per bank
  EXPECT_EQ(degree(a, ~0u, 4), 1u);
  for (int i = 0; i < 32; ++i) a[i] = 0x100;  // broadcast
  EXPECT_EQ(degree(a, ~0u, 4), 1u);
  for (int i = 0; i < 32; ++i) a[i] = 8 * i;  // stride 2: two words in each even bank
  EXPECT_EQ(degree(a, ~0u, 4), 2u);
  for (int i = 0; i < 32; ++i) a[i] = 128 * i;  // stride 32: every lane in bank 0
  EXPECT_EQ(degree(a, ~0u, 4), 32u);
  EXPECT_EQ(degree(a, 0x0000000fu, 4), 4u);  // only the active lanes count
  EXPECT_EQ(degree(a, 0u, 4), 1u);
  for (int i = 0; i < 32; ++i) a[i] = 8 * i;  // 64-bit words, consecutive: 2 words per bank
  EXPECT_EQ(degree(a, ~0u, 8), 2u);
  for (int i = 0; i < 32; ++i) a[i] = 16 * i;  // 128-bit words: 4 per bank
  EXPECT_EQ(degree(a, ~0u, 16), 4u);
  // 9 distinct words in bank 0 (past one list) plus duplicates of them.
  for (int i = 0; i < 32; ++i) a[i] = 128 * (i % 9);
  EXPECT_EQ(degree(a, ~0u, 4), 9u);
}

TEST(BankConflict, ListsGiveWhatSortingGives) {
  std::mt19937_64 rng(7);
  uint64_t a[32];
  for (int trial = 0; trial < 20000; ++trial) {
    const uint32_t banks = trial % 3 == 0 ? 16 : 32;
    const uint32_t width = (trial / 3) % 4 == 0 ? 4u : (trial / 3) % 4 == 1 ? 8u : (trial / 3) % 4 == 2 ? 16u : 2u;
    // Draw words from a small pool so that duplicates (broadcasts) and crowded banks both
    // happen, from one word to far more than a bank's list holds.
    const uint64_t pool = 1 + rng() % 2048;
    const uint64_t stride = 1 + rng() % 64;
    for (uint64_t& x : a) x = 0x4000 + 4 * stride * (rng() % pool) + (rng() % 4 == 0 ? 4 : 0);
    const uint32_t mask = rng() % 4 == 0 ? ~0u : uint32_t(rng());
    const uint32_t per_lane = std::min<uint32_t>(4, std::max<uint32_t>(1, width / 4));
    ASSERT_EQ(LdstUnit::bank_conflict_degree(a, mask, width, banks, 4),
              LdstUnit::bank_conflict_degree_sorted(a, mask, per_lane, banks - 1, 4))
        << "trial " << trial;
  }
}

}  // namespace
}  // namespace warpsim

// The SM's set of wake cycles: near cycles are ring bits, far ones wait in a heap; the earliest
// cycle must be the one a single min-heap of every added cycle gives, at every step.
#include "timing/wake_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

namespace warpsim {
namespace {

// The reference: every cycle added, as a multiset, with the ones up to `now` dropped.
struct ReferenceWakes {
  std::vector<uint64_t> cycles;
  void add(uint64_t t) { cycles.push_back(t); }
  void drop_through(uint64_t now) {
    std::erase_if(cycles, [&](uint64_t t) { return t <= now; });
  }
  uint64_t earliest() const { return cycles.empty() ? ~0ull : *std::min_element(cycles.begin(), cycles.end()); }
};

TEST(WakeSet, EmptyHasNoEarliestCycle) {
  WakeSet w;
  EXPECT_EQ(w.earliest(), ~0ull);
  w.drop_through(100);
  EXPECT_EQ(w.earliest(), ~0ull);
}

TEST(WakeSet, NearFarAndWrappedCyclesComeOutInOrder) {
  WakeSet w;
  w.drop_through(1000);  // the ring now covers 1001 .. 2024
  w.add(5000);           // far: the heap
  w.add(2024);           // the ring's last cycle (in the word before its first)
  w.add(1001 + 64);      // the second word
  EXPECT_EQ(w.earliest(), 1065u);
  w.add(1003);
  EXPECT_EQ(w.earliest(), 1003u);
  w.add(1003);  // again: no change
  w.drop_through(1003);
  EXPECT_EQ(w.earliest(), 1065u);
  w.drop_through(1065);
  EXPECT_EQ(w.earliest(), 2024u);
  w.drop_through(2024);
  EXPECT_EQ(w.earliest(), 5000u);
  w.drop_through(5000);
  EXPECT_EQ(w.earliest(), ~0ull);
}

TEST(WakeSet, MatchesAHeapOfEveryCycleUnderRandomUse) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    WakeSet w;
    ReferenceWakes ref;
    uint64_t now = rng() % 3000;
    w.drop_through(now);
    ref.drop_through(now);
    for (int step = 0; step < 4000; ++step) {
      const int op = int(rng() % 10);
      if (op < 6) {
        // Mostly near cycles, some beyond the ring, a few far ahead.
        const uint64_t span = op < 4 ? 40 : op < 5 ? 3 * WakeSet::kNear : 100000;
        const uint64_t t = now + 1 + rng() % span;
        w.add(t);
        ref.add(t);
      } else {
        // Time moves on: by a cycle, to the earliest wake, or by a long jump past the ring.
        const uint64_t e = ref.earliest();
        now = op < 8 ? now + 1 : op < 9 && e != ~0ull ? e : now + 1 + rng() % (2 * WakeSet::kNear);
        w.drop_through(now);
        ref.drop_through(now);
      }
      ASSERT_EQ(w.earliest(), ref.earliest()) << "round " << round << " step " << step << " now " << now;
    }
  }
}

}  // namespace
}  // namespace warpsim

// Persisting L2 accesses: the set-aside ways of a cache and the access policy window's choice
// of lines (docs/memory.md, "Persisting L2 accesses").
#include <gtest/gtest.h>

#include "core/access_policy.h"
#include "memory/cache.h"

namespace warpsim {
namespace {

CacheConfig l2_like() {
  CacheConfig c;
  c.size = 64 * 1024;  // 512 lines of 128 bytes: 32 sets x 16 ways
  c.assoc = 16;
  c.line = 128;
  c.sector = 32;
  c.mshr_entries = 32;
  c.mshr_merge = 8;
  c.write_policy = "write_back";
  c.write_allocate = "allocate";
  return c;
}

// One pass reading every line of [0, bytes); accesses inside `w` take its property. Returns
// the hits on lines inside the window.
uint64_t pass(Cache& c, uint64_t bytes, const AccessPolicyWindow& w) {
  uint64_t window_hits = 0;
  for (uint64_t a = 0; a < bytes; a += 128) {
    const AccessProperty prop = w.contains(a) ? w.property(a, 128) : AccessProperty::Default;
    Cache::Result r = c.read(a, c.full_mask(), 0, 0, prop);
    EXPECT_NE(r.outcome, Cache::Outcome::Fail);
    if (r.outcome == Cache::Outcome::Miss) c.fill(r.mshr, 0);
    if (r.outcome == Cache::Outcome::Hit && w.contains(a)) ++window_hits;
  }
  return window_hits;
}

constexpr uint64_t kWorkingSet = 4 * 64 * 1024;  // four times the cache
constexpr uint64_t kWindowBytes = 8 * 1024;      // 64 lines: 2 per set

AccessPolicyWindow persisting_window(float ratio = 1.0f) {
  AccessPolicyWindow w;
  w.base = 0;
  w.bytes = kWindowBytes;
  w.hit_ratio = ratio;
  w.hit_prop = AccessProperty::Persisting;
  w.miss_prop = AccessProperty::Streaming;
  return w;
}

TEST(PersistingL2, WindowLinesHitAfterTheFirstPassWithASetAside) {
  Cache c(l2_like());
  c.set_aside_ways(4);  // 128 lines for persisting data
  EXPECT_EQ(pass(c, kWorkingSet, persisting_window()), 0u);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(pass(c, kWorkingSet, persisting_window()), kWindowBytes / 128) << "pass " << p;
  EXPECT_EQ(c.lines_with(AccessProperty::Persisting), kWindowBytes / 128);
}

TEST(PersistingL2, WindowLinesMissWithoutASetAside) {
  Cache c(l2_like());
  for (int p = 0; p < 4; ++p) EXPECT_EQ(pass(c, kWorkingSet, persisting_window()), 0u) << "pass " << p;
  EXPECT_EQ(c.lines_with(AccessProperty::Persisting), 0u);
}

TEST(PersistingL2, ResetMakesPersistingLinesNormal) {
  Cache c(l2_like());
  c.set_aside_ways(4);
  pass(c, kWorkingSet, persisting_window());
  ASSERT_GT(c.lines_with(AccessProperty::Persisting), 0u);
  c.reset_persisting();
  EXPECT_EQ(c.lines_with(AccessProperty::Persisting), 0u);
  // Normal lines now: a pass without the window streams them out like any other line.
  pass(c, kWorkingSet, {});
  EXPECT_EQ(pass(c, kWorkingSet, persisting_window()), 0u);
}

TEST(PersistingL2, ShrinkingTheSetAsideMakesLinesOutsideItNormal) {
  Cache c(l2_like());
  c.set_aside_ways(4);
  pass(c, kWorkingSet, persisting_window());
  const uint64_t before = c.lines_with(AccessProperty::Persisting);
  c.set_aside_ways(1);
  EXPECT_LT(c.lines_with(AccessProperty::Persisting), before);
  EXPECT_LE(c.lines_with(AccessProperty::Persisting), uint64_t(c.sets()));
  c.set_aside_ways(99);  // clamped: one way stays for normal lines
  EXPECT_EQ(c.set_aside_ways(), c.ways() - 1);
}

TEST(PersistingL2, HitRatioSelectsAStableFractionOfTheWindow) {
  const AccessPolicyWindow w = persisting_window(0.25f);
  uint64_t persisting = 0, lines = 0;
  for (uint64_t a = 0; a < (64u << 20); a += 128, ++lines)
    persisting += w.property(a, 128) == AccessProperty::Persisting;
  EXPECT_NEAR(double(persisting) / double(lines), 0.25, 0.01);
  for (uint64_t a = 0; a < 4096; a += 128) EXPECT_EQ(w.property(a, 128), w.property(a + 64, 128));  // per line
  EXPECT_EQ(persisting_window(0.0f).property(0, 128), AccessProperty::Streaming);
  EXPECT_EQ(persisting_window(1.0f).property(0, 128), AccessProperty::Persisting);
}

TEST(PersistingL2, StreamingLinesAreEvictedFirst) {
  CacheConfig cfg = l2_like();
  cfg.size = 128 * 2;  // one set of 2 ways
  cfg.assoc = 2;
  Cache c(cfg);
  auto read = [&](uint64_t a, AccessProperty p) {
    Cache::Result r = c.read(a, c.full_mask(), 0, 0, p);
    if (r.outcome == Cache::Outcome::Miss) c.fill(r.mshr, 0);
    return r.outcome;
  };
  read(0, AccessProperty::Streaming);  // older, streaming
  read(128, AccessProperty::Default);  // younger, normal
  read(0, AccessProperty::Default);    // a Default hit keeps the line streaming; LRU is now 128
  read(256, AccessProperty::Default);  // evicts the streaming line, not the LRU one
  EXPECT_EQ(read(128, AccessProperty::Default), Cache::Outcome::Hit);
  EXPECT_EQ(read(0, AccessProperty::Default), Cache::Outcome::Miss);
}

}  // namespace
}  // namespace warpsim

#include "memory/cache.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/error.h"

namespace warpsim {
namespace {

CacheConfig make(uint32_t size, uint32_t assoc, uint32_t line, uint32_t sector, const char* policy = "write_back",
                 const char* alloc = "allocate") {
  CacheConfig c;
  c.size = size;
  c.assoc = assoc;
  c.line = line;
  c.sector = sector;
  c.mshr_entries = 32;
  c.mshr_merge = 8;
  c.write_policy = policy;
  c.write_allocate = alloc;
  return c;
}

// Reads every `stride` bytes of [0, bytes) `passes` times; a miss is filled at once.
void sweep(Cache& c, uint64_t bytes, uint64_t stride, int passes) {
  for (int p = 0; p < passes; ++p)
    for (uint64_t a = 0; a < bytes; a += stride) {
      Cache::Result r = c.read(a, c.sector_mask(a, 4), 0, 0);
      ASSERT_NE(r.outcome, Cache::Outcome::Fail);
      if (r.outcome == Cache::Outcome::Miss) c.fill(r.mshr, 0);
    }
}

TEST(Cache, Geometry) {
  Cache c(make(16 * 1024, 4, 128, 32));
  EXPECT_EQ(c.sets(), 32u);  // 128 lines / 4 ways
  EXPECT_EQ(c.ways(), 4u);
  EXPECT_EQ(c.full_mask(), 0xfu);
  EXPECT_EQ(c.line_addr(0x12345), 0x12300u);
  EXPECT_EQ(c.sector_mask(0x1000, 4), 0x1u);
  EXPECT_EQ(c.sector_mask(0x1000 + 60, 8), 0x6u);   // bytes 60..67: sectors 1 and 2
  EXPECT_EQ(c.sector_mask(0x1000 + 96, 64), 0x8u);  // clipped at the end of the line
  EXPECT_EQ(c.sector_mask(0x1000, 128), 0xfu);
  Cache fa(make(4096, 0, 128, 128));
  EXPECT_EQ(fa.sets(), 1u);
  EXPECT_EQ(fa.ways(), 32u);
}

TEST(Cache, StrideWithinCapacityHitsOnSecondPass) {
  // 16 KB, 4-way, 128 B lines; stride 128 over 8 KB = 64 lines, two per set.
  Cache c(make(16 * 1024, 4, 128, 128));
  sweep(c, 8 * 1024, 128, 2);
  EXPECT_EQ(c.misses, 64u);
  EXPECT_EQ(c.hits, 64u);
  EXPECT_EQ(c.fails, 0u);
}

TEST(Cache, StrideBeyondCapacityThrashesLru) {
  // 32 KB = 256 lines, 8 per set cycling through 4 ways: LRU evicts each line before reuse.
  Cache c(make(16 * 1024, 4, 128, 128));
  sweep(c, 32 * 1024, 128, 2);
  EXPECT_EQ(c.misses, 512u);
  EXPECT_EQ(c.hits, 0u);
}

TEST(Cache, StrideOfTwoLinesUsesHalfTheSets) {
  // Stride 256 over 16 KB: 64 lines, only the 16 even sets, 4 lines each: fits exactly.
  Cache c(make(16 * 1024, 4, 128, 128));
  sweep(c, 16 * 1024, 256, 2);
  EXPECT_EQ(c.misses, 64u);
  EXPECT_EQ(c.hits, 64u);
  // Stride 512 over 32 KB: 64 lines in 8 sets, 8 per set: thrashes.
  Cache d(make(16 * 1024, 4, 128, 128));
  sweep(d, 32 * 1024, 512, 2);
  EXPECT_EQ(d.misses, 128u);
  EXPECT_EQ(d.hits, 0u);
}

TEST(Cache, FullyAssociativeHoldsAnyPattern) {
  // 4 KB fully associative: 32 lines with a stride that would alias in a set-associative cache.
  Cache c(make(4096, 0, 128, 128));
  sweep(c, 32 * 4096, 4096, 2);
  EXPECT_EQ(c.misses, 32u);
  EXPECT_EQ(c.hits, 32u);
}

TEST(Cache, LruEvictsLeastRecentlyUsed) {
  Cache c(make(512, 4, 128, 128));  // one set of 4 ways
  const uint64_t A = 0, B = 128, C = 256, D = 384, E = 512;
  for (uint64_t a : {A, B, C, D}) c.fill(c.read(a, 1, 0, 0).mshr, 0);
  EXPECT_EQ(c.read(A, 1, 0, 1).outcome, Cache::Outcome::Hit);  // order now B C D A
  Cache::Result r = c.read(E, 1, 0, 2);
  ASSERT_EQ(r.outcome, Cache::Outcome::Miss);
  c.fill(r.mshr, 3);
  EXPECT_FALSE(c.probe(B, 1));
  EXPECT_TRUE(c.probe(A, 1));
  EXPECT_TRUE(c.probe(C, 1));
  EXPECT_TRUE(c.probe(D, 1));
  EXPECT_TRUE(c.probe(E, 1));
  // Next victim is C (B's way went to E).
  c.fill(c.read(B, 1, 0, 4).mshr, 4);
  EXPECT_FALSE(c.probe(C, 1));
}

TEST(Cache, SectorMissFetchesOnlyMissingSectors) {
  Cache c(make(16 * 1024, 4, 128, 32));
  Cache::Result r = c.read(0x1000, 0x1, 7, 0);
  ASSERT_EQ(r.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(r.fetch_mask, 0x1u);
  EXPECT_EQ(c.reserved_sectors(0x1000), 0x1u);
  c.fill(r.mshr, 1);
  EXPECT_EQ(c.valid_sectors(0x1000), 0x1u);
  EXPECT_EQ(c.read(0x1000, 0x1, 0, 2).outcome, Cache::Outcome::Hit);
  // Sectors 0 and 1: only sector 1 is missing.
  Cache::Result s = c.read(0x1000, 0x3, 8, 3);
  ASSERT_EQ(s.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(s.fetch_mask, 0x2u);
  // A request for sector 1 only merges into that fill.
  Cache::Result t = c.read(0x1000 + 32, 0x2, 9, 4);
  EXPECT_EQ(t.outcome, Cache::Outcome::HitPending);
  EXPECT_EQ(t.mshr, s.mshr);
  // Sectors 1..3: 1 is on the way, 2 and 3 need a new entry for just those.
  Cache::Result u = c.read(0x1000, 0xe, 10, 5);
  ASSERT_EQ(u.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(u.fetch_mask, 0xcu);
  EXPECT_NE(u.mshr, s.mshr);
  EXPECT_EQ(c.mshrs_in_use(), 2u);
  const std::vector<uint32_t>& w = c.fill(s.mshr, 6);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], 8u);
  EXPECT_EQ(w[1], 9u);
  EXPECT_EQ(c.valid_sectors(0x1000), 0x3u);
  EXPECT_EQ(c.fill(u.mshr, 7).size(), 1u);
  EXPECT_EQ(c.valid_sectors(0x1000), 0xfu);
  EXPECT_EQ(c.misses, 3u);
  EXPECT_EQ(c.hits, 1u);
  EXPECT_EQ(c.pending_hits, 1u);
}

TEST(Cache, MshrMergingAndFailWhenFull) {
  CacheConfig cfg = make(16 * 1024, 4, 128, 128);
  cfg.mshr_entries = 2;
  cfg.mshr_merge = 3;
  Cache c(cfg);
  Cache::Result a = c.read(0x0, 1, 1, 0);
  ASSERT_EQ(a.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(c.read(0x0, 1, 2, 0).outcome, Cache::Outcome::HitPending);
  EXPECT_EQ(c.read(0x40, 1, 3, 0).outcome, Cache::Outcome::HitPending);  // same line
  EXPECT_EQ(c.read(0x0, 1, 4, 0).outcome, Cache::Outcome::Fail);         // merge slots full
  Cache::Result b = c.read(0x80, 1, 5, 0);
  ASSERT_EQ(b.outcome, Cache::Outcome::Miss);
  EXPECT_TRUE(c.mshr_full());
  EXPECT_EQ(c.read(0x100, 1, 6, 0).outcome, Cache::Outcome::Fail);  // no MSHR entry
  EXPECT_EQ(c.fails, 2u);
  const std::vector<uint32_t>& w = c.fill(a.mshr, 1);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], 1u);
  EXPECT_EQ(w[1], 2u);
  EXPECT_EQ(w[2], 3u);
  EXPECT_FALSE(c.mshr_full());
  EXPECT_EQ(c.read(0x100, 1, 6, 2).outcome, Cache::Outcome::Miss);
  EXPECT_EQ(c.mshrs_in_use(), 2u);
  EXPECT_THROW(c.fill(a.mshr == 0 ? 5 : 0, 3), Error);  // out of range or not in use
}

TEST(Cache, NoReplaceableWayFails) {
  Cache c(make(256, 2, 128, 128));  // one set, two ways
  Cache::Result a = c.read(0, 1, 0, 0), b = c.read(128, 1, 0, 0);
  ASSERT_EQ(a.outcome, Cache::Outcome::Miss);
  ASSERT_EQ(b.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(c.read(256, 1, 0, 0).outcome, Cache::Outcome::Fail);  // both ways await fills
  c.fill(a.mshr, 1);
  Cache::Result d = c.read(256, 1, 0, 2);
  ASSERT_EQ(d.outcome, Cache::Outcome::Miss);  // takes A's way: B's is still reserved
  EXPECT_EQ(c.valid_sectors(0), 0u);
  EXPECT_EQ(c.reserved_sectors(128), 1u);
}

// generation() stays put across failed reads (the LD/ST unit then counts a retry without doing
// it) and moves with every change that can make a failed read succeed.
TEST(Cache, GenerationMovesWithEveryChangeButNotWithAFail) {
  CacheConfig cfg = make(256, 2, 128, 128);  // one set, two ways
  cfg.mshr_entries = 2;
  Cache c(cfg);
  uint64_t g = c.generation();
  auto moved = [&] {
    const bool m = c.generation() != g;
    g = c.generation();
    return m;
  };
  Cache::Result a = c.read(0, 1, 0, 0);
  ASSERT_EQ(a.outcome, Cache::Outcome::Miss);
  EXPECT_TRUE(moved());
  Cache::Result b = c.read(128, 1, 0, 0);
  ASSERT_EQ(b.outcome, Cache::Outcome::Miss);
  EXPECT_TRUE(moved());
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(c.read(256, 1, 0, 0).outcome, Cache::Outcome::Fail);  // no MSHR entry
    EXPECT_FALSE(moved());
  }
  EXPECT_EQ(c.read(0, 1, 0, 0).outcome, Cache::Outcome::HitPending);
  EXPECT_TRUE(moved());
  c.fill(a.mshr, 1);
  EXPECT_TRUE(moved());
  EXPECT_EQ(c.read(0, 1, 0, 1).outcome, Cache::Outcome::Hit);
  EXPECT_TRUE(moved());
  c.write(0, 1, 2);
  EXPECT_TRUE(moved());
  c.install(0, 1);
  EXPECT_TRUE(moved());
  c.set_active_ways(1);
  EXPECT_TRUE(moved());
  c.invalidate_all();
  EXPECT_TRUE(moved());
}

TEST(Cache, WriteBackAllocate) {
  Cache c(make(512, 4, 128, 32));      // one set of 4 ways
  EXPECT_FALSE(c.write(0x0, 0x3, 0));  // miss: allocated, sectors 0-1 valid and dirty
  EXPECT_FALSE(c.write_forwarded());
  EXPECT_EQ(c.valid_sectors(0), 0x3u);
  EXPECT_EQ(c.dirty_sectors(0), 0x3u);
  EXPECT_TRUE(c.write(0x20, 0x2, 1));  // sector 1 present: hit
  EXPECT_EQ(c.read(0x0, 0x3, 0, 2).outcome, Cache::Outcome::Hit);
  EXPECT_EQ(c.write_hits, 1u);
  EXPECT_EQ(c.write_misses, 1u);
  // Four more lines push line 0 (least recently used) out dirty.
  for (uint64_t a = 128; a <= 512; a += 128) c.fill(c.read(a, 0xf, 0, 3).mshr, 3);
  ASSERT_EQ(c.evictions().size(), 1u);
  EXPECT_EQ(c.evictions()[0].line_addr, 0u);
  EXPECT_EQ(c.evictions()[0].dirty_mask, 0x3u);
  EXPECT_EQ(c.writebacks, 1u);
  c.evictions().clear();
  // invalidate_all writes dirty lines back.
  c.write(0x80, 0x1, 4);
  c.invalidate_all();
  ASSERT_EQ(c.evictions().size(), 1u);
  EXPECT_EQ(c.evictions()[0].line_addr, 0x80u);
  EXPECT_FALSE(c.probe(0x80, 1));
}

TEST(Cache, WriteBackNoAllocate) {
  Cache c(make(512, 4, 128, 128, "write_back", "no_allocate"));
  EXPECT_FALSE(c.write(0x0, 1, 0));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_FALSE(c.probe(0, 1));
  c.fill(c.read(0, 1, 0, 1).mshr, 1);
  EXPECT_TRUE(c.write(0x0, 1, 2));
  EXPECT_FALSE(c.write_forwarded());
  EXPECT_EQ(c.dirty_sectors(0), 1u);
}

TEST(Cache, WriteThrough) {
  Cache c(make(512, 4, 128, 128, "write_through", "no_allocate"));
  EXPECT_FALSE(c.write(0x0, 1, 0));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_FALSE(c.probe(0, 1));
  c.fill(c.read(0, 1, 0, 1).mshr, 1);
  EXPECT_TRUE(c.write(0x0, 1, 2));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_TRUE(c.probe(0, 1));
  EXPECT_EQ(c.dirty_sectors(0), 0u);
  Cache a(make(512, 4, 128, 128, "write_through", "allocate"));
  EXPECT_FALSE(a.write(0x0, 1, 0));
  EXPECT_TRUE(a.write_forwarded());
  EXPECT_TRUE(a.probe(0, 1));  // allocated clean
  EXPECT_EQ(a.dirty_sectors(0), 0u);
}

// GPGPU-Sim's lazy fetch on read: a write miss allocates; a sector whose bytes were all written
// is readable, one written only in part is fetched by the next read and stays dirty.
TEST(Cache, LazyFetchOnReadFetchesPartlyWrittenSectors) {
  Cache c(make(512, 4, 128, 32, "write_back", "lazy_fetch_on_read"));
  LineBytes whole, half, other_half;
  whole.add(0, 32);        // sector 0, every byte
  half.add(32, 16);        // sector 1, the first 16 bytes
  other_half.add(48, 16);  // sector 1, the last 16 bytes
  EXPECT_FALSE(c.write(0x0, 0x1, 0, false, &whole));
  EXPECT_FALSE(c.write_forwarded());
  EXPECT_EQ(c.valid_sectors(0), 0x1u);
  EXPECT_FALSE(c.write(0x0, 0x2, 1, false, &half));  // sector 1 allocated, not readable
  EXPECT_EQ(c.valid_sectors(0), 0x1u);
  EXPECT_EQ(c.dirty_sectors(0), 0x3u);
  EXPECT_EQ(c.read(0x0, 0x1, 0, 2).outcome, Cache::Outcome::Hit);
  Cache::Result r = c.read(0x20, 0x2, 0, 3);  // the partly written sector misses
  ASSERT_EQ(r.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(r.fetch_mask, 0x2u);
  c.fill(r.mshr, 4);
  EXPECT_EQ(c.valid_sectors(0), 0x3u);
  EXPECT_EQ(c.dirty_sectors(0), 0x3u);  // the written bytes stay dirty
  // Two partial writes that together cover a sector make it readable; a write to a written
  // sector hits.
  EXPECT_FALSE(c.write(0x80, 0x2, 5, false, &half));
  EXPECT_TRUE(c.write(0x80, 0x2, 6, false, &other_half));
  EXPECT_EQ(c.valid_sectors(0x80), 0x2u);
  EXPECT_EQ(c.read(0xa0, 0x2, 0, 7).outcome, Cache::Outcome::Hit);
  // A line pushed out and allocated again starts with no written bytes.
  for (uint64_t a = 0x100; a <= 0x280; a += 0x80) c.fill(c.read(a, 0xf, 0, 8).mshr, 8);
  c.evictions().clear();
  EXPECT_FALSE(c.write(0x0, 0x2, 9, false, &half));
  EXPECT_EQ(c.valid_sectors(0), 0u);
  // Without byte masks a write is of whole sectors, as with "allocate".
  EXPECT_FALSE(c.write(0x80, 0x4, 10));
  EXPECT_EQ(c.valid_sectors(0x80) & 0x4u, 0x4u);
  // The same partial write on an "allocate" cache leaves the sector readable.
  Cache a(make(512, 4, 128, 32, "write_back", "allocate"));
  a.write(0x0, 0x2, 0, false, &half);
  EXPECT_EQ(a.read(0x20, 0x2, 0, 1).outcome, Cache::Outcome::Hit);
}

// A write is a hit sector by sector: GPGPU-Sim looks a sectored cache's writes up one sector at a
// time. A 4-byte write allocates sector 0; a write of the whole line then finds sector 0 and not
// the other three (one hit, three misses), and a second one finds all four.
TEST(Cache, WriteHitsAreCountedSectorBySector) {
  Cache c(make(512, 4, 128, 32, "write_back", "lazy_fetch_on_read"));
  LineBytes word, line;
  word.add(4, 4);
  line.add(0, 128);
  EXPECT_FALSE(c.write(0x0, 0x1, 0, false, &word));
  EXPECT_EQ(c.write_hit_sectors(), 0u);
  EXPECT_FALSE(c.write(0x0, 0xf, 1, false, &line));
  EXPECT_EQ(c.write_hit_sectors(), 0x1u);
  EXPECT_TRUE(c.write(0x0, 0xf, 2, false, &line));
  EXPECT_EQ(c.write_hit_sectors(), 0xfu);
  EXPECT_FALSE(c.write(0x80, 0x6, 3, false, &line));  // another line: nothing present
  EXPECT_EQ(c.write_hit_sectors(), 0u);
  // A sector in a write's mask is present for the next write even if the write gave it no
  // bytes (GPGPU-Sim's Fermi coalescer sends such sectors in a whole 128-byte segment).
  LineBytes first_word;
  first_word.add(0x100 & 127, 4);
  EXPECT_FALSE(c.write(0x100, 0x3, 4, false, &first_word));  // sector 1: no bytes
  EXPECT_EQ(c.valid_sectors(0x100), 0u);
  LineBytes second;
  second.add(32, 4);
  EXPECT_TRUE(c.write(0x120, 0x2, 5, false, &second));
  EXPECT_EQ(c.write_hit_sectors(), 0x2u);
}

TEST(Cache, LazyFetchOnReadWriteThroughAllocatesWithoutData) {
  Cache c(make(512, 4, 128, 32, "write_through", "lazy_fetch_on_read"));
  LineBytes half;
  half.add(0, 4);
  EXPECT_FALSE(c.write(0x0, 0x1, 0, false, &half));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_EQ(c.valid_sectors(0), 0u);
  EXPECT_EQ(c.dirty_sectors(0), 0u);
  EXPECT_EQ(c.read(0x0, 0x1, 0, 1).outcome, Cache::Outcome::Miss);
  EXPECT_THROW(Cache(make(1024, 4, 256, 32, "write_back", "lazy_fetch_on_read")), Error);
}

// l1d.write_ratio (GPGPU-Sim -gpgpu_l1_cache_write_ratio): a written line is not replaced while
// fewer than write_ratio percent of the lines are written; then it is replaced as any other.
TEST(Cache, WrittenLinesAreKeptBelowTheWriteRatio) {
  // One set of 4 ways (4 lines): 50 % keeps written lines while fewer than 2 are written.
  CacheConfig cfg = make(512, 4, 128, 128, "write_through", "lazy_fetch_on_read");
  cfg.write_ratio = 50;
  Cache c(cfg);
  c.write(0x000, 0x1, 0);  // line 0 written (the least recently used from now on)
  EXPECT_EQ(c.written_lines(), 1u);
  sweep(c, 0x400, 128, 1);  // 7 more lines through the set: each miss needs a victim
  EXPECT_EQ(c.read(0x000, 0x1, 0, 1).outcome, Cache::Outcome::Hit) << "line 0 was written: kept";
  // With two written lines the share reaches 50 %: the older written line is replaced first,
  // which brings the share below 50 % again, and the other is kept.
  c.write(0x400, 0x1, 2);
  EXPECT_EQ(c.written_lines(), 2u);
  for (uint64_t a = 0x800; a < 0x1000; a += 128) {
    Cache::Result r = c.read(a, 0x1, 0, 3);
    ASSERT_EQ(r.outcome, Cache::Outcome::Miss);
    c.fill(r.mshr, 3);
  }
  EXPECT_EQ(c.written_lines(), 1u);
  EXPECT_EQ(c.read(0x400, 0x1, 0, 4).outcome, Cache::Outcome::Hit);
  EXPECT_EQ(c.read(0x000, 0x1, 0, 4).outcome, Cache::Outcome::Miss);
  // Without the ratio the written line goes like any other.
  Cache plain(make(512, 4, 128, 128, "write_through", "lazy_fetch_on_read"));
  plain.write(0x000, 0x1, 0);
  sweep(plain, 0x400, 128, 1);
  EXPECT_EQ(plain.read(0x000, 0x1, 0, 1).outcome, Cache::Outcome::Miss);
  EXPECT_EQ(plain.written_lines(), 0u);
  // A set whose every line is written and kept or awaits a fill has no victim: the read fails.
  // A fetch of written sectors makes them plain again.
  cfg.write_ratio = 100;
  Cache full(cfg);
  LineBytes part;
  part.add(0, 4);
  full.write(0x000, 0x1, 0, false, &part);  // written, not readable (lazy fetch on read)
  full.write(0x080, 0x1, 0);
  full.write(0x100, 0x1, 0);
  EXPECT_EQ(full.written_lines(), 3u);
  ASSERT_EQ(full.read(0x180, 0x1, 0, 1).outcome, Cache::Outcome::Miss);  // its fill stays away
  EXPECT_EQ(full.read(0x200, 0x1, 0, 1).outcome, Cache::Outcome::Fail);
  Cache::Result r = full.read(0x000, 0x1, 0, 1);
  ASSERT_EQ(r.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(full.written_lines(), 2u);
  full.fill(r.mshr, 2);
  EXPECT_EQ(full.read(0x200, 0x1, 0, 3).outcome, Cache::Outcome::Miss) << "line 0 is plain again: the victim";
  EXPECT_EQ(full.valid_sectors(0x000), 0u);
  cfg.write_ratio = 101;
  EXPECT_THROW(Cache{cfg}, Error);
}

TEST(LineBytes, RangesShiftsAndSectors) {
  LineBytes b;
  EXPECT_TRUE(b.empty());
  b.add(60, 8);  // straddles the two words
  EXPECT_EQ(b.w[0], 0xfull << 60);
  EXPECT_EQ(b.w[1], 0xfull);
  EXPECT_EQ(b.touched_sectors(32, 4), 0x6u);
  EXPECT_EQ(b.whole_sectors(32, 4), 0u);
  b.add(32, 64);
  EXPECT_EQ(b.whole_sectors(32, 4), 0x6u);
  EXPECT_EQ(b.whole_sectors(64, 2), 0u);
  LineBytes s = b.shifted(32);
  EXPECT_EQ(s.whole_sectors(32, 4), 0xcu);
  EXPECT_EQ(b.shifted(128).empty(), true);
  LineBytes all;
  all.add(0, 200);  // clipped to the line
  EXPECT_EQ(all.whole_sectors(128, 1), 1u);
  EXPECT_EQ(all.shifted(64).w[0], 0u);
  EXPECT_EQ(all.shifted(64).w[1], ~0ull);
}

TEST(Cache, WriteEvict) {
  Cache c(make(512, 4, 128, 128, "write_evict", "no_allocate"));
  c.fill(c.read(0, 1, 0, 0).mshr, 0);
  EXPECT_TRUE(c.write(0x0, 1, 1));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_FALSE(c.probe(0, 1));
  EXPECT_FALSE(c.write(0x0, 1, 2));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_EQ(c.write_hits, 1u);
  EXPECT_EQ(c.write_misses, 1u);
}

TEST(Cache, WriteBackAllocateFallsBackToForwardWhenSetIsReserved) {
  Cache c(make(256, 2, 128, 128));
  c.read(0, 1, 0, 0);
  c.read(128, 1, 0, 0);
  EXPECT_FALSE(c.write(256, 1, 1));
  EXPECT_TRUE(c.write_forwarded());
  EXPECT_FALSE(c.probe(256, 1));
}

TEST(Cache, DisabledCacheAlwaysMisses) {
  CacheConfig cfg = make(16 * 1024, 4, 128, 128);
  cfg.enabled = false;
  cfg.mshr_entries = 2;
  Cache c(cfg);
  Cache::Result a = c.read(0, 1, 1, 0);
  Cache::Result b = c.read(0, 1, 2, 0);
  EXPECT_EQ(a.outcome, Cache::Outcome::Miss);
  EXPECT_EQ(b.outcome, Cache::Outcome::Miss);  // no merging either
  EXPECT_EQ(c.read(0, 1, 3, 0).outcome, Cache::Outcome::Fail);
  c.fill(a.mshr, 1);
  EXPECT_EQ(c.read(0, 1, 4, 2).outcome, Cache::Outcome::Miss);
  EXPECT_FALSE(c.write(0, 1, 3));
  EXPECT_TRUE(c.write_forwarded());
}

TEST(Cache, BadConfigurationThrows) {
  EXPECT_THROW(Cache(make(1000, 4, 128, 128)), Error);   // size not a multiple of the line
  EXPECT_THROW(Cache(make(16384, 4, 100, 100)), Error);  // line not a power of two
  EXPECT_THROW(Cache(make(16384, 4, 128, 256)), Error);  // sector above line
  EXPECT_THROW(Cache(make(16384, 3, 128, 128)), Error);  // 3 ways do not divide 128 lines
  EXPECT_THROW(Cache(make(16384, 4, 128, 128, "write_sometimes")), Error);
  EXPECT_THROW(Cache(make(16384, 4, 128, 128, "write_back", "maybe")), Error);
  CacheConfig z = make(16384, 4, 128, 128);
  z.mshr_entries = 0;
  EXPECT_THROW(Cache{z}, Error);
}

TEST(Cache, CopyIsIndependent) {
  Cache c(make(512, 4, 128, 128));
  Cache::Result a = c.read(0, 1, 5, 0);
  Cache d = c;
  EXPECT_EQ(d.fill(a.mshr, 1).at(0), 5u);
  EXPECT_TRUE(d.probe(0, 1));
  EXPECT_FALSE(c.probe(0, 1));
  EXPECT_EQ(c.mshrs_in_use(), 1u);
}

}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {

// A set of `ways` lines searched the plain way: the first empty way, else the least recently
// used line with no fill on the way, the lowest way on a tie.
struct ScannedSet {
  struct Way {
    uint64_t line = ~0ull, use = 0;
    bool valid = false, reserved = false;
  };
  std::vector<Way> w;
  uint64_t stamp = 0;
  explicit ScannedSet(uint32_t ways) : w(ways) {}
  Way* at(uint64_t line) {
    for (Way& x : w)
      if (x.line == line) return &x;
    return nullptr;
  }
  Cache::Outcome read(uint64_t line, bool mshr_free) {
    if (Way* x = at(line)) {
      x->use = ++stamp;
      return x->valid ? Cache::Outcome::Hit : Cache::Outcome::HitPending;
    }
    if (!mshr_free) return Cache::Outcome::Fail;
    Way* v = nullptr;
    for (Way& x : w)
      if (x.line == ~0ull) {
        v = &x;
        break;
      }
    if (!v)
      for (Way& x : w)
        if (!x.reserved && (!v || x.use < v->use)) v = &x;
    if (!v) return Cache::Outcome::Fail;
    *v = {line, ++stamp, false, true};
    return Cache::Outcome::Miss;
  }
  void fill(uint64_t line) {
    Way* x = at(line);
    x->valid = true;
    x->reserved = false;
  }
};

// A fully associative cache of more than 64 ways finds lines through a table and victims
// through LRU lists instead of scanning; hits, misses, refusals and what stays resident must
// be those of the scan, whatever the order of reads and fills.
TEST(Cache, WideSetsFindLinesAndVictimsAsAScanDoes) {
  for (uint32_t ways : {65u, 128u, 512u}) {
    CacheConfig cfg = make(ways * 128, 0, 128, 128, "write_through", "no_allocate");
    cfg.mshr_entries = ways / 2;
    cfg.mshr_merge = 64;
    Cache c(cfg);
    ScannedSet ref(ways);
    std::mt19937_64 rng(ways);
    std::vector<std::pair<int, uint64_t>> out;  // MSHR entry and line of each fill on the way
    int busy = 0;
    for (int step = 0; step < 20000; ++step) {
      if (out.empty() || rng() % 10 < 6) {
        const uint64_t line = (rng() % (3 * ways)) * 128;
        const Cache::Outcome want = ref.read(line, busy < int(cfg.mshr_entries));
        const Cache::Result got = c.read(line, 1, 0, uint64_t(step));
        ASSERT_EQ(int(got.outcome), int(want)) << ways << " ways, step " << step;
        if (got.outcome == Cache::Outcome::Miss) {
          out.push_back({got.mshr, line});
          ++busy;
        }
      } else {
        const size_t i = rng() % out.size();
        c.fill(out[i].first, uint64_t(step));
        ref.fill(out[i].second);
        out.erase(out.begin() + std::ptrdiff_t(i));
        --busy;
      }
      if (step % 97 == 0)
        for (uint64_t l = 0; l < 3 * ways; ++l) {
          const ScannedSet::Way* x = ref.at(l * 128);
          ASSERT_EQ(c.probe(l * 128, 1), x && x->valid) << ways << " ways, step " << step << ", line " << l;
        }
    }
  }
}

}  // namespace
}  // namespace warpsim

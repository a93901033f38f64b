// The bytes of a cache line (of at most 128 bytes) that a write covers: bit i is byte i of the
// line. A store carries one from the coalescer to the caches, where a write-allocate cache with
// lazy fetch on read (CacheConfig::write_allocate = "lazy_fetch_on_read") accumulates them per
// line to know which sectors hold only written bytes. An empty set means "the whole sectors".
#pragma once
#include <cstdint>

namespace warpsim {

struct LineBytes {
  static constexpr uint32_t kMaxLine = 128;
  uint64_t w[2] = {0, 0};

  bool empty() const { return (w[0] | w[1]) == 0; }
  void clear() { w[0] = w[1] = 0; }
  // Adds bytes [first, first + n) (clipped to the line).
  void add(uint32_t first, uint32_t n) {
    for (uint32_t end = first + n > kMaxLine ? kMaxLine : first + n; first < end;) {
      const uint32_t word = first / 64, bit = first % 64;
      const uint32_t take = (end - first < 64 - bit) ? end - first : 64 - bit;
      w[word] |= (take == 64 ? ~0ull : ((1ull << take) - 1)) << bit;
      first += take;
    }
  }
  LineBytes& operator|=(const LineBytes& o) {
    w[0] |= o.w[0];
    w[1] |= o.w[1];
    return *this;
  }
  // The same bytes `by` bytes further into a line (bytes moved past the end are dropped).
  LineBytes shifted(uint32_t by) const {
    LineBytes r;
    if (by >= kMaxLine) return r;
    if (by >= 64) {
      r.w[1] = w[0] << (by - 64);
    } else if (by == 0) {
      r = *this;
    } else {
      r.w[0] = w[0] << by;
      r.w[1] = (w[1] << by) | (w[0] >> (64 - by));
    }
    return r;
  }
  // Sectors (of `sector` bytes, a power of two of at least 8) of which every byte is in the
  // set / at least one byte is, among the first `nsec` sectors.
  uint32_t whole_sectors(uint32_t sector, uint32_t nsec) const { return sectors(sector, nsec, true); }
  uint32_t touched_sectors(uint32_t sector, uint32_t nsec) const { return sectors(sector, nsec, false); }

 private:
  uint32_t sectors(uint32_t sector, uint32_t nsec, bool whole) const {
    uint32_t out = 0;
    for (uint32_t s = 0; s < nsec && s * sector < kMaxLine; ++s) {
      const uint32_t first = s * sector;
      const uint32_t n = sector > kMaxLine - first ? kMaxLine - first : sector;
      bool all = true, any = false;
      for (uint32_t b = first; b < first + n;) {
        const uint32_t word = b / 64, bit = b % 64;
        const uint32_t take = (first + n - b < 64 - bit) ? first + n - b : 64 - bit;
        const uint64_t m = (take == 64 ? ~0ull : ((1ull << take) - 1)) << bit;
        all &= (w[word] & m) == m;
        any |= (w[word] & m) != 0;
        b += take;
      }
      if (whole ? all : any) out |= 1u << s;
    }
    return out;
  }
};

}  // namespace warpsim

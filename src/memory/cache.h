// A set-associative, optionally sectored cache tag array with LRU replacement and a table of
// miss status holding registers (MSHRs). It holds no data and no timing: the client (LD/ST
// unit, L2 slice, fetch unit) decides what a hit or miss costs and when fills arrive.
#pragma once
#include <cstdint>
#include <vector>

#include "core/config.h"

namespace warpsim {

class Cache {
 public:
  enum class Outcome : uint8_t {
    Hit,           // every requested sector is present
    HitPending,    // the line has an MSHR for these sectors: merged, wait for its fill
    Miss,          // a new MSHR entry was allocated (or reused for new sectors); send a request
    Fail,          // no MSHR entry, merge slot or replaceable way: retry later (structural stall)
  };

  struct Result {
    Outcome outcome;
    int mshr = -1;             // MSHR entry for HitPending/Miss
    uint32_t fetch_mask = 0;   // sectors to request from the next level on Miss
  };

  // A dirty line pushed out by a fill or write (write-back caches only).
  struct Eviction {
    uint64_t line_addr;
    uint32_t dirty_mask;
  };

  explicit Cache(const CacheConfig& cfg);

  uint64_t line_addr(uint64_t addr) const { return addr & ~uint64_t(cfg_.line - 1); }
  // Sectors of the line touched by [addr, addr+bytes).
  uint32_t sector_mask(uint64_t addr, uint32_t bytes) const;

  // Read access. On Miss/HitPending `waiter` (an opaque client token) is recorded in the MSHR.
  Result read(uint64_t addr, uint32_t sectors, uint32_t waiter, uint64_t now);
  // Write access following the configured write policy. Returns true when the write hit.
  // write_back+allocate: marks sectors dirty (allocating the line; may evict, see evictions()).
  // write_through: updates a present line, forwards the write (client sends it on).
  // write_evict: invalidates a present line.
  bool write(uint64_t addr, uint32_t sectors, uint64_t now);
  // The next level returned `sectors` of the line of MSHR entry `mshr`: installs them (evicting
  // LRU if needed) and hands back the waiters recorded in the entry, which is freed.
  const std::vector<uint32_t>& fill(int mshr, uint64_t now);
  uint64_t mshr_line(int mshr) const { return mshrs_[mshr].line; }
  uint32_t mshr_sectors(int mshr) const { return mshrs_[mshr].sectors; }

  // Dirty lines evicted since the last call (cleared by take_evictions()).
  std::vector<Eviction>& evictions() { return evictions_; }
  bool mshr_full() const { return free_mshrs_.empty(); }
  uint32_t mshrs_in_use() const { return uint32_t(mshrs_.size() - free_mshrs_.size()); }
  void invalidate_all();

  // Counters.
  uint64_t hits = 0, misses = 0, pending_hits = 0, fails = 0, write_hits = 0, write_misses = 0,
           writebacks = 0;

  const CacheConfig& config() const { return cfg_; }

 private:
  struct Line {
    uint64_t tag = ~0ull;
    uint64_t last_use = 0;
    uint32_t valid = 0;     // sector bitmask
    uint32_t dirty = 0;
    uint32_t reserved = 0;  // sectors with a fill on the way
  };
  struct Mshr {
    uint64_t line = ~0ull;
    uint32_t sectors = 0;
    bool busy = false;
    std::vector<uint32_t> waiters;
  };
  Line* find(uint64_t line);
  Line* victim(uint64_t line);
  int find_mshr(uint64_t line) const;

  CacheConfig cfg_;
  uint32_t sets_, ways_, line_shift_, sector_shift_;
  std::vector<Line> lines_;
  std::vector<Mshr> mshrs_;
  std::vector<int> free_mshrs_;
  std::vector<uint32_t> fill_waiters_;
  std::vector<Eviction> evictions_;
};

}  // namespace warpsim

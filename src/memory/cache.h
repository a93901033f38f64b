// A set-associative, optionally sectored cache tag array with LRU replacement and a table of
// miss status holding registers (MSHRs). It holds no data and no timing: the client (LD/ST
// unit, L2 slice, fetch unit) decides what a hit or miss costs and when fills arrive.
//
// Reads allocate on miss: a miss picks its way at once (an empty way, else the least recently
// used way with no fill on the way), writes a dirty victim back through evictions(), and marks
// the requested sectors reserved until fill(). A read whose missing sectors are all on the way
// merges into the youngest MSHR entry bringing them (HitPending); a read missing other sectors
// of a present line gets a new entry for just those (Miss, fetch_mask). Fail leaves no trace
// but the `fails` counter. LRU stamps come from a per-cache access counter, so accesses in the
// same cycle are still ordered. Writes never fetch. With write_allocate = "lazy_fetch_on_read"
// (GPGPU-Sim's 'L') a write that allocates keeps the bytes it wrote per line: a sector becomes
// readable only once all its bytes were written (or a read fetched it), so a read of a sector that
// only partial writes touched misses and fetches it, the written bytes staying dirty.
// Persisting L2 accesses (core/access_policy.h): the first set_aside_ways() ways of every set
// are set aside for persisting lines. A persisting access allocates only there, evicting (in
// order) a streaming, a normal, then the least recently used persisting line; other accesses
// allocate in any way but never evict a persisting line. Streaming lines are evicted before
// normal ones. Without set-aside ways a persisting access is a normal one.
// With write_ratio set, a line that a write touched (whatever the write policy) is written until
// it is replaced or a read fetches its written sectors again; a written line is not a victim
// while fewer than write_ratio percent of the cache's lines are written (GPGPU-Sim's L1D keeps
// its modified lines so). A set whose every line is written or awaits a fill then has no victim.
// A disabled cache (enabled = false) has no tags: every read is a Miss with its own MSHR entry
// and every write is forwarded. A perfect cache (perfect = true) answers every read with a Hit.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "core/access_policy.h"
#include "core/config.h"
#include "memory/line_bytes.h"
#include "memory/line_table.h"

namespace warpsim {

class Cache {
 public:
  enum class Outcome : uint8_t {
    Hit,         // every requested sector is present
    HitPending,  // the line has an MSHR for these sectors: merged, wait for its fill
    Miss,        // a new MSHR entry was allocated for the missing sectors; send a request
    Fail,        // no MSHR entry, merge slot or replaceable way: retry later (structural stall)
  };

  struct Result {
    Outcome outcome;
    int mshr = -1;            // MSHR entry for HitPending/Miss
    uint32_t fetch_mask = 0;  // sectors to request from the next level on Miss
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
  // `prop`: the access's L2 property (Default outside every access policy window).
  Result read(uint64_t addr, uint32_t sectors, uint32_t waiter, uint64_t now,
              AccessProperty prop = AccessProperty::Default);
  // Read of the one sector `sector` (a mask) by a request that carries the address of sector
  // `key` of the same line, as each half of a 64-byte fetch reaches GPGPU-Sim's sectored L2
  // (l2.half_line_shared_mshr). A valid sector hits. Otherwise the request joins the youngest
  // MSHR entry of the line found by `key` (an entry is found by the lowest sector it was
  // allocated for, or by the key it was allocated with), whatever sector that entry brings,
  // and fails when the entry holds mshr_merge waiters; with no such entry it gets a new one,
  // found by `key`, fetching `sector`. A request merged into an entry that does not bring its
  // sector leaves it neither valid nor reserved, so the next such request fetches it.
  Result read_keyed(uint64_t addr, uint32_t sector, uint32_t key, uint32_t waiter, uint64_t now);
  // Write access following the configured write policy. Returns true when the write hit.
  // write_back+allocate: marks sectors dirty (allocating the line; may evict, see evictions()).
  // write_through: updates a present line, forwards the write (client sends it on).
  // write_evict: invalidates a present line.
  // local_write_back: writes to local memory (`local`) are write_back, others write_evict.
  // `bytes` (null or empty: the whole sectors) are the bytes of the line written; only a
  // lazy_fetch_on_read cache uses them.
  bool write(uint64_t addr, uint32_t sectors, uint64_t now, bool local = false, const LineBytes* bytes = nullptr,
             AccessProperty prop = AccessProperty::Default);
  // The next level returned `sectors` of the line of MSHR entry `mshr`: installs them (evicting
  // LRU if needed) and hands back the waiters recorded in the entry, which is freed.
  const std::vector<uint32_t>& fill(int mshr, uint64_t now);
  // A copy engine wrote `sectors` of the line holding `addr`: they become valid and clean, the
  // line most recently used. A line that would have to evict a dirty or reserved line is not
  // installed (no traffic is made outside the timing model). No counter changes.
  void install(uint64_t addr, uint32_t sectors);
  uint64_t mshr_line(int mshr) const { return mshrs_[mshr].line; }
  uint32_t mshr_sectors(int mshr) const { return mshrs_[mshr].sectors; }
  uint32_t mshr_key(int mshr) const { return mshrs_[mshr].key; }
  // True when an MSHR entry of the line holding `addr` is found by `key` (read_keyed).
  bool keyed_entry(uint64_t addr, uint32_t key) const;

  // Dirty lines evicted since the last call (cleared by take_evictions()).
  std::vector<Eviction>& evictions() { return evictions_; }
  bool mshr_full() const { return free_mshrs_.empty(); }
  uint32_t mshrs_in_use() const { return uint32_t(mshrs_.size() - free_mshrs_.size()); }
  void invalidate_all();

  // Counts the changes of the tag array and the MSHRs (every read that does not fail, every write,
  // fill, install, way change and invalidation): while it stays the same, a read that failed
  // fails again.
  uint64_t generation() const { return generation_; }

  // Counters.
  uint64_t hits = 0, misses = 0, pending_hits = 0, fails = 0, write_hits = 0, write_misses = 0, writebacks = 0;

  const CacheConfig& config() const { return cfg_; }

  // After write(): true when the write must also be sent to the next level (write-through,
  // write-evict, a no-allocate miss, or a write-back allocation that found no replaceable way).
  bool write_forwarded() const { return write_forward_; }
  // Of the last write's sectors, those it found present (GPGPU-Sim looks a sectored cache's
  // write up sector by sector: each present sector is a hit, the others misses).
  uint32_t write_hit_sectors() const { return write_hit_sectors_; }
  // True when every sector in `sectors` of the line holding `addr` is valid (no side effects).
  bool probe(uint64_t addr, uint32_t sectors) const;
  // Sectors of the line holding `addr` that are valid / dirty / awaiting a fill (0 when absent).
  uint32_t valid_sectors(uint64_t addr) const;
  uint32_t dirty_sectors(uint64_t addr) const;
  uint32_t reserved_sectors(uint64_t addr) const;
  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return active_ways_; }
  // Uses only the first `n` ways of each set (1..the ways it was built with). Lines of ways that
  // go out of use are dropped (dirty ones written back through evictions(); a fill on the way
  // for one finds another way or none).
  void set_active_ways(uint32_t n);
  uint32_t full_mask() const { return full_mask_; }
  // Sets aside the first `n` ways of each set for persisting lines (at most ways() - 1); the
  // persisting lines of ways no longer set aside become normal.
  void set_aside_ways(uint32_t n);
  uint32_t set_aside_ways() const { return set_aside_; }
  // Every persisting line becomes normal (cudaCtxResetPersistingL2Cache).
  void reset_persisting();
  // Lines whose property is Persisting / Streaming (tests, statistics).
  uint64_t lines_with(AccessProperty prop) const;
  // Lines that a write touched (counted only with write_ratio set).
  uint64_t written_lines() const { return written_lines_; }
  // The property of the line holding `addr` (Default when absent or normal).
  AccessProperty property(uint64_t addr) const;

 private:
  // One way of a set. `tag` is the line index (address >> line shift), ~0 when the way is
  // empty. A present line may have no valid sector while fills for it are on the way.
  struct Line {
    uint64_t tag = ~0ull;
    uint64_t last_use = 0;  // LRU stamp (a per-cache access counter, not a cycle)
    uint32_t valid = 0;     // sector bitmask
    uint32_t dirty = 0;
    uint32_t reserved = 0;                          // sectors with a fill on the way
    AccessProperty prop = AccessProperty::Default;  // Default: normal
  };
  struct Mshr {
    uint64_t line = ~0ull;
    uint64_t seq = 0;  // allocation order: the youngest entry of a line is merged into
    uint32_t sectors = 0;
    uint32_t key = 0;  // the sector (mask) whose address finds this entry (read_keyed)
    bool busy = false;
    std::vector<uint32_t> waiters;
  };
  uint32_t set_of(uint64_t line_index) const {
    if (index_ != SetIndex::Linear) return hashed_set(line_index);
    return sets_pow2_ ? uint32_t(line_index & (sets_ - 1)) : uint32_t(line_index % sets_);
  }
  uint32_t hashed_set(uint64_t line_index) const;
  Line* find(uint64_t line);
  const Line* find(uint64_t line) const;
  Line* victim(uint64_t line, AccessProperty prop = AccessProperty::Default);
  // An access with property `prop` touched `l` (just allocated: `fresh`).
  void apply(Line& l, AccessProperty prop, bool fresh);
  void evict(Line& l);
  int alloc_mshr(uint64_t line, uint32_t sectors, uint32_t waiter);
  // read() but for the generation count.
  Result lookup(uint64_t addr, uint32_t sectors, uint32_t waiter, uint64_t now, AccessProperty prop);
  uint32_t normalize(uint64_t addr, uint32_t sectors) const;
  // write_ratio: records / forgets written sectors of `l`; whether written lines are kept now.
  void mark_written(Line& l, uint32_t sectors);
  void unmark_written(Line& l, uint32_t sectors);
  bool keep_written() const {
    return cfg_.write_ratio && written_lines_ * 100 < uint64_t(cfg_.write_ratio) * sets_ * active_ways_;
  }
  // The youngest busy MSHR entry of line `line` found by `key`, or -1.
  int keyed_mshr(uint64_t line, uint32_t key) const;
  // The newest busy MSHR entry of line `line`, or -1 (the older ones: mshr_older_).
  int first_mshr(uint64_t line) const;
  // A perfect cache answers every read with a hit (counted).
  bool perfect_hit() {
    if (!cfg_.perfect) return false;
    ++hits;
    return true;
  }

  CacheConfig cfg_;
  uint32_t sets_ = 0, ways_ = 0, line_shift_ = 0, sector_shift_ = 0, full_mask_ = 0;
  uint32_t active_ways_ = 0;  // ways in use (<= ways_, the row stride of lines_)
  uint32_t set_aside_ = 0;    // ways set aside for persisting lines (< active_ways_)
  bool sets_pow2_ = true;
  enum class SetIndex : uint8_t { Linear, Fermi, Xor, Ipoly };
  SetIndex index_ = SetIndex::Linear;
  uint32_t set_bits_ = 0;
  bool write_forward_ = false;
  uint32_t write_hit_sectors_ = 0;
  enum class Policy : uint8_t { WriteBack, WriteThrough, WriteEvict, LocalWriteBack };
  Policy policy_ = Policy::WriteThrough;
  bool allocate_ = false;
  bool lazy_ = false;                      // write_allocate = lazy_fetch_on_read
  std::vector<LineBytes> written_;         // lazy caches: bytes written per line since it was allocated
  std::vector<uint32_t> written_sectors_;  // write_ratio: sectors written per line (empty without it)
  uint64_t written_lines_ = 0;             // lines with a written sector
  uint64_t stamp_ = 0, mshr_seq_ = 0, generation_ = 0;
  std::vector<Line> lines_;
  std::vector<uint64_t> tags_;  // lines_[i].tag, packed: find() scans these
  void set_tag(Line& l, uint64_t tag);
  // `l` was used now: the most recently used of its set.
  void touch(Line& l);
  // Sets of more than kIndexedWays ways (a fully associative L1 of hundreds of lines) are not
  // scanned: a line is found through `where_`, and a victim from a mask of the set's empty
  // ways and a list of its lines in LRU order, which give the scan's choice (victim()).
  // Smaller sets are scanned, which the host does fast (tags_ is contiguous).
  static constexpr uint32_t kIndexedWays = 64;
  static constexpr uint32_t kNone = ~0u;
  bool indexed_ = false;
  bool props_used_ = false;                     // some line has had a property other than Default
  uint32_t words_ = 0;                          // words of empty_ per set
  LineTable where_;                             // tag -> position in lines_
  std::vector<uint64_t> empty_;                 // per set, a bit per way: the way is empty
  std::vector<uint32_t> lru_prev_, lru_next_;   // per position: its neighbours in its set's list
  std::vector<uint32_t> lru_first_, lru_last_;  // per set: least and most recently used position
  // The busy MSHR entries of each line, newest first: the newest entry by line, and per entry
  // the next older one of its line (-1: none).
  LineTable mshr_newest_;
  std::vector<int> mshr_older_;
  // Sectors of `l` that are valid or were written (a write to them hits).
  uint32_t present_for_write(const Line& l) const {
    if (!lazy_) return l.valid;
    // A sector a write allocated, whether or not it wrote any of its bytes (GPGPU-Sim marks
    // every sector of a write's mask MODIFIED), is present for the next write.
    const size_t i = size_t(&l - lines_.data());
    return l.valid | l.dirty | written_[i].touched_sectors(cfg_.sector, uint32_t(std::popcount(full_mask_)));
  }
  std::vector<Mshr> mshrs_;
  std::vector<int> free_mshrs_;
  std::vector<uint32_t> fill_waiters_;
  std::vector<Eviction> evictions_;
};

}  // namespace warpsim

#include "memory/cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "core/error.h"
#include "memory/ipoly.h"

namespace warpsim {

namespace {
bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
uint32_t log2u(uint64_t v) { return uint32_t(std::countr_zero(v)); }
}  // namespace

Cache::Cache(const CacheConfig& cfg) : cfg_(cfg) {
  if (cfg_.enabled) {
    if (!is_pow2(cfg_.line)) throw Error(fmt::format("cache: line size {} is not a power of two", cfg_.line));
    if (!is_pow2(cfg_.sector) || cfg_.sector > cfg_.line || cfg_.line / cfg_.sector > 32)
      throw Error(
          fmt::format("cache: sector size {} must be a power of two, at most the line size "
                      "{} and at least 1/32 of it",
                      cfg_.sector, cfg_.line));
    if (cfg_.size == 0 || cfg_.size % cfg_.line)
      throw Error(fmt::format("cache: size {} is not a positive multiple of the line size {}", cfg_.size, cfg_.line));
    uint32_t lines = cfg_.size / cfg_.line;
    ways_ = cfg_.assoc == 0 ? lines : cfg_.assoc;
    if (ways_ > lines || lines % ways_) throw Error(fmt::format("cache: {} ways do not divide {} lines", ways_, lines));
    sets_ = lines / ways_;
    sets_pow2_ = is_pow2(sets_);
    set_bits_ = sets_pow2_ ? log2u(sets_) : 0;
    const std::string& f = cfg_.set_index;
    if (f == "linear")
      index_ = SetIndex::Linear;
    else if (f == "fermi")
      index_ = SetIndex::Fermi;
    else if (f == "xor")
      index_ = SetIndex::Xor;
    else if (f == "ipoly")
      index_ = SetIndex::Ipoly;
    else
      throw Error(fmt::format("cache: set_index '{}' is not one of linear|fermi|xor|ipoly", f));
    if (index_ == SetIndex::Fermi && (sets_ != 32 && sets_ != 64))
      throw Error(fmt::format("cache: set_index 'fermi' needs 32 or 64 sets (this cache has {})", sets_));
    if (index_ == SetIndex::Xor && !sets_pow2_)
      throw Error(fmt::format("cache: set_index 'xor' needs a power-of-two number of sets (this cache has {})", sets_));
    if (index_ == SetIndex::Ipoly && sets_ != 16 && sets_ != 32 && sets_ != 64)
      throw Error(fmt::format("cache: set_index 'ipoly' needs 16, 32 or 64 sets (this cache has {})", sets_));
    lines_.resize(size_t(sets_) * ways_);
    tags_.assign(lines_.size(), ~0ull);
    active_ways_ = ways_;
    indexed_ = ways_ > kIndexedWays;
    if (indexed_) {
      where_.reset(lines_.size());
      words_ = (ways_ + 63) / 64;
      empty_.assign(size_t(sets_) * words_, 0);
      lru_prev_.resize(lines_.size());
      lru_next_.resize(lines_.size());
      lru_first_.resize(sets_);
      lru_last_.resize(sets_);
      for (uint32_t set = 0; set < sets_; ++set) {
        const uint32_t base = set * ways_;
        for (uint32_t w = 0; w < ways_; ++w) {
          empty_[size_t(set) * words_ + w / 64] |= 1ull << (w % 64);
          lru_prev_[base + w] = w == 0 ? kNone : base + w - 1;
          lru_next_[base + w] = w + 1 == ways_ ? kNone : base + w + 1;
        }
        lru_first_[set] = base;
        lru_last_[set] = base + ways_ - 1;
      }
    }
  } else {
    // A disabled cache keeps only its MSHRs (every read misses); make the geometry sane so the
    // address helpers stay well defined whatever the unused fields say.
    if (!is_pow2(cfg_.line)) cfg_.line = 128;
    if (!is_pow2(cfg_.sector) || cfg_.sector > cfg_.line || cfg_.line / cfg_.sector > 32) cfg_.sector = cfg_.line;
  }
  if (cfg_.write_policy == "write_back")
    policy_ = Policy::WriteBack;
  else if (cfg_.write_policy == "write_through")
    policy_ = Policy::WriteThrough;
  else if (cfg_.write_policy == "write_evict")
    policy_ = Policy::WriteEvict;
  else if (cfg_.write_policy == "local_write_back")
    policy_ = Policy::LocalWriteBack;
  else
    throw Error(
        fmt::format("cache: write_policy '{}' is not one of "
                    "write_back|write_through|write_evict|local_write_back",
                    cfg_.write_policy));
  if (cfg_.write_allocate == "allocate") {
    allocate_ = true;
  } else if (cfg_.write_allocate == "lazy_fetch_on_read") {
    allocate_ = lazy_ = true;
    if (cfg_.enabled && cfg_.line > LineBytes::kMaxLine)
      throw Error(fmt::format("cache: write_allocate 'lazy_fetch_on_read' needs lines of at most {} bytes (line {})",
                              LineBytes::kMaxLine, cfg_.line));
    written_.resize(lines_.size());
  } else if (cfg_.write_allocate != "no_allocate") {
    throw Error(fmt::format("cache: write_allocate '{}' is not one of allocate|no_allocate|lazy_fetch_on_read",
                            cfg_.write_allocate));
  }
  if (cfg_.write_ratio > 100)
    throw Error(fmt::format("cache: write_ratio {} is a percentage (0..100)", cfg_.write_ratio));
  if (cfg_.write_ratio && cfg_.enabled) written_sectors_.assign(lines_.size(), 0);
  if (cfg_.mshr_entries == 0) throw Error("cache: mshr_entries must be at least 1");
  if (cfg_.mshr_merge == 0) throw Error("cache: mshr_merge must be at least 1");
  if (uint64_t(cfg_.mshr_entries) * cfg_.mshr_merge > (1u << 20))
    throw Error("cache: mshr_entries x mshr_merge is limited to 1048576 waiting requests");
  line_shift_ = log2u(cfg_.line);
  sector_shift_ = log2u(cfg_.sector);
  uint32_t nsec = cfg_.line / cfg_.sector;
  full_mask_ = nsec >= 32 ? ~0u : ((1u << nsec) - 1);
  mshrs_.resize(cfg_.mshr_entries);
  mshr_newest_.reset(cfg_.mshr_entries);
  mshr_older_.assign(cfg_.mshr_entries, -1);
  for (auto& m : mshrs_) m.waiters.reserve(cfg_.mshr_merge);
  free_mshrs_.reserve(cfg_.mshr_entries);
  for (int i = int(cfg_.mshr_entries) - 1; i >= 0; --i) free_mshrs_.push_back(i);
  fill_waiters_.reserve(cfg_.mshr_merge);
  evictions_.reserve(16);
}

// Hashed set indices (CacheConfig::set_index). `line_index` is the address >> log2(line).
//  fermi: the set-index hash measured on Fermi's L1 (Nugteren et al., HPCA 2014): the five
//         line-index bits above the offset XOR address bits 13, 14, 15, 17 and 19; with 64
//         sets, address bit 12 is the sixth bit.
//  xor:   the set bits XOR the next set_bits bits of the line index.
//  ipoly: the set bits hashed with the bits above them by the IPOLY polynomial of degree
//         log2(sets) (memory/ipoly.h).
uint32_t Cache::hashed_set(uint64_t line_index) const {
  uint64_t addr = line_index << line_shift_;
  switch (index_) {
    case SetIndex::Fermi: {
      uint32_t lower = uint32_t(line_index & 0x1f);
      uint32_t upper = uint32_t(((addr >> 13) & 7) | ((addr >> 17) & 1) << 3 | ((addr >> 19) & 1) << 4);
      uint32_t set = lower ^ upper;
      if (sets_ == 64) set |= uint32_t((addr >> 12) & 1) << 5;
      return set;
    }
    case SetIndex::Xor: {
      uint64_t mask = sets_ - 1;
      return uint32_t((line_index & mask) ^ ((line_index >> set_bits_) & mask));
    }
    case SetIndex::Ipoly:
      return ipoly_hash(line_index >> set_bits_, uint32_t(line_index & (sets_ - 1)), set_bits_);
    default:
      return uint32_t(line_index % sets_);
  }
}

uint32_t Cache::sector_mask(uint64_t addr, uint32_t bytes) const {
  if (bytes == 0) bytes = 1;
  uint64_t off = addr & (cfg_.line - 1);
  uint64_t end = off + bytes;  // exclusive, clipped to the line
  if (end > cfg_.line) end = cfg_.line;
  uint32_t first = uint32_t(off >> sector_shift_);
  uint32_t last = uint32_t((end - 1) >> sector_shift_);
  uint32_t n = last - first + 1;
  uint32_t mask = n >= 32 ? ~0u : ((1u << n) - 1);
  return (mask << first) & full_mask_;
}

uint32_t Cache::normalize(uint64_t addr, uint32_t sectors) const {
  sectors &= full_mask_;
  if (!sectors) sectors = 1u << ((addr & (cfg_.line - 1)) >> sector_shift_);
  return sectors;
}

Cache::Line* Cache::find(uint64_t line) { return const_cast<Line*>(static_cast<const Cache*>(this)->find(line)); }

const Cache::Line* Cache::find(uint64_t line) const {
  if (!cfg_.enabled) return nullptr;
  uint64_t idx = line >> line_shift_;
  if (indexed_) {
    const uint32_t at = where_.get(idx);
    return at == LineTable::kAbsent ? nullptr : &lines_[at];
  }
  const size_t base = size_t(set_of(idx)) * ways_;
  const uint64_t* tags = &tags_[base];
  for (uint32_t w = 0; w < active_ways_; ++w)
    if (tags[w] == idx) return &lines_[base + w];
  return nullptr;
}

void Cache::set_tag(Line& l, uint64_t tag) {
  const size_t i = size_t(&l - lines_.data());
  if (indexed_) {
    if (l.tag != ~0ull) where_.erase(l.tag);
    if (tag != ~0ull) where_.set(tag, uint32_t(i));
    uint64_t& word = empty_[(i / ways_) * words_ + (i % ways_) / 64];
    const uint64_t bit = 1ull << ((i % ways_) % 64);
    word = tag == ~0ull ? word | bit : word & ~bit;
  }
  l.tag = tag;
  l.prop = AccessProperty::Default;
  tags_[i] = tag;
  if (lazy_) written_[i].clear();
  if (!written_sectors_.empty()) unmark_written(l, ~0u);
}

void Cache::mark_written(Line& l, uint32_t sectors) {
  uint32_t& w = written_sectors_[size_t(&l - lines_.data())];
  written_lines_ += w == 0 && sectors != 0;
  w |= sectors;
}

void Cache::unmark_written(Line& l, uint32_t sectors) {
  uint32_t& w = written_sectors_[size_t(&l - lines_.data())];
  if (!w) return;
  w &= ~sectors;
  written_lines_ -= w == 0;
}

void Cache::touch(Line& l) {
  l.last_use = ++stamp_;
  if (!indexed_) return;
  const uint32_t i = uint32_t(&l - lines_.data());
  const uint32_t set = i / ways_;
  if (lru_last_[set] == i) return;
  // Unlink, then append as the most recently used.
  const uint32_t prev = lru_prev_[i], next = lru_next_[i];
  if (prev == kNone)
    lru_first_[set] = next;
  else
    lru_next_[prev] = next;
  lru_prev_[next] = prev;  // next exists: i is not the last
  lru_prev_[i] = lru_last_[set];
  lru_next_[i] = kNone;
  lru_next_[lru_last_[set]] = i;
  lru_last_[set] = i;
}

// An empty way if there is one, else the least recently used way with no fill on the way (and,
// while written lines are kept, not written); nullptr when there is none.
Cache::Line* Cache::victim(uint64_t line, AccessProperty prop) {
  const uint32_t s = set_of(line >> line_shift_);
  Line* set = &lines_[size_t(s) * ways_];
  const bool persisting = prop == AccessProperty::Persisting && set_aside_ > 0;
  const bool keep = keep_written();
  auto kept = [&](const Line& l) { return keep && written_sectors_[size_t(&l - lines_.data())] != 0; };
  if (indexed_ && !persisting && !props_used_) {
    // Every line normal: the scan below returns the first empty way, else the least recently
    // used line without a fill on the way; the mask and the list give the same.
    const uint64_t* empty = &empty_[size_t(s) * words_];
    for (uint32_t w = 0; w * 64 < active_ways_; ++w) {
      uint64_t bits = empty[w];
      const uint32_t left = active_ways_ - w * 64;
      if (left < 64) bits &= (1ull << left) - 1;
      if (bits) return &set[w * 64 + uint32_t(std::countr_zero(bits))];
    }
    for (uint32_t p = lru_first_[s]; p != kNone; p = lru_next_[p]) {
      Line& l = lines_[p];
      if (l.tag != ~0ull && !l.reserved && !kept(l)) return &l;
    }
    return nullptr;
  }
  const uint32_t end = persisting ? set_aside_ : active_ways_;
  // Eviction order: streaming lines, then normal ones, then (persisting accesses only)
  // persisting ones; least recently used first within each.
  auto rank = [](const Line& l) {
    return l.prop == AccessProperty::Streaming ? 0 : l.prop == AccessProperty::Persisting ? 2 : 1;
  };
  Line* best = nullptr;
  int best_rank = 0;
  for (uint32_t w = 0; w < end; ++w) {
    Line& l = set[w];
    if (l.tag == ~0ull) return &l;
    if (l.reserved || kept(l)) continue;
    const int r = rank(l);
    if (r == 2 && !persisting) continue;
    if (!best || r < best_rank || (r == best_rank && l.last_use < best->last_use)) {
      best = &l;
      best_rank = r;
    }
  }
  return best;
}

void Cache::apply(Line& l, AccessProperty prop, bool fresh) {
  if (prop == AccessProperty::Streaming || prop == AccessProperty::Persisting) props_used_ = true;
  switch (prop) {
    case AccessProperty::Default:
      if (fresh) l.prop = AccessProperty::Default;
      break;
    case AccessProperty::Normal:
      l.prop = AccessProperty::Default;
      break;
    case AccessProperty::Streaming:
      l.prop = AccessProperty::Streaming;
      break;
    case AccessProperty::Persisting:
      // Only a line in a set-aside way persists; elsewhere it stays as it is until its next miss
      // brings it into the set-aside.
      if (size_t(&l - lines_.data()) % ways_ < set_aside_)
        l.prop = AccessProperty::Persisting;
      else if (fresh)
        l.prop = AccessProperty::Default;
      break;
  }
}

void Cache::set_aside_ways(uint32_t n) {
  if (!cfg_.enabled) return;
  n = std::min(n, active_ways_ - 1);
  ++generation_;
  for (size_t i = 0; i < lines_.size(); ++i)
    if (i % ways_ >= n && lines_[i].prop == AccessProperty::Persisting) lines_[i].prop = AccessProperty::Default;
  set_aside_ = n;
}

void Cache::reset_persisting() {
  ++generation_;
  for (Line& l : lines_)
    if (l.prop == AccessProperty::Persisting) l.prop = AccessProperty::Default;
}

uint64_t Cache::lines_with(AccessProperty prop) const {
  uint64_t n = 0;
  for (const Line& l : lines_) n += l.tag != ~0ull && l.prop == prop;
  return n;
}

AccessProperty Cache::property(uint64_t addr) const {
  const Line* l = find(line_addr(addr));
  return l ? l->prop : AccessProperty::Default;
}

void Cache::install(uint64_t addr, uint32_t sectors) {
  if (!cfg_.enabled || cfg_.perfect) return;
  ++generation_;
  uint64_t line = line_addr(addr);
  sectors = normalize(addr, sectors);
  Line* l = find(line);
  if (!l) {
    l = victim(line);
    if (!l || l->dirty || l->reserved) return;
    set_tag(*l, line >> line_shift_);
    l->valid = l->dirty = l->reserved = 0;
  }
  l->valid |= sectors & ~l->reserved;
  touch(*l);
}

void Cache::evict(Line& l) {
  if (l.tag != ~0ull && l.dirty) {
    evictions_.push_back({l.tag << line_shift_, l.dirty});
    ++writebacks;
  }
  set_tag(l, ~0ull);
  l.valid = l.dirty = l.reserved = 0;
}

int Cache::alloc_mshr(uint64_t line, uint32_t sectors, uint32_t waiter) {
  int m = free_mshrs_.back();
  free_mshrs_.pop_back();
  Mshr& e = mshrs_[m];
  e.line = line;
  e.sectors = sectors;
  e.key = sectors & (~sectors + 1);  // the lowest sector
  e.seq = ++mshr_seq_;
  e.busy = true;
  const uint32_t newest = mshr_newest_.get(line);
  mshr_older_[size_t(m)] = newest == LineTable::kAbsent ? -1 : int(newest);
  mshr_newest_.set(line, uint32_t(m));
  e.waiters.clear();
  e.waiters.push_back(waiter);
  return m;
}

Cache::Result Cache::read(uint64_t addr, uint32_t sectors, uint32_t waiter, uint64_t now, AccessProperty prop) {
  const Result r = lookup(addr, sectors, waiter, now, prop);
  if (r.outcome != Outcome::Fail) ++generation_;
  return r;
}

Cache::Result Cache::lookup(uint64_t addr, uint32_t sectors, uint32_t waiter, uint64_t now, AccessProperty prop) {
  (void)now;
  if (perfect_hit()) return {Outcome::Hit};
  sectors = normalize(addr, sectors);
  const uint64_t la = line_addr(addr);
  if (!cfg_.enabled) {
    if (free_mshrs_.empty()) {
      ++fails;
      return {Outcome::Fail};
    }
    ++misses;
    return {Outcome::Miss, alloc_mshr(la, sectors, waiter), sectors};
  }
  Line* l = find(la);
  if (l) {
    uint32_t missing = sectors & ~l->valid;
    apply(*l, prop, false);
    if (!missing) {
      ++hits;
      touch(*l);
      return {Outcome::Hit};
    }
    uint32_t absent = missing & ~l->reserved;
    if (!absent) {
      // Every missing sector is already being fetched: wait on the youngest entry that brings
      // one of them (it was sent last, so it is expected to arrive last).
      int best = -1;
      for (int m = first_mshr(la); m >= 0; m = mshr_older_[size_t(m)])
        if (mshrs_[m].sectors & missing) {
          best = m;
          break;
        }
      if (best < 0 || mshrs_[best].waiters.size() >= cfg_.mshr_merge) {
        ++fails;
        return {Outcome::Fail};
      }
      mshrs_[best].waiters.push_back(waiter);
      ++pending_hits;
      touch(*l);
      return {Outcome::HitPending, best};
    }
    // Sector miss on a present line: fetch only the sectors nobody is fetching yet.
    if (free_mshrs_.empty()) {
      ++fails;
      return {Outcome::Fail};
    }
    l->reserved |= absent;
    // A fetch of written sectors makes them plain again (GPGPU-Sim's sector allocation).
    if (!written_sectors_.empty()) unmark_written(*l, absent);
    touch(*l);
    ++misses;
    return {Outcome::Miss, alloc_mshr(la, absent, waiter), absent};
  }
  if (free_mshrs_.empty()) {
    ++fails;
    return {Outcome::Fail};
  }
  Line* v = victim(la, prop);
  if (!v) {
    ++fails;
    return {Outcome::Fail};
  }
  evict(*v);
  set_tag(*v, la >> line_shift_);
  apply(*v, prop, true);
  v->reserved = sectors;
  touch(*v);
  ++misses;
  return {Outcome::Miss, alloc_mshr(la, sectors, waiter), sectors};
}

Cache::Result Cache::read_keyed(uint64_t addr, uint32_t sector, uint32_t key, uint32_t waiter, uint64_t now) {
  (void)now;
  if (perfect_hit()) return {Outcome::Hit};
  sector = normalize(addr, sector);
  key = normalize(addr, key);
  const uint64_t la = line_addr(addr);
  Line* l = find(la);
  if (l && (l->valid & sector) == sector) {
    ++hits;
    ++generation_;
    touch(*l);
    return {Outcome::Hit};
  }
  const int found = keyed_mshr(la, key);
  if (found >= 0) {
    if (mshrs_[found].waiters.size() >= cfg_.mshr_merge) {
      ++fails;
      return {Outcome::Fail};
    }
    mshrs_[found].waiters.push_back(waiter);
    ++pending_hits;
    ++generation_;
    if (l) touch(*l);
    return {Outcome::HitPending, found};
  }
  if (free_mshrs_.empty()) {
    ++fails;
    return {Outcome::Fail};
  }
  if (cfg_.enabled) {
    if (!l) {
      l = victim(la);
      if (!l) {
        ++fails;
        return {Outcome::Fail};
      }
      evict(*l);
      set_tag(*l, la >> line_shift_);
      apply(*l, AccessProperty::Default, true);
    }
    l->reserved |= sector;
    touch(*l);
  }
  ++misses;
  ++generation_;
  const int m = alloc_mshr(la, sector, waiter);
  mshrs_[m].key = key;
  return {Outcome::Miss, m, sector};
}

bool Cache::write(uint64_t addr, uint32_t sectors, uint64_t now, bool local, const LineBytes* bytes,
                  AccessProperty prop) {
  (void)now;
  Policy policy = policy_;
  if (policy == Policy::LocalWriteBack) policy = local ? Policy::WriteBack : Policy::WriteEvict;
  sectors = normalize(addr, sectors);
  write_forward_ = true;
  write_hit_sectors_ = 0;
  ++generation_;
  if (!cfg_.enabled) {
    ++write_misses;
    return false;
  }
  const uint64_t la = line_addr(addr);
  Line* l = find(la);
  if (l) write_hit_sectors_ = present_for_write(*l) & sectors;
  const bool hit = l && write_hit_sectors_ == sectors;
  if (hit)
    ++write_hits;
  else
    ++write_misses;
  if (policy == Policy::WriteEvict) {
    if (l) {
      l->valid = l->dirty = 0;
      if (!l->reserved) set_tag(*l, ~0ull);
    }
    return hit;
  }
  const bool back = policy == Policy::WriteBack;
  if (!l && allocate_) {
    l = victim(la, prop);
    if (l) {
      evict(*l);
      set_tag(*l, la >> line_shift_);
      apply(*l, prop, true);
    }
  } else if (l) {
    apply(*l, prop, false);
  }
  if (l) {
    if (lazy_ && bytes && !bytes->empty()) {
      // Lazy fetch on read: a sector becomes readable once every byte of it was written.
      LineBytes& w = written_[size_t(l - lines_.data())];
      w |= *bytes;
      l->valid |= sectors & w.whole_sectors(cfg_.sector, uint32_t(std::popcount(full_mask_)));
    } else {
      l->valid |= sectors;
    }
    if (back) l->dirty |= sectors;
    if (!written_sectors_.empty()) mark_written(*l, sectors);
    touch(*l);
    write_forward_ = !back;
  }
  return hit;
}

const std::vector<uint32_t>& Cache::fill(int mshr, uint64_t now) {
  (void)now;
  if (mshr < 0 || mshr >= int(mshrs_.size()) || !mshrs_[mshr].busy)
    throw Error(fmt::format("cache: fill of MSHR entry {} that is not in use", mshr));
  Mshr& e = mshrs_[mshr];
  ++generation_;
  fill_waiters_.clear();
  fill_waiters_.insert(fill_waiters_.end(), e.waiters.begin(), e.waiters.end());
  if (cfg_.enabled) {
    Line* l = find(e.line);
    if (!l) {
      // Only reachable if the line was dropped while its fill was on the way.
      l = victim(e.line);
      if (l) {
        evict(*l);
        set_tag(*l, e.line >> line_shift_);
        touch(*l);
      }
    }
    if (l) {
      l->valid |= e.sectors;
      l->reserved &= ~e.sectors;
    }
  }
  // Out of its line's list of entries.
  const int older = mshr_older_[size_t(mshr)];
  int p = first_mshr(e.line);
  if (p == mshr) {
    if (older < 0)
      mshr_newest_.erase(e.line);
    else
      mshr_newest_.set(e.line, uint32_t(older));
  } else {
    while (mshr_older_[size_t(p)] != mshr) p = mshr_older_[size_t(p)];
    mshr_older_[size_t(p)] = older;
  }
  mshr_older_[size_t(mshr)] = -1;
  e.busy = false;
  e.line = ~0ull;
  e.sectors = 0;
  e.waiters.clear();
  free_mshrs_.push_back(mshr);
  return fill_waiters_;
}

void Cache::set_active_ways(uint32_t n) {
  if (!cfg_.enabled) return;
  if (n == 0 || n > ways_) throw Error(fmt::format("cache: {} active ways out of 1..{}", n, ways_));
  ++generation_;
  for (uint32_t s = 0; n < active_ways_ && s < sets_; ++s)
    for (uint32_t w = n; w < active_ways_; ++w) evict(lines_[size_t(s) * ways_ + w]);
  active_ways_ = n;
  if (set_aside_ >= n) set_aside_ways(n - 1);
}

void Cache::invalidate_all() {
  ++generation_;
  for (Line& l : lines_) {
    if (l.tag == ~0ull) continue;
    if (l.dirty) {
      evictions_.push_back({l.tag << line_shift_, l.dirty});
      ++writebacks;
    }
    l.valid = l.dirty = 0;
    if (lazy_) written_[size_t(&l - lines_.data())].clear();
    if (!written_sectors_.empty()) unmark_written(l, ~0u);
    if (!l.reserved) set_tag(l, ~0ull);  // lines awaiting a fill keep their way
  }
}

bool Cache::probe(uint64_t addr, uint32_t sectors) const {
  sectors = normalize(addr, sectors);
  const Line* l = find(line_addr(addr));
  return l && (l->valid & sectors) == sectors;
}

int Cache::first_mshr(uint64_t line) const {
  const uint32_t m = mshr_newest_.get(line);
  return m == LineTable::kAbsent ? -1 : int(m);
}

int Cache::keyed_mshr(uint64_t line, uint32_t key) const {
  for (int m = first_mshr(line); m >= 0; m = mshr_older_[size_t(m)])
    if (mshrs_[m].key == key) return m;
  return -1;
}

bool Cache::keyed_entry(uint64_t addr, uint32_t key) const {
  return keyed_mshr(line_addr(addr), normalize(addr, key)) >= 0;
}

uint32_t Cache::valid_sectors(uint64_t addr) const {
  const Line* l = find(line_addr(addr));
  return l ? l->valid : 0;
}

uint32_t Cache::dirty_sectors(uint64_t addr) const {
  const Line* l = find(line_addr(addr));
  return l ? l->dirty : 0;
}

uint32_t Cache::reserved_sectors(uint64_t addr) const {
  const Line* l = find(line_addr(addr));
  return l ? l->reserved : 0;
}

}  // namespace warpsim

#include "timing/ldst_unit.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "core/l1_carveout.h"
#include "timing/sm.h"

namespace warpsim {
namespace {
constexpr uint64_t kLocalBase = 1ull << 44;  // local memory lives above every global allocation
constexpr uint64_t kCodeBase = 1ull << 45;   // instructions live above local memory
}  // namespace

LdstUnit::LdstUnit(int sm_id, const GpuConfig& cfg, MemorySystem& mem)
    : sm_id_(sm_id),
      cfg_(cfg),
      mem_(mem),
      l1d_(l1d_storage(cfg)),
      const_(cfg.constcache),
      queue_cap_(cfg.core.ldst_queue),
      sched_cap_(cfg.core.ldst_queue_per_scheduler),
      per_sched_(std::max(1u, cfg.core.schedulers), 0),
      line_bytes_(cfg.l1d.line),
      sector_direct_(cfg.icnt.request_packets != "line"),
      sector_misses_(cfg.icnt.request_packets == "sector"),
      cta_local_(cfg.core.local_layout == "cta"),
      descending_order_(cfg.core.access_order == "descending"),
      sector_accesses_(cfg.core.sector_accesses) {
  queue_.resize(queue_cap_);
  const uint32_t banks = std::max(1u, cfg.l1d.banks);
  miss_cap_ = std::max(1u, cfg.l1d.miss_queue);
  const bool lookup_after = cfg.core.l1_lookup_after_latency && cfg.l1d.enabled && cfg.l1d.latency > 0;
  lookup_.configure(banks, lookup_after ? cfg.l1d.latency : 0);
  pipe_depth_ = cfg.core.l1_miss_after_latency && !lookup_after ? cfg.l1d.latency : 0;
  out_cap_ = miss_cap_ + pipe_depth_ * banks;
  // Two more: the write-back of a dirty line an access evicts comes on top of it (the ring grows
  // if fills evict more).
  out_.resize(out_cap_ + 2);
  out_ready_.resize(out_cap_ + 2);
  out_bank_.resize(out_cap_ + 2);
  pipe_count_.assign(banks, 0);
  size_t pool = size_t(cfg.core.max_warps) * 4 + queue_cap_;
  ops_.resize(pool);
  for (size_t i = pool; i-- > 0;) free_ops_.push_back(uint32_t(i));
}

LdstUnit::LdstUnit(const LdstUnit& o, const GpuConfig& cfg, MemorySystem& mem)
    : sm_id_(o.sm_id_),
      cfg_(cfg),
      mem_(mem),
      l1d_(o.l1d_),
      const_(o.const_),
      ops_(o.ops_),
      free_ops_(o.free_ops_),
      queue_(o.queue_),
      queue_head_(o.queue_head_),
      queue_count_(o.queue_count_),
      queue_cap_(o.queue_cap_),
      sched_cap_(o.sched_cap_),
      per_sched_(o.per_sched_),
      dequeues_(o.dequeues_),
      out_(o.out_),
      out_ready_(o.out_ready_),
      out_bank_(o.out_bank_),
      pipe_count_(o.pipe_count_),
      lookup_(o.lookup_),
      admitted_(o.admitted_),
      out_cap_(o.out_cap_),
      miss_cap_(o.miss_cap_),
      pipe_depth_(o.pipe_depth_),
      line_fetches_(o.line_fetches_),
      out_head_(o.out_head_),
      out_count_(o.out_count_),
      writebacks_(o.writebacks_),
      wb_head_(o.wb_head_),
      busy_until_(o.busy_until_),
      head_wait_(o.head_wait_),
      in_flight_(o.in_flight_),
      requests_out_(o.requests_out_),
      line_bytes_(o.line_bytes_),
      sector_direct_(o.sector_direct_),
      sector_misses_(o.sector_misses_),
      cta_local_(o.cta_local_),
      descending_order_(o.descending_order_),
      sector_accesses_(o.sector_accesses_) {
  free_ops_.reserve(ops_.size());  // push() and complete() never reallocate
}

uint32_t LdstUnit::bank_conflict_degree(const uint64_t* addrs, uint32_t mask, uint32_t width, uint32_t banks,
                                        uint32_t bank_width) {
  // Distinct words per bank; the busiest bank decides the number of cycles. Lanes reading the
  // same word are served by one broadcast. Each bank keeps the distinct words it has seen in a
  // short list (a conflict-free access sees one per bank); a bank that needs more than
  // kPerBank falls back to sorting all the words.
  constexpr uint32_t kPerBank = 8;
  uint64_t seen[64][kPerBank];
  uint8_t count[64];
  uint64_t used = 0;  // banks with at least one word
  uint32_t degree = 1;
  const uint32_t bmask = (banks - 1) & 63;
  const int shift = std::countr_zero(bank_width);  // a power of two (Config::validate)
  uint32_t per_lane = std::max<uint32_t>(1, width / bank_width);
  if (per_lane > 4) per_lane = 4;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint64_t w0 = addrs[std::countr_zero(m)] >> shift;
    for (uint32_t k = 0; k < per_lane; ++k) {
      const uint64_t w = w0 + k;
      const uint32_t b = uint32_t(w) & bmask;
      if (!(used >> b & 1)) {
        used |= uint64_t(1) << b;
        seen[b][0] = w;
        count[b] = 1;
        continue;
      }
      const uint32_t c = count[b];
      bool dup = false;
      for (uint32_t i = 0; i < c; ++i) dup |= seen[b][i] == w;
      if (dup) continue;
      if (c == kPerBank) return bank_conflict_degree_sorted(addrs, mask, per_lane, bmask, bank_width);
      seen[b][c] = w;
      count[b] = uint8_t(c + 1);
      degree = std::max(degree, c + 1);
    }
  }
  return degree;
}

uint32_t LdstUnit::bank_conflict_degree_sorted(const uint64_t* addrs, uint32_t mask, uint32_t per_lane, uint32_t bmask,
                                               uint32_t bank_width) {
  uint64_t words[32 * 4];
  int n = 0;
  const int shift = std::countr_zero(bank_width);
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint64_t w0 = addrs[std::countr_zero(m)] >> shift;
    for (uint32_t k = 0; k < per_lane; ++k) words[n++] = w0 + k;
  }
  if (n == 0) return 1;
  std::sort(words, words + n);
  n = int(std::unique(words, words + n) - words);
  uint32_t count[64] = {};
  uint32_t degree = 1;
  for (int i = 0; i < n; ++i) degree = std::max(degree, ++count[uint32_t(words[i]) & bmask]);
  return degree;
}

void LdstUnit::push(int slot, int sched, const WarpInst& inst, const uint64_t* lane_addrs, uint64_t local_thread,
                    uint64_t local_stride, uint64_t now) {
  if (free_ops_.empty()) {  // rare: grow the pool
    size_t old = ops_.size();
    ops_.resize(old * 2);
    for (size_t i = ops_.size(); i-- > old;) free_ops_.push_back(uint32_t(i));
  }
  uint32_t idx = free_ops_.back();
  free_ops_.pop_back();
  Op& op = ops_[idx];
  op.slot = slot;
  op.sched = sched;
  ++per_sched_[size_t(sched)];
  std::copy(std::begin(inst.dst), std::end(inst.dst), op.dst);
  op.op = inst.op;
  op.space = inst.space;
  op.expanded = false;
  op.segments = false;
  op.n_access = op.next_access = 0;
  op.outstanding = 0;
  op.missed = false;
  op.ready = 0;
  op.issued = now;
  op.inst = &inst;
  op.has_addrs = lane_addrs != nullptr;
  if (lane_addrs) std::copy(lane_addrs, lane_addrs + 32, op.addrs);
  op.local_thread = local_thread;
  op.local_stride = local_stride;
  queue_[(queue_head_ + queue_count_) % queue_cap_] = idx;
  ++queue_count_;
  ++in_flight_;
}

// Coalesce the active lanes into accesses of whole L1 lines with 32-byte sector masks.
void LdstUnit::expand(Op& op) {
  op.expanded = true;
  const WarpInst& in = *op.inst;
  uint32_t width = std::max<uint32_t>(1, in.width);
  int n = 0;
  uint64_t lmask = ~uint64_t(line_bytes_ - 1);
  const bool store_bytes = op.op == OpClass::STORE && line_bytes_ <= LineBytes::kMaxLine;
  // The access of a line: the previous lane's most often; else, with few lines, a scan; with
  // more, an open-addressed table of the lines so far (a warp that scatters over 32 lines would
  // otherwise compare each with all before it).
  constexpr int kScanUpTo = 8;
  constexpr uint32_t kTable = 2 * kMaxAccess;  // a power of two
  uint8_t table[kTable];
  const int shift = std::countr_zero(uint64_t(line_bytes_));
  auto bucket = [&](uint64_t line) { return uint32_t(((line >> shift) * 0x9e3779b97f4a7c15ull) >> 57) & (kTable - 1); };
  auto index_line = [&](int j) {
    uint32_t b = bucket(op.acc[j].line);
    while (table[b] != 0xff) b = (b + 1) & (kTable - 1);
    table[b] = uint8_t(j);
  };
  auto find = [&](uint64_t line, int prev) {
    if (prev >= 0 && op.acc[prev].line == line) return prev;
    if (n <= kScanUpTo) {
      int j = 0;
      while (j < n && op.acc[j].line != line) ++j;
      return j;
    }
    for (uint32_t b = bucket(line);; b = (b + 1) & (kTable - 1)) {
      if (table[b] == 0xff) return n;
      if (op.acc[table[b]].line == line) return int(table[b]);
    }
  };
  int prev = -1;  // the access of the previous lane
  // The bytes [a, a + bytes) of one lane's access, line by line, into the accesses of the lines.
  auto add = [&](uint64_t a, uint64_t bytes) {
    uint64_t end = a + bytes;
    while (a < end) {
      uint64_t line = a & lmask;
      uint64_t stop = std::min(end, line + line_bytes_);
      uint32_t first = uint32_t((a - line) / 32), last = uint32_t((stop - 1 - line) / 32);
      uint32_t sectors = ((last >= 31 ? ~0u : ((1u << (last + 1)) - 1))) & ~((1u << first) - 1);
      int j = find(line, prev);
      if (j == n) {
        if (n == int(kMaxAccess)) break;  // pathological scatter: the rest merge into the last line
        op.acc[n++] = {line, 0, 0, {}};
        if (n == kScanUpTo + 1) {
          std::memset(table, 0xff, sizeof table);
          for (int k = 0; k < n; ++k) index_line(k);
        } else if (n > kScanUpTo + 1) {
          index_line(j);
        }
      }
      prev = j;
      op.acc[j].sectors |= sectors;
      if (store_bytes) op.acc[j].written.add(uint32_t(a - line), uint32_t(stop - a));
      op.acc[j].bytes = uint16_t(std::min<uint32_t>(op.acc[j].bytes + uint32_t(stop - a), 0xffff));
      a = stop;
    }
  };
  for (uint32_t m = in.active_mask; m; m &= m - 1) {
    int lane = std::countr_zero(m);
    uint64_t a = op.has_addrs ? op.addrs[lane] : 0;
    if (op.space != MemSpace::Local) {
      add(a, width);
      continue;
    }
    // `a` is the offset in the thread's local window (every front end hands those over). Word k
    // of a thread lies in word-row k of the GPU's local memory, at the thread's place in the row
    // (core.local_layout), so a warp's lanes reading the same word share lines. A word of more
    // than 4 bytes is split into 4-byte words of consecutive rows with the "cta" layout, as
    // GPGPU-Sim does.
    const uint64_t thread = op.local_thread + uint64_t(lane), row = 4 * op.local_stride;
    if (width <= 4 || !cta_local_) {
      add(kLocalBase + (a / 4) * row + thread * 4 + (a & 3), width);
    } else {
      for (uint64_t w = a / 4; w < (a + width + 3) / 4; ++w) add(kLocalBase + w * row + thread * 4, 4);
    }
  }
  op.n_access = uint8_t(n);
  // core.access_order: GPGPU-Sim's LD/ST unit takes its coalescer's address-ordered accesses from
  // the back, highest line first.
  if (descending_order_)
    std::sort(op.acc, op.acc + n, [](const Access& x, const Access& y) { return x.line > y.line; });
  // GPGPU-Sim's Fermi/Kepler coalescer: 128-byte segments for the 4- to 16-byte words the L1 may cache.
  op.segments = width >= 4 && cfg_.l1d.enabled && !(in.flags & kFlagCacheGlobal);
  if (cfg_.icnt.store_segments && op.segments && (op.op == OpClass::STORE || op.op == OpClass::ATOMIC))
    for (int j = 0; j < n; ++j) op.acc[j].sectors = whole_segments(op.acc[j].sectors);
  if (sector_accesses_ && through_l1(op)) split_into_sectors(op);
}

bool LdstUnit::through_l1(const Op& op) const {
  const bool past_l1 =
      cfg_.core.cache_global_bypasses_l1 && (op.inst->flags & kFlagCacheGlobal) && op.space == MemSpace::Global;
  return cfg_.l1d.enabled && !past_l1 && (op.op == OpClass::LOAD || op.op == OpClass::STORE) &&
         (op.space == MemSpace::Global || op.space == MemSpace::Local);
}

void LdstUnit::split_into_sectors(Op& op) const {
  const int n = op.n_access;
  int total = 0;
  for (int j = 0; j < n; ++j) total += std::popcount(op.acc[j].sectors);
  // A warp's lanes touch at most 64 sectors (two per lane); more cannot be held, and the lines
  // stay whole.
  if (total <= n || total > int(kMaxAccess)) return;
  Access lines[kMaxAccess];
  std::copy(op.acc, op.acc + n, lines);
  int k = 0;
  for (int j = 0; j < n; ++j) {
    const Access& a = lines[j];
    const int count = std::popcount(a.sectors);
    // The sectors of the line from the last access it gets to the first.
    int at = k + count;
    for (uint32_t s = a.sectors; s; s &= s - 1) {
      const uint32_t i = uint32_t(std::countr_zero(s));
      Access& out = op.acc[descending_order_ ? --at : k++];
      out = {a.line, 1u << i, 32, {}};
      if (!a.written.empty() && i < LineBytes::kMaxLine / 32) {
        LineBytes mine;
        mine.add(32 * i, 32);
        out.written.w[0] = a.written.w[0] & mine.w[0];
        out.written.w[1] = a.written.w[1] & mine.w[1];
        out.bytes = uint16_t(std::popcount(out.written.w[0]) + std::popcount(out.written.w[1]));
      }
    }
    if (descending_order_) k += count;
  }
  op.n_access = uint8_t(k);
}

// icnt.store_segments: each 128-byte segment (four sectors) whose written sectors lie in both of
// its 64-byte halves is taken whole; one that a half or a quarter holds keeps its sectors.
uint32_t LdstUnit::whole_segments(uint32_t sectors) {
  uint32_t out = sectors;
  for (uint32_t shift = 0; shift < 32; shift += 4)
    if ((sectors >> shift & 0x3u) && (sectors >> shift & 0xcu)) out |= 0xfu << shift;
  return out;
}

// The bank of an access: the address of the smallest aligned 32/64/128-byte block of the line
// that holds every sector it touches, interleaved over the banks every bank_interleave bytes.
uint32_t LdstUnit::l1_bank(const Access& a) const {
  uint32_t lo = uint32_t(std::countr_zero(a.sectors | (1u << 31)));
  uint32_t hi = 31 - uint32_t(std::countl_zero(a.sectors | 1u));
  uint32_t block = 1;
  while ((lo / block) != (hi / block)) block *= 2;
  uint64_t addr = a.line + uint64_t(lo / block * block) * 32;
  return uint32_t((addr / cfg_.l1d.bank_interleave) % cfg_.l1d.banks);
}

uint32_t LdstUnit::to_cache_sectors(const Cache& c, uint32_t sectors32) const {
  uint32_t per = c.config().sector / 32;
  if (per <= 1) return sectors32;
  uint32_t out = 0;
  uint32_t group = (1u << per) - 1;
  for (uint32_t i = 0; i * per < 32; ++i)
    if (sectors32 & (group << (i * per))) out |= 1u << i;
  return out;
}

// The 32-byte sectors of a cache's sectors (the inverse of to_cache_sectors).
uint32_t LdstUnit::from_cache_sectors(const Cache& c, uint32_t sectors) {
  const uint32_t per = c.config().sector / 32;
  if (per <= 1) return sectors;
  uint32_t out = 0;
  const uint32_t group = per >= 32 ? ~0u : (1u << per) - 1;
  for (uint32_t i = 0; i * per < 32; ++i)
    if (sectors & (1u << i)) out |= group << (i * per);
  return out;
}

// Dirty lines pushed out of a write-back L1 become writes below; nobody waits for their acks.
void LdstUnit::flush_evictions(uint64_t now, uint64_t ready) {
  for (const auto& ev : l1d_.evictions()) {
    MemRequest wb;
    wb.addr = ev.line_addr;
    wb.sectors = ev.dirty_mask ? from_cache_sectors(l1d_, ev.dirty_mask) : ~0u;
    wb.kind = MemKind::Write;
    wb.bytes = uint16_t(cfg_.l1d.line);
    wb.token = kWriteAck | 0x3fffffffu;
    wb.sm = uint16_t(sm_id_);
    wb.issue_cycle = now;
    enqueue_request(wb, ready);
  }
  l1d_.evictions().clear();
}

void LdstUnit::fetch_instructions(uint64_t line_addr, int mshr, uint32_t line_bytes, uint64_t now) {
  fetch_line(kCodeBase + line_addr, line_bytes, kInstFetch | uint32_t(mshr), now);
}

// A whole-line read for the I-cache or the constant cache, sent ahead of the data requests.
void LdstUnit::fetch_line(uint64_t addr, uint32_t line_bytes, uint32_t token, uint64_t now) {
  MemRequest r;
  r.addr = addr;
  const uint32_t sectors = std::max<uint32_t>(1, line_bytes / 32);
  r.sectors = sectors >= 32 ? ~0u : (1u << sectors) - 1;
  r.kind = MemKind::Read;
  r.bytes = uint16_t(line_bytes);
  r.half_line = line_bytes == 64;
  r.token = token;
  r.sm = uint16_t(sm_id_);
  r.issue_cycle = now;
  line_fetches_.push_back(r);
}

void LdstUnit::enqueue_request(const MemRequest& r, uint64_t ready, uint8_t bank) {
  // The limits (out_cap_, the pipelines) are checked before an access; what comes on top of an
  // admitted one (the write-back of a dirty line it or a fill evicts) must not be lost, so the
  // ring grows instead.
  if (out_count_ >= out_.size()) grow_out();
  const size_t ring = out_.size();
  const size_t at = (out_head_ + out_count_) % ring;
  out_[at] = r;
  out_ready_[at] = ready;
  out_bank_[at] = bank;
  if (bank != kNoBank) ++pipe_count_[bank];
  ++out_count_;
}

void LdstUnit::grow_out() {
  const size_t ring = out_.size(), bigger = ring * 2;
  std::vector<MemRequest> out(bigger);
  std::vector<uint64_t> ready(bigger);
  std::vector<uint8_t> bank(bigger);
  for (size_t i = 0; i < out_count_; ++i) {
    const size_t at = (out_head_ + i) % ring;
    out[i] = out_[at];
    ready[i] = out_ready_[at];
    bank[i] = out_bank_[at];
  }
  out_.swap(out);
  out_ready_.swap(ready);
  out_bank_.swap(bank);
  out_head_ = 0;
}

void LdstUnit::admit(uint64_t now) {
  const size_t ring = out_.size();
  while (admitted_ < out_count_ && admitted_ < miss_cap_) {
    const size_t at = (out_head_ + admitted_) % ring;
    if (out_ready_[at] > now) break;
    if (out_bank_[at] != kNoBank) --pipe_count_[out_bank_[at]];
    out_bank_[at] = kNoBank;
    ++admitted_;
  }
}

void LdstUnit::pop_out() {
  if (admitted_ > 0)
    --admitted_;
  else if (out_bank_[out_head_] != kNoBank)
    --pipe_count_[out_bank_[out_head_]];
  out_head_ = uint32_t((out_head_ + 1) % out_.size());
  --out_count_;
}

// The data of one line access of op `idx` is back; the op completes with its last one.
void LdstUnit::access_arrived(Sm& sm, uint32_t idx, uint64_t now) {
  Op& op = ops_[idx];
  if (--op.outstanding == 0 && op.next_access == op.n_access) complete(sm, idx, std::max(op.ready, now), now);
}

void LdstUnit::complete(Sm& sm, uint32_t idx, uint64_t ready, uint64_t now) {
  Op& op = ops_[idx];
  int nd = (op.op == OpClass::STORE) ? 0 : kMaxDst;
  sm.mem_done(op.slot, *op.inst, op.issued, op.dst, nd, op.op == OpClass::ATOMIC, op.missed, std::max(ready, now), now);
  free_ops_.push_back(idx);
  --in_flight_;
}

MemRequest LdstUnit::request(const Access& a, uint64_t now) const {
  MemRequest req;
  req.addr = a.line;
  req.issue_cycle = now;
  req.sm = uint16_t(sm_id_);
  req.sectors = a.sectors;
  return req;
}

bool LdstUnit::read_l1(Sm& sm, uint32_t idx, const Access& a, uint64_t now, uint64_t hit_ready, uint64_t req_ready,
                       uint8_t pipe, CoreStats& stats) {
  Op& op = ops_[idx];
  const uint32_t sectors = to_cache_sectors(l1d_, a.sectors);
  Cache::Result r = l1d_.read(a.line, sectors, idx, now);
  if (r.outcome == Cache::Outcome::Fail) {
    stats.l1d_fails++;
    return false;
  }
  stats.l1d_sector_accesses += std::popcount(sectors);
  if (r.outcome == Cache::Outcome::Miss) stats.l1d_sector_misses += std::popcount(r.fetch_mask);
  if (r.outcome == Cache::Outcome::Hit) {
    stats.l1d_hits++;
    sm.counters_.l1d_hits++;
    op.ready = std::max(op.ready, hit_ready);
    return true;
  }
  stats.l1d_misses++;
  sm.counters_.l1d_misses++;
  op.outstanding++;
  op.missed = true;
  if (r.outcome == Cache::Outcome::HitPending) stats.l1d_pending_hits++;
  if (r.outcome == Cache::Outcome::Miss) {
    // Request the missing sectors (whole 32-byte sectors of the L1 sector size).
    uint32_t per = cfg_.l1d.sector / 32;
    uint32_t s32 = 0;
    for (uint32_t i = 0; i < 32; ++i)
      if (r.fetch_mask & (1u << i)) s32 |= ((per >= 32 ? ~0u : ((1u << per) - 1)) << (i * per));
    s32 &= (cfg_.l1d.line >= 1024) ? ~0u : ((1u << (cfg_.l1d.line / 32)) - 1);
    MemRequest req = request(a, now);
    req.sectors = s32;
    req.kind = MemKind::Read;
    req.bytes = uint16_t(std::popcount(s32) * 32);
    req.sector_packets = sector_misses_;
    req.token = uint32_t(r.mshr);
    enqueue_request(req, req_ready, pipe);
    stats.mem_requests++;
  }
  return true;
}

// Stores and atomics go below the L1 and are acknowledged. A store through the L1 (`l1_write`)
// meets its write policy first; the write continues below it unless a write-back L1 absorbed it.
void LdstUnit::write(uint32_t idx, const Access& a, bool l1_write, bool sector_packets, uint64_t now,
                     uint64_t req_ready, uint8_t pipe, CoreStats& stats) {
  Op& op = ops_[idx];
  bool forward = true;
  if (l1_write) {
    const uint32_t sectors = to_cache_sectors(l1d_, a.sectors);
    const bool hit = l1d_.write(a.line, sectors, now, op.space == MemSpace::Local, &a.written);
    forward = l1d_.write_forwarded();
    stats.l1d_writes++;
    stats.l1d_sector_accesses += std::popcount(sectors);
    if (!hit) {
      stats.l1d_write_misses++;
      stats.l1d_sector_misses += std::popcount(sectors & ~l1d_.write_hit_sectors());
    }
  }
  if (forward) {
    MemRequest req = request(a, now);
    req.kind = op.op == OpClass::ATOMIC ? MemKind::Atomic : MemKind::Write;
    req.bytes =
        req.kind == MemKind::Write && cfg_.icnt.write_data_sectors ? uint16_t(std::popcount(a.sectors) * 32) : a.bytes;
    req.written = a.written;
    req.next_line = cfg_.l2.upper_half_write_next_line && req.kind == MemKind::Write && op.segments &&
                    line_bytes_ == 128 && a.sectors == 0xcu;
    req.sector_packets = sector_packets;
    req.token = (op.op == OpClass::ATOMIC ? kDirect : kWriteAck) | idx;
    op.outstanding++;
    op.missed = true;
    enqueue_request(req, req_ready, pipe);
    stats.mem_requests++;
  }
  flush_evictions(now, req_ready);
}

// core.l1_lookup_after_latency: the accesses at the heads of the L1 banks' latency pipelines
// whose lookup is due, bank by bank. A read that does not hit needs room for two requests in
// the miss queue and a write room for one (GPGPU-Sim's miss_queue_full(1) and (0)); a lookup
// that fails stays at its bank's head.
bool LdstUnit::look_up_due(Sm& sm, uint64_t now, CoreStats& stats) {
  bool active = false;
  for (uint32_t b = 0; b < lookup_.banks(); ++b) {
    const L1LookupPipe::Entry* e = lookup_.due(b, now);
    if (!e) continue;
    if (lookup_.blocked(b, l1d_.generation(), out_count_)) {
      count_failed_lookups(1, stats);
      continue;
    }
    const uint32_t idx = e->op;
    Op& op = ops_[idx];
    const Access& a = op.acc[e->access];
    const bool read = op.op == OpClass::LOAD;
    const uint32_t spare = read && miss_cap_ > 1 ? 1 : 0;
    bool done;
    if (out_count_ + spare >= miss_cap_ && !(read && l1d_.probe(a.line, to_cache_sectors(l1d_, a.sectors)))) {
      count_failed_lookups(1, stats);
      done = false;
    } else {
      --op.outstanding;  // the access leaves the pipeline: what it waits for now, if anything, counts anew
      if (read) {
        done = read_l1(sm, idx, a, now, now, now, kNoBank, stats);
        if (!done) ++op.outstanding;
      } else {
        write(idx, a, true, sector_misses_, now, now, kNoBank, stats);
        done = true;
      }
    }
    if (!done) {
      lookup_.fail(b, l1d_.generation(), out_count_);
      continue;
    }
    lookup_.pop(b, now);
    if (!l1d_.evictions().empty()) flush_evictions(now, now);
    if (op.outstanding == 0 && op.next_access == op.n_access) complete(sm, idx, std::max(op.ready, now), now);
    active = true;
  }
  return active;
}

bool LdstUnit::process_head(Sm& sm, uint64_t now, CoreStats& stats) {
  uint32_t idx = queue_[queue_head_];
  Op& op = ops_[idx];
  const WarpInst& in = *op.inst;
  auto pop = [&] { dequeue(); };
  switch (op.space) {
    case MemSpace::Shared: {
      uint32_t degree = !op.has_addrs ? 1
                                      : bank_conflict_degree(op.addrs, in.active_mask, in.width, cfg_.core.shared_banks,
                                                             cfg_.core.shared_bank_width);
      stats.shared_insts++;
      stats.shared_cycles += degree;
      busy_until_ = now + degree;
      pop();
      // The cycle the unit takes the load from its queue is the first of the shared_latency
      // stages (GPGPU-Sim's -gpgpu_smem_latency pipeline counts entering it as its first stage).
      const uint64_t lat = uint64_t(cfg_.core.shared_latency) + degree - 1;
      complete(sm, idx, now + (lat > 0 ? lat - 1 : 0), now);
      return true;
    }
    case MemSpace::Const:
    case MemSpace::Param: {
      // Constant loads, and kernel-parameter loads with core.param_through_const_cache, are
      // constant-cache accesses; call-frame parameters take the constant-cache hit latency.
      const bool cached = op.space == MemSpace::Const || const_cached_param(in);
      if (cached && cfg_.core.const_through_memory)
        return process_const_through_memory(sm, queue_[queue_head_], now, stats);
      // One constant-cache access per distinct address; a miss costs the miss latency once.
      uint64_t seen[32];
      int n = 0;
      bool miss = false;
      for (uint32_t m = in.active_mask; m; m &= m - 1) {
        uint64_t a = const_address(op, m);
        if (std::find(seen, seen + n, a) != seen + n) continue;
        seen[n++] = a;
        if (cached) {
          stats.const_accesses++;
          uint32_t sec = const_.sector_mask(a, 4);
          Cache::Result r = const_.read(a, sec, 0, now);
          if (r.outcome != Cache::Outcome::Hit) {
            miss = true;
            stats.const_misses++;
            if (r.outcome == Cache::Outcome::Miss || r.outcome == Cache::Outcome::HitPending) {
              if (r.outcome == Cache::Outcome::Miss) const_.fill(r.mshr, now);
            }
          }
        }
      }
      uint32_t degree = std::max(1, n);
      busy_until_ = now + degree;
      pop();
      op.missed = miss;
      uint32_t lat = miss ? cfg_.core.const_miss_latency : cfg_.core.const_latency;
      complete(sm, idx, now + lat + degree - 1, now);
      return true;
    }
    default:
      break;
  }
  // Global, local, texture: one line access per L1 port per cycle.
  if (!op.expanded) {
    expand(op);
    if (op.op == OpClass::STORE)
      stats.global_stores++;
    else if (op.op == OpClass::ATOMIC)
      stats.atomics++;
    else
      stats.global_loads++;
  }
  bool progressed = false;
  head_wait_.reason = LdstHeadWait::Reason::None;
  const bool past_l1 =
      cfg_.core.cache_global_bypasses_l1 && (op.inst->flags & kFlagCacheGlobal) && op.space == MemSpace::Global;
  const bool use_l1 = cfg_.l1d.enabled && op.op != OpClass::ATOMIC && !past_l1;
  // GPGPU-Sim's L1 looks an access up after its latency pipeline, so what a lookup sends below
  // leaves that much later; warpsim looks up at once and holds the request back instead.
  const uint64_t l1_ready = cfg_.core.l1_miss_after_latency ? now + cfg_.l1d.latency : 0;
  uint64_t banks_used = 0;
  admit(now);
  for (uint32_t port = 0; port < cfg_.l1d.ports && op.next_access < op.n_access; ++port) {
    const Access& a = op.acc[op.next_access];
    const uint32_t bank = cfg_.l1d.banks > 1 ? l1_bank(a) : 0;
    if (cfg_.l1d.banks > 1) {
      // One access per data bank per cycle, in order: the first access whose bank is taken
      // waits for the next cycle.
      uint64_t bit = 1ull << bank;
      if (banks_used & bit) {
        stats.l1d_bank_conflicts++;
        break;
      }
      banks_used |= bit;
    }
    // What passes the L1 (misses, stores) enters its bank's latency pipeline, whose last stage
    // must be free: a full pipeline waits for its oldest request to find room in the miss queue
    // (counted as a bank conflict, as GPGPU-Sim does). The unit tries again next cycle.
    const bool through_l1 = op.op == OpClass::LOAD ? use_l1 : (op.op == OpClass::STORE && cfg_.l1d.enabled && !past_l1);
    const uint8_t pipe = through_l1 && pipe_depth_ ? uint8_t(bank) : kNoBank;
    if (pipe != kNoBank && pipe_count_[pipe] >= pipe_depth_) {
      stats.l1d_bank_conflicts++;
      break;
    }
    if (lookup_.enabled() && through_l1 && !lookup_.room(bank)) {
      stats.l1d_bank_conflicts++;
      if (port == 0) head_wait_ = {LdstHeadWait::Reason::PipeFull, 0, bank};
      break;
    }
    if (out_count_ >= out_cap_ && !(lookup_.enabled() && through_l1)) {
      if (port == 0) head_wait_.reason = LdstHeadWait::Reason::RequestQueueFull;
      break;
    }
    if (lookup_.enabled() && through_l1) {
      // core.l1_lookup_after_latency: the lookup comes at the end of the bank's pipeline.
      lookup_.push(bank, idx, op.next_access, now);
      op.outstanding++;
    } else if (op.op == OpClass::LOAD) {
      if (use_l1) {
        if (!read_l1(sm, idx, a, now, now + cfg_.l1d.latency, l1_ready, pipe, stats)) {
          if (port == 0) head_wait_ = {LdstHeadWait::Reason::L1Fail, l1d_.generation()};
          break;
        }
      } else {
        MemRequest req = request(a, now);
        req.kind = MemKind::Read;
        req.bytes = uint16_t(std::popcount(a.sectors) * 32);
        req.sector_packets = sector_direct_;
        req.token = kDirect | idx;
        op.outstanding++;
        op.missed = true;
        enqueue_request(req);
        stats.mem_requests++;
      }
    } else {
      write(idx, a, op.op == OpClass::STORE && cfg_.l1d.enabled && !past_l1,
            op.op == OpClass::STORE && (sector_misses_ || (sector_direct_ && !use_l1)), now, through_l1 ? l1_ready : 0,
            pipe, stats);
    }
    op.next_access++;
    progressed = true;
  }
  if (op.next_access == op.n_access) {
    pop();
    if (op.outstanding == 0) complete(sm, idx, std::max(op.ready, now + 1), now);
    progressed = true;
  }
  return progressed;
}

LdstHeadWait::Reason LdstUnit::head_blocked() const {
  if (queue_count_ == 0) return LdstHeadWait::Reason::None;
  switch (head_wait_.reason) {
    case LdstHeadWait::Reason::RequestQueueFull:
      if (out_count_ >= out_cap_) return LdstHeadWait::Reason::RequestQueueFull;
      break;
    case LdstHeadWait::Reason::L1Fail:
      // The lookup comes after the request-queue check, as in process_head.
      if (out_count_ < out_cap_ && l1d_.generation() == head_wait_.l1_generation) return LdstHeadWait::Reason::L1Fail;
      break;
    case LdstHeadWait::Reason::PipeFull:
      if (!lookup_.room(head_wait_.bank)) return LdstHeadWait::Reason::PipeFull;
      break;
    case LdstHeadWait::Reason::None:
      break;
  }
  return LdstHeadWait::Reason::None;
}

void LdstUnit::count_failed_lookups(uint64_t n, CoreStats& stats) {
  stats.l1d_fails += n;
  l1d_.fails += n;
}

void LdstUnit::skip_cycles(uint64_t n, CoreStats& stats) {
  const LdstHeadWait::Reason blocked = head_blocked();
  if (blocked == LdstHeadWait::Reason::L1Fail) count_failed_lookups(n, stats);
  if (blocked == LdstHeadWait::Reason::PipeFull) stats.l1d_bank_conflicts += n;
  if (!lookup_.empty()) count_failed_lookups(n * lookup_.blocked_heads(l1d_.generation(), out_count_), stats);
}

// A constant load whose misses read their lines through the memory system: one access per
// distinct address, all in one cycle unless the constant cache runs out of MSHRs (then the rest
// wait for the next cycle); the load completes after the hit latency, or when its last line
// arrives.
bool LdstUnit::process_const_through_memory(Sm& sm, uint32_t idx, uint64_t now, CoreStats& stats) {
  Op& op = ops_[idx];
  const WarpInst& in = *op.inst;
  if (!op.expanded) {
    op.expanded = true;
    int n = 0;
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      uint64_t a = const_address(op, m);
      bool seen = false;
      for (int j = 0; j < n && !seen; ++j) seen = op.acc[j].line == a;
      if (!seen && n < int(kMaxAccess)) op.acc[n++] = {a, 0, 0, {}};
    }
    op.n_access = uint8_t(n);
    op.next_access = 0;
    op.ready = now + cfg_.core.const_latency + std::max(n, 1) - 1;
  }
  bool progressed = false;
  while (op.next_access < op.n_access) {
    const uint64_t a = op.acc[op.next_access].line;
    Cache::Result r = const_.read(a, const_.sector_mask(a, 4), idx, now);
    if (r.outcome == Cache::Outcome::Fail) break;  // no MSHR: the rest next cycle
    stats.const_accesses++;
    if (r.outcome != Cache::Outcome::Hit) {
      stats.const_misses++;
      op.outstanding++;
      op.missed = true;
      if (r.outcome == Cache::Outcome::Miss)
        fetch_line(const_.mshr_line(r.mshr), cfg_.constcache.line, kConstFetch | uint32_t(r.mshr), now);
    }
    op.next_access++;
    progressed = true;
  }
  if (op.next_access < op.n_access) {
    busy_until_ = now + 1;
    return progressed;
  }
  busy_until_ = now + std::max<uint32_t>(1, op.n_access);
  dequeue();
  if (op.outstanding == 0) complete(sm, idx, op.ready, now);
  return true;
}

bool LdstUnit::cycle(Sm& sm, uint64_t now, CoreStats& stats) {
  bool active = false;
  MemRequest r;
  while (mem_.pop_response(sm_id_, now, r)) {
    active = true;
    --requests_out_;
    if ((r.token & (kDirect | kWriteAck)) == 0 && (r.token & kInstFetch)) {
      sm.instruction_arrived(int(r.token & ~kInstFetch), now);
      continue;
    }
    if ((r.token & (kDirect | kWriteAck | kInstFetch)) == 0 && (r.token & kConstFetch)) {
      for (uint32_t idx : const_.fill(int(r.token & ~kConstFetch), now)) access_arrived(sm, idx, now);
      continue;
    }
    if (r.token & (kDirect | kWriteAck)) {
      uint32_t idx = r.token & 0x3fffffffu;
      if (idx == 0x3fffffffu) continue;  // write-back acknowledgement
      if (cfg_.core.mem_writeback_per_cycle && ops_[idx].op != OpClass::STORE)
        writebacks_.push_back(idx);
      else
        access_arrived(sm, idx, now);
    } else {
      const std::vector<uint32_t>& waiters = l1d_.fill(int(r.token), now);
      if (cfg_.core.mem_writeback_per_cycle) {
        writebacks_.insert(writebacks_.end(), waiters.begin(), waiters.end());
      } else {
        for (uint32_t idx : waiters) access_arrived(sm, idx, now);
      }
      flush_evictions(now, 0);
    }
  }
  // The writeback port takes core.mem_writeback_per_cycle line accesses per cycle, in arrival
  // order (GPGPU-Sim writes back one memory response per cycle; L1 hits do not use it).
  for (uint32_t k = 0; k < cfg_.core.mem_writeback_per_cycle && wb_head_ < writebacks_.size(); ++k) {
    access_arrived(sm, writebacks_[wb_head_++], now);
    active = true;
  }
  if (wb_head_ == writebacks_.size()) {
    writebacks_.clear();
    wb_head_ = 0;
  }
  // The lookups at the ends of the L1 latency pipelines come before the queue's head enters
  // (GPGPU-Sim's ldst_unit::cycle); a miss they find may leave in this cycle's send, so a miss
  // reaches the interconnect l1d.latency cycles after its access, as with the lookup at entry.
  if (lookup_.enabled()) active |= look_up_due(sm, now, stats);
  if (queue_count_ > 0 && busy_until_ <= now) {
    // A head still blocked as in its last attempt is not tried again: only the attempt's
    // failed L1D lookup is counted.
    const LdstHeadWait::Reason blocked = head_blocked();
    if (blocked == LdstHeadWait::Reason::None)
      active |= process_head(sm, now, stats);
    else if (blocked == LdstHeadWait::Reason::L1Fail)
      count_failed_lookups(1, stats);
    else if (blocked == LdstHeadWait::Reason::PipeFull)
      stats.l1d_bank_conflicts++;
  }
  active |= send(now);
  return active;
}

bool LdstUnit::send(uint64_t now) {
  if (!line_fetches_.empty() && can_send(line_fetches_.front().addr, now)) {
    line_fetches_.front().issue_cycle = now;
    mem_.send(line_fetches_.front(), now);
    ++requests_out_;
    line_fetches_.erase(line_fetches_.begin());
    return true;
  }
  if (out_count_ > 0 && out_ready_[out_head_] <= now && can_send(out_[out_head_].addr, now)) {
    MemRequest& head = out_[out_head_];
    head.issue_cycle = now;
    mem_.send(head, now);
    ++requests_out_;
    pop_out();
    return true;
  }
  return false;
}

}  // namespace warpsim

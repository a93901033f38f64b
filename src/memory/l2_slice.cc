#include "memory/l2_slice.h"

#include <bit>

namespace warpsim {

L2Slice::L2Slice(const GpuConfig& cfg, uint32_t index, uint32_t local_index, uint32_t senders)
    : cache_(cfg.l2.cache),
      index_(index),
      local_(local_index),
      latency_(cfg.l2.cache.latency),
      ports_(cfg.l2.cache.ports ? cfg.l2.cache.ports : 1),
      line_(cache_.config().line),
      sector_shift_(uint32_t(std::countr_zero(cache_.config().sector))),
      inq_(size_t(cfg.icnt.input_queue) + senders),
      sector_lookups_(cfg.l2.sector_lookups),
      sector_replies_(cfg.l2.sector_replies),
      half_line_(cfg.l2.half_line_shared_mshr && cfg.l2.sector_lookups),
      split_reads_(cfg.l2.sector_requests),
      paced_fills_(cfg.l2.fill_replies_per_cycle) {
  uint32_t n = cache_.config().mshr_entries * cache_.config().mshr_merge;
  waiters_.resize(n);
  free_waiters_.reserve(n);
  for (uint32_t i = n; i-- > 0;) free_waiters_.push_back(i);
}

uint32_t L2Slice::l2_sectors(uint64_t addr, uint32_t sectors32) const {
  if (!sectors32) return cache_.full_mask();
  uint64_t base = addr & (line_ - 1) & ~uint64_t(31);
  uint32_t mask = 0;
  for (uint32_t s = sectors32; s; s &= s - 1) {
    uint64_t off = base + 32u * uint32_t(std::countr_zero(s));
    if (off < line_) mask |= 1u << (off >> sector_shift_);
  }
  return mask ? mask : cache_.full_mask();
}

void L2Slice::enqueue_read(const MemRequest& req, uint64_t ready, uint64_t slice_addr) {
  const uint32_t sectors = l2_sectors(slice_addr, req.sectors);
  const int n = std::popcount(sectors);
  if (n < 2 || (half_line_ && req.half_line && n == 2)) {  // one sector, or a half-line fetch
    inq_.push_back({req, ready, slice_addr, sectors});
    return;
  }
  uint32_t g;
  if (free_groups_.empty()) {
    g = uint32_t(groups_.size());
    groups_.push_back(0);
  } else {
    g = free_groups_.back();
    free_groups_.pop_back();
  }
  groups_[g] = uint32_t(n);
  for (uint32_t rest = sectors; rest; rest &= rest - 1) {
    Entry e{req, ready, slice_addr, rest & (~rest + 1)};
    e.group = g + 1;
    inq_.push_back(e);
  }
}

void L2Slice::respond_sector(const MemRequest& req, uint32_t sectors, uint32_t group, uint64_t ready, SlicePorts& p) {
  const uint32_t bytes = uint32_t(std::popcount(sectors)) << sector_shift_;
  const uint32_t flits = p.icnt.flits(req.bytes ? std::min<uint32_t>(req.bytes, bytes) : bytes);
  const bool last = --groups_[group - 1] == 0;
  if (last) free_groups_.push_back(group - 1);
  p.icnt.send_down(index_, req, flits, ready, last);
  p.stats.icnt_flits_down += flits;
}

uint32_t L2Slice::reply_flits(const MemRequest& req, uint32_t packets, const Interconnect& icnt) const {
  uint32_t bytes = 0;  // a write acknowledgement carries no data: one flit
  if (req.kind != MemKind::Write) {
    bytes = req.bytes;
    if (!bytes) bytes = req.sectors ? 32u * uint32_t(std::popcount(req.sectors)) : line_;
  }
  return icnt.flits(std::max(1u, bytes / packets));
}

void L2Slice::respond(const MemRequest& req, uint32_t sectors, uint64_t first, uint32_t spread, SlicePorts& p) {
  const uint32_t n = reply_packets(sectors);
  const uint32_t flits = reply_flits(req, n, p.icnt);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t ready = first + (spread ? i / spread : 0);
    p.icnt.send_down(index_, req, flits, ready, i + 1 == n);
  }
  p.stats.icnt_flits_down += uint64_t(flits) * n;
}

void L2Slice::reply_packet(const MemRequest& req, uint32_t sectors, uint32_t i, uint64_t ready, SlicePorts& p) {
  const uint32_t n = reply_packets(sectors);
  const uint32_t flits = reply_flits(req, n, p.icnt);
  p.icnt.send_down(index_, req, flits, ready, i + 1 == n);
  p.stats.icnt_flits_down += flits;
}

void L2Slice::dram_write(uint64_t slice_line, uint32_t sectors, bool eviction, SlicePorts& p) {
  DramRequest d;
  d.addr = p.map.partition_addr_of_slice(local_, slice_line & ~uint64_t(line_ - 1) & ~kForeignLine);
  d.bank = p.map.bank(d.addr);
  d.row = p.map.row(d.addr);
  d.bytes = uint32_t(std::popcount(sectors)) << sector_shift_;
  d.piece = eviction ? 0 : 1u << sector_shift_;
  d.slice = uint16_t(index_);
  d.write = true;
  p.dram.enqueue(d);
}

// A write into the cache, with what it pushes out and what it forwards going to DRAM.
void L2Slice::write_line(uint64_t slice_addr, uint32_t sectors, uint64_t now, SlicePorts& p) {
  cache_.write(slice_addr, sectors, now);
  if (cache_.write_forwarded()) dram_write(slice_addr, sectors, false, p);
}

void L2Slice::lookup(uint64_t now, SlicePorts& p) {
  hand_out(now, p);
  if (free_at_ > now) return;
  // Lookup slots of this cycle; with l2.sector_lookups a request takes one per sector and may
  // hold the slice for the following cycles.
  int64_t slots = ports_;
  while (slots > 0 && !blocked_ && !inq_.empty()) {
    const Entry& e = inq_.front();
    if (e.ready > now) break;
    if (!p.dram.has_room(2)) {
      blocked_ = true;
      break;
    }
    if (half_line_ && e.req.half_line && e.req.kind == MemKind::Read && std::popcount(e.sectors) == 2) {
      const HalfStep step = lookup_half(inq_.front(), now, p);
      if (step == HalfStep::Stall) {
        blocked_ = true;
        break;
      }
      if (step == HalfStep::NextCycle) {
        free_at_ = now + 1;
        break;
      }
      --slots;
      write_back_evictions(p);
      if (inq_.front().part == 2) inq_.pop_front();
      continue;
    }
    const uint32_t n = sector_lookups_ ? std::max(1, std::popcount(e.sectors)) : 1;
    const uint64_t answer = now + latency_ + (n - 1) / ports_;  // after its last sector's lookup
    // Sector by sector, the i-th reply follows its own lookup, i / ports cycles after the first.
    const bool staggered = sector_replies_ && sector_lookups_;
    const uint64_t first = staggered ? now + latency_ : answer;
    const uint32_t spread = staggered ? ports_ : 0;
    slots -= n;
    const AccessProperty prop = p.property(e.req.addr, line_);
    if (e.req.kind == MemKind::Write) {
      const LineBytes bytes = e.req.written.shifted(uint32_t(e.slice_addr & (line_ - 1) & ~uint64_t(31)));
      bool hit = cache_.write(e.slice_addr, e.sectors, now, false, &bytes, prop);
      p.stats.l2_writes += n;
      // Sector by sector, each sector found present is a hit.
      if (sector_lookups_)
        p.stats.l2_write_hits += uint32_t(std::popcount(cache_.write_hit_sectors()));
      else if (hit)
        p.stats.l2_write_hits += 1;
      if (cache_.write_forwarded()) dram_write(e.slice_addr, e.sectors, false, p);
      respond(e.req, e.sectors, first, spread, p);
    } else {
      if (free_waiters_.empty()) {
        blocked_ = true;
        break;
      }
      uint32_t w = free_waiters_.back();
      Cache::Result r = cache_.read(e.slice_addr, e.sectors, w, now, prop);
      if (r.outcome == Cache::Outcome::Fail) {
        blocked_ = true;
        break;
      }
      p.stats.l2_reads += n;
      if (r.outcome == Cache::Outcome::Hit) {
        p.stats.l2_read_hits += n;
        if (e.req.kind == MemKind::Atomic) write_line(e.slice_addr, e.sectors, now, p);
        if (e.group)
          respond_sector(e.req, e.sectors, e.group, first, p);
        else
          respond(e.req, e.sectors, first, spread, p);
      } else {
        free_waiters_.pop_back();
        waiters_[w] = {e.req, e.slice_addr, e.sectors, 0, e.group};
        // Of the n accesses, those a Miss does not fetch were merged into fetches in flight.
        const uint32_t fetched =
            r.outcome == Cache::Outcome::Miss ? (sector_lookups_ ? uint32_t(std::popcount(r.fetch_mask)) : 1u) : 0u;
        p.stats.l2_read_pending_hits += n - std::min(n, fetched);
        if (r.outcome == Cache::Outcome::Miss) fetch(r, p);
      }
    }
    write_back_evictions(p);
    inq_.pop_front();
  }
  if (slots < 0) free_at_ = now + 1 + (uint64_t(-slots) + ports_ - 1) / ports_;
}

void L2Slice::fill(int mshr, uint64_t now, SlicePorts& p) {
  const uint64_t line = cache_.mshr_line(mshr);
  const uint32_t key = cache_.mshr_key(mshr);
  const std::vector<uint32_t>& ws = cache_.fill(mshr, now);
  if (half_line_) {
    std::erase_if(drains_, [now](const Drain& d) { return d.end <= now; });
    drains_.push_back({line, key, now + ws.size()});
  }
  if (paced_fills_) {
    for (uint32_t w : ws) {
      const Waiter& x = waiters_[w];
      if (!x.left && x.req.kind == MemKind::Atomic) write_line(x.slice_addr, x.sectors, now, p);
    }
    queue_handouts(ws, now);
    write_back_evictions(p);
    blocked_ = false;
    return;
  }
  for (uint32_t w : ws) {
    const Waiter& x = waiters_[w];
    if (x.left) {
      answer_half(w, now + latency_, p);
      continue;
    }
    if (x.req.kind == MemKind::Atomic) write_line(x.slice_addr, x.sectors, now, p);
    if (x.group)
      respond_sector(x.req, x.sectors, x.group, now + latency_, p);
    else
      respond(x.req, x.sectors, now + latency_, 0, p);
    free_waiters_.push_back(w);
  }
  write_back_evictions(p);
  blocked_ = false;
}

void L2Slice::queue_handouts(const std::vector<uint32_t>& ws, uint64_t now) {
  // Sector by sector; within a sector, in the order the reads merged. A reply of one packet (a
  // half, a sector request, or a whole answer without l2.sector_replies) goes with its lowest
  // sector.
  uint32_t all = 0;
  for (uint32_t w : ws) all |= waiters_[w].sectors;
  const bool was_empty = handouts_.empty();
  for (uint32_t rest = all; rest; rest &= rest - 1) {
    const uint32_t bit = rest & (~rest + 1);
    for (uint32_t w : ws) {
      const Waiter& x = waiters_[w];
      if (!(x.sectors & bit)) continue;
      const bool one = x.left || x.group || reply_packets(x.sectors) == 1;
      if (one && bit != (x.sectors & (~x.sectors + 1))) continue;
      const uint16_t packet = one ? 0 : uint16_t(std::popcount(x.sectors & (bit - 1)));
      handouts_.push_back({w, packet, x.left != 0});
    }
  }
  if (was_empty && !handouts_.empty()) next_handout_ = now + 1;
}

void L2Slice::hand_out(uint64_t now, SlicePorts& p) {
  if (next_handout_ > now) return;
  const Handout h = handouts_.front();
  handouts_.pop_front();
  next_handout_ = handouts_.empty() ? UINT64_MAX : now + 1;
  // A freed waiter slot may be what the head waits for.
  if (h.half) {
    const size_t free_before = free_waiters_.size();
    answer_half(h.waiter, now + latency_, p);
    if (free_waiters_.size() != free_before) blocked_ = false;
    return;
  }
  const Waiter& x = waiters_[h.waiter];
  bool done;
  if (x.group) {
    respond_sector(x.req, x.sectors, x.group, now + latency_, p);
    done = true;
  } else {
    reply_packet(x.req, x.sectors, h.packet, now + latency_, p);
    done = h.packet + 1u == reply_packets(x.sectors);
  }
  if (done) {
    free_waiters_.push_back(h.waiter);
    blocked_ = false;
  }
}

void L2Slice::write_back_evictions(SlicePorts& p) {
  auto& ev = cache_.evictions();
  for (const Cache::Eviction& x : ev) dram_write(x.line_addr, x.dirty_mask, true, p);
  ev.clear();
}

void L2Slice::fetch(const Cache::Result& r, SlicePorts& p) {
  DramRequest d;
  d.addr = p.map.partition_addr_of_slice(local_, cache_.mshr_line(r.mshr) & ~kForeignLine);
  d.bank = p.map.bank(d.addr);
  d.row = p.map.row(d.addr);
  d.bytes = uint32_t(std::popcount(r.fetch_mask)) << sector_shift_;
  d.piece = 1u << sector_shift_;
  d.mshr = r.mshr;
  d.slice = uint16_t(index_);
  p.dram.enqueue(d);
}

L2Slice::HalfStep L2Slice::lookup_half(Entry& e, uint64_t now, SlicePorts& p) {
  const uint32_t key = e.sectors & (~e.sectors + 1);  // both halves carry the first sector's address
  const uint32_t sector = e.part == 0 ? key : e.sectors & ~key;
  if (e.waiter < 0) {
    if (free_waiters_.empty()) return HalfStep::Stall;
    e.waiter = int32_t(free_waiters_.back());
    free_waiters_.pop_back();
    waiters_[size_t(e.waiter)] = {e.req, e.slice_addr, e.sectors, 2};
  }
  if (!(cache_.valid_sectors(e.slice_addr) & sector) && !cache_.keyed_entry(e.slice_addr, key)) {
    const uint64_t line = e.slice_addr & ~uint64_t(line_ - 1);
    for (Drain& d : drains_) {
      if (d.line != line || d.key != key || d.end <= now) continue;
      // The filled entry still holds d.end - now waiters: join it if it has room.
      if (d.end - now >= cache_.config().mshr_merge) return HalfStep::NextCycle;
      ++d.end;
      ++p.stats.l2_reads;
      ++p.stats.l2_read_pending_hits;
      answer_half(uint32_t(e.waiter), now + latency_, p);
      ++e.part;
      return HalfStep::Done;
    }
  }
  const Cache::Result r = cache_.read_keyed(e.slice_addr, sector, key, uint32_t(e.waiter), now);
  if (r.outcome == Cache::Outcome::Fail) return HalfStep::Stall;
  ++p.stats.l2_reads;
  if (r.outcome == Cache::Outcome::Hit) {
    ++p.stats.l2_read_hits;
    answer_half(uint32_t(e.waiter), now + latency_, p);
  } else if (r.outcome == Cache::Outcome::HitPending) {
    ++p.stats.l2_read_pending_hits;
  } else {
    fetch(r, p);
  }
  ++e.part;
  return HalfStep::Done;
}

void L2Slice::answer_half(uint32_t w, uint64_t ready, SlicePorts& p) {
  Waiter& x = waiters_[w];
  const bool last = --x.left == 0;
  const uint32_t flits = p.icnt.flits(std::max(1u, uint32_t(x.req.bytes) / 2));
  p.icnt.send_down(index_, x.req, flits, ready, last);
  p.stats.icnt_flits_down += flits;
  if (last) free_waiters_.push_back(w);
}

}  // namespace warpsim

#include "memory/interconnect.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace warpsim {

Interconnect::Interconnect(const IcntConfig& cfg, uint32_t num_sms, uint32_t num_slices, uint32_t sms_per_cluster)
    : latency_(cfg.latency),
      flit_(cfg.flit ? cfg.flit : 1),
      sm_rate_(cfg.sm_flits_per_cycle ? cfg.sm_flits_per_cycle : 1),
      slice_rate_(cfg.slice_flits_per_cycle ? cfg.slice_flits_per_cycle : 1),
      ports_(std::max(1u, num_sms / std::max(1u, sms_per_cluster))),
      input_queued_(cfg.input_queued),
      sequential_(cfg.sequential_grants),
      up_mode_(cfg.request_input_queued),
      sm_queue_share_(std::max(1u, cfg.sm_input_queue / std::max(1u, num_sms / ports_))),
      queue_flits_(cfg.sm_input_queue_flits),
      sm_up_(num_sms, 0),
      sm_down_(ports_, 0),
      slice_in_(num_slices, 0),
      slice_out_(num_slices, 0),
      sm_last_done_(num_sms, 0),
      delivered_q_(num_sms, Ring<Delivery>(64)) {
  if (up_mode_) {
    sm_q_.assign(ports_, Ring<UpPacket>(16));
    sm_queued_.assign(num_sms, 0);
    up_port_free_.assign(ports_, 0);
    up_slice_free_.assign(num_slices, 0);
    up_rr_.assign(num_slices, 0);
  }
  if (input_queued_) {
    slice_q_.assign(num_slices, Ring<Packet>(16));
    slice_free_.assign(num_slices, 0);
    sm_free_.assign(ports_, 0);
    rr_.assign(ports_, 0);
  }
  heap_.reserve(1024);
  port_of_.resize(num_sms);
  for (uint32_t sm = 0; sm < num_sms; ++sm) port_of_[sm] = sm % ports_;
}

uint64_t Interconnect::reach_slice(uint32_t slice, uint32_t flits, uint64_t s0) {
  uint64_t head = s0 / sm_rate_ + latency_;
  uint64_t tail = (s0 + flits - 1) / sm_rate_ + latency_;
  uint64_t d0 = std::max(slice_in_[slice], head * slice_rate_);
  slice_in_[slice] = d0 + flits;
  return std::max(tail, (d0 + flits - 1) / slice_rate_);
}

void Interconnect::send_down(uint32_t slice, const MemRequest& resp, uint32_t flits, uint64_t ready, bool complete) {
  Packet p;
  p.req = resp;
  if (input_queued_) {
    // Ports are taken at the crossing; `head` holds the cycle the packet may first cross.
    p.head = ready;
    p.seq = seq_++;
    p.flits = flits;
    p.complete = complete;
    if (slice_q_[slice].empty()) busy_slices_.push_back(slice);
    slice_q_[slice].push_back(p);
    ++queued_;
    next_try_ = std::min(next_try_, ready);
    return;
  }
  uint64_t s0 = std::max(slice_out_[slice], ready * slice_rate_);
  slice_out_[slice] = s0 + flits;
  p.head = s0 / slice_rate_ + latency_;
  p.tail = (s0 + flits - 1) / slice_rate_ + latency_;
  p.seq = seq_++;
  p.flits = flits;
  p.complete = complete;
  heap_.push_back(p);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void Interconnect::deliver(const Packet& p, uint64_t done) {
  uint32_t sm = p.req.sm;
  done = std::max(done, sm_last_done_[sm]);  // an SM receives its packets in order
  sm_last_done_[sm] = done;
  if (!p.complete) return;
  if (p.req.part) {
    // A sector part of a split read: the read is delivered with the last of its parts.
    Group& g = groups_[p.req.part - 1];
    if (--g.remaining) return;
    delivered_q_[sm].push_back({g.req, done});
    free_groups_.push_back(p.req.part - 1);
  } else {
    delivered_q_[sm].push_back({p.req, done});
  }
  ++delivered_;
}

void Interconnect::arbitrate(uint64_t now) {
  // Each port grants the slice nearest its round-robin pointer.
  const uint32_t nslices = uint32_t(slice_q_.size());
  auto rank = [&](uint32_t pt, uint32_t s) { return s >= rr_[pt] ? s - rr_[pt] : s + nslices - rr_[pt]; };
  uint64_t next = UINT64_MAX;
  down_grants_.clear();
  for (uint32_t s : busy_slices_) {
    const Packet& h = slice_q_[s].front();
    const uint32_t pt = port(h.req.sm);
    const uint64_t at = std::max({h.head, slice_free_[s], sm_free_[pt]});
    if (at > now)
      next = std::min(next, at);
    else
      down_grants_.add(pt, rank(pt, s), s);
  }
  down_grants_.order();
  int64_t granted = -1;  // the port granted last in this cycle
  bool emptied = false;
  for (uint32_t pt, s; down_grants_.take(pt, s);) {
    if (int64_t(pt) == granted) {
      next = std::min(next, now + 1);  // another slice won the port: try again next cycle
      continue;
    }
    const Packet p = slice_q_[s].front();
    slice_q_[s].pop_front();
    --queued_;
    granted = pt;
    const uint64_t busy = (p.flits + slice_rate_ - 1) / slice_rate_;
    if (!sequential_) slice_free_[s] = now + busy;  // one packet per input and cycle
    sm_free_[pt] = now + (p.flits + sm_rate_ - 1) / sm_rate_;
    rr_[pt] = (s + 1) % nslices;
    deliver(p, now + latency_ + (p.flits - 1) / std::min(sm_rate_, slice_rate_));
    if (slice_q_[s].empty()) {
      emptied = true;
      continue;
    }
    const Packet& h = slice_q_[s].front();
    const uint32_t hp = port(h.req.sm);
    const uint64_t at = std::max({h.head, slice_free_[s], sm_free_[hp]});
    if (at <= now && hp > pt)
      down_grants_.insert(hp, rank(hp, s), s);
    else
      next = std::min(next, std::max(at, now + 1));
  }
  if (emptied)
    busy_slices_.erase(
        std::remove_if(busy_slices_.begin(), busy_slices_.end(), [&](uint32_t s) { return slice_q_[s].empty(); }),
        busy_slices_.end());
  next_try_ = next;
}

void Interconnect::queue_up(uint32_t sm, uint32_t slice, uint64_t slice_addr, const MemRequest& req, uint32_t packets,
                            uint32_t flits, uint64_t first_slot) {
  const uint32_t pt = port(sm);
  Ring<UpPacket>& q = sm_q_[pt];
  if (q.empty()) up_busy_ports_.push_back(pt);
  auto push = [&](const MemRequest& r, uint64_t slot) {
    // In injection order: after every packet that left its SM no later.
    q.push_back({r, slice_addr, slot / sm_rate_, slice, flits});
    for (size_t i = q.size() - 1; i > 0 && q[i - 1].ready > q[i].ready; --i) std::swap(q[i - 1], q[i]);
    sm_queued_[sm] += queue_units(flits);
    ++up_queued_;
    next_up_try_ = std::min(next_up_try_, slot / sm_rate_);
  };
  if (packets <= 1 || req.kind == MemKind::Atomic || !req.sector_packets) {
    MemRequest whole = req;
    whole.part = 0;
    push(whole, first_slot);
    return;
  }
  uint32_t g;
  if (free_groups_.empty()) {
    g = uint32_t(groups_.size());
    groups_.emplace_back();
  } else {
    g = free_groups_.back();
    free_groups_.pop_back();
  }
  groups_[g] = {req, packets};
  uint32_t sectors = req.sectors;
  for (uint32_t i = 0; i < packets; ++i) {
    MemRequest part = req;
    part.sectors = sectors & (~sectors + 1);  // the i-th sector, an access of its own
    sectors &= sectors - 1;
    part.bytes = 32;
    part.part = g + 1;
    if (!req.written.empty()) {
      // A write part carries the bytes of its own sector.
      LineBytes mine;
      mine.add(32u * uint32_t(std::countr_zero(part.sectors)), 32);
      part.written.w[0] = req.written.w[0] & mine.w[0];
      part.written.w[1] = req.written.w[1] & mine.w[1];
    }
    push(part, first_slot + uint64_t(i) * flits);
  }
}

void Interconnect::cross_up(uint64_t now, const std::vector<uint8_t>& slice_full, std::vector<Crossing>& out) {
  // Cycles between events change nothing: every head waits for a time already known.
  while (up_queued_ && next_up_try_ < now) {
    const uint64_t at = next_up_try_;
    arbitrate_up(at, slice_full, out);
    if (next_up_try_ <= at) next_up_try_ = at + 1;
  }
}

void Interconnect::arbitrate_up(uint64_t at, const std::vector<uint8_t>& slice_full, std::vector<Crossing>& out) {
  // Each slice grants the port nearest its round-robin pointer.
  auto rank = [&](uint32_t slice, uint32_t pt) {
    return pt >= up_rr_[slice] ? pt - up_rr_[slice] : pt + ports_ - up_rr_[slice];
  };
  uint64_t next = UINT64_MAX;
  up_grants_.clear();
  for (uint32_t pt : up_busy_ports_) {
    const UpPacket& h = sm_q_[pt].front();
    const uint64_t ready = std::max(h.ready, up_port_free_[pt]);
    if (ready > at)
      next = std::min(next, ready);
    else
      up_grants_.add(h.slice, rank(h.slice, pt), pt);
  }
  up_grants_.order();
  int64_t granted = -1;  // the slice granted last in this cycle
  bool emptied = false;
  for (uint32_t s, pt; up_grants_.take(s, pt);) {
    if (int64_t(s) == granted || slice_full[s]) {
      next = std::min(next, at + 1);  // another port won the slice, or it is full: try again
      continue;
    }
    if (up_slice_free_[s] > at) {
      next = std::min(next, up_slice_free_[s]);
      continue;
    }
    Ring<UpPacket>& q = sm_q_[pt];
    const UpPacket& p = q.front();
    granted = s;
    up_slice_free_[s] = at + (p.flits + slice_rate_ - 1) / slice_rate_;
    if (!sequential_) up_port_free_[pt] = at + (p.flits + sm_rate_ - 1) / sm_rate_;  // one packet per input and cycle
    up_rr_[s] = uint16_t((pt + 1) % ports_);
    sm_queued_[p.req.sm] -= queue_units(p.flits);
    out.push_back({p.req, p.slice_addr, at + latency_ + (p.flits - 1) / std::min(sm_rate_, slice_rate_), s});
    q.pop_front();
    --up_queued_;
    if (q.empty()) {
      emptied = true;
      continue;
    }
    const UpPacket& h = q.front();
    const uint64_t ready = std::max(h.ready, up_port_free_[pt]);
    if (ready <= at && h.slice > s)
      up_grants_.insert(h.slice, rank(h.slice, pt), pt);
    else
      next = std::min(next, std::max(ready, at + 1));
  }
  if (emptied)
    up_busy_ports_.erase(
        std::remove_if(up_busy_ports_.begin(), up_busy_ports_.end(), [&](uint32_t pt) { return sm_q_[pt].empty(); }),
        up_busy_ports_.end());
  next_up_try_ = next;
}

void Interconnect::tick(uint64_t now) {
  if (input_queued_) {
    // Cycles between events change nothing: every head waits for a time already known.
    while (queued_ && next_try_ <= now) {
      uint64_t at = next_try_;
      arbitrate(at);
      if (next_try_ <= at) next_try_ = at + 1;
    }
    return;
  }
  while (!heap_.empty() && heap_.front().head <= now) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Packet& p = heap_.back();
    uint64_t& down = sm_down_[port(p.req.sm)];
    uint64_t d0 = std::max(down, p.head * sm_rate_);
    down = d0 + p.flits;
    deliver(p, std::max(p.tail, (d0 + p.flits - 1) / sm_rate_));
    heap_.pop_back();
  }
}

bool Interconnect::take(uint32_t sm, uint64_t now, MemRequest& out, uint64_t& done) {
  Ring<Delivery>& q = delivered_q_[sm];
  if (q.empty() || q.front().done > now) return false;
  out = q.front().req;
  done = q.front().done;
  q.pop_front();
  return true;
}

uint64_t Interconnect::next_event() const {
  uint64_t t = heap_.empty() ? UINT64_MAX : heap_.front().head;
  if (queued_) t = std::min(t, next_try_);
  if (up_queued_) t = std::min(t, next_up_try_ + 1);  // a cycle's grants run in the next tick
  if (delivered_)
    for (const auto& q : delivered_q_)
      if (!q.empty()) t = std::min(t, q.front().done);
  return t;
}

}  // namespace warpsim

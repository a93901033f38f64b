#include "memory/interconnect.h"

#include <algorithm>

namespace warpsim {

Interconnect::Interconnect(const IcntConfig& cfg, uint32_t num_sms, uint32_t num_slices)
    : latency_(cfg.latency),
      flit_(cfg.flit ? cfg.flit : 1),
      sm_rate_(cfg.sm_flits_per_cycle ? cfg.sm_flits_per_cycle : 1),
      slice_rate_(cfg.slice_flits_per_cycle ? cfg.slice_flits_per_cycle : 1),
      input_queued_(cfg.input_queued),
      sm_up_(num_sms, 0),
      sm_down_(num_sms, 0),
      slice_in_(num_slices, 0),
      slice_out_(num_slices, 0),
      sm_last_done_(num_sms, 0),
      delivered_q_(num_sms, Ring<Delivery>(64)) {
  if (input_queued_) {
    slice_q_.assign(num_slices, Ring<Packet>(16));
    slice_free_.assign(num_slices, 0);
    sm_free_.assign(num_sms, 0);
    rr_.assign(num_sms, 0);
    grant_.assign(num_sms, -1);
  }
  heap_.reserve(1024);
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
  if (p.complete) {
    delivered_q_[sm].push_back({p.req, done});
    ++delivered_;
  }
}

void Interconnect::arbitrate(uint64_t now) {
  const uint32_t nslices = uint32_t(slice_q_.size());
  granted_sms_.clear();
  uint64_t next = UINT64_MAX;
  // The grants do not depend on the order the slices are visited in.
  for (uint32_t s : busy_slices_) {
    const Packet& h = slice_q_[s].front();
    const uint32_t sm = h.req.sm;
    const uint64_t at = std::max({h.head, slice_free_[s], sm_free_[sm]});
    if (at > now) {
      next = std::min(next, at);
      continue;
    }
    int32_t& g = grant_[sm];
    if (g < 0) {
      g = int32_t(s);
      granted_sms_.push_back(sm);
    } else {
      // The first slice at or after the pointer wins.
      uint32_t d_new = (s + nslices - rr_[sm]) % nslices, d_old = (uint32_t(g) + nslices - rr_[sm]) % nslices;
      if (d_new < d_old) g = int32_t(s);
      next = std::min(next, now + 1);  // the loser tries again next cycle
    }
  }
  for (uint32_t sm : granted_sms_) {
    const uint32_t s = uint32_t(grant_[sm]);
    grant_[sm] = -1;
    const Packet p = slice_q_[s].front();
    slice_q_[s].pop_front();
    --queued_;
    slice_free_[s] = now + (p.flits + slice_rate_ - 1) / slice_rate_;
    sm_free_[sm] = now + (p.flits + sm_rate_ - 1) / sm_rate_;
    rr_[sm] = (s + 1) % nslices;
    deliver(p, now + latency_ + (p.flits - 1) / std::min(sm_rate_, slice_rate_));
    if (!slice_q_[s].empty()) {
      const Packet& h = slice_q_[s].front();
      next = std::min(next, std::max({h.head, slice_free_[s], sm_free_[h.req.sm]}));
    }
  }
  if (!granted_sms_.empty())
    busy_slices_.erase(
        std::remove_if(busy_slices_.begin(), busy_slices_.end(), [&](uint32_t s) { return slice_q_[s].empty(); }),
        busy_slices_.end());
  next_try_ = next;
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
    uint32_t sm = p.req.sm;
    uint64_t d0 = std::max(sm_down_[sm], p.head * sm_rate_);
    sm_down_[sm] = d0 + p.flits;
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
  if (delivered_)
    for (const auto& q : delivered_q_)
      if (!q.empty()) t = std::min(t, q.front().done);
  return t;
}

}  // namespace warpsim

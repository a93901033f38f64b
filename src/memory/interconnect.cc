#include "memory/interconnect.h"

#include <algorithm>

namespace warpsim {

Interconnect::Interconnect(const IcntConfig& cfg, uint32_t num_sms, uint32_t num_slices)
    : latency_(cfg.latency),
      flit_(cfg.flit ? cfg.flit : 1),
      sm_rate_(cfg.sm_flits_per_cycle ? cfg.sm_flits_per_cycle : 1),
      slice_rate_(cfg.slice_flits_per_cycle ? cfg.slice_flits_per_cycle : 1),
      sm_up_(num_sms, 0),
      sm_down_(num_sms, 0),
      slice_in_(num_slices, 0),
      slice_out_(num_slices, 0),
      sm_last_done_(num_sms, 0),
      delivered_q_(num_sms, Ring<Delivery>(64)) {
  heap_.reserve(1024);
}

uint64_t Interconnect::send_up(uint32_t sm, uint32_t slice, uint32_t flits, uint64_t now) {
  uint64_t s0 = std::max(sm_up_[sm], now * sm_rate_);
  sm_up_[sm] = s0 + flits;
  uint64_t head = s0 / sm_rate_ + latency_;
  uint64_t tail = (s0 + flits - 1) / sm_rate_ + latency_;
  uint64_t d0 = std::max(slice_in_[slice], head * slice_rate_);
  slice_in_[slice] = d0 + flits;
  return std::max(tail, (d0 + flits - 1) / slice_rate_);
}

void Interconnect::send_down(uint32_t slice, const MemRequest& resp, uint32_t flits,
                             uint64_t ready) {
  uint64_t s0 = std::max(slice_out_[slice], ready * slice_rate_);
  slice_out_[slice] = s0 + flits;
  Packet p;
  p.req = resp;
  p.head = s0 / slice_rate_ + latency_;
  p.tail = (s0 + flits - 1) / slice_rate_ + latency_;
  p.seq = seq_++;
  p.flits = flits;
  heap_.push_back(p);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void Interconnect::tick(uint64_t now) {
  while (!heap_.empty() && heap_.front().head <= now) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Packet& p = heap_.back();
    uint32_t sm = p.req.sm;
    uint64_t d0 = std::max(sm_down_[sm], p.head * sm_rate_);
    sm_down_[sm] = d0 + p.flits;
    uint64_t done = std::max(p.tail, (d0 + p.flits - 1) / sm_rate_);
    done = std::max(done, sm_last_done_[sm]);  // an SM receives its packets in order
    sm_last_done_[sm] = done;
    delivered_q_[sm].push_back({p.req, done});
    ++delivered_;
    heap_.pop_back();
  }
}

bool Interconnect::pop(uint32_t sm, uint64_t now, MemRequest& out, uint64_t& done) {
  Ring<Delivery>& q = delivered_q_[sm];
  if (q.empty() || q.front().done > now) return false;
  out = q.front().req;
  done = q.front().done;
  q.pop_front();
  --delivered_;
  return true;
}

uint64_t Interconnect::next_event() const {
  uint64_t t = heap_.empty() ? UINT64_MAX : heap_.front().head;
  if (delivered_)
    for (const auto& q : delivered_q_)
      if (!q.empty()) t = std::min(t, q.front().done);
  return t;
}

}  // namespace warpsim

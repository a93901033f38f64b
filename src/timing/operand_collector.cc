#include "timing/operand_collector.h"

#include <algorithm>

namespace warpsim {

namespace {
constexpr uint32_t kSets = 6;  // general, SP, INT, DP, SFU, MEM
}

OperandCollector::OperandCollector(const GpuConfig& cfg) {
  const OperandCollectorConfig& oc = cfg.oc;
  enabled_ = oc.enabled;
  if (!enabled_) return;
  queued_ = oc.queued_dispatch;
  steps_ = oc.port_throughput;
  parts_ = cfg.core.subcore ? cfg.core.schedulers : 1;
  banks_ = oc.banks;
  banks_per_part_ = std::max(1u, banks_ / parts_);
  writeback_latency_ = oc.writeback_latency;
  const uint32_t counts[kSets] = {oc.collectors,    oc.collectors_sp,  oc.collectors_int,
                                  oc.collectors_dp, oc.collectors_sfu, oc.collectors_mem};
  const Unit set_unit[kSets] = {Unit::kCount, Unit::SP, Unit::INT, Unit::DP, Unit::SFU, Unit::MEM};
  for (uint32_t s = 1; s < kSets; ++s)
    if (counts[s] / parts_ > 0) set_index_[int(set_unit[s])] = s;
  // A unit whose own set and the general set are both empty borrows the SP set.
  for (int u = 0; u < kNumUnits; ++u)
    if (set_index_[u] == 0 && counts[0] / parts_ == 0) set_index_[u] = set_index_[int(Unit::SP)];
  shares_.resize(size_t(kSets) * parts_);
  for (uint32_t s = 0; s < kSets; ++s)
    for (uint32_t p = 0; p < parts_; ++p) shares_[s * parts_ + p].free_step.assign(counts[s] / parts_, 0);
  bank_steps_.resize(banks_);
  // Uncontended: allocated in the first step of the next cycle, operands read the step after,
  // dispatched the step after that, in the unit the cycle after the dispatch.
  uint64_t dispatch = uint64_t(1) * steps_ + 2;
  base_delay_ = uint32_t(dispatch / steps_ + 1);
}

uint32_t OperandCollector::set_of(Unit u) const { return set_index_[int(u)]; }

uint32_t OperandCollector::bank_of(int sched, int warp_slot, RegId r) const {
  uint32_t b = uint32_t(r) + uint32_t(warp_slot);
  if (parts_ > 1) return b % banks_per_part_ + uint32_t(sched) * banks_per_part_;
  return b % banks_;
}

uint64_t OperandCollector::accept_cycle(int sched, Unit unit, uint64_t now) const {
  const Share& sh = share(sched, unit);
  if (sh.free_step.empty()) return now;
  uint64_t f = *std::min_element(sh.free_step.begin(), sh.free_step.end());
  uint64_t waiting = sh.waiting_until[int(unit)];
  if (f <= (now + 2) * steps_ - 1 || waiting <= (now + 1) * steps_) return now;
  // The first cycle c with f <= (c+2)*steps-1 or waiting <= (c+1)*steps.
  uint64_t by_unit = (f + 1 + steps_ - 1) / steps_ - 2;
  uint64_t by_slot = (waiting + steps_ - 1) / steps_ - 1;
  return std::max(now + 1, std::min(by_unit, by_slot));
}

uint64_t OperandCollector::reserve_reads(int sched, int warp_slot, const RegId* src, int nsrc, uint64_t now,
                                         uint64_t alloc, uint64_t* conflicts) {
  uint64_t ready = alloc;
  for (int i = 0; i < nsrc; ++i) {
    RegId r = src[i];
    if (r == kNoReg || std::find(src, src + i, r) != src + i) continue;  // each register read once
    SlotRing<kRing>& bank = bank_steps_[bank_of(sched, warp_slot, r)];
    bank.advance(now * steps_);
    uint64_t s = alloc + 1;
    while (bank.in_window(s) && bank.taken(s)) ++s;
    if (s != alloc + 1) ++*conflicts;
    if (bank.in_window(s)) bank.take(s);
    ready = std::max(ready, s);
  }
  return ready;
}

uint32_t OperandCollector::collect(int sched, int warp_slot, Unit unit, const RegId* src, int nsrc, uint64_t now,
                                   uint64_t* conflicts) {
  Share& sh = share(sched, unit);
  if (sh.free_step.empty()) return base_delay_;  // not reached: validate() requires a set
  auto cu = std::min_element(sh.free_step.begin(), sh.free_step.end());
  uint64_t alloc = std::max((now + 1) * steps_, *cu);
  if (alloc > (now + 2) * steps_ - 1) sh.waiting_until[int(unit)] = alloc;
  uint64_t dispatch = reserve_reads(sched, warp_slot, src, nsrc, now, alloc, conflicts) + 1;
  *cu = dispatch;
  return uint32_t(dispatch / steps_ + 1 - now);
}

OperandCollector::Route OperandCollector::collect_queued(int sched, int warp_slot, Unit unit, const RegId* src,
                                                         int nsrc, uint64_t now, uint64_t out_free,
                                                         uint64_t* conflicts) {
  Share& sh = share(sched, unit);
  Route r;
  if (sh.free_step.empty()) {  // not reached: validate() requires a set
    r.alloc = now + 1;
    r.dispatch = now + base_delay_ - 1;
    return r;
  }
  // The collector step runs before issue in a cycle: a unit dispatched in step d is allocated
  // again in step d, and the instruction leaves its issue slot in the cycle of its allocation.
  auto cu = std::min_element(sh.free_step.begin(), sh.free_step.end());
  uint64_t alloc = std::max((now + 1) * steps_, *cu);
  uint64_t dispatch =
      std::max(reserve_reads(sched, warp_slot, src, nsrc, now, alloc, conflicts) + 1, out_free * steps_);
  *cu = dispatch;
  r.alloc = alloc / steps_;
  r.dispatch = dispatch / steps_;
  return r;
}

bool OperandCollector::change_holds(Share& sh, uint32_t n, uint64_t now) {
  n = std::min<uint32_t>(n, uint32_t(sh.free_step.size()));
  while (sh.held.size() < n) {  // the unit free soonest (the one the last instruction took)
    uint32_t best = ~0u;
    for (uint32_t i = 0; i < sh.free_step.size(); ++i)
      if (sh.free_step[i] < kHeldStep && (best == ~0u || sh.free_step[i] < sh.free_step[best])) best = i;
    sh.held.push_back({best, sh.free_step[best]});
    ++held_total_;
    sh.free_step[best] = kHeldStep;
  }
  const bool released = sh.held.size() > n;
  while (sh.held.size() > n) {  // the instruction held longest moves on first
    const Share::Held h = sh.held.front();
    sh.held.erase(sh.held.begin());
    --held_total_;
    sh.free_step[h.unit] = std::max(h.saved, (now + 1) * steps_);
  }
  return released;
}

void OperandCollector::write_back(int sched, int warp_slot, const RegId* dst, int ndst, uint64_t cycle) {
  for (int i = 0; i < ndst; ++i) {
    if (dst[i] == kNoReg) continue;
    SlotRing<kRing>& bank = bank_steps_[bank_of(sched, warp_slot, dst[i])];
    if (bank.in_window(cycle * steps_)) bank.take(cycle * steps_);
  }
}

}  // namespace warpsim

// The crossbar between SMs and L2 slices.
//
// Every port moves a fixed number of flits per cycle: an SM injects and ejects
// icnt.sm_flits_per_cycle, an L2 slice accepts and returns icnt.slice_flits_per_cycle. A port's
// time is counted in flit slots (cycle c owns slots [c*rate, (c+1)*rate)); a packet of f flits
// reserves f consecutive slots at its source port, crosses the network in icnt.latency cycles
// (per flit, cut-through) and reserves f slots at its destination port no earlier than its head
// flit arrives. It is delivered when its last flit has both arrived and passed the destination
// port. With one flit per cycle everywhere and no contention, a packet of f flits ready at cycle
// c is delivered at c + latency + f - 1.
//
// Up (SM -> slice) packets are sent during a cycle in which the SM port has a free slot, so
// their head flits leave in send order and the slice port is reserved at send time. Down
// (slice -> SM) packets can leave slices in any order, so they wait in a heap ordered by head
// arrival and reserve the SM ejection port in that order; an SM receives its packets oldest
// first.
//
// The SMs of a cluster (core.sms_per_cluster; SM s in cluster s mod the number of clusters)
// share their crossbar port: the ejection port and, with icnt.request_input_queued, the request
// FIFO. Each SM keeps its own injection slots.
//
// With icnt.input_queued the down direction is an input-queued crossbar instead: each slice
// keeps its packets in a FIFO; in every cycle each SM whose ejection port is free grants one of
// the slices whose head packet is ready and addressed to it, the first at or after its
// round-robin pointer (which then moves past the granted slice). The granted packet occupies
// the slice port and the SM port for its flits and arrives icnt.latency cycles later; a head
// packet that is not granted holds back every packet behind it in its slice.
//
// With icnt.request_input_queued the up direction is input-queued as well: a packet waits in
// the FIFO of its SM's port, in the order packets left their SMs, from the cycle its first flit
// is injected; in every cycle the slices, in index order, each grant the first port at or after
// their round-robin pointer whose head packet is ready and addressed to them (the pointer then
// moves past that port). A granted packet occupies the slice port for its flits and reaches the
// slice icnt.latency cycles later; a head whose slice is taken, busy or full holds back every
// packet behind it in its port.
//
// In both input-queued directions an input sends at most one packet per cycle (each input is
// matched with one output, as in booksim's iSLIP), unless icnt.sequential_grants: then the
// outputs take their head packets one after another in index order and an input whose head
// crossed may send its next packet to a later output in the same cycle (GPGPU-Sim's local
// crossbar, xbar_router::iSLIP_Advance).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/config.h"
#include "memory/mem_request.h"
#include "memory/ring.h"

namespace warpsim {

class Interconnect {
 public:
  Interconnect(const IcntConfig& cfg, uint32_t num_sms, uint32_t num_slices, uint32_t sms_per_cluster = 1);

  uint32_t flits(uint32_t bytes) const {
    uint32_t f = (bytes + flit_ - 1) / flit_;
    return f ? f : 1;
  }
  uint32_t latency() const { return latency_; }
  uint32_t num_sms() const { return uint32_t(sm_up_.size()); }

  // True when SM `sm` has a free injection slot in cycle `now`.
  bool sm_port_free(uint32_t sm, uint64_t now) const { return sm_up_[sm] < (now + 1) * sm_rate_; }
  uint64_t sm_port_free_cycle(uint32_t sm, uint64_t now) const {
    uint64_t c = sm_up_[sm] / sm_rate_;
    return c > now ? c : now;
  }
  // Sending `flits` from SM `sm` in cycle `now` is two halves: leave_sm reserves the SM's
  // injection slots (and returns the first); then either reach_slice reserves the slice's input
  // slots for a packet whose first flit left in slot `first_slot` and returns the cycle the whole
  // packet has been received by the slice, or (icnt.request_input_queued) queue_up queues it at
  // the SM's port. Only leave_sm touches the SM's state, so SMs may call it concurrently and the
  // second halves follow in SM order.
  uint64_t leave_sm(uint32_t sm, uint32_t flits, uint64_t now) {
    uint64_t s0 = std::max(sm_up_[sm], now * sm_rate_);
    sm_up_[sm] = s0 + flits;
    return s0;
  }
  uint64_t reach_slice(uint32_t slice, uint32_t flits, uint64_t first_slot);
  // Queues a response of `flits` at slice `slice`, ready to leave at cycle `ready`. A packet that
  // does not `complete` its request (an earlier sector of a reply sent sector by sector) takes
  // its slots at both ports and is dropped on delivery; the request is delivered with its last
  // packet, which leaves the slice after the others and so reaches the SM after them.
  void send_down(uint32_t slice, const MemRequest& resp, uint32_t flits, uint64_t ready, bool complete = true);
  // Moves down packets whose head reached their SM by `now` through the SM ejection port.
  void tick(uint64_t now);
  // Oldest response delivered to `sm` by `now`; `done` is its delivery cycle.
  bool pop(uint32_t sm, uint64_t now, MemRequest& out, uint64_t& done) {
    if (!take(sm, now, out, done)) return false;
    --delivered_;
    return true;
  }
  // pop() that leaves the count of deliveries alone (touches only `sm`'s queue, so SMs may call
  // it concurrently); untaken(n) then settles n of them.
  bool take(uint32_t sm, uint64_t now, MemRequest& out, uint64_t& done);
  void untaken(uint64_t n) { delivered_ -= n; }
  bool can_pop(uint32_t sm, uint64_t now) const {
    const auto& q = delivered_q_[sm];
    return !q.empty() && q.front().done <= now;
  }
  // Earliest cycle at which tick() or pop() has something to do (UINT64_MAX: nothing).
  uint64_t next_event() const;
  // Earliest cycle at which tick() has something to do (deliveries waiting for pop() aside).
  uint64_t next_tick_event() const {
    return std::min({heap_.empty() ? UINT64_MAX : heap_.front().head, queued_ ? next_try_ : UINT64_MAX,
                     up_queued_ ? next_up_try_ + 1 : UINT64_MAX});
  }
  uint64_t packets_in_transit() const { return heap_.size() + queued_ + delivered_ + up_queued_; }

  // The input-queued up direction (icnt.request_input_queued).
  struct Crossing {
    MemRequest req;
    uint64_t slice_addr = 0, arrival = 0;  // arrival: the cycle the whole packet is at the slice
    uint32_t slice = 0;
  };
  bool request_input_queued() const { return up_mode_; }
  // Whether SM `sm` may queue one more request, `pending` units (packets, or flits with
  // icnt.sm_input_queue_flits) of its requests not queued yet. Each SM of a cluster may fill its
  // share of the cluster's FIFO (icnt.sm_input_queue units).
  bool sm_queue_free(uint32_t sm, size_t pending) const { return sm_queued_[sm] + pending < sm_queue_share_; }
  // Whether an SM's share counts flits (icnt.sm_input_queue_flits), and what a packet of `flits`
  // flits takes of it.
  bool queue_counts_flits() const { return queue_flits_; }
  uint32_t queue_units(uint32_t flits) const { return queue_flits_ ? flits : 1; }
  // Queues a request of `packets` packets of `flits` flits each, whose first flit leaves SM `sm`
  // in slot `first_slot` (leave_sm reserved packets x flits slots). A port's FIFO holds packets
  // in the order their first flits left their SMs (the SMs of a cluster interleave). A read or
  // write of several packets (sector_packets) reaches the slice packet by packet, each an access
  // of its own sector (MemRequest::part), and is delivered to its SM with the answer of its last
  // part to arrive.
  void queue_up(uint32_t sm, uint32_t slice, uint64_t slice_addr, const MemRequest& req, uint32_t packets,
                uint32_t flits, uint64_t first_slot);
  // Runs the grants of every cycle before `now` (the sends of cycle `now` come after it) and
  // appends the packets that crossed, in crossing order. A slice whose slice_full entry is set
  // takes nothing.
  void cross_up(uint64_t now, const std::vector<uint8_t>& slice_full, std::vector<Crossing>& out);

 private:
  struct Packet {
    MemRequest req;
    uint64_t head = 0, tail = 0, seq = 0;  // cycles the first / last flit reach the SM
    uint32_t flits = 0;
    bool complete = true;
  };
  struct Delivery {
    MemRequest req;
    uint64_t done = 0;
  };
  static bool later(const Packet& a, const Packet& b) { return a.head != b.head ? a.head > b.head : a.seq > b.seq; }

  struct UpPacket {
    MemRequest req;                      // a whole request, or one sector part of a split read
    uint64_t slice_addr = 0, ready = 0;  // ready: the cycle its first flit has left the SM
    uint32_t slice = 0, flits = 0;
  };
  // The candidates of one cycle of an input-queued direction: granted output by output in index
  // order and, for each output, nearest its round-robin pointer first ((output, rank, input) in
  // one integer, smallest first).
  // The grants of one cycle, taken in order of (output, rank): a few dozen entries at most, so
  // a sorted vector read from the front.
  struct GrantQueue {
    std::vector<uint64_t> keys;
    size_t next = 0;
    void clear() {
      keys.clear();
      next = 0;
    }
    static uint64_t key(uint32_t output, uint32_t rank, uint32_t input) {
      return (uint64_t(output) << 32) | (uint64_t(rank) << 16) | input;
    }
    void add(uint32_t output, uint32_t rank, uint32_t input) { keys.push_back(key(output, rank, input)); }
    void order() { std::sort(keys.begin(), keys.end()); }
    // After order(): an entry that comes after the last one taken.
    void insert(uint32_t output, uint32_t rank, uint32_t input) {
      const uint64_t k = key(output, rank, input);
      keys.insert(std::lower_bound(keys.begin() + std::ptrdiff_t(next), keys.end(), k), k);
    }
    bool take(uint32_t& output, uint32_t& input) {
      if (next == keys.size()) return false;
      output = uint32_t(keys[next] >> 32);
      input = uint32_t(keys[next] & 0xffff);
      ++next;
      return true;
    }
  };
  void arbitrate(uint64_t now);  // one cycle of the input-queued crossbar
  void arbitrate_up(uint64_t at, const std::vector<uint8_t>& slice_full, std::vector<Crossing>& out);
  void deliver(const Packet& p, uint64_t done);

  uint32_t port(uint32_t sm) const { return port_of_[sm]; }

  uint32_t latency_, flit_, sm_rate_, slice_rate_, ports_;
  std::vector<uint32_t> port_of_;  // each SM's crossbar port (SM s is in cluster s mod ports)
  bool input_queued_, sequential_, up_mode_;
  uint32_t sm_queue_share_;
  bool queue_flits_;
  std::vector<Ring<Packet>> slice_q_;           // input-queued: each slice's packets in order
  std::vector<uint64_t> slice_free_, sm_free_;  // input-queued: cycle each port is free again
  std::vector<uint32_t> rr_;                    // input-queued: each SM port's round-robin pointer
  GrantQueue down_grants_;                      // input-queued: scratch
  std::vector<uint32_t> busy_slices_;           // input-queued: the slices with packets queued
  uint64_t queued_ = 0;
  uint64_t next_try_ = UINT64_MAX;              // input-queued: earliest cycle a head may cross
  std::vector<uint64_t> sm_up_, sm_down_;       // next free slot of each SM's injection, each port's ejection
  std::vector<uint64_t> slice_in_, slice_out_;  // next free slot of each slice's ports
  std::vector<uint64_t> sm_last_done_;
  std::vector<Ring<UpPacket>> sm_q_;     // request_input_queued: each port's packets in order
  std::vector<uint32_t> sm_queued_;      // packets (or flits) of each SM in its port's FIFO
  std::vector<uint32_t> up_busy_ports_;  // ports with packets queued
  std::vector<uint64_t> up_slice_free_, up_port_free_;
  std::vector<uint16_t> up_rr_;  // each slice's round-robin pointer over the ports
  GrantQueue up_grants_;         // scratch
  uint64_t up_queued_ = 0, next_up_try_ = UINT64_MAX;
  struct Group {
    MemRequest req;          // the whole read, delivered with its last part
    uint32_t remaining = 0;  // parts not delivered yet
  };
  std::vector<Group> groups_;
  std::vector<uint32_t> free_groups_;
  std::vector<Packet> heap_;                 // down packets in flight, min-heap on head
  std::vector<Ring<Delivery>> delivered_q_;  // per SM, delivery order
  uint64_t seq_ = 0, delivered_ = 0;
};

}  // namespace warpsim

// The LD/ST unit of an SM: a queue of issued memory instructions processed in order. Shared
// memory accesses take one cycle per bank-conflict degree; constant accesses one per distinct
// address; global, local and texture accesses are coalesced into line accesses that go through
// the L1D (with MSHRs) to the memory system.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/warp_inst.h"
#include "memory/cache.h"
#include "memory/memory_system.h"
#include "timing/l1_lookup_pipe.h"
#include "timing/ldst_head_wait.h"
#include "timing/stats.h"

namespace warpsim {

class Sm;

class LdstUnit {
 public:
  LdstUnit(int sm_id, const GpuConfig& cfg, MemorySystem& mem);
  // Drops every line of the L1D, dirty ones too, without writing them back (as GPGPU-Sim's
  // flush does); call it with no access in flight.
  void invalidate_l1() {
    l1d_.invalidate_all();
    l1d_.evictions().clear();
  }
  // Copy of `o` for a copied GPU whose configuration and memory system are `cfg` and `mem`.
  // Queued operations keep pointing into the (shared, immutable) CTA instruction tables.
  LdstUnit(const LdstUnit& o, const GpuConfig& cfg, MemorySystem& mem);
  LdstUnit(const LdstUnit&) = delete;

  bool full() const { return queue_count_ >= queue_cap_; }
  bool bounds_schedulers() const { return sched_cap_ != 0; }
  // Full for scheduler `sched`: the queue is full, or core.ldst_queue_per_scheduler of its
  // instructions wait behind the head (the head is in the unit's dispatch register, which is
  // not the scheduler's).
  bool full(int sched) const { return queue_count_ >= queue_cap_ || (sched_cap_ && waiting(sched) >= sched_cap_); }
  // Instructions that have left the queue so far (a count that changes when one leaves).
  uint64_t dequeues() const { return dequeues_; }
  // Instructions of scheduler `sched` queued behind the head (the head is in the unit's
  // dispatch register).
  uint32_t waiting(int sched) const {
    const uint32_t head = queue_count_ && ops_[queue_[queue_head_]].sched == sched;
    return per_sched_[size_t(sched)] - head;
  }
  // A memory instruction issued by warp `slot` of scheduler `sched`, with its 32 lanes'
  // addresses (copied; nullptr: none). Local memory: lane l's word k lies at thread
  // `local_thread` + l of word-row k, each row `local_stride` threads of 4 bytes
  // (core.local_layout).
  void push(int slot, int sched, const WarpInst& inst, const uint64_t* lane_addrs, uint64_t local_thread,
            uint64_t local_stride, uint64_t now);
  // One cycle: consume responses, process the head of the queue, send requests.
  // Completions are reported to `sm`. Returns true when anything happened.
  bool cycle(Sm& sm, uint64_t now, CoreStats& stats);
  bool has_queued() const { return queue_count_ > 0; }
  // Why the head instruction is still blocked as in its last attempt (None: it is not, or there
  // is none): processing it again would change nothing but count the failed attempt. It waits
  // for a request to leave (RequestQueueFull) or for the L1D to change, in practice a fill, which
  // comes with a memory response (L1Fail): events of the memory system, not of this unit.
  LdstHeadWait::Reason head_blocked() const;
  // Accounts `n` cycles in which the unit was not ticked because nothing could change (the
  // GPU skipped them): a head blocked on the L1D counts one failed lookup in each.
  void skip_cycles(uint64_t n, CoreStats& stats);
  // Line accesses whose data arrived and that wait for the writeback port.
  bool has_writebacks() const { return wb_head_ < writebacks_.size(); }
  // Requests that can leave for the interconnect at `now` (or wait only for it to take them).
  bool has_outgoing(uint64_t now) const {
    return !line_fetches_.empty() || (out_count_ > 0 && out_ready_[out_head_] <= now);
  }
  // The cycle the oldest request held back by the L1 latency may leave (~0 when none waits).
  // With core.l1_lookup_after_latency, also the first cycle after `now` a lookup that is not
  // blocked is due.
  uint64_t next_request_ready(uint64_t now) const {
    const uint64_t t = out_count_ > 0 ? out_ready_[out_head_] : ~0ull;
    return lookup_.empty() ? t : std::min(t, lookup_.next_due(now, l1d_.generation(), out_count_));
  }
  // Sends an I-cache miss of `line_addr` (code address space) to memory; the response calls
  // Sm::instruction_arrived(mshr). Instruction lines live in their own region of the address
  // space, above local memory.
  void fetch_instructions(uint64_t line_addr, int mshr, uint32_t line_bytes, uint64_t now);
  uint64_t busy_until() const { return busy_until_; }
  uint32_t in_flight() const { return in_flight_; }
  // Nothing queued, waiting to leave or to be written back, and no request out in memory: no
  // cycle of this unit can change anything until the SM issues a memory instruction again.
  bool quiet() const {
    return queue_count_ == 0 && out_count_ == 0 && line_fetches_.empty() && !has_writebacks() && requests_out_ == 0 &&
           lookup_.empty();
  }

  Cache& l1d() { return l1d_; }
  Cache& constcache() { return const_; }

  // Shared-memory cycles for the lanes' accesses (1 = conflict free); bank_width is a power of two.
  static uint32_t bank_conflict_degree(const uint64_t* addrs, uint32_t mask, uint32_t width, uint32_t banks,
                                       uint32_t bank_width);
  // The same by sorting every word: the reference the per-bank lists fall back to.
  static uint32_t bank_conflict_degree_sorted(const uint64_t* addrs, uint32_t mask, uint32_t per_lane, uint32_t bmask,
                                              uint32_t bank_width);

 private:
  static constexpr uint32_t kDirect = 1u << 31;  // response token: op index, not an MSHR
  static constexpr uint32_t kWriteAck = 1u << 30;
  static constexpr uint32_t kInstFetch = 1u << 29;   // response token: I-cache MSHR
  static constexpr uint32_t kConstFetch = 1u << 28;  // response token: constant-cache MSHR
  static constexpr uint32_t kMaxAccess = 64;
  static constexpr uint8_t kNoBank = 0xff;

  // Whether a request for `addr` may enter the interconnect this cycle (icnt.slice_back_pressure
  // picks whether only its own slice's queue or every slice's can hold it back).
  bool can_send(uint64_t addr, uint64_t now) const {
    return cfg_.icnt.slice_back_pressure ? mem_.can_send(sm_id_, addr, now) : mem_.can_send(sm_id_, now);
  }

  struct Access {
    uint64_t line;
    uint32_t sectors;  // 32-byte sectors of the line
    uint16_t bytes;
    LineBytes written;  // stores: the bytes of the line the lanes write (lines of at most 128 bytes)
  };
  struct Op {
    int slot;
    int sched;  // the issuing scheduler
    RegId dst[kMaxDst];
    OpClass op;
    MemSpace space;
    bool expanded;
    bool segments;  // coalesced into 128-byte segments (icnt.store_segments)
    uint8_t n_access, next_access;
    uint32_t outstanding;  // responses still expected
    bool missed;           // an access of it missed its cache (or bypassed it): it waited on a response
    uint64_t ready;        // latest completion among hits
    uint64_t issued;       // cycle the instruction issued
    const WarpInst* inst;
    bool has_addrs;
    uint64_t addrs[32];
    uint64_t local_thread, local_stride;
    Access acc[kMaxAccess];
  };

  void expand(Op& op);
  // core.sector_accesses: each line access of an op that goes through the L1 becomes one access
  // per 32-byte sector, in the order of the lines and, within a line, in access_order.
  void split_into_sectors(Op& op) const;
  // Whether an op's accesses go through the L1D (loads and stores it caches or writes through).
  bool through_l1(const Op& op) const;
  // Moves the requests whose lookup is due, and that find room, into the miss queue.
  void admit(uint64_t now);
  // Whether an access to L1 bank `bank` (kNoBank: one that bypasses the L1) may enter now.
  bool out_room(uint32_t bank) const {
    return out_count_ < out_cap_ && (bank == kNoBank || pipe_depth_ == 0 || pipe_count_[bank] < pipe_depth_);
  }
  void pop_out();
  // The head instruction leaves the queue (all its accesses have entered, or it was served).
  void dequeue() {
    ++dequeues_;
    --per_sched_[size_t(ops_[queue_[queue_head_]].sched)];
    queue_head_ = (queue_head_ + 1) % queue_cap_;
    --queue_count_;
  }
  // Sends the next line fetch or the oldest request that may leave; true if one left.
  bool send(uint64_t now);
  MemRequest request(const Access& a, uint64_t now) const;
  // The L1D read of line access `a` of op `idx`: a hit completes at `hit_ready`, a miss's request
  // may leave at `req_ready` (through latency pipeline `pipe`). False: the lookup failed.
  bool read_l1(Sm& sm, uint32_t idx, const Access& a, uint64_t now, uint64_t hit_ready, uint64_t req_ready,
               uint8_t pipe, CoreStats& stats);
  void write(uint32_t idx, const Access& a, bool l1_write, bool sector_packets, uint64_t now, uint64_t req_ready,
             uint8_t pipe, CoreStats& stats);
  bool look_up_due(Sm& sm, uint64_t now, CoreStats& stats);
  bool process_head(Sm& sm, uint64_t now, CoreStats& stats);
  void count_failed_lookups(uint64_t n, CoreStats& stats);
  bool process_const_through_memory(Sm& sm, uint32_t idx, uint64_t now, CoreStats& stats);
  // Kernel parameters live at kParamBase + their offset in the parameter buffer, the same
  // lines for every kernel (GPGPU-Sim's parameter memory), clear of device memory and code.
  static constexpr uint64_t kParamBase = uint64_t(1) << 45;
  bool const_cached_param(const WarpInst& in) const {
    return in.space == MemSpace::Param && !(in.flags & kFlagCallParam) && cfg_.core.param_through_const_cache;
  }
  // The constant-cache address of the lowest lane in `mask` of constant or parameter load `op`.
  uint64_t const_address(const Op& op, uint32_t mask) const {
    uint64_t a = op.has_addrs ? op.addrs[std::countr_zero(mask)] : 0;
    return const_cached_param(*op.inst) ? kParamBase + a : a;
  }
  void complete(Sm& sm, uint32_t idx, uint64_t ready, uint64_t now);
  void access_arrived(Sm& sm, uint32_t idx, uint64_t now);
  void enqueue_request(const MemRequest& r, uint64_t ready = 0, uint8_t bank = kNoBank);
  void grow_out();
  void fetch_line(uint64_t addr, uint32_t line_bytes, uint32_t token, uint64_t now);
  void flush_evictions(uint64_t now, uint64_t ready);
  uint32_t to_cache_sectors(const Cache& c, uint32_t sectors32) const;
  static uint32_t from_cache_sectors(const Cache& c, uint32_t sectors);
  static uint32_t whole_segments(uint32_t sectors);
  uint32_t l1_bank(const Access& a) const;

  int sm_id_;
  const GpuConfig& cfg_;
  MemorySystem& mem_;
  Cache l1d_, const_;
  std::vector<Op> ops_;
  std::vector<uint32_t> free_ops_;
  std::vector<uint32_t> queue_;  // ring of op indices
  uint32_t queue_head_ = 0, queue_count_ = 0, queue_cap_;
  uint32_t sched_cap_ = 0;           // core.ldst_queue_per_scheduler
  std::vector<uint32_t> per_sched_;  // queued instructions per issuing scheduler
  uint64_t dequeues_ = 0;
  // Requests on their way to the interconnect, in order: the first `admitted_` passed their tag
  // lookup and wait in the miss queue (l1d.miss_queue of them at most); the rest are still in an
  // L1 bank's latency pipeline (core.l1_miss_after_latency: l1d.latency stages per bank, GPGPU-Sim's
  // l1_latency_queue), or wait at its last stage for room in the miss queue.
  std::vector<MemRequest> out_;       // ring of requests waiting for the interconnect
  std::vector<uint64_t> out_ready_;   // per entry of out_: the first cycle it may leave
  std::vector<uint8_t> out_bank_;     // per entry: its L1 bank's pipeline (kNoBank: none)
  std::vector<uint32_t> pipe_count_;  // per L1 bank: entries in its latency pipeline
  L1LookupPipe lookup_;               // core.l1_lookup_after_latency: the accesses waiting for their lookup
  uint32_t admitted_ = 0;
  uint32_t out_cap_, miss_cap_, pipe_depth_;
  std::vector<MemRequest> line_fetches_;  // I-cache and constant-cache misses waiting for the interconnect (FIFO)
  uint32_t out_head_ = 0, out_count_ = 0;
  // Line accesses whose data arrived (MSHR waiters in fill order, direct responses), waiting
  // for the writeback port (core.mem_writeback_per_cycle); FIFO from wb_head_.
  std::vector<uint32_t> writebacks_;
  size_t wb_head_ = 0;
  uint64_t busy_until_ = 0;
  LdstHeadWait head_wait_;
  uint32_t in_flight_ = 0;
  uint32_t requests_out_ = 0;  // requests sent to memory whose response has not come back
  uint32_t line_bytes_;
  // icnt.request_packets: accesses past the L1 / through it cross as one packet per sector.
  bool sector_direct_, sector_misses_;
  bool cta_local_;         // core.local_layout "cta"
  bool descending_order_;  // core.access_order "descending"
  bool sector_accesses_;   // core.sector_accesses
};

}  // namespace warpsim

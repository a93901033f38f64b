// The operand collector between issue and the execution units (docs/timing-model.md, "Operand
// collector"): an issued instruction waits for a collector unit of its set, reads each distinct
// source register from its bank (one access per bank per collector step, write-backs first)
// and is dispatched to its unit the step after its last read. Reservations are made when the
// instruction issues, so the whole path is known at once: collect() returns the cycles from
// issue to the unit.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/warp_inst.h"
#include "timing/slot_ring.h"

namespace warpsim {

class OperandCollector {
 public:
  explicit OperandCollector(const GpuConfig& cfg);

  bool enabled() const { return enabled_; }
  bool queued_dispatch() const { return queued_; }
  // The first cycle >= now at which an instruction for `unit` from scheduler `sched` can issue:
  // a collector unit of its share frees during the next cycle, or the scheduler's waiting slot
  // for that unit is empty.
  uint64_t accept_cycle(int sched, Unit unit, uint64_t now) const;
  // Reserves a collector unit and the register reads of an instruction of warp `warp_slot`
  // issued at `now`; returns the cycles from issue to its execution unit and counts the reads
  // that found their bank taken in *conflicts.
  uint32_t collect(int sched, int warp_slot, Unit unit, const RegId* src, int nsrc, uint64_t now, uint64_t* conflicts);
  // oc.queued_dispatch: reserves a collector unit allocated at `alloc_cycle` or later (the
  // instruction left its issue slot then) and the register reads of an instruction issued at
  // `now`; it is dispatched towards its unit no earlier than `out_free`, the cycle a slot of the
  // collector-to-unit register frees. Returns the allocation and dispatch cycles; the collector
  // unit is free again from the dispatch.
  struct Route {
    uint64_t alloc = 0;     // cycle the instruction moved from its issue slot into a collector
    uint64_t dispatch = 0;  // cycle it moved into the collector-to-unit register
  };
  Route collect_queued(int sched, int warp_slot, Unit unit, const RegId* src, int nsrc, uint64_t now, uint64_t out_free,
                       uint64_t* conflicts);
  // oc.mem_holds_collectors: `n` collector units of the set that serves `unit` for scheduler
  // `sched` are held from cycle `now` by memory instructions waiting for the LD/ST unit (fewer if
  // the set has fewer). A held unit is allocated to nothing else; one given back is free from the
  // cycle after `now` or from the end of what it was reserved for, whichever is later. True if a
  // unit was given back.
  bool hold(int sched, Unit unit, uint32_t n, uint64_t now) {
    Share& sh = share(sched, unit);
    if (sh.held.size() == std::min<size_t>(n, sh.free_step.size())) return false;
    return change_holds(sh, n, now);
  }
  // Whether schedulers share their collector units (a unit given back may serve any of them).
  bool shared_between_schedulers() const { return parts_ == 1; }
  // Whether every collector unit that serves `unit` for `sched` is held.
  bool all_held(int sched, Unit unit) const {
    if (held_total_ == 0) return false;
    const Share& sh = share(sched, unit);
    return !sh.free_step.empty() && sh.held.size() == sh.free_step.size();
  }
  // A result written back to `dst` registers at cycle `cycle` takes the bank's first step then.
  void write_back(int sched, int warp_slot, const RegId* dst, int ndst, uint64_t cycle);
  // Issue-to-unit cycles of an instruction that meets no conflict (and has a source register).
  uint32_t base_delay() const { return base_delay_; }
  uint32_t writeback_latency() const { return writeback_latency_; }

 private:
  static constexpr uint32_t kRing = 4096;    // steps of bank reservations kept ahead
  struct Share {                             // one scheduler's collector units of one set
    std::vector<uint64_t> free_step;         // first step each unit can be allocated again
    uint64_t waiting_until[kNumUnits] = {};  // step the waiting instruction gets its unit
    struct Held {
      uint32_t unit;   // index into free_step (which holds kHeldStep meanwhile)
      uint64_t saved;  // its free step before it was held
    };
    std::vector<Held> held;  // oc.mem_holds_collectors
  };
  static constexpr uint64_t kHeldStep = uint64_t(1) << 60;
  uint32_t held_total_ = 0;  // units held in all shares
  uint32_t set_of(Unit u) const;
  bool change_holds(Share& sh, uint32_t n, uint64_t now);
  uint32_t bank_of(int sched, int warp_slot, RegId r) const;
  // Reserves the reads of `src` for a collector allocated at step `alloc`; the last read's step.
  uint64_t reserve_reads(int sched, int warp_slot, const RegId* src, int nsrc, uint64_t now, uint64_t alloc,
                         uint64_t* conflicts);
  Share& share(int sched, Unit u) { return shares_[set_of(u) * parts_ + uint32_t(parts_ > 1 ? sched : 0)]; }
  const Share& share(int sched, Unit u) const { return shares_[set_of(u) * parts_ + uint32_t(parts_ > 1 ? sched : 0)]; }

  bool enabled_ = false;
  bool queued_ = false;
  uint32_t steps_ = 1;  // collector steps per cycle
  uint32_t banks_ = 1, banks_per_part_ = 1;
  uint32_t parts_ = 1;  // schedulers in sub-core mode, else 1
  uint32_t base_delay_ = 0, writeback_latency_ = 0;
  uint32_t set_index_[kNumUnits] = {};  // unit -> collector set (0 = general)
  std::vector<Share> shares_;           // set x part
  std::vector<SlotRing<kRing>> bank_steps_;
};

}  // namespace warpsim

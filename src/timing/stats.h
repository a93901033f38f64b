// Additive counters of a run. Per-kernel figures are differences of two snapshots, whole-run
// figures the final snapshot. Every counter is declared once, in CoreStats::visit() and
// MemoryStats::visit(); timing/statistics.h lists them by name.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/statistic.h"
#include "core/warp_inst.h"
#include "memory/memory_system.h"

namespace warpsim {

// What a warp scheduler did in one cycle.
enum class CycleClass : uint8_t {
  Issued = 0,
  Declined,  // a warp was ready but the policy chose not to issue (e.g. RLWS NO_INSTR)
  UnitBusy,  // the best candidate waited for its unit
  RAW,       // ... for a register (scoreboard)
  Control,   // ... for a taken branch to resolve
  Barrier,   // every candidate waits at a barrier
  Idle,      // instruction buffers empty (fetch, I-cache)
  NoWarp,    // no live warp on this scheduler
  kCount
};
inline constexpr int kNumCycleClasses = int(CycleClass::kCount);
std::string_view cycle_class_name(CycleClass c);

// Additive counters of an SM, each declared once in visit() (core/statistic.h).
struct CoreStats {
  uint64_t warp_insts = 0, thread_insts = 0;
  uint64_t sched_cycles[kNumCycleClasses] = {};
  uint64_t unit_busy[kNumUnits] = {};  // UnitBusy cycles by the unit waited for
  uint64_t issued_by_unit[kNumUnits] = {};
  uint64_t l1d_hits = 0, l1d_misses = 0, l1d_pending_hits = 0, l1d_fails = 0;
  uint64_t l1d_writes = 0, l1d_write_misses = 0;  // store line accesses through the L1D, and those that missed
  uint64_t l1d_sector_accesses = 0, l1d_sector_misses = 0;  // the same in the L1D's sectors (GPGPU-Sim's count)
  uint64_t l1d_bank_conflicts = 0;                          // cycles an access waited because its L1 bank was taken
  uint64_t reg_bank_conflicts = 0;                          // operand reads that found their register bank taken (oc.*)
  uint64_t icache_hits = 0, icache_misses = 0;
  uint64_t const_accesses = 0, const_misses = 0;
  uint64_t shared_insts = 0, shared_cycles = 0;  // shared_cycles - shared_insts = conflict cycles
  uint64_t global_loads = 0, global_stores = 0, atomics = 0;
  uint64_t mem_requests = 0;  // requests sent below the L1
  uint64_t ctas_done = 0;

  template <class V>
  static constexpr void visit(V& v) {
    v("warp_insts", &CoreStats::warp_insts, "warp instructions issued");
    v("thread_insts", &CoreStats::thread_insts,
      "thread instructions: lanes of the warp instructions issued whose guard predicate holds (GPGPU-Sim's "
      "gpu_sim_insn)");
    v("scheduler", &CoreStats::sched_cycles, cycle_class_element,
      "scheduler cycles by what the scheduler did: issued; declined (a ready warp was not chosen); unit_busy, raw, "
      "control (the best candidate waited for its unit, a register, a branch); barrier (every candidate waits at a "
      "barrier); idle (empty instruction buffers); no_warp");
    v("scheduler.unit_busy_by_unit", &CoreStats::unit_busy, unit_element,
      "unit_busy scheduler cycles by the functional unit waited for");
    v("issued_by_unit", &CoreStats::issued_by_unit, unit_element, "warp instructions issued per functional unit class");
    v("l1d.hits", &CoreStats::l1d_hits, "L1D load accesses that hit");
    v("l1d.misses", &CoreStats::l1d_misses, "L1D load accesses that missed (pending hits included)");
    v("l1d.pending_hits", &CoreStats::l1d_pending_hits, "L1D load misses merged into a pending miss (MSHR)");
    v("l1d.reservation_fails", &CoreStats::l1d_fails,
      "L1D load accesses the cache refused (reservation failure: no MSHR entry or merge slot free) and retried");
    v("l1d.writes", &CoreStats::l1d_writes, "store line accesses through the L1D");
    v("l1d.write_misses", &CoreStats::l1d_write_misses, "store line accesses that missed in the L1D");
    v("l1d.sector_accesses", &CoreStats::l1d_sector_accesses,
      "L1D load and store accesses counted per L1D sector they touch (l1d.sector; = line accesses when the L1D is "
      "not sectored), as GPGPU-Sim counts L1D_total_cache_accesses");
    v("l1d.sector_misses", &CoreStats::l1d_sector_misses,
      "L1D sectors a load fetched below the L1 or a store missed (loads merged into a pending miss excluded), as "
      "GPGPU-Sim counts L1D_total_cache_misses");
    v("l1d.bank_conflicts", &CoreStats::l1d_bank_conflicts,
      "cycles an L1D access waited because its data bank was taken (l1d.banks)");
    v("operand_collector.bank_conflicts", &CoreStats::reg_bank_conflicts,
      "operand reads that found their register bank taken and waited a step (oc.*; 0 when oc.enabled is false)");
    v("icache.hits", &CoreStats::icache_hits, "instruction cache hits");
    v("icache.misses", &CoreStats::icache_misses, "instruction cache misses");
    v("const.accesses", &CoreStats::const_accesses, "constant cache accesses");
    v("const.misses", &CoreStats::const_misses, "constant cache misses");
    v("shared.insts", &CoreStats::shared_insts, "shared-memory instructions");
    v("shared.cycles", &CoreStats::shared_cycles, "cycles the shared-memory instructions occupied the unit");
    v("mem_insts.global_loads", &CoreStats::global_loads, "global load instructions");
    v("mem_insts.global_stores", &CoreStats::global_stores, "global store instructions");
    v("mem_insts.atomics", &CoreStats::atomics, "atomic instructions");
    v("mem_insts.requests_below_l1", &CoreStats::mem_requests, "requests sent below the L1");
    v("ctas", &CoreStats::ctas_done, "CTAs completed");
  }

  CoreStats& operator+=(const CoreStats& o);
  CoreStats operator-(const CoreStats& o) const;

 private:
  static std::string_view cycle_class_element(int i) { return cycle_class_name(CycleClass(i)); }
  static std::string_view unit_element(int i) { return unit_name(Unit(i)); }
};

struct StatsSnapshot {
  uint64_t cycle = 0;
  CoreStats core;
  MemoryStats mem;
  StatsSnapshot operator-(const StatsSnapshot& o) const;
};

}  // namespace warpsim

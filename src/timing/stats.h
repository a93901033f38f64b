// Additive counters of a run. Per-kernel figures are differences of two snapshots, whole-run
// figures the final snapshot.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

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

struct CoreStats {
  uint64_t warp_insts = 0, thread_insts = 0;
  uint64_t sched_cycles[kNumCycleClasses] = {};
  uint64_t unit_busy[kNumUnits] = {};  // UnitBusy cycles by the unit waited for
  uint64_t issued_by_unit[kNumUnits] = {};
  uint64_t l1d_hits = 0, l1d_misses = 0, l1d_pending_hits = 0, l1d_fails = 0;
  uint64_t l1d_writes = 0, l1d_write_misses = 0;  // store line accesses through the L1D, and those that missed
  uint64_t l1d_bank_conflicts = 0;                // cycles an access waited because its L1 bank was taken
  uint64_t reg_bank_conflicts = 0;                // operand reads that found their register bank taken (oc.*)
  uint64_t icache_hits = 0, icache_misses = 0;
  uint64_t const_accesses = 0, const_misses = 0;
  uint64_t shared_insts = 0, shared_cycles = 0;  // shared_cycles - shared_insts = conflict cycles
  uint64_t global_loads = 0, global_stores = 0, atomics = 0;
  uint64_t mem_requests = 0;  // requests sent below the L1
  uint64_t ctas_done = 0;

  CoreStats& operator+=(const CoreStats& o);
  CoreStats operator-(const CoreStats& o) const;
};

struct StatsSnapshot {
  uint64_t cycle = 0;
  CoreStats core;
  MemoryStats mem;
  StatsSnapshot operator-(const StatsSnapshot& o) const;
};

}  // namespace warpsim

// What a warp scheduler may read about warps, CTAs, its SM and the GPU. Filled by the timing
// model; schedulers never change it.
#pragma once
#include <cstdint>

#include "core/warp_inst.h"

namespace warpsim {

// Why a warp cannot issue this cycle (or that it can).
enum class WarpStatus : uint8_t {
  Ready = 0,
  UnitBusy,  // next instruction's unit (or the SM's MEM/SFU issue port, or LD/ST queue) busy
  RAW,       // a source or destination register is still pending (scoreboard)
  Control,   // ibuffer empty because a taken branch has not resolved
  Barrier,   // waiting at a CTA barrier
  Idle,      // ibuffer empty (fetch / I-cache miss)
  Finished,  // exited (or no instructions left)
};
inline constexpr int kNumWarpStatus = 7;

// Per warp slot. `age` grows with launch order: smaller is older.
struct WarpInfo {
  uint64_t age = 0;
  uint32_t cta_slot = 0;  // index into SmView::ctas
  uint32_t kernel = 0;    // GPU-wide kernel launch index
  uint32_t warp_in_cta = 0;
  uint64_t issued = 0;  // instructions issued so far
  bool valid = false;   // slot holds a live warp
  bool at_barrier = false;
  bool finished = false;
};

struct CtaInfo {
  uint32_t kernel = 0;
  uint32_t cta_id = 0;
  uint16_t warps = 0;
  uint16_t at_barrier = 0;
  uint16_t finished = 0;
  bool valid = false;
};

// Counters of one SM, maintained incrementally by the timing model.
struct SmCounters {
  uint64_t insts_issued = 0;
  uint64_t alu_issued = 0;
  uint64_t mem_issued = 0;
  uint64_t mem_in_flight = 0;  // memory instructions issued and not completed
  uint64_t l1d_hits = 0, l1d_misses = 0;
  uint64_t icache_hits = 0, icache_misses = 0;
  uint64_t ctas_finished = 0;  // since the SM started its current kernel(s)
  int32_t last_mem_cta = -1;   // CTA slot of the last memory instruction issued
};

// GPU-wide counters, refreshed once per cycle.
struct GpuCounters {
  uint64_t ctas_waiting = 0;  // CTAs of launched kernels not yet dispatched
  uint64_t l2_hits = 0, l2_misses = 0;
  uint64_t avg_mem_latency = 0;  // average global read latency so far, cycles
  uint64_t mem_in_flight = 0;    // memory instructions in flight on all SMs
  uint64_t cycle = 0;
};

}  // namespace warpsim

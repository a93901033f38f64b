// Computes the RLWS state attributes (Table II) of one warp scheduler from its read-only view.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "rl/attributes.h"
#include "sched/inst_brief.h"
#include "sched/scheduler.h"

namespace warpsim {

// Counters at the start of the current kernel, so rates cover the kernel so far.
struct RlBaseline {
  SmCounters sm;
  GpuCounters gpu;
};

// WarpSummary::flags: those of the next instruction's brief (sched/inst_brief.h)
inline constexpr uint8_t kSummaryDiverged = kBriefDiverged;
inline constexpr uint8_t kSummaryLoad = kBriefLoad;

struct WarpSummary {
  uint16_t slot;
  WarpStatus status;
  PipeClass pipe;  // of the next instruction, None when unknown
  uint8_t flags = 0;
};

// One scheduler's warps in age order (oldest first), with the counts the state attributes and
// the action masks are made of, gathered in the same pass.
struct WarpSummaries {
  WarpSummary w[64];
  int n = 0;
  // Warps per (status, pipeline class of the next instruction).
  uint8_t count[kNumWarpStatus][kNumPipeClasses] = {};
  uint8_t by_status[kNumWarpStatus] = {};  // count summed over the pipeline classes
  uint8_t by_pipe[kNumPipeClasses] = {};   // count summed over the statuses
  uint8_t diverged = 0;                    // warps whose next instruction is known and diverged
  uint8_t ready_loads = 0;                 // ready warps whose next instruction reads off-chip memory
  // index_of[slot] is the slot's position in w when w[index_of[slot]].slot == slot.
  uint8_t index_of[64] = {};

  void clear();
  void add(const WarpSummary& s) { add(s.slot, s.status, s.pipe, s.flags); }
  // The same from the fields, written straight into w[n] (no WarpSummary assembled byte by byte
  // on the stack and read back whole, which stalls the load that reads it).
  void add(uint16_t slot, WarpStatus status, PipeClass pipe, uint8_t flags) {
    index_of[slot & 63] = uint8_t(n);
    WarpSummary& e = w[n++];
    e.slot = slot;
    e.status = status;
    e.pipe = pipe;
    e.flags = flags;
    count[int(status)][int(pipe)]++;
    by_status[int(status)]++;
    by_pipe[int(pipe)]++;
    if (flags & kSummaryDiverged) diverged++;
    if (status == WarpStatus::Ready && (flags & kSummaryLoad)) ready_loads++;
  }
  int with_status(WarpStatus s) const { return by_status[int(s)]; }
  int ready(PipeClass p) const { return count[int(WarpStatus::Ready)][int(p)]; }
  // The summary of warp `slot`, or null when the scheduler does not hold it.
  const WarpSummary* find(int slot) const {
    if (slot < 0 || slot >= 64) return nullptr;
    int i = index_of[slot];
    return i < n && w[i].slot == slot ? &w[i] : nullptr;
  }
};

// One pass over the scheduler's warps (oldest first) filling `out`.
void summarize_warps(const SchedulerContext& ctx, WarpSummaries& out);

// Inputs of compute_attributes besides the warps.
struct AttrInputs {
  const RlBaseline* kernel;  // counters at the kernel's start (NTF)
  const RlBaseline* ratios;  // counters the ratio and percentage attributes start from
  // RLMI's reading: null = every ready off-chip read is long-latency; otherwise only a ready
  // off-chip read whose PC is in this sorted list (observed to be long-latency).
  const std::vector<uint32_t>* long_latency_pcs = nullptr;
};
// Where an attribute's value comes from, which says when it can change.
enum class AttrSource : uint8_t {
  Summary,   // the warps' summary alone
  Counters,  // at most two SM or GPU counters and the same counters at a baseline
  Other,     // the CTAs, the warps themselves or the long-latency PCs: read every time
};
// observed_rlmi: RLMI reads the long-latency PCs (rlmi = observed), not the summary alone.
AttrSource attribute_source(rl::Attr a, bool observed_rlmi);
// A uint64_t counter of SmCounters or GpuCounters.
struct CounterRef {
  bool gpu = false;    // in GpuCounters, else in SmCounters
  uint8_t offset = 0;  // byte offset of the field
  const uint64_t* in(const SmCounters& sm, const GpuCounters& g) const {
    const char* base = gpu ? reinterpret_cast<const char*>(&g) : reinterpret_cast<const char*>(&sm);
    return reinterpret_cast<const uint64_t*>(base + offset);
  }
};
// The counters a Counters attribute reads: count is 1 or 2 for those, 0 for the others.
struct CounterInputs {
  CounterRef ref[2];
  uint8_t count = 0;
  // k[0], and k[1] (0 when one counter), now.
  void read(const SmCounters& sm, const GpuCounters& g, uint64_t k[2]) const {
    k[0] = *ref[0].in(sm, g);
    k[1] = count > 1 ? *ref[1].in(sm, g) : 0;
  }
};
CounterInputs counter_inputs(rl::Attr a);
// The baseline a Counters attribute starts from: NTF the kernel's, the others in.ratios.
const RlBaseline& counter_baseline(rl::Attr a, const AttrInputs& in);
// A Counters attribute's value from its counters now and at its baseline.
double counter_attribute(rl::Attr a, const uint64_t now[2], const uint64_t base[2]);
// One Table II attribute's value from the summaries and the SM/GPU counters.
double attribute_value(rl::Attr a, const SchedulerContext& ctx, const WarpSummaries& warps, const AttrInputs& in);

}  // namespace warpsim

// Computes the RLWS state attributes (Table II) of one warp scheduler from its read-only view.
#pragma once
#include <cstdint>
#include <vector>

#include "rl/attributes.h"
#include "sched/scheduler.h"

namespace warpsim {

// What each warp's next instruction asks for, in RLWS's pipeline classes (Table I).
enum class PipeClass : uint8_t { SP = 0, SFU, GMEM, STCMEM, None };
PipeClass pipe_class(const WarpInst& in);

// Counters at the start of the current kernel, so rates cover the kernel so far.
struct RlBaseline {
  SmCounters sm;
  GpuCounters gpu;
};

struct WarpSummary {
  uint16_t slot;
  WarpStatus status;
  PipeClass pipe;  // of the next instruction, None when unknown
};

// One pass over the scheduler's warps (oldest first) filling `warps`; returns their number.
int summarize_warps(const SchedulerContext& ctx, WarpSummary* warps);

// Inputs of compute_attributes besides the warps.
struct AttrInputs {
  const RlBaseline* kernel;  // counters at the kernel's start (NTF)
  const RlBaseline* ratios;  // counters the ratio and percentage attributes start from
  // RLMI's reading: null = every ready off-chip read is long-latency; otherwise only a ready
  // off-chip read whose PC is in this sorted list (observed to be long-latency).
  const std::vector<uint32_t>* long_latency_pcs = nullptr;
};
// Every Table II attribute value from the summaries and the SM/GPU counters.
void compute_attributes(const SchedulerContext& ctx, const WarpSummary* warps, int n, const AttrInputs& in,
                        rl::AttrValues& values);

}  // namespace warpsim

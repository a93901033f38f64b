// The bucketed RLWS state of one scheduler, recomputed only where its inputs changed: the
// attributes read from the warps' summary when the summary changes, each attribute read from
// SM or GPU counters when those counters (or the baselines) change, the others every time.
// The result is the state attribute_value and the bucketizers give from scratch.
#pragma once
#include <cstdint>
#include <vector>

#include "rl/attributes.h"
#include "rl/linear_sarsa.h"
#include "rl/rl_config.h"
#include "sched/rl_state.h"

namespace warpsim {

class RlStateEvaluator {
 public:
  // The attributes in use, bucketed over ranges that depend on the SM's shape (ctx).
  // observed_rlmi: rlmi = observed (RLMI then reads the long-latency PCs every time).
  RlStateEvaluator(const std::vector<rl::AttrUse>& attrs, const SchedulerContext& ctx, bool observed_rlmi);

  // summary_version changes whenever `warps` does, baseline_version whenever in's baselines do.
  const rl::State& evaluate(const SchedulerContext& ctx, const WarpSummaries& warps, uint64_t summary_version,
                            const AttrInputs& in, uint64_t baseline_version);

 private:
  struct Slot {
    rl::Attr attr;
    uint8_t index;  // in the state
    rl::Bucketizer bucket;
    CounterInputs inputs;              // Counters: what it reads
    const uint64_t* at[2] = {};        // Counters: where, in the counters of sm_ and gpu_
    uint64_t now[2] = {~0ull, ~0ull};  // Counters: the counters the bucket was cut from
    uint64_t base[2] = {0, 0};         // Counters: the same counters at the baseline
  };
  std::vector<Slot> summary_, counters_, other_;
  rl::State state_;
  bool primed_ = false;
  const SmCounters* sm_ = nullptr;  // the counters Slot::at points into
  const GpuCounters* gpu_ = nullptr;
  uint64_t summary_version_ = 0, baseline_version_ = 0;
};

}  // namespace warpsim

// iPAWS (instruction-issue pattern-based adaptive warp scheduling, after Lee et al., HPCA 2016,
// as the RLWS paper describes it): each scheduler samples the start of a kernel under a greedy
// order while counting the instructions every warp issues, then commits to greedy-then-oldest
// when the issue was concentrated on few warps and to loose round robin when it was spread
// evenly; a drop of the issue rate after the decision triggers a new sample. With `force` the
// committed policy is given instead of measured (the iPAWS_Oracle of RLWS Table VII). See
// docs/ipaws.md.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sched/scheduler.h"

namespace warpsim {

enum class IpawsPolicy : uint8_t { Gto = 0, Lrr = 1 };
const char* ipaws_policy_name(IpawsPolicy p);

struct IpawsOptions {
  uint64_t sample_insts = 1024;                  // a sample ends after this many issues of the scheduler (0: no limit)
  uint64_t sample_cycles = 0;                    // ... or after this many cycles (0: no limit); one must be > 0
  IpawsPolicy sample_policy = IpawsPolicy::Gto;  // order the sample runs under
  double top = 0.25;                             // the metric is the issue share of the top `top` fraction of warps
  double threshold = 0.5;                        // share >= threshold: concentrated -> GTO, else LRR
  uint64_t check_cycles = 10000;                 // recover: issue-rate window after a decision (0: never re-check)
  double drop = 0.5;                             // re-sample when a window's issue rate < (1 - drop) x the first one
  uint32_t max_resamples = 1;                    // re-samples per kernel launch at most
  // Forced committed policy per kernel launch index (entry i for launch i, the last entry for
  // later launches); empty: decide from the sample.
  std::vector<IpawsPolicy> force;
};

// Reads sample_insts, sample_cycles, sample_policy (gto|lrr), top, threshold, check_cycles,
// drop, max_resamples and force (gto|lrr or a comma-separated list per launch). Throws Error on
// a malformed or out-of-range value.
IpawsOptions ipaws_options(const SchedulerParams& params);

// Share of all issues made by the ceil(top * n) warps that issued most, over the n warps
// present in the sample (counts[i] of warp i; n = counts.size()). 1 when nothing issued or
// n <= 1. `scratch` is reused to avoid allocating.
double ipaws_top_share(std::span<const uint32_t> counts, double top, std::vector<uint32_t>& scratch);

// Normalised entropy of the issue counts: 1 for perfectly even issue over the n warps, 0 when one
// warp issued everything (0 when nothing issued or n <= 1). Reported alongside the decision metric.
double ipaws_issue_entropy(std::span<const uint32_t> counts);

// The decision for a measured share.
inline IpawsPolicy ipaws_decide(double top_share, double threshold) {
  return top_share >= threshold ? IpawsPolicy::Gto : IpawsPolicy::Lrr;
}

std::unique_ptr<WarpScheduler> make_ipaws_scheduler(const IpawsOptions& options);

}  // namespace warpsim

// The phase oracle (docs/snapshot.md): for each window of W cycles, the simulation is
// checkpointed (Gpu::clone) and every candidate fixed policy runs the window from the same
// state; the run continues from the state of the best one. The result bounds from above what a
// scheduler that switches between those policies at window granularity could gain (a greedy
// bound: the best choice per window, not the best sequence of choices).
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config.h"
#include "sched/scheduler.h"
#include "workloads/workload.h"

namespace warpsim::experiment {

// One candidate's run of a window. The choice is judged on insts, end_cycle and finished,
// which cover the window plus the look-ahead (PhaseOracleOptions::lookahead); stop_cycle is
// where the state the oracle would continue from stopped (the end of the window itself).
struct PhaseCandidate {
  std::string policy;
  uint64_t insts = 0;       // warp instructions issued from the window start to end_cycle
  uint64_t end_cycle = 0;   // where the judged run ended (the awaited kernels' end when finished)
  bool finished = false;    // the kernels the workload waits for finished within the judged run
  uint64_t stop_cycle = 0;  // where the window ended
};

struct PhaseWindow {
  uint64_t start = 0;
  int stream = -1;                         // the stream the workload was waiting for (-1: all)
  std::vector<PhaseCandidate> candidates;  // in the order of the policies
  int chosen = -1;
};

// The oracle's choice among the runs of one window: a run that finished the awaited kernels
// beats one that did not; between finished runs the earlier end wins; otherwise the one that
// issued more warp instructions. Ties go to candidate `prefer` (the policy already in place)
// when it is among them, else to the earlier candidate. -1 when empty.
int best_phase_candidate(const std::vector<PhaseCandidate>& c, int prefer = -1);

struct PhaseOracleOptions {
  uint64_t window = 5000;
  // Judge each candidate over this many further windows run with the same policy (0: the
  // window alone); the oracle still commits one window at a time.
  uint32_t lookahead = 0;
  std::vector<std::string> policies{"lrr", "gto", "tl"};
  std::map<std::string, SchedulerParams> params;  // by policy name; default none
};

struct PhaseOracleRun {
  std::vector<PhaseWindow> windows;
  uint64_t cycles = 0, warp_insts = 0;
  uint64_t checkpoints = 0;       // Gpu::clone() calls
  double checkpoint_seconds = 0;  // processor time spent in them
  nlohmann::json stats;           // Gpu::to_json() of the final state
  WorkloadOutcome outcome;
  std::string error;  // a failed run (limits, deadlock, workload error)
};

// Runs `workload` under the phase oracle. Throws Error for bad options.
PhaseOracleRun run_phase_oracle(Workload& workload, const WorkloadOptions& wopts, const GpuConfig& cfg,
                                const PhaseOracleOptions& opts);

struct FixedRun {
  std::string policy;
  uint64_t cycles = 0, warp_insts = 0;
  std::string error;
};
// The same workload under one fixed scheduler (for comparison).
FixedRun run_fixed_policy(Workload& workload, const WorkloadOptions& wopts, const GpuConfig& cfg,
                          const std::string& policy, const SchedulerParams& params = {});

// Per-policy share of the windows the oracle chose it for (every policy listed, 0 if never).
std::map<std::string, double> phase_shares(const PhaseOracleRun& run, const std::vector<std::string>& policies);
// The oracle's windows and choices as JSON (without the statistics).
nlohmann::json phase_oracle_json(const PhaseOracleRun& run, const PhaseOracleOptions& opts);

}  // namespace warpsim::experiment

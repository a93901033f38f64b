// The QoS metrics of a pair of kernels sharing a GPU: system throughput (STP), average
// normalised turnaround time (ANTT), and the rows of a QoS experiment normalised to a baseline.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::experiment {

// System throughput: sum over kernels of alone_i / shared_i.
double stp(const std::vector<double>& alone, const std::vector<double>& shared);
// Average normalised turnaround time: mean over kernels of shared_i / alone_i.
double antt(const std::vector<double>& alone, const std::vector<double>& shared);

// One row of a QoS experiment: a pair under a scheduler (and K2 budget).
struct QosRow {
  std::string pair, k1, k2, scheduler;
  uint32_t budget = 0;                // K2's budget (0: the scheduler takes none)
  double rt1 = 0, rt2 = 0;            // response times (cycles)
  double alone1 = 0, alone2 = 0;      // isolated response times under the same scheduler
  double norm_rt1 = 0, norm_rt2 = 0;  // divided by K1's response under the baseline (LRR)
  double k2_speedup = 0;              // baseline K2 response / this K2 response
  double avg_exec = 0;                // (rt1 + rt2) / 2
  double norm_avg_exec = 0;           // divided by the baseline's avg_exec
  double stp = 0, antt = 0;
  uint32_t shared_sms = 0, sms = 0;
  bool verified = false;
  bool best = false;  // the budget with the lowest K2 response for this scheduler
};

// Fills the normalised columns of `rows` against the row of `baseline` (same pair, budget 0)
// and marks, per (pair, scheduler), the budget with the lowest K2 response as best. Throws
// Error when a pair has no baseline row.
void normalise_rows(std::vector<QosRow>& rows, const std::string& baseline);

// Geometric mean of a row column over the best rows of (scheduler) across pairs.
double mean_over_pairs(const std::vector<QosRow>& rows, const std::string& scheduler, double QosRow::*column);

}  // namespace warpsim::experiment

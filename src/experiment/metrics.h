// Metrics the scheduling papers report, as pure functions of a table of kernel cycle counts:
// speedups over a baseline, geometric means, ranks with ties, the RLWS Table VI rows (rank,
// kernels at that rank, geometric-mean speedup over every other scheduler on those kernels),
// best-or-within-x% counts, the LRR-friendly / GTO-friendly split of RLWS Table VII, the
// best-static-oracle column, and stall breakdowns.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpsim::experiment {

// The range [lo, hi] a speedup spans over a set of runs (lo == hi for one run; NaN: none).
struct SpeedupRange {
  double lo = NAN, hi = NAN;
  void add(double v);
  double width() const { return hi - lo; }
};
// Whether two ranges come within `tol` of each other (a value within tol of a point, for
// one-run ranges); false when either is empty.
bool ranges_meet(const SpeedupRange& a, const SpeedupRange& b, double tol);

// cycles[k][s]: cycles of kernel k under scheduler s; NaN when that pair has no result.
struct CycleTable {
  std::vector<std::string> kernels;
  std::vector<std::string> schedulers;
  std::vector<std::vector<double>> cycles;

  // Index of a scheduler, or -1.
  int scheduler_index(const std::string& name) const;
  // Adds (or overwrites) one value, growing the table as needed.
  void set(const std::string& kernel, const std::string& scheduler, double value);
  // True when kernel k has a positive value for every scheduler.
  bool complete(size_t k) const;
};

// Geometric mean of positive values; NaN for an empty list. Throws Error on a value <= 0 or NaN.
double geomean(const std::vector<double>& values);

// speedup[k][s] = cycles[k][baseline] / cycles[k][s] (NaN where either is missing).
// Throws Error when the baseline is not in the table.
std::vector<std::vector<double>> speedups(const CycleTable& t, const std::string& baseline);

// Per scheduler: geometric mean of its speedups over the kernels where it and the baseline
// both have results.
std::vector<double> geomean_speedups(const CycleTable& t, const std::string& baseline);

// Ranks of one kernel's values, smallest first, 1-based, ties sharing the lowest rank of their
// group ("1224" ranking). Two values tie when they differ by at most rel_tol * the smaller.
// Missing values (NaN) get rank 0 and do not take a rank.
std::vector<int> rank_with_ties(const std::vector<double>& values, double rel_tol = 0.0);

// ranks[k][s] for every kernel with rank_with_ties.
std::vector<std::vector<int>> rank_table(const CycleTable& t, double rel_tol = 0.0);

// One row of RLWS Table VI for scheduler X: the kernels where X has `rank`, and on those
// kernels the geometric-mean speedup of X over each other scheduler (cycles_other / cycles_X).
struct RankRow {
  int rank = 0;
  int kernels = 0;
  std::vector<std::string> kernel_names;
  std::map<std::string, double> speedup_over;  // other scheduler -> geomean (NaN when kernels == 0)
};
// Rows for rank 1 .. number of schedulers, on kernels complete for every scheduler.
std::vector<RankRow> rank_rows(const CycleTable& t, const std::string& x, double rel_tol = 0.0);

// Number of complete kernels where scheduler x is the best or within `within` (0.02 = 2 %)
// of the best: cycles_x <= (1 + within) * min cycles.
int best_or_within(const CycleTable& t, const std::string& x, double within = 0.02);

// RLWS Table VII: a kernel is LRR-friendly when LRR takes fewer cycles than GTO, else
// GTO-friendly. Per group, the geometric-mean speedup of each scheduler over the baseline.
struct FriendlySplit {
  std::vector<std::string> lrr_friendly, gto_friendly;
  std::vector<double> lrr_geomean, gto_geomean;  // per scheduler of the table (NaN for an empty group)
  std::vector<double> all_geomean;               // per scheduler, over both groups (Table VII's "All kernels")
};
FriendlySplit friendly_split(const CycleTable& t, const std::string& baseline, const std::string& lrr = "lrr",
                             const std::string& gto = "gto");

// Per kernel, the fewest cycles among `fixed` schedulers present in the table (NaN when none of
// them has a result). The result of a hypothetical scheduler that picks the best fixed policy
// per kernel.
std::vector<double> best_static_oracle(const CycleTable& t, const std::vector<std::string>& fixed);

// Scheduler cycles by stall class, summed over kernels, as fractions of the total.
// Input: per kernel, class name -> cycles. Output: class name -> fraction (sums to 1 when any
// cycles were counted; empty when none).
std::map<std::string, double> stall_fractions(const std::vector<std::map<std::string, double>>& per_kernel);

}  // namespace warpsim::experiment

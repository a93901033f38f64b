// The answer of a comparison, for the top of its report and summary: which scheduler is fastest
// overall and by how much (geometric-mean speedup over the baseline), how often it is best or
// within 2 %, and the geometric means per group of kernels (LRR-/GTO-friendly, each workload
// category) with the fastest scheduler of each group. Kernels are counted with their launches
// added up (Comparison::kernels).
#pragma once
#include <string>
#include <vector>

#include "experiment/report.h"

namespace warpsim::experiment {

// Speedups of one group of kernels.
struct GroupRow {
  std::string name;              // "All kernels", "LRR-friendly", "GTO-friendly" or a workload category
  std::vector<size_t> kernels;   // indices into Comparison::kernels.table
  std::vector<double> geomeans;  // per column of the overview (NaN where no kernel of the group has one)
  int leader = -1;               // column of the fastest scheduler that is no oracle (-1: none)
};

struct Overview {
  bool valid = false;                         // false: no kernels or no baseline results (answer says which)
  std::vector<std::string> columns;           // the schedulers, then the best-static-oracle column if any
  std::vector<bool> oracle;                   // per column: an oracle, not a scheduler that runs on its own
  std::vector<std::vector<double>> speedups;  // [kernel][column], cycles(baseline) / cycles(column)
  std::vector<std::string> category;          // per kernel: its workload's category
  std::vector<double> geomeans;               // per column, over the kernels it has a speedup for
  std::vector<size_t> counted;                // per column: the kernels of its geometric mean
  std::vector<int> best_within;               // per scheduler: kernels where it is best or within 2 %
  size_t complete = 0;                        // kernels with a result for every scheduler
  std::vector<GroupRow> groups;               // All kernels, LRR-/GTO-friendly (with lrr and gto), categories
  int leader = -1;                            // column of the fastest scheduler that is no oracle
  std::string answer;                         // one sentence: who wins, by how much, how often
  std::string where;                          // one sentence: the fastest scheduler of each group
};

Overview overview(const Comparison& c);

// Workload categories in report order: compute, memory, shared, irregular, divergence,
// persistent, synthetic, ptx, trace, then any other name alphabetically, "other" last.
bool category_before(const std::string& a, const std::string& b);

// Name of the best-static-oracle column ("oracle(lrr,gto,tl)"), empty when none of the oracle
// set has results.
std::string oracle_column(const Comparison& c);

}  // namespace warpsim::experiment

// `warpsim bench`: simulation speed of the bundled workloads, in this process and on one
// thread. Each (workload, GPU, scheduler, size, SM count) runs --repeat times; the best host
// time counts. Reported per run: simulated cycles and warp instructions, host seconds, warp
// instructions and cycles per host second, and host nanoseconds per warp instruction; per
// (GPU, scheduler): the geometric mean and the minimum of warp instructions per second; and
// how the cost per warp instruction grows with the SM count and the problem size.
// docs/performance.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::experiment {

struct BenchCase {
  std::string workload, gpu, scheduler, size;
  uint32_t num_sms = 0;  // 0: the preset's; else core.num_sms is overridden
};

struct BenchRow {
  BenchCase c;
  uint32_t sms = 0;  // SMs the GPU had
  uint64_t cycles = 0, warp_insts = 0;
  double host_seconds = 0;   // best of the repeats
  std::string verification;  // "verified", "mismatch", "not checked" or "error"
  std::string message;       // the mismatch or the error
  bool failed() const { return verification == "mismatch" || verification == "error"; }
  double warp_insts_per_s() const;  // 0 when no time was measured
  double cycles_per_s() const;
  double ns_per_warp_inst() const;  // 0 when no instruction ran
};

struct BenchOptions {
  std::vector<std::string> workloads;  // empty: every bundled workload
  std::vector<std::string> gpus{"gtx480"};
  std::vector<std::string> schedulers{"gto"};
  std::vector<std::string> sizes{"default"};
  std::vector<std::string> overrides;  // KEY=VALUE applied to every GPU (--set)
  std::vector<uint32_t> sms;           // SM counts of the scaling study (empty: the preset's)
  int repeat = 1;
  uint64_t seed = 1;
};

// Every case of the options, workload-major; unknown workloads, GPUs, schedulers and sizes
// throw Error before anything runs.
std::vector<BenchCase> bench_cases(const BenchOptions& o);

// Runs one case `repeat` times (a fresh GPU each time) and keeps the fastest. An error or a
// verification mismatch is recorded in the row, not thrown; a repeat that gives other counts
// than the first is an error (the simulator is deterministic).
BenchRow run_bench_case(const BenchCase& c, const std::vector<std::string>& overrides, int repeat, uint64_t seed);

// The runs as a fixed-width table, one line per row.
std::string bench_table_header();
std::string bench_table_line(const BenchRow& r);
// All rows as CSV with a header line.
std::string bench_csv(const std::vector<BenchRow>& rows);

// Per (GPU, scheduler) over its rows that ran: geometric mean and minimum of warp
// instructions per second, and the workload of the minimum.
struct BenchSummary {
  std::string gpu, scheduler;
  size_t runs = 0;
  double geomean_winsts_per_s = 0, min_winsts_per_s = 0;
  std::string slowest;
};
std::vector<BenchSummary> bench_summary(const std::vector<BenchRow>& rows);
std::string bench_summary_text(const std::vector<BenchSummary>& s);

// Growth of the cost per warp instruction along one axis ("sms" or "size"): for each group of
// rows that differ only in that axis, ns per warp instruction at each point divided by that of
// the first point (the smallest SM count; the first size given). Groups with one point or a
// failed run are left out.
struct ScalingGroup {
  std::string workload, gpu, scheduler, fixed;  // fixed: the other axis's value
  std::vector<std::string> points;
  std::vector<double> ns_per_warp_inst, ratio;
  double max_ratio = 0;
};
std::vector<ScalingGroup> bench_scaling(const std::vector<BenchRow>& rows, const std::string& axis,
                                        const std::vector<std::string>& order);
// The groups as a table; lines with a ratio above `limit` end in "  > limit". Returns the
// number of such groups through `over`.
std::string bench_scaling_text(const std::vector<ScalingGroup>& g, const std::string& axis, double limit, size_t* over);

}  // namespace warpsim::experiment

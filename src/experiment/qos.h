// Multikernel (QoS) experiments: several workloads share one GPU, each launching on its own
// stream, the i-th one `delay` cycles after the (i-1)-th, as in the QAWS evaluation (K1 first,
// the higher-priority K2 a few cycles later). Every workload runs its own driver (inputs,
// launches, verification) against its own device memory; its launches are held until every
// driver has launched, then run together on one Gpu.
//
// Each workload's global, local, constant and texture addresses are moved by workload_index *
// 2^40 in the timing model (device memory lies below 2^40), so that two drivers' buffers never
// alias in the caches.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/launch_target.h"
#include "core/occupancy.h"
#include "experiment/sweep.h"
#include "workloads/workload.h"

namespace warpsim::experiment {

// Makes a workload from its name (default: resolve_workload).
using WorkloadMaker = std::function<std::unique_ptr<Workload>(const std::string& spec)>;

struct MultiKernelSpec {
  std::vector<std::string> workloads;                      // side i launches on GPU stream streams[i] (default i + 1)
  std::vector<uint32_t> streams;                           // empty: 1, 2, ...
  std::vector<std::map<std::string, std::string>> params;  // per-side workload parameters (optional)
  std::string size = "small";
  uint64_t seed = 1;
  uint64_t delay = 8;  // cycles between the first launches of consecutive sides
  GpuConfig gpu;
  SchedulerSpec scheduler{"lrr", {}};
  // Persistent workloads (with "grid" and "block" parameters): size the grid so that each of
  // `share` kernels gets an equal part of every SM's warp slots (0: the number of sides).
  bool fit_grid = true;
  uint32_t share = 0;
};

struct SideResult {
  std::string workload;
  uint32_t stream = 0;
  uint32_t grid = 0;                  // the fitted grid (0: the workload's own)
  std::vector<KernelResult> kernels;  // in launch order
  uint64_t launch_cycle = 0;          // first launch
  uint64_t end_cycle = 0;             // last completion
  uint64_t warp_insts = 0;
  bool checked = false, verified = false;
  std::string message;
  std::vector<uint32_t> ctas_per_sm;  // CTAs of the side's first kernel dispatched to each SM
  uint64_t response() const { return end_cycle - launch_cycle; }
};

struct MultiKernelResult {
  std::vector<SideResult> sides;
  uint64_t cycles = 0;
  uint32_t sms = 0;
  // SMs on which a CTA of every side was dispatched while CTAs of every other side were
  // resident there (all of them for a single side).
  uint32_t shared_sms = 0;
  bool all_shared() const { return shared_sms == sms; }
};

// Runs the sides together on a Gpu built from spec.gpu and spec.scheduler. Deterministic.
// Throws Error when a workload fails to run or the simulation fails (deadlock, limits).
MultiKernelResult run_multikernel(const MultiKernelSpec& spec, const WorkloadMaker& make = {});

// The grid a persistent workload gets so that `share` kernels split every SM of `gpu` equally
// (CTA slots, warps, threads, registers and shared memory, each divided by `share`), so that
// all CTAs of the pair are resident at once; at least one CTA per SM.
uint32_t fitted_grid(const GpuConfig& gpu, const CtaDemand& cta, uint32_t share);

nlohmann::json to_json(const MultiKernelResult& r);
MultiKernelResult multikernel_from_json(const nlohmann::json& j);

// --- metrics --------------------------------------------------------------------------------

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

// Smallest budget among `candidates` whose K2 response time (from `response`) is at most
// `target`; 0 when none meets it. Linear tries the candidates in ascending order and assumes
// nothing; Bisect assumes the response does not grow with the budget and evaluates about
// log2(n) candidates.
enum class BudgetSearch { Linear, Bisect };
uint32_t smallest_budget(std::vector<uint32_t> candidates, const std::function<double(uint32_t)>& response,
                         double target, BudgetSearch mode = BudgetSearch::Linear);

// --- sweeps ---------------------------------------------------------------------------------

struct QosSweepSpec {
  std::vector<std::pair<std::string, std::string>> pairs;  // (K1, K2)
  std::vector<std::string> schedulers;
  std::vector<uint32_t> budgets;  // K2 budgets for schedulers that take budgets
  uint32_t k1_budget = 1;
  std::map<std::string, std::string> extra_budgets;  // budget.<key> parameters given by the user
  std::string baseline = "lrr";
  GpuConfig gpu;
  std::string size = "small";
  uint64_t seed = 1;
  uint64_t delay = 8;
  int jobs = 1;
  std::string cache_dir;  // empty: no cache
};

struct QosSweepResult {
  std::vector<QosRow> rows;
  std::vector<std::string> budgeted;  // schedulers that took budgets
  size_t runs = 0, cached = 0;
};

// Whether scheduler `name` reads budget.stream.<id> parameters (tried on one scheduler).
bool takes_budgets(const std::string& name);

// The scheduler parameters of a run with K1's and K2's budgets (streams 1 and 2).
std::map<std::string, std::string> budget_params(uint32_t k1_budget, uint32_t k2_budget,
                                                 const std::map<std::string, std::string>& extra);

// Runs every pair under every scheduler (and budget), plus each kernel alone, `jobs` runs at
// a time, and returns the normalised rows. `progress` (optional) is told of each finished run.
QosSweepResult run_qos_sweep(const QosSweepSpec& spec, const WorkloadMaker& make = {},
                             const std::function<void(size_t done, size_t total)>& progress = {});

// Runs `tasks` on up to `jobs` threads; results keep the order of `tasks`.
std::vector<MultiKernelResult> run_many(const std::vector<MultiKernelSpec>& tasks, int jobs,
                                        const WorkloadMaker& make = {},
                                        const std::function<void(size_t done, size_t total)>& progress = {},
                                        const std::string& cache_dir = {}, size_t* cached = nullptr);

// Cache key text of one run (everything its result depends on).
std::string multikernel_key_text(const MultiKernelSpec& spec, const WorkloadMaker& make = {});

// Tidy output.
nlohmann::json rows_to_json(const std::vector<QosRow>& rows);
std::string rows_to_csv(const std::vector<QosRow>& rows);

// The paper's three plots (response times, K2 speedup, average execution time) as SVG, using
// the best budget of each budgeted scheduler; categories are the pairs plus "mean".
struct QosCharts {
  std::string response, speedup, avg_exec;
};
QosCharts qos_charts(const std::vector<QosRow>& rows, const std::vector<std::string>& schedulers,
                     const std::string& baseline);

// Geometric mean of a row column over the best rows of (scheduler) across pairs.
double mean_over_pairs(const std::vector<QosRow>& rows, const std::string& scheduler, double QosRow::*column);

}  // namespace warpsim::experiment

// Multikernel experiments: several workloads share one GPU, each launching on its own
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

// The workload `spec` names, made by `make` (or resolve_workload); throws Error when none.
std::unique_ptr<Workload> make_workload(const WorkloadMaker& make, const std::string& spec);

// "k=v k=v" text of workload or scheduler parameters (cache keys, deduplication).
std::string params_text(const std::map<std::string, std::string>& p);

// --- many runs ------------------------------------------------------------------------------

// Runs `tasks` on the job pool, `jobs` at a time; results keep the order of `tasks`. With a
// `cache_dir`, a task whose key text (below) has a result there is not run again, and each
// finished run is stored there; `cached` (optional) gets the number of tasks found there.
std::vector<MultiKernelResult> run_many(const std::vector<MultiKernelSpec>& tasks, int jobs,
                                        const WorkloadMaker& make = {},
                                        const std::function<void(size_t done, size_t total)>& progress = {},
                                        const std::string& cache_dir = {}, size_t* cached = nullptr);

// Cache key text of one run (everything its result depends on).
std::string multikernel_key_text(const MultiKernelSpec& spec, const WorkloadMaker& make = {});

}  // namespace warpsim::experiment

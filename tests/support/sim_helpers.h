// Small helpers for timing tests: a compact GPU configuration and one-call simulation.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/config.h"
#include "synth/synthetic_kernel.h"
#include "timing/gpu.h"

namespace warpsim::test {

// A unit with the same latency and initiation interval for every latency class.
inline UnitConfig uniform_unit(uint32_t count, uint32_t latency, uint32_t initiation) {
  UnitConfig u;
  u.count = count;
  for (int k = 0; k < kNumLatencyClasses; ++k) u.latency[k] = latency, u.initiation[k] = initiation;
  return u;
}

// A one-SM GPU with simple round numbers, so expectations can be computed by hand.
inline GpuConfig small_gpu(uint32_t sms = 1, uint32_t schedulers = 1) {
  GpuConfig c;
  c.name = "test";
  c.core.num_sms = sms;
  c.core.schedulers = schedulers;
  c.units[int(Unit::SP)] = uniform_unit(schedulers, 10, 1);
  c.units[int(Unit::SFU)] = uniform_unit(1, 20, 4);
  c.core.sfu_issue_per_sm = 0;
  c.core.icache_miss_latency = 20;
  return c;
}

struct RunResult {
  StatsSnapshot stats;
  std::vector<KernelResult> kernels;
  std::vector<IssueRecord> log;
};

inline RunResult simulate(const GpuConfig& cfg, const std::vector<synth::SyntheticKernel>& kernels,
                          const std::string& sched = "gto", const SchedulerParams& params = {}, bool log = false) {
  Gpu gpu(cfg, sched, params);
  RunResult r;
  if (log) gpu.set_issue_log(&r.log);
  for (const auto& k : kernels) gpu.enqueue(k.source(), 0);
  gpu.run_until_idle();
  r.stats = gpu.snapshot();
  r.kernels = gpu.results();
  return r;
}

inline RunResult simulate(const GpuConfig& cfg, const synth::SyntheticKernel& k, const std::string& sched = "gto",
                          const SchedulerParams& params = {}, bool log = false) {
  return simulate(cfg, std::vector<synth::SyntheticKernel>{k}, sched, params, log);
}

}  // namespace warpsim::test

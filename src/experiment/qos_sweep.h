// A QoS experiment (`warpsim qos`): pairs of kernels under schedulers and K2 budgets, each pair
// and each kernel alone run on the job pool, and the rows normalised to the baseline.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "experiment/multikernel.h"
#include "experiment/qos_metrics.h"

namespace warpsim::experiment {

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

// Runs every pair under every scheduler (and budget), plus each kernel alone, `jobs` runs at
// a time, and returns the normalised rows. `progress` (optional) is told of each finished run.
QosSweepResult run_qos_sweep(const QosSweepSpec& spec, const WorkloadMaker& make = {},
                             const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace warpsim::experiment

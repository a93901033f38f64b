// The BundledWorkload base of a standalone CUDA program: a driver.cc compiled with
// WARPSIM_STANDALONE derives from this instead of warpsim's workloads/bundled.h, and
// WARPSIM_WORKLOAD defines the one factory main.cc calls. No warpsim library is linked.
#pragma once
#include <memory>
#include <string>

#include "core/rng.h"
#include "workloads/device.h"
#include "workloads/size_params.h"
#include "workloads/workload.h"

namespace warpsim {

class BundledWorkload {
 public:
  BundledWorkload(std::string name, const char* /*ptx*/, const char* /*toml*/) : name_(std::move(name)) {}
  virtual ~BundledWorkload() = default;
  const std::string& name() const { return name_; }
  WorkloadOutcome execute_on(Device& rt, const SizeParams& size, Rng& rng) {
    return execute(rt, ModuleHandle{}, size, rng);
  }

 protected:
  virtual WorkloadOutcome execute(Device& rt, ModuleHandle module, const SizeParams& size, Rng& rng) = 0;

 private:
  std::string name_;
};

std::unique_ptr<BundledWorkload> standalone_workload();

#define WARPSIM_WORKLOAD(name, Class)                                 \
  std::unique_ptr<::warpsim::BundledWorkload> standalone_workload() { \
    return std::make_unique<Class>(#name, nullptr, nullptr);          \
  }

}  // namespace warpsim

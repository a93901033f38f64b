// Bundled workloads: our own CUDA implementations of the algorithms the papers evaluate. Each
// lives in suite/<name>/: kernel.cu (the source), kernel.ptx (what nvcc makes of it,
// committed), workload.toml (metadata and the parameters of each size) and driver.cc (inputs,
// launches, CPU reference, verification). The build embeds kernel.ptx and workload.toml;
// workload.toml's [registers.sm_XX] tables (scripts/gen_workload_registers.sh) hold the
// registers per thread ptxas gives each kernel of kernel.ptx for target sm_XX.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.h"
#include "ptx/register_allocation.h"
#include "runtime/runtime.h"
#include "workloads/device.h"
#include "workloads/size_params.h"
#include "workloads/workload.h"

namespace warpsim {

struct BundledMeta {
  std::string name, category, suite, program, description;
  std::vector<std::string> kernels;
  std::vector<std::string> sizes;
  ptx::CompiledRegisters registers;  // [registers.sm_XX] kernel = count
};

class BundledWorkload : public Workload {
 public:
  BundledWorkload(std::string name, const char* ptx, const char* toml);
  std::string name() const override { return meta_.name; }
  std::string category() const override { return meta_.category; }
  std::string fingerprint() const override;
  WorkloadOutcome run(LaunchTarget& target, const WorkloadOptions& opts) override;
  const BundledMeta& meta() const { return meta_; }
  SizeParams size_params(const std::string& size) const;
  const char* ptx() const { return ptx_; }  // suite/<name>/kernel.ptx
  // kernel.ptx loaded into `rt`, its kernels given their recorded register counts.
  ModuleHandle load(Runtime& rt) const;

 protected:
  // Generate inputs from `rng`, launch the kernels on `rt`, verify against a CPU reference.
  // Written against Device, so the same driver also builds as a standalone CUDA program
  // (docs/workloads.md, "Standalone CUDA programs").
  virtual WorkloadOutcome execute(Device& rt, ModuleHandle module, const SizeParams& size, Rng& rng) = 0;

 private:
  BundledMeta meta_;
  const char* ptx_;
  const char* toml_;
};

// Every bundled workload, in name order (generated registry).
std::vector<std::unique_ptr<BundledWorkload>> bundled_workloads();
std::unique_ptr<BundledWorkload> make_bundled_workload(const std::string& name);
BundledMeta parse_bundled_meta(const std::string& name, const char* toml);

// Defines the factory the generated registry calls: WARPSIM_WORKLOAD(vectoradd, VectorAdd).
#define WARPSIM_WORKLOAD(name, Class)                                               \
  extern const char warpsim_ptx_##name[];                                           \
  extern const char warpsim_toml_##name[];                                          \
  std::unique_ptr<::warpsim::BundledWorkload> warpsim_make_workload_##name() {      \
    return std::make_unique<Class>(#name, warpsim_ptx_##name, warpsim_toml_##name); \
  }

}  // namespace warpsim

// A runnable workload: a bundled CUDA program (driver + PTX), a synthetic kernel file, a PTX
// file with a launch description, or an Accel-Sim trace. `warpsim run` and the experiment
// harness only see this interface.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/launch_target.h"

namespace warpsim {

struct WorkloadOptions {
  std::string size = "default";               // small | default | paper
  uint64_t seed = 1;                          // inputs seed
  std::map<std::string, std::string> params;  // workload-specific overrides
};

struct WorkloadOutcome {
  bool checked = false;  // the workload verified its results against a reference
  bool verified = false;
  std::string message;  // first mismatches, or a note
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string category() const { return "synthetic"; }
  // Identity of the inputs for result caching (file contents hash, version, ...).
  virtual std::string fingerprint() const = 0;
  // Launch everything on `target` and run it to completion.
  virtual WorkloadOutcome run(LaunchTarget& target, const WorkloadOptions& opts) = 0;
};

// Resolve a workload by name or path: a bundled workload name, a synthetic kernel name or
// .kern file, a PTX launch (FILE.ptx@LAUNCH.toml, or FILE.ptx with FILE.launch.toml beside
// it), or a trace directory / kernelslist.g. Throws Error listing what was tried.
std::unique_ptr<Workload> resolve_workload(const std::string& spec);

}  // namespace warpsim

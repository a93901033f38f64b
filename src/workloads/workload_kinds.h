// Constructors of each kind of workload; each returns null when `spec` is not of its kind.
#pragma once
#include <memory>
#include <string>

#include "runtime/launch_spec.h"
#include "workloads/workload.h"

namespace warpsim {

std::unique_ptr<Workload> make_synthetic_workload(const std::string& spec);
std::unique_ptr<Workload> make_trace_workload(const std::string& spec);
// FILE.ptx@LAUNCH.toml, or FILE.ptx with FILE.launch.toml beside it (throws when it is missing).
std::unique_ptr<Workload> make_ptx_launch_workload(const std::string& spec);
// One launch of a PTX file described in full by the caller (`warpsim run FILE.ptx --grid ...`).
std::unique_ptr<Workload> make_ptx_launch_workload(const std::string& ptx_path, LaunchSpec spec);
bool is_ptx_path(const std::string& s);

}  // namespace warpsim

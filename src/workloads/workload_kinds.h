// Constructors of each kind of workload; each returns null when `spec` is not of its kind.
#pragma once
#include <memory>
#include <string>

#include "workloads/workload.h"

namespace warpsim {

std::unique_ptr<Workload> make_synthetic_workload(const std::string& spec);
std::unique_ptr<Workload> make_trace_workload(const std::string& spec);

}  // namespace warpsim

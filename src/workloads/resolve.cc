#include <fmt/format.h>

#include "core/error.h"
#include "workloads/bundled.h"
#include "workloads/workload_kinds.h"

namespace warpsim {

std::unique_ptr<Workload> resolve_workload(const std::string& spec) {
  if (auto w = make_bundled_workload(spec)) return w;
  if (auto w = make_synthetic_workload(spec)) return w;
  if (auto w = make_trace_workload(spec)) return w;
  if (auto w = make_ptx_launch_workload(spec)) return w;
  throw Error(fmt::format(
      "unknown workload '{}': not a bundled workload, a synthetic kernel (suite/synthetic), "
      "a .kern file, a PTX launch (FILE.ptx@LAUNCH.toml) or a trace directory (see `warpsim list workloads`)",
      spec));
}

}  // namespace warpsim

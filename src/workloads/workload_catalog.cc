#include "workloads/workload_catalog.h"

#include <fmt/format.h>

#include "synth/kernel_text.h"
#include "workloads/bundled.h"

namespace warpsim {

std::vector<CatalogEntry> workload_catalog() {
  std::vector<CatalogEntry> out;
  for (const auto& w : bundled_workloads()) {
    const BundledMeta& m = w->meta();
    out.push_back({m.name, m.category, m.suite + " " + m.program, m.sizes});
  }
  for (const auto& name : synth::list_synthetic_kernels())
    out.push_back({name, "synthetic", "synthetic kernel (suite/synthetic)", {"-"}});
  return out;
}

void print_workload_catalog() {
  fmt::print("{:<22} {:<12} {:<18} {}\n", "name", "category", "sizes", "stands for");
  for (const auto& e : workload_catalog()) {
    std::string sizes;
    for (const auto& s : e.sizes) sizes += (sizes.empty() ? "" : ",") + s;
    fmt::print("{:<22} {:<12} {:<18} {}\n", e.name, e.category, sizes, e.stands_for);
  }
}

}  // namespace warpsim

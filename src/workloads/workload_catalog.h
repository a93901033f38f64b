#pragma once
#include <string>
#include <vector>

namespace warpsim {

// One line per workload `warpsim list workloads` shows.
struct CatalogEntry {
  std::string name, category, stands_for;
  std::vector<std::string> sizes;
};
std::vector<CatalogEntry> workload_catalog();
void print_workload_catalog();

}  // namespace warpsim

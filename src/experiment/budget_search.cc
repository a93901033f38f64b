#include "experiment/budget_search.h"

#include <algorithm>

#include "core/error.h"
#include "sched/scheduler.h"

namespace warpsim::experiment {

uint32_t smallest_budget(std::vector<uint32_t> candidates, const std::function<double(uint32_t)>& response,
                         double target, BudgetSearch mode) {
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  if (candidates.empty()) throw Error("budget search: no candidate budget");
  if (mode == BudgetSearch::Linear) {
    for (uint32_t b : candidates)
      if (response(b) <= target) return b;
    return 0;
  }
  // Bisect over a response that does not grow with the budget: find the first candidate that
  // meets the target.
  size_t lo = 0, hi = candidates.size();  // answer in [lo, hi]; hi = none
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (response(candidates[mid]) <= target)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo < candidates.size() ? candidates[lo] : 0;
}

bool takes_budgets(const std::string& name) {
  const SchedulerFactory& f = find_scheduler(name);
  SchedulerParams p;
  p.set("budget.stream.1", "1");
  p.set("budget.stream.2", "2");
  try {
    make_sm_schedulers(f, p, 0, 1);
    p.check_all_used(name);
  } catch (...) {
    return false;
  }
  return true;
}

std::map<std::string, std::string> budget_params(uint32_t k1_budget, uint32_t k2_budget,
                                                 const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> p;
  p["budget.stream.1"] = std::to_string(k1_budget);
  p["budget.stream.2"] = std::to_string(k2_budget);
  for (const auto& [k, v] : extra) p[k] = v;
  return p;
}

}  // namespace warpsim::experiment

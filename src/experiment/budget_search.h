// QAWS budgets: which schedulers take them, the parameters that give K1 and K2 theirs, and the
// search for the smallest budget that meets a response-time target.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace warpsim::experiment {

// Smallest budget among `candidates` whose K2 response time (from `response`) is at most
// `target`; 0 when none meets it. Linear tries the candidates in ascending order and assumes
// nothing; Bisect assumes the response does not grow with the budget and evaluates about
// log2(n) candidates.
enum class BudgetSearch { Linear, Bisect };
uint32_t smallest_budget(std::vector<uint32_t> candidates, const std::function<double(uint32_t)>& response,
                         double target, BudgetSearch mode = BudgetSearch::Linear);

// Whether scheduler `name` reads budget.stream.<id> parameters (tried on one scheduler).
bool takes_budgets(const std::string& name);

// The scheduler parameters of a run with K1's and K2's budgets (streams 1 and 2).
std::map<std::string, std::string> budget_params(uint32_t k1_budget, uint32_t k2_budget,
                                                 const std::map<std::string, std::string>& extra);

}  // namespace warpsim::experiment

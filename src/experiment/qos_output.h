// The output of a QoS experiment: its rows as JSON and CSV, and the QAWS paper's three plots.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment/qos_metrics.h"

namespace warpsim::experiment {

// Tidy output.
nlohmann::json rows_to_json(const std::vector<QosRow>& rows);
std::string rows_to_csv(const std::vector<QosRow>& rows);

// The paper's three plots (response times, K2 speedup, average execution time) as SVG, using
// the best budget of each budgeted scheduler; categories are the pairs plus "mean".
struct QosCharts {
  std::string response, speedup, avg_exec;
};
QosCharts qos_charts(const std::vector<QosRow>& rows, const std::vector<std::string>& schedulers,
                     const std::string& baseline);

}  // namespace warpsim::experiment

// Scheduler reports are accumulated: the GPU calls report() of every scheduler of every SM on
// one JSON object, and counters add up.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace warpsim {

inline void json_add(nlohmann::json& j, const std::string& key, double v) {
  if (!j.contains(key)) j[key] = 0.0;
  j[key] = j[key].get<double>() + v;
}

}  // namespace warpsim

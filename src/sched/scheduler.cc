#include "sched/scheduler.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace warpsim {

void WarpScheduler::report(nlohmann::json&) const {}

int64_t SchedulerParams::get_int(const std::string& key, int64_t def) const {
  auto it = values_.find(key);
  used_[key] = true;
  defaults_[key] = std::to_string(def);
  if (it == values_.end()) return def;
  try {
    size_t pos = 0;
    int64_t v = std::stoll(it->second, &pos);
    if (pos != it->second.size()) throw std::invalid_argument("trailing");
    return v;
  } catch (const std::exception&) {
    throw Error(fmt::format("scheduler parameter '{}': '{}' is not an integer", key, it->second));
  }
}

double SchedulerParams::get_double(const std::string& key, double def) const {
  auto it = values_.find(key);
  used_[key] = true;
  defaults_[key] = fmt::format("{}", def);
  if (it == values_.end()) return def;
  try {
    size_t pos = 0;
    double v = std::stod(it->second, &pos);
    if (pos != it->second.size()) throw std::invalid_argument("trailing");
    return v;
  } catch (const std::exception&) {
    throw Error(fmt::format("scheduler parameter '{}': '{}' is not a number", key, it->second));
  }
}

std::string SchedulerParams::get_string(const std::string& key, const std::string& def) const {
  auto it = values_.find(key);
  used_[key] = true;
  defaults_[key] = def;
  return it == values_.end() ? def : it->second;
}

bool SchedulerParams::get_bool(const std::string& key, bool def) const {
  auto it = values_.find(key);
  used_[key] = true;
  defaults_[key] = def ? "true" : "false";
  if (it == values_.end()) return def;
  if (it->second == "true" || it->second == "1") return true;
  if (it->second == "false" || it->second == "0") return false;
  throw Error(fmt::format("scheduler parameter '{}': '{}' is not true, false, 1 or 0", key, it->second));
}

void SchedulerParams::check_all_used(const std::string& scheduler) const {
  for (const auto& [k, v] : values_)
    if (!used_.count(k)) throw Error(fmt::format("scheduler '{}' has no parameter '{}'", scheduler, k));
}

}  // namespace warpsim

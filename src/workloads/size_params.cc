#include "workloads/size_params.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <functional>

#include "core/error.h"

namespace warpsim {

namespace {
std::string value_text(const toml::node& n) {
  if (auto v = n.value<int64_t>()) return std::to_string(*v);
  if (auto v = n.value<double>()) return fmt::format("{}", *v);
  if (auto v = n.value<std::string>()) return *v;
  if (auto v = n.value<bool>()) return *v ? "1" : "0";
  return "";
}
}  // namespace

SizeParams parse_size_params(const std::string& name, const char* toml_text, const std::string& size) {
  toml::table t = toml::parse(std::string_view(toml_text));
  const toml::table* sz = t["sizes"][size].as_table();
  if (!sz) {
    std::string valid;
    if (auto* all = t["sizes"].as_table())
      for (auto&& [k, v] : *all) {
        if (!valid.empty()) valid += '|';
        valid += k.str();
      }
    throw Error(fmt::format("workload '{}' has no size '{}' (valid: {})", name, size, valid));
  }
  SizeParams p;
  p.size = size;
  p.source = fmt::format("workloads/{}/workload.toml [sizes.{}]", name, size);
  for (auto&& [k, v] : *sz) p.values.emplace_back(std::string(k.str()), value_text(v));
  return p;
}

void override_size_params(SizeParams& size, const std::string& workload,
                          const std::vector<std::pair<std::string, std::string>>& params) {
  for (const auto& [k, v] : params) {
    bool found = false;
    for (auto& [sk, sv] : size.values)
      if (sk == k) {
        sv = v;
        found = true;
      }
    if (!found) throw Error(fmt::format("workload '{}' has no parameter '{}' ({})", workload, k, size.source));
  }
}

uint64_t workload_rng_seed(const std::string& name, uint64_t seed) {
  return seed * 0x9e3779b97f4a7c15ull + std::hash<std::string>{}(name);
}

bool SizeParams::has(const std::string& key) const {
  for (const auto& [k, v] : values)
    if (k == key) return true;
  return false;
}

int64_t SizeParams::get_int(const std::string& key) const {
  for (const auto& [k, v] : values)
    if (k == key) return std::stoll(v);
  throw Error(fmt::format("{}: missing parameter '{}'", source, key));
}

double SizeParams::get_double(const std::string& key) const {
  for (const auto& [k, v] : values)
    if (k == key) return std::stod(v);
  throw Error(fmt::format("{}: missing parameter '{}'", source, key));
}

}  // namespace warpsim

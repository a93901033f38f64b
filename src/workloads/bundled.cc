#include "workloads/bundled.h"

#include <fmt/format.h>

#include <toml++/toml.h>

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

BundledMeta parse_bundled_meta(const std::string& name, const char* text) {
  std::string src = fmt::format("workloads/{}/workload.toml", name);
  toml::table t;
  try {
    t = toml::parse(std::string_view(text), src);
  } catch (const toml::parse_error& e) {
    throw LocatedError(src, int(e.source().begin.line), int(e.source().begin.column),
                       std::string(e.description()));
  }
  BundledMeta m;
  m.name = t["name"].value_or(name);
  m.category = t["category"].value_or(std::string("?"));
  m.suite = t["suite"].value_or(std::string(""));
  m.program = t["program"].value_or(std::string(""));
  m.description = t["description"].value_or(std::string(""));
  if (auto* ks = t["kernels"].as_array())
    for (auto& k : *ks) m.kernels.push_back(k.value_or(std::string("")));
  if (auto* sz = t["sizes"].as_table())
    for (auto&& [k, v] : *sz) m.sizes.emplace_back(k.str());
  return m;
}

BundledWorkload::BundledWorkload(std::string name, const char* ptx, const char* toml)
    : meta_(parse_bundled_meta(name, toml)), ptx_(ptx), toml_(toml) {
  meta_.name = name;
}

std::string BundledWorkload::fingerprint() const {
  return fmt::format("bundled:{}:{:016x}:{:016x}", meta_.name, std::hash<std::string_view>{}(ptx_),
                     std::hash<std::string_view>{}(toml_));
}

SizeParams BundledWorkload::size_params(const std::string& size) const {
  toml::table t = toml::parse(std::string_view(toml_));
  const toml::table* sz = t["sizes"][size].as_table();
  if (!sz) {
    std::string valid;
    for (const auto& s : meta_.sizes) valid += (valid.empty() ? "" : "|") + s;
    throw Error(fmt::format("workload '{}' has no size '{}' (valid: {})", meta_.name, size, valid));
  }
  SizeParams p;
  p.size = size;
  p.source = fmt::format("workloads/{}/workload.toml [sizes.{}]", meta_.name, size);
  for (auto&& [k, v] : *sz) p.values.emplace_back(std::string(k.str()), value_text(v));
  return p;
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

WorkloadOutcome BundledWorkload::run(LaunchTarget& target, const WorkloadOptions& opts) {
  SizeParams size = size_params(opts.size);
  for (const auto& [k, v] : opts.params) {
    bool found = false;
    for (auto& [sk, sv] : size.values)
      if (sk == k) {
        sv = v;
        found = true;
      }
    if (!found) throw Error(fmt::format("workload '{}' has no parameter '{}' ({})", meta_.name, k, size.source));
  }
  Runtime rt(&target);
  ModuleHandle m = rt.load_module(ptx_, fmt::format("workloads/{}/kernel.ptx", meta_.name));
  Rng rng(opts.seed * 0x9e3779b97f4a7c15ull + std::hash<std::string>{}(meta_.name));
  WorkloadOutcome o = execute(rt, m, size, rng);
  rt.synchronize();
  return o;
}

std::unique_ptr<BundledWorkload> make_bundled_workload(const std::string& name) {
  for (auto& w : bundled_workloads())
    if (w->name() == name) return std::move(w);
  return nullptr;
}

}  // namespace warpsim

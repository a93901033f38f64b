#include "workloads/bundled.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>

#include "core/error.h"
#include "workloads/runtime_device.h"

namespace warpsim {

BundledMeta parse_bundled_meta(const std::string& name, const char* text) {
  std::string src = fmt::format("workloads/{}/workload.toml", name);
  toml::table t;
  try {
    t = toml::parse(std::string_view(text), src);
  } catch (const toml::parse_error& e) {
    throw LocatedError(src, int(e.source().begin.line), int(e.source().begin.column), std::string(e.description()));
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
  if (const toml::node* r = t.get("registers")) {
    auto fail = [&](const toml::node& n, const std::string& what) {
      throw LocatedError(src, int(n.source().begin.line), int(n.source().begin.column), what);
    };
    if (!r->is_table()) fail(*r, "'registers' must be a table of [registers.sm_XX] tables");
    for (auto&& [target, counts] : *r->as_table()) {
      const std::string tname(target.str());
      uint32_t arch = 0;
      if (tname.size() < 4 || tname.size() > 6 || tname.compare(0, 3, "sm_") != 0 ||
          tname.find_first_not_of("0123456789", 3) != std::string::npos ||
          (arch = uint32_t(std::stoul(tname.substr(3)))) < 10)
        fail(counts, "registers: '" + tname + "' is not a compile target like sm_75");
      if (!counts.is_table()) fail(counts, "registers." + tname + " must be a table of kernel = count");
      for (auto&& [kernel, n] : *counts.as_table()) {
        const std::string k(kernel.str());
        if (std::find(m.kernels.begin(), m.kernels.end(), k) == m.kernels.end())
          fail(n, "registers." + tname + ": '" + k + "' is not one of the workload's kernels");
        auto v = n.value<int64_t>();
        if (!v || *v < 1 || *v > 255) fail(n, "registers." + tname + "." + k + ": a count of 1 to 255 registers");
        m.registers.by_target[arch][k] = uint32_t(*v);
      }
    }
  }
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
  return parse_size_params(meta_.name, toml_, size);
}

ModuleHandle BundledWorkload::load(Runtime& rt) const {
  return rt.load_module(ptx_, fmt::format("workloads/{}/kernel.ptx", meta_.name), &meta_.registers);
}

WorkloadOutcome BundledWorkload::run(LaunchTarget& target, const WorkloadOptions& opts) {
  SizeParams size = size_params(opts.size);
  override_size_params(size, meta_.name, {opts.params.begin(), opts.params.end()});
  Runtime rt(&target);
  ModuleHandle m = load(rt);
  Rng rng(workload_rng_seed(meta_.name, opts.seed));
  RuntimeDevice device(rt);
  WorkloadOutcome o = execute(device, m, size, rng);
  rt.synchronize();
  return o;
}

std::unique_ptr<BundledWorkload> make_bundled_workload(const std::string& name) {
  for (auto& w : bundled_workloads())
    if (w->name() == name) return std::move(w);
  return nullptr;
}

}  // namespace warpsim

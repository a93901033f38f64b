// The scheduler registry: every policy registers itself from its own file (SchedulerRegistration).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

std::vector<SchedulerFactory>& entries() {
  static std::vector<SchedulerFactory> registry;  // sorted by name
  return registry;
}

}  // namespace

SchedulerRegistration::SchedulerRegistration(SchedulerFactory factory) {
  auto& r = entries();
  auto at = std::lower_bound(r.begin(), r.end(), factory.name,
                             [](const SchedulerFactory& f, const std::string& n) { return f.name < n; });
  if ((at != r.end() && at->name == factory.name) || !factory.make) {
    // Static initialisation: there is nobody to throw to.
    std::fprintf(stderr, "warpsim: scheduler '%s' is registered twice or without a factory\n", factory.name.c_str());
    std::abort();
  }
  r.insert(at, std::move(factory));
}

const std::vector<SchedulerFactory>& scheduler_registry() { return entries(); }

const SchedulerFactory& find_scheduler(const std::string& name) {
  std::string names;
  for (const auto& f : scheduler_registry()) {
    if (f.name == name) return f;
    names += names.empty() ? f.name : "|" + f.name;
  }
  throw Error(fmt::format("unknown scheduler '{}' (valid: {})", name, names));
}

std::string scheduler_params_markdown() {
  auto cell = [](const std::string& s) {
    std::string e;
    for (char c : s) e += c == '|' ? std::string("\\|") : std::string(1, c);
    return e;
  };
  std::string out = "| scheduler | parameter | default | meaning |\n|---|---|---|---|\n";
  for (const auto& f : scheduler_registry()) {
    if (f.params.empty()) out += fmt::format("| `{}` | - | | |\n", f.name);
    for (const auto& p : f.params)
      out += fmt::format("| `{}` | `{}` | {} | {} |\n", f.name, p.name,
                         p.default_value.empty() ? "" : "`" + p.default_value + "`", cell(p.help));
  }
  return out;
}

void SchedulerSetup::throw_missing_shared_state() const {
  throw Error(fmt::format("scheduler of SM {}: its per-SM shared state is missing or of another policy", sm_id));
}

std::vector<std::unique_ptr<WarpScheduler>> make_sm_schedulers(const SchedulerFactory& f, const SchedulerParams& params,
                                                               int sm_id, int num_schedulers) {
  std::shared_ptr<SmSharedState> shared = f.make_sm_state ? f.make_sm_state(params, sm_id) : nullptr;
  std::vector<std::unique_ptr<WarpScheduler>> out;
  for (int s = 0; s < num_schedulers; ++s) out.push_back(f.make({params, sm_id, s, num_schedulers, shared}));
  return out;
}

}  // namespace warpsim

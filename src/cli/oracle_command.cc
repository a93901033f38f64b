// `warpsim oracle phase WORKLOAD`: the phase oracle (docs/snapshot.md) against each fixed
// policy alone.
#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "cli/options.h"
#include "core/error.h"
#include "core/json_file.h"
#include "core/strings.h"
#include "experiment/phase_oracle.h"
#include "workloads/workload.h"

namespace warpsim::cli {

namespace {

struct PhaseArgs {
  std::string workload;
  GpuOptions gpu;
  WorkloadOptions wopts;
  std::vector<std::string> params;
  uint64_t window = 5000;
  uint32_t lookahead = 0;
  std::string policies = "lrr,gto,tl";
  std::string baselines;  // default: the policies
  std::vector<std::string> sched_params;
  std::string json;
  bool quiet = false;
};

// Choices in order, run-length encoded: "gto x12, lrr x3, gto x40".
std::string choice_runs(const experiment::PhaseOracleRun& r, size_t max_runs) {
  std::string out;
  size_t runs = 0;
  for (size_t i = 0; i < r.windows.size();) {
    const std::string& p = r.windows[i].candidates[size_t(r.windows[i].chosen)].policy;
    size_t j = i;
    while (j < r.windows.size() && r.windows[j].candidates[size_t(r.windows[j].chosen)].policy == p) ++j;
    if (runs++ == max_runs) return out + ", ...";
    out += fmt::format("{}{} x{}", out.empty() ? "" : ", ", p, j - i);
    i = j;
  }
  return out;
}

int phase(PhaseArgs& a) {
  GpuConfig cfg = a.gpu.load();
  for (auto& [k, v] : split_kv(a.params, "--param")) a.wopts.params[k] = v;
  experiment::PhaseOracleOptions o;
  o.window = a.window;
  o.lookahead = a.lookahead;
  o.policies = split_items(a.policies);
  for (const auto& item : a.sched_params) {
    auto colon = item.find(':');
    auto eq = item.find('=');
    if (colon == std::string::npos || eq == std::string::npos || colon == 0 || eq < colon + 2)
      throw Error(fmt::format("--sched-param '{}': expected SCHEDULER:key=value", item));
    o.params[item.substr(0, colon)].set(item.substr(colon + 1, eq - colon - 1), item.substr(eq + 1));
  }
  std::vector<std::string> baselines = a.baselines.empty() ? o.policies : split_items(a.baselines);
  for (const auto& b : baselines) find_scheduler(b);
  auto workload = resolve_workload(a.workload);

  auto t0 = std::chrono::steady_clock::now();
  experiment::PhaseOracleRun run = experiment::run_phase_oracle(*workload, a.wopts, cfg, o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<experiment::FixedRun> fixed;
  for (const auto& b : baselines) {
    auto it = o.params.find(b);
    fixed.push_back(experiment::run_fixed_policy(*workload, a.wopts, cfg, b,
                                                 it == o.params.end() ? SchedulerParams{} : it->second));
  }

  if (!a.quiet) {
    fmt::print("{} on {} (size {}): phase oracle over {} with {}-cycle windows{}\n", workload->name(), cfg.name,
               a.wopts.size, a.policies, o.window,
               o.lookahead ? fmt::format(", judged over {} more", o.lookahead) : "");
    fmt::print("oracle: {} cycles, {} warp instructions, {} windows, simulated in {:.2f} s\n", run.cycles,
               run.warp_insts, run.windows.size(), secs);
    std::string shares;
    for (const auto& [p, s] : experiment::phase_shares(run, o.policies))
      shares += fmt::format("{}{} {:.1f}%", shares.empty() ? "" : ", ", p, 100 * s);
    fmt::print("windows per policy: {}\n", shares);
    if (run.checkpoints)
      fmt::print("checkpoints: {}, {:.3f} ms of processor time each on average\n", run.checkpoints,
                 1e3 * run.checkpoint_seconds / double(run.checkpoints));
    fmt::print("choices: {}\n", choice_runs(run, 12));
    fmt::print("{:<12} {:>12} {:>16}\n", "fixed", "cycles", "oracle speedup");
    for (const auto& f : fixed)
      fmt::print(
          "{:<12} {:>12} {:>16}\n", f.policy, f.cycles,
          f.error.empty() && run.cycles ? fmt::format("{:.3f}", double(f.cycles) / double(run.cycles)) : "failed");
  }
  if (!a.json.empty()) {
    nlohmann::json j;
    j["workload"] = workload->name();
    j["gpu"] = cfg.name;
    j["size"] = a.wopts.size;
    j["seed"] = a.wopts.seed;
    j["host_seconds"] = secs;
    j["phase_oracle"] = experiment::phase_oracle_json(run, o);
    j["verification"] = run.outcome.checked ? (run.outcome.verified ? "verified" : "mismatch") : "not checked";
    nlohmann::json fj = nlohmann::json::array();
    for (const auto& f : fixed) {
      nlohmann::json x = {{"policy", f.policy}, {"cycles", f.cycles}, {"warp_insts", f.warp_insts}};
      if (!f.error.empty()) x["error"] = f.error;
      fj.push_back(x);
    }
    j["fixed"] = fj;
    j["stats"] = run.stats;
    write_json_atomic(a.json, j);
  }
  if (!run.error.empty()) {
    fmt::print(stderr, "error: {}\n", run.error);
    return 1;
  }
  for (const auto& f : fixed)
    if (!f.error.empty()) {
      fmt::print(stderr, "error ({} alone): {}\n", f.policy, f.error);
      return 1;
    }
  if (run.outcome.checked && !run.outcome.verified) {
    fmt::print("MISMATCH: {}\n", run.outcome.message);
    return 3;
  }
  return 0;
}

void add_oracle_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("oracle", "oracle schedulers that bound what adaptive policies can gain");
  cmd->require_subcommand(1);
  auto a = std::make_shared<PhaseArgs>();
  auto* ph = cmd->add_subcommand(
      "phase", "per window of W cycles, run every candidate policy from a snapshot and keep the best");
  ph->add_option("workload", a->workload,
                 "bundled workload name, synthetic kernel (.kern), PTX file or trace directory")
      ->required();
  a->gpu.add(*ph);
  ph->add_option("--window", a->window, "window length in cycles")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40))
      ->capture_default_str();
  ph->add_option("--lookahead", a->lookahead, "judge each candidate over this many further windows")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  ph->add_option("--policies", a->policies, "comma-separated candidate schedulers")->capture_default_str();
  ph->add_option("--baselines", a->baselines, "fixed schedulers to compare with (default: the candidates)");
  ph->add_option("--sched-param", a->sched_params, "SCHEDULER:key=value parameter (repeatable)");
  ph->add_option("--size", a->wopts.size, "problem size: small | default | paper")->capture_default_str();
  ph->add_option("--seed", a->wopts.seed, "seed of the generated inputs")->capture_default_str();
  ph->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  ph->add_option("--json", a->json, "write the oracle's windows, the fixed runs and the statistics to this file");
  ph->add_flag("--quiet,-q", a->quiet, "print nothing but errors");
  ph->callback([a] {
    int rc = phase(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const CommandRegistrar reg{"oracle", add_oracle_command};

}  // namespace

}  // namespace warpsim::cli

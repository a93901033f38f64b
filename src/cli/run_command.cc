#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/options.h"
#include "core/error.h"
#include "core/json_file.h"
#include "timing/gpu.h"
#include "trace/trace_writer.h"
#include "workloads/workload.h"

namespace warpsim::cli {

namespace {

struct RunArgs {
  std::string workload;
  GpuOptions gpu;
  SchedOptions sched;
  WorkloadOptions wopts;
  std::vector<std::string> params;
  std::string json;
  std::string record_trace;
  bool quiet = false;
};

void print_summary(const Gpu& gpu, double host_seconds) {
  fmt::print("{:<32} {:>8} {:>12} {:>12} {:>7}\n", "kernel", "launch", "cycles", "warp insts", "IPC");
  for (const KernelResult& r : gpu.results()) {
    uint64_t cyc = r.end_cycle - r.start_cycle;
    std::string name = r.name.size() > 32 ? r.name.substr(0, 29) + "..." : r.name;
    fmt::print("{:<32} {:>8} {:>12} {:>12} {:>7.3f}\n", name, r.launch_index, cyc, r.warp_insts,
               cyc ? double(r.warp_insts) / double(cyc) : 0.0);
  }
  StatsSnapshot s = gpu.snapshot();
  fmt::print("total: {} cycles, {} warp instructions, IPC {:.3f}; simulated in {:.2f} s ({:.2f} M warp-insts/s)\n",
             s.cycle, s.core.warp_insts, s.cycle ? double(s.core.warp_insts) / double(s.cycle) : 0.0,
             host_seconds, host_seconds > 0 ? double(s.core.warp_insts) / host_seconds / 1e6 : 0.0);
}

int run(RunArgs& a) {
  GpuConfig cfg = a.gpu.load();
  SchedulerParams sp = a.sched.load();
  for (auto& [k, v] : split_kv(a.params, "--param")) a.wopts.params[k] = v;
  auto workload = resolve_workload(a.workload);
  Gpu gpu(cfg, a.sched.scheduler, sp);
  auto t0 = std::chrono::steady_clock::now();
  WorkloadOutcome outcome;
  std::string error;
  try {
    if (!a.record_trace.empty()) {
      // Record every CTA the front end produces, in the Accel-Sim trace format.
      TraceRecorder recorder(a.record_trace);
      RecordingLaunchTarget target(gpu, recorder);
      outcome = workload->run(target, a.wopts);
      recorder.finish();
    } else {
      outcome = workload->run(gpu, a.wopts);
    }
  } catch (const Error& e) {
    error = e.what();
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!a.json.empty()) {
    nlohmann::json j = gpu.to_json();
    j["workload"] = workload->name();
    j["size"] = a.wopts.size;
    j["seed"] = a.wopts.seed;
    j["host_seconds"] = secs;
    j["verification"] = outcome.checked ? (outcome.verified ? "verified" : "mismatch") : "not checked";
    if (!error.empty()) j["error"] = error;
    write_json_atomic(a.json, j);
  }
  if (!a.quiet && gpu.now() > 0) print_summary(gpu, secs);  // nothing to show if it never started
  if (!error.empty()) {
    fmt::print(stderr, "error: {}\n", error);
    if (!a.json.empty()) fmt::print(stderr, "statistics so far written to {}\n", a.json);
    return 1;
  }
  if (outcome.checked) {
    if (outcome.verified) {
      fmt::print("verified\n");
    } else {
      fmt::print("MISMATCH: {}\n", outcome.message);
      return 3;
    }
  }
  return 0;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "simulate one workload and print its statistics");
  cmd->add_option("workload", a->workload,
                  "bundled workload name, synthetic kernel (.kern), PTX file or trace directory")
      ->required();
  a->gpu.add(*cmd);
  a->sched.add(*cmd);
  cmd->add_option("--size", a->wopts.size, "problem size: small | default | paper")->capture_default_str();
  cmd->add_option("--seed", a->wopts.seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  cmd->add_option("--json", a->json, "write the full statistics as JSON to this file");
  cmd->add_option("--record-trace", a->record_trace,
                  "also record the run as an Accel-Sim trace (kernelslist.g + .traceg) in this directory");
  cmd->add_flag("--quiet,-q", a->quiet, "print nothing but errors and the verification result");
  cmd->callback([a] {
    int rc = run(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli

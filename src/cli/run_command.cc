#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/options.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/gpgpusim_stats.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "timing/gpu.h"
#include "trace/trace_writer.h"
#include "workloads/workload.h"
#include "workloads/workload_kinds.h"

namespace warpsim::cli {

namespace {

// Launch flags of `warpsim run file.ptx`.
struct LaunchOptions {
  std::string launch_file, kernel, grid, block, dump;
  int64_t shared = -1;
  std::vector<std::string> args;
  bool memcheck = false;
  bool any() const {
    return !launch_file.empty() || !kernel.empty() || !grid.empty() || !block.empty() || !dump.empty() || shared >= 0 ||
           !args.empty() || memcheck;
  }
  // The description file (if any) with the inline flags applied over it; --arg replaces its args.
  LaunchSpec load() const {
    LaunchSpec s;
    if (!launch_file.empty()) s = load_launch_spec(launch_file);
    if (!kernel.empty()) s.kernel = kernel;
    if (!grid.empty()) s.grid = parse_dim3(grid, "--grid"), s.has_grid = true;
    if (!block.empty()) s.block = parse_dim3(block, "--block"), s.has_block = true;
    if (shared >= 0) {
      if (shared > 228 * 1024) throw Error("--shared: at most 233472 bytes (228 KiB) of dynamic shared memory");
      s.shared = uint32_t(shared);
    }
    if (!dump.empty()) s.dump = dump;
    if (memcheck) s.memcheck = true;
    if (!args.empty()) {
      s.args.clear();
      for (const auto& a : args) s.args.push_back(parse_launch_arg(a));
    }
    return s;
  }
};

struct RunArgs {
  std::string workload;
  LaunchOptions launch;
  GpuOptions gpu;
  SchedOptions sched;
  WorkloadOptions wopts;
  std::vector<std::string> params;
  std::string json;
  std::string record_trace;
  std::string inst_stats;
  std::string issue_log;
  bool quiet = false;
  bool gpgpusim_stats = false;
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
             s.cycle, s.core.warp_insts, s.cycle ? double(s.core.warp_insts) / double(s.cycle) : 0.0, host_seconds,
             host_seconds > 0 ? double(s.core.warp_insts) / host_seconds / 1e6 : 0.0);
}

int run(RunArgs& a) {
  GpuConfig cfg = a.gpu.load();
  SchedulerParams sp = a.sched.load();
  for (auto& [k, v] : split_kv(a.params, "--param")) a.wopts.params[k] = v;
  std::unique_ptr<Workload> workload;
  auto launch_param = a.wopts.params.find("launch");
  if (is_ptx_path(a.workload) && (a.launch.any() || launch_param != a.wopts.params.end())) {
    if (a.launch.launch_file.empty() && launch_param != a.wopts.params.end())
      a.launch.launch_file = launch_param->second;
    workload = make_ptx_launch_workload(a.workload, a.launch.load());
  } else {
    if (a.launch.any())
      throw Error(
          "--launch, --kernel, --grid, --block, --shared, --arg, --dump and --memcheck apply to PTX files (.ptx) only");
    workload = resolve_workload(a.workload);
  }
  Gpu gpu(cfg, a.sched.scheduler, sp);
  if (!a.inst_stats.empty()) gpu.enable_inst_profile();
  if (!a.issue_log.empty()) gpu.enable_issue_trace();
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
  // Outputs asked for that cannot be written fail the run, each named, after the others are written.
  std::vector<std::string> output_errors;
  auto write_output = [&](const char* what, const std::string& path, const auto& write) {
    if (path.empty()) return;
    try {
      write();
    } catch (const std::exception& e) {
      output_errors.push_back(fmt::format("cannot write {} to {}: {}", what, path, e.what()));
    }
  };
  write_output("instruction statistics", a.inst_stats,
               [&] { write_inst_profile_csv(a.inst_stats, gpu.inst_profile()); });
  write_output("the issue log", a.issue_log,
               [&] { write_issue_trace_tsv(a.issue_log, *gpu.issue_trace(), gpu.results()); });
  if (!a.quiet && gpu.now() > 0) print_summary(gpu, secs);  // nothing to show if it never started
  if (a.gpgpusim_stats) fmt::print("{}", experiment::gpgpusim_stats_text(gpu.to_json()));
  for (const std::string& e : output_errors) fmt::print(stderr, "error: {}\n", e);
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
  return output_errors.empty() ? 0 : 1;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "simulate one workload and print its statistics");
  cmd->add_option("workload", a->workload,
                  "bundled workload name, synthetic kernel (.kern), PTX file (with --launch or "
                  "--kernel/--grid/--block/--arg) or trace directory")
      ->required();
  a->gpu.add(*cmd);
  a->sched.add(*cmd);
  cmd->add_option("--size", a->wopts.size, "problem size: small | default | paper")->capture_default_str();
  cmd->add_option("--seed", a->wopts.seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  cmd->add_option("--launch", a->launch.launch_file,
                  "PTX file: launch description (TOML: kernel, grid, block, shared, args, dump)");
  cmd->add_option("--kernel", a->launch.kernel, "PTX file: kernel to launch (default: the module's only kernel)");
  cmd->add_option("--grid", a->launch.grid, "PTX file: grid dimensions X[,Y[,Z]]");
  cmd->add_option("--block", a->launch.block, "PTX file: block dimensions X[,Y[,Z]]");
  cmd->add_option("--shared", a->launch.shared, "PTX file: dynamic shared memory bytes")
      ->check(CLI::Range(int64_t(0), int64_t(228 * 1024)));
  cmd->add_option("--arg", a->launch.args,
                  "PTX file: kernel argument, in order (repeatable): '<type> <value>' or "
                  "'buffer <type> n=<count> [fill=zero|iota|random|const] [seed=..] [min=..] [max=..] [dump]'")
      ->allow_extra_args(false);
  cmd->add_flag("--memcheck", a->launch.memcheck,
                "PTX file: check every global access against the live allocations, byte by byte, and report the "
                "invalid ones (exit status 1)");
  cmd->add_option("--dump", a->launch.dump,
                  "PTX file: write the buffers (those marked dump, else all) as JSON to this file");
  cmd->add_option("--json", a->json, "write the full statistics as JSON to this file");
  cmd->add_option("--inst-stats", a->inst_stats,
                  "write, per kernel launch and instruction, the instructions issued and their average cycles "
                  "from issue to result as CSV to this file (GPGPU-Sim's gpgpu_inst_stats.txt; "
                  "docs/correlate.md)");
  cmd->add_option("--issue-log", a->issue_log,
                  "write every issued warp instruction (cycle, cycle since its launch started, SM, scheduler, warp "
                  "slot, address, operation class, active lanes) as tab-separated text to this file, to compare a "
                  "launch issue by issue with another simulator's log (docs/fidelity.md); one row per instruction, "
                  "kept in memory until the end: for small runs");
  cmd->add_option("--record-trace", a->record_trace,
                  "also record the run as an Accel-Sim trace (kernelslist.g + .traceg) in this directory");
  cmd->add_flag("--quiet,-q", a->quiet, "print nothing but errors and the verification result");
  cmd->add_flag("--gpgpusim-stats", a->gpgpusim_stats,
                "also print the statistics as GPGPU-Sim prints them (gpu_sim_cycle = ..., per kernel launch), for "
                "scripts written for GPGPU-Sim's output");
  cmd->callback([a] {
    int rc = run(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli

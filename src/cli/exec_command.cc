// warpsim exec: run an unmodified CUDA program (built with `nvcc -cudart shared`) on the
// simulator by putting warpsim's libcudart first on LD_LIBRARY_PATH. The simulated GPU is
// configured through environment variables the shim reads (docs/cuda-programs.md).
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/options.h"
#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/gpgpusim_stats.h"
#include "timing/gpu.h"

namespace warpsim::cli {

namespace {

namespace fs = std::filesystem;

struct ExecArgs {
  GpuOptions gpu;
  SchedOptions sched;
  std::string json;
  std::string cudart_dir;
  uint64_t inst_limit = 0;
  bool summary = false;
  bool gpgpusim_stats = false;
  bool memcheck = false;
  std::string inst_stats;
  std::string issue_log;
  std::vector<std::string> command;
};

std::string self_dir() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.parent_path().string();
}

// Where libcudart.so.13 of warpsim lies: --cudart-dir, $WARPSIM_CUDART_DIR, next to the
// warpsim binary (build tree), or the install location.
std::string find_cudart_dir(const std::string& option) {
  std::vector<std::string> tried;
  auto ok = [](const std::string& d) {
    std::error_code ec;
    return !d.empty() && fs::exists(fs::path(d) / "libcudart.so.13", ec);
  };
  std::vector<std::string> candidates;
  if (!option.empty()) candidates.push_back(option);
  if (const char* e = std::getenv("WARPSIM_CUDART_DIR")) candidates.push_back(e);
  std::string exe = self_dir();
  if (!exe.empty()) {
    candidates.push_back((fs::path(exe) / "cudart").string());
    candidates.push_back((fs::path(exe) / ".." / "lib" / "warpsim" / "cudart").lexically_normal().string());
  }
  for (const auto& c : candidates) {
    if (ok(c)) return fs::absolute(c).string();
    tried.push_back(c);
  }
  std::string list;
  for (const auto& t : tried) list += (list.empty() ? "" : ", ") + t;
  throw Error(
      fmt::format("warpsim's libcudart.so.13 was not found (looked in: {}); build the 'cudart' target "
                  "or pass --cudart-dir",
                  list.empty() ? "nowhere" : list));
}

// Whether `program` (as execvp would find it) is an ELF file with device code that never names
// libcudart.so, i.e. links the CUDA runtime statically, so its calls cannot reach the simulator.
bool static_cuda_runtime(const std::string& program) {
  std::string path = program;
  if (program.find('/') == std::string::npos) {
    path.clear();
    const char* env = std::getenv("PATH");
    std::string dirs = env ? env : "";
    size_t start = 0;
    while (start <= dirs.size() && path.empty()) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      fs::path cand = fs::path(dirs.substr(start, end - start)) / program;
      if (access(cand.c_str(), X_OK) == 0) path = cand.string();
      start = end + 1;
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return data.compare(0, 4,
                      "\x7f"
                      "ELF") == 0 &&
         data.find(".nv_fatbin") != std::string::npos && data.find("libcudart.so") == std::string::npos;
}

std::string join(const std::vector<std::string>& items, char sep) {
  std::string s;
  for (const auto& i : items) {
    if (i.find('\n') != std::string::npos) throw Error(fmt::format("'{}': values may not contain newlines", i));
    if (!s.empty()) s += sep;
    s += i;
  }
  return s;
}

void set_env(const char* name, const std::string& value) {
  if (value.empty()) {
    unsetenv(name);
  } else if (setenv(name, value.c_str(), 1) != 0) {
    throw Error(fmt::format("cannot set {}: {}", name, std::strerror(errno)));
  }
}

int run_exec(ExecArgs& a) {
  if (a.command.empty()) throw Error("no program given: warpsim exec [options] -- ./program args...");
  // Fail here, before the program starts, on a bad preset, override or scheduler.
  GpuConfig cfg = a.gpu.load();
  SchedulerParams sp = a.sched.load();
  { Gpu probe(cfg, a.sched.scheduler, sp); }  // scheduler parameters it does not take fail here
  std::string dir = find_cudart_dir(a.cudart_dir);

  std::string ld = dir;
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) ld += std::string(":") + old;
  set_env("LD_LIBRARY_PATH", ld);
  // A preset file named relative to here must still be found if the program changes directory.
  std::string gpu = a.gpu.gpu;
  std::error_code ec;
  if ((gpu.find('/') != std::string::npos || gpu.ends_with(".toml")) && fs::exists(gpu, ec))
    gpu = fs::absolute(gpu).string();
  set_env("WARPSIM_GPU", a.gpu.gpgpusim_config.empty() ? gpu : "");
  set_env("WARPSIM_GPGPUSIM_CONFIG", a.gpu.gpgpusim_config.empty() ? "" : fs::absolute(a.gpu.gpgpusim_config).string());
  set_env("WARPSIM_SET", join(a.gpu.sets, '\n'));
  set_env("WARPSIM_SCHEDULER", a.sched.scheduler);
  std::vector<std::string> params;
  for (const auto& [k, v] : sp.values()) params.push_back(k + "=" + v);
  set_env("WARPSIM_SCHED_PARAM", join(params, '\n'));
  set_env("WARPSIM_INST_LIMIT", a.inst_limit ? std::to_string(a.inst_limit) : "");
  if (a.memcheck) set_env("WARPSIM_MEMCHECK", "1");
  if (!a.inst_stats.empty())
    set_env("WARPSIM_INST_STATS", fs::absolute(a.inst_stats).string());  // else the environment's own setting stays
  if (!a.issue_log.empty()) set_env("WARPSIM_ISSUE_LOG", fs::absolute(a.issue_log).string());
  // The program's own directory is not where the presets are: pass ours.
  if (!std::getenv("WARPSIM_CONFIG_DIR")) set_env("WARPSIM_CONFIG_DIR", join(preset_search_dirs(), ':'));

  std::string json = a.json;
  std::string tmp_json;
  // Always collect the statistics: they say whether a kernel faulted or warpsim stopped the
  // program, which decides the exit status even when the program ignored its errors.
  if (json.empty()) {
    tmp_json = (fs::temp_directory_path() / fmt::format("warpsim-exec-{}.json", getpid())).string();
    json = tmp_json;
  }
  if (!json.empty()) {
    json = fs::absolute(json).string();
    std::error_code ec;
    fs::remove(json, ec);  // a stale file must not pass for this run's statistics
  }
  set_env("WARPSIM_JSON", json);

  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) throw Error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& s : a.command) argv.push_back(s.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "warpsim exec: cannot run '%s': %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(fmt::format("waitpid failed: {}", std::strerror(errno)));
  }
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  if (WIFSIGNALED(status))
    fmt::print(stderr, "warpsim exec: {} was killed by signal {}\n", a.command[0], WTERMSIG(status));

  nlohmann::json stats;
  bool have = false;
  if (!json.empty()) {
    std::ifstream in(json);
    if (in) {
      try {
        in >> stats;
        have = true;
      } catch (const std::exception&) {
      }
    }
    if (!have) {
      // The program made no CUDA call (or ended without running exit handlers).
      if (static_cuda_runtime(a.command[0]))
        fmt::print(stderr,
                   "warpsim exec: {} does not load libcudart.so, so none of its CUDA calls reached the simulator; "
                   "build it with nvcc -cudart shared (docs/cuda-programs.md)\n",
                   a.command[0]);
      stats = {
          {"program", a.command[0]},
          {"gpu", cfg.name},
          {"scheduler", a.sched.scheduler},
          {"launches", 0},
          {"kernels", nlohmann::json::array()},
          {"note",
           "the program wrote no statistics: it made no CUDA runtime call, or ended without running exit handlers"}};
      if (!tmp_json.empty() || !a.json.empty()) write_json_atomic(json, stats);
    }
  }
  if (a.summary && have) {
    fmt::print(stderr, "{:<40} {:>12} {:>10} {:>12} {:>12}\n", "kernel", "grid", "stream", "cycles", "warp insts");
    for (const auto& k : stats["kernels"]) {
      std::string name = k.value("name", "");
      if (name.size() > 40) name = name.substr(0, 37) + "...";
      auto g = k["grid"];
      fmt::print(stderr, "{:<40} {:>12} {:>10} {:>12} {:>12}\n", name,
                 fmt::format("{}x{}x{}", g[0].get<uint64_t>(), g[1].get<uint64_t>(), g[2].get<uint64_t>()),
                 k.value("stream", 0), k.value("kernel_cycles", uint64_t(0)), k.value("warp_insts", uint64_t(0)));
    }
    if (stats.contains("total"))
      fmt::print(stderr, "total: {} cycles, {} warp instructions\n", stats["total"].value("cycles", uint64_t(0)),
                 stats["total"].value("warp_insts", uint64_t(0)));
  }
  if (a.gpgpusim_stats && have) fmt::print("{}", experiment::gpgpusim_stats_text(stats));
  if (!tmp_json.empty()) {
    std::error_code ec;
    fs::remove(tmp_json, ec);
  }
  // A kernel fault the program did not check must not look like success.
  if (have && stats.contains("error") && rc == 0) {
    fmt::print(stderr, "warpsim exec: a kernel failed in the simulator: {}\n", stats["error"].get<std::string>());
    rc = 1;
  }
  // So must an output the user asked for (--inst-stats, --issue-log) that could not be written.
  if (have && stats.contains("output_errors") && rc == 0) {
    for (const auto& e : stats["output_errors"]) fmt::print(stderr, "warpsim exec: {}\n", e.get<std::string>());
    rc = 1;
  }
  return rc;
}

}  // namespace

void add_exec_command(CLI::App& app) {
  auto a = std::make_shared<ExecArgs>();
  auto* cmd = app.add_subcommand("exec", "run a CUDA program (nvcc -cudart shared) on the simulated GPU");
  a->gpu.add(*cmd);
  a->sched.add(*cmd);
  cmd->add_option("--json", a->json, "write per-kernel statistics of every launch as JSON to this file");
  cmd->add_flag("--gpgpusim-stats", a->gpgpusim_stats,
                "after the program, print the statistics as GPGPU-Sim prints them (gpu_sim_cycle = ..., per kernel "
                "launch), for scripts written for GPGPU-Sim's output");
  cmd->add_option("--cudart-dir", a->cudart_dir, "directory holding warpsim's libcudart.so.13");
  cmd->add_option("--inst-limit", a->inst_limit,
                  "per-thread instruction limit that stops a runaway kernel (default 50M)");
  cmd->add_option("--inst-stats", a->inst_stats,
                  "write, per kernel launch and instruction, the instructions issued and their average cycles "
                  "from issue to result as CSV to this file (GPGPU-Sim's gpgpu_inst_stats.txt; docs/correlate.md)");
  cmd->add_option("--issue-log", a->issue_log,
                  "write every issued warp instruction (cycle, cycle since its launch started, SM, scheduler, warp "
                  "slot, address, operation class, active lanes) as tab-separated text to this file "
                  "(WARPSIM_ISSUE_LOG; docs/fidelity.md); one row per instruction, kept in memory until the "
                  "program exits: for small runs");
  cmd->add_flag("--memcheck", a->memcheck,
                "check every global access against the live allocations, byte by byte: a kernel with invalid accesses "
                "fails with a report of them");
  cmd->add_flag("--summary", a->summary, "print one line per kernel launch on stderr when the program ends");
  cmd->add_option("command", a->command, "the program and its arguments (after --)")->expected(-1)->required();
  cmd->callback([a] {
    int rc = run_exec(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const CommandRegistrar reg{"exec", add_exec_command};

}  // namespace warpsim::cli

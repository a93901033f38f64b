#include "experiment/slurm.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "core/error.h"
#include "core/json_file.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Captured {
  int status = -1;
  std::string output;
};

// Runs a program (searched in PATH) and captures its stdout and stderr.
Captured capture(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) throw Error(fmt::format("pipe: {}", std::strerror(errno)));
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) {
    ::close(fds[0]);
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  Captured c;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    c.output.append(buf, size_t(n));
  }
  ::close(fds[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return c;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::string array_spec(const std::vector<int>& tasks) {
  std::string s;
  for (int t : tasks) {
    if (!s.empty()) s += ',';
    s += std::to_string(t);
  }
  return s;
}

bool job_in_queue(const std::string& job) {
  for (int attempt = 0;; ++attempt) {
    Captured c = capture({"squeue", "-h", "-j", job, "-o", "%i"});
    if (c.status == 0) return !trim(c.output).empty();
    // squeue fails on a job id it no longer knows: the job is gone.
    if (c.output.find("Invalid job id") != std::string::npos) return false;
    // A busy controller times out now and then; give up only when it keeps failing.
    if (attempt == 5) throw Error(fmt::format("squeue failed (status {}): {}", c.status, trim(c.output)));
    std::this_thread::sleep_for(std::chrono::seconds(2 << attempt));
  }
}

}  // namespace

std::vector<size_t> chunk_bounds(size_t n, int max_tasks) {
  size_t tasks = std::min(n, size_t(std::max(1, max_tasks)));
  std::vector<size_t> b = {0};
  if (n == 0) return b;
  size_t base = n / tasks, extra = n % tasks, at = 0;
  for (size_t i = 0; i < tasks; ++i) {
    at += base + (i < extra ? 1 : 0);
    b.push_back(at);
  }
  return b;
}

std::string slurm_script(const std::string& exe, const std::string& manifest, const std::string& log_dir,
                         const std::string& workdir, int cpus_per_task) {
  std::string s = "#!/bin/sh\n";
  s += "#SBATCH --job-name=warpsim-compare\n";
  s += fmt::format("#SBATCH --output={}/task-%A_%a.out\n", log_dir);
  s += fmt::format("#SBATCH --cpus-per-task={}\n", cpus_per_task);
  s += fmt::format("#SBATCH --chdir={}\n", workdir);
  s += fmt::format("exec {} compare --run-task {} --task-index \"$SLURM_ARRAY_TASK_ID\" --jobs {}\n", shell_quote(exe),
                   shell_quote(manifest), cpus_per_task);
  return s;
}

std::vector<PairOutcome> run_pairs_slurm(const std::vector<Pair>& pending, const Layout& layout,
                                         const std::string& gpu_file, const std::string& exe, const SlurmOptions& opts,
                                         Progress* progress) {
  std::vector<PairOutcome> outcomes(pending.size());
  if (pending.empty()) return outcomes;
  layout.create_dirs();
  auto bounds = chunk_bounds(pending.size(), opts.max_tasks);
  size_t ntasks = bounds.size() - 1;

  std::string sub = fmt::format("{}/slurm/{}-{}", layout.dir(),
                                std::chrono::system_clock::now().time_since_epoch().count(), getpid());
  fs::create_directories(sub + "/logs");
  json manifest;
  manifest["dir"] = layout.dir();
  manifest["gpu_file"] = gpu_file;
  manifest["tasks"] = json::array();
  for (size_t t = 0; t < ntasks; ++t) {
    json task = json::array();
    for (size_t i = bounds[t]; i < bounds[t + 1]; ++i) task.push_back(pair_to_json(pending[i]));
    manifest["tasks"].push_back(task);
  }
  std::string manifest_path = sub + "/manifest.json";
  write_json_atomic(manifest_path, manifest);
  std::string script_path = sub + "/array.sh";
  write_file_atomic(script_path,
                    slurm_script(exe, manifest_path, sub + "/logs", fs::current_path().string(), opts.cpus_per_task));

  std::vector<bool> reported(pending.size(), false);
  auto poll_finished = [&] {
    for (size_t i = 0; i < pending.size(); ++i) {
      if (reported[i]) continue;
      std::error_code ec;
      bool ok = fs::exists(layout.cache_file(pending[i]), ec);
      bool failed = !ok && fs::exists(layout.failed_file(pending[i]), ec);
      if (!ok && !failed) continue;
      // Failures may still be retried; only successes count as progress here.
      if (ok) {
        reported[i] = true;
        outcomes[i].ok = true;
        if (progress) progress->finished(pending[i], outcomes[i]);
      }
    }
  };

  std::vector<int> tasks(ntasks);
  for (size_t t = 0; t < ntasks; ++t) tasks[t] = int(t);
  for (int attempt = 0; attempt <= opts.retries && !tasks.empty(); ++attempt) {
    std::vector<std::string> args = {"sbatch", "--parsable", "--array=" + array_spec(tasks)};
    if (!opts.partition.empty()) args.push_back("--partition=" + opts.partition);
    if (!opts.time_limit.empty()) args.push_back("--time=" + opts.time_limit);
    args.insert(args.end(), opts.extra.begin(), opts.extra.end());
    args.push_back(script_path);
    Captured c = capture(args);
    if (c.status != 0) throw Error(fmt::format("sbatch failed (status {}): {}", c.status, trim(c.output)));
    std::string job = trim(c.output);
    if (auto nl = job.rfind('\n'); nl != std::string::npos) job = job.substr(nl + 1);
    if (auto semi = job.find(';'); semi != std::string::npos) job = job.substr(0, semi);
    if (job.empty() || !std::all_of(job.begin(), job.end(), ::isdigit))
      throw Error(fmt::format("sbatch printed no job id: {}", trim(c.output)));
    fmt::print(stderr, "submitted Slurm job array {} ({} task{}{}), logs in {}/logs\n", job, tasks.size(),
               tasks.size() == 1 ? "" : "s", attempt ? fmt::format(", retry {}", attempt) : "", sub);
    while (job_in_queue(job)) {
      poll_finished();
      if (progress) progress->tick();
      std::this_thread::sleep_for(std::chrono::duration<double>(opts.poll_seconds));
    }
    poll_finished();
    std::vector<int> again;
    for (int t : tasks) {
      for (size_t i = bounds[size_t(t)]; i < bounds[size_t(t) + 1]; ++i)
        if (!load_cached(layout, pending[i])) {
          again.push_back(t);
          break;
        }
    }
    tasks = again;
  }
  for (size_t i = 0; i < pending.size(); ++i) {
    if (load_cached(layout, pending[i])) {
      outcomes[i].ok = true;
      continue;
    }
    outcomes[i].ok = false;
    std::ifstream in(layout.failed_file(pending[i]));
    json f = in ? json::parse(in, nullptr, false) : json(json::value_t::discarded);
    if (!f.is_discarded() && f.is_object()) {
      outcomes[i].exit_code = f.value("exit_code", -1);
      outcomes[i].signal = f.value("signal", 0);
      outcomes[i].message = f.value("message", std::string());
    } else {
      outcomes[i].exit_code = -1;
      outcomes[i].message = fmt::format("its Slurm task left no result (see {}/logs)\n", sub);
    }
    if (progress && !reported[i]) progress->finished(pending[i], outcomes[i]);
    reported[i] = true;
  }
  return outcomes;
}

int run_manifest_task(const std::string& manifest_path, int task, int jobs, const std::string& exe) {
  std::ifstream in(manifest_path);
  if (!in) throw Error(fmt::format("cannot read task manifest '{}'", manifest_path));
  json m = json::parse(in, nullptr, false);
  if (m.is_discarded() || !m.is_object() || !m.contains("tasks") || !m["tasks"].is_array())
    throw Error(fmt::format("'{}' is not a task manifest", manifest_path));
  if (task < 0 || size_t(task) >= m["tasks"].size())
    throw Error(fmt::format("task index {} out of range: '{}' has {} tasks", task, manifest_path, m["tasks"].size()));
  Layout layout(m.value("dir", std::string()));
  std::string gpu_file = m.value("gpu_file", std::string());
  std::vector<Pair> todo;
  for (const auto& pj : m["tasks"][size_t(task)]) {
    Pair p = pair_from_json(pj);
    if (!load_cached(layout, p)) todo.push_back(std::move(p));
  }
  Progress progress(todo.size(), 0, false, stderr);
  auto outcomes = run_pairs_local(todo, layout, gpu_file, exe, jobs, &progress);
  int failed = 0;
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (!outcomes[i].ok) {
      ++failed;
      fmt::print(stderr, "FAILED {} / {}:\n{}", todo[i].workload_name, todo[i].scheduler.name, outcomes[i].message);
    }
  return failed ? 1 : 0;
}

}  // namespace warpsim::experiment

#include "experiment/runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "core/error.h"
#include "core/json_file.h"
#include "experiment/job_pool.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string format_duration(double s) {
  if (!(s >= 0) || s > 1e7) return "?";
  auto t = uint64_t(s + 0.5);
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
  return fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

Progress::Progress(size_t total, size_t cached, bool tty, std::FILE* out)
    : total_(total), cached_(cached), tty_(tty), out_(out), start_(Clock::now()), last_draw_() {}

void Progress::draw() {
  size_t to_run = total_ - cached_;
  double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  double eta = done_ ? elapsed / double(done_) * double(to_run - done_) : -1;
  size_t finished = cached_ + done_;
  const int width = 30;
  int filled = total_ ? int(double(finished) / double(total_) * width) : width;
  std::string bar(size_t(filled), '#');
  bar.resize(width, '.');
  fmt::print(out_, "\r[{}] {}/{} pairs{}{}  elapsed {}  ETA {}   ", bar, finished, total_,
             failed_ ? fmt::format(", {} failed", failed_) : "", running_ ? fmt::format(", {} running", running_) : "",
             format_duration(elapsed), done_ ? format_duration(eta) : "?");
  std::fflush(out_);
  last_draw_ = Clock::now();
}

void Progress::finished(const Pair& p, const PairOutcome& o) {
  ++done_;
  if (!o.ok) ++failed_;
  if (tty_) {
    if (!o.ok) fmt::print(out_, "\r{:<100}\r", "");
    if (!o.ok) fmt::print(out_, "FAILED {} / {}\n", p.workload_name, p.scheduler.name);
    draw();
  } else {
    fmt::print(out_, "[{}/{}] {} / {}: {} in {:.1f} s\n", cached_ + done_, total_, p.workload_name, p.scheduler.name,
               o.ok ? "done" : "FAILED", o.seconds);
    std::fflush(out_);
  }
}

void Progress::tick() {
  if (tty_ && Clock::now() - last_draw_ > std::chrono::milliseconds(250)) draw();
}

void Progress::done() {
  if (tty_) {
    draw();
    fmt::print(out_, "\n");
    std::fflush(out_);
  }
}

std::string self_executable() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(fmt::format("cannot find the warpsim executable (/proc/self/exe): {}", ec.message()));
  return p.string();
}

std::string file_tail(const std::string& path, size_t max_lines) {
  std::ifstream in(path);
  if (!in) return {};
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (lines.size() > max_lines) lines.pop_front();
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

PairOutcome finalize_pair(const Pair& p, const Layout& layout, int exit_code, int signal, double seconds) {
  PairOutcome o;
  o.exit_code = exit_code;
  o.signal = signal;
  o.seconds = seconds;
  std::string work = layout.work_file(p);
  if (exit_code == 0 && signal == 0) {
    std::ifstream in(work);
    nlohmann::json j =
        in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json(nlohmann::json::value_t::discarded);
    if (!j.is_discarded() && j.is_object()) {
      j["harness"] = pair_to_json(p);
      j["harness"]["run_seconds"] = seconds;
      write_json_atomic(layout.cache_file(p), j);
      std::error_code ec;
      fs::remove(work, ec);
      fs::remove(layout.failed_file(p), ec);
      o.ok = true;
      return o;
    }
    o.message = "the run exited with 0 but left no readable JSON result\n";
  }
  if (signal) {
    o.message += fmt::format("killed by signal {} ({})\n", signal, strsignal(signal));
  } else if (exit_code != 0) {
    o.message += fmt::format("exit status {}\n", exit_code);
  }
  o.message += file_tail(layout.log_file(p));
  nlohmann::json f = pair_to_json(p);
  f["exit_code"] = exit_code;
  f["signal"] = signal;
  f["message"] = o.message;
  f["log"] = layout.log_file(p);
  write_json_atomic(layout.failed_file(p), f);
  std::error_code ec;
  fs::remove(work, ec);
  return o;
}

std::vector<PairOutcome> run_pairs_local(const std::vector<Pair>& pending, const Layout& layout,
                                         const std::string& gpu_file, const std::string& exe, int jobs,
                                         Progress* progress) {
  layout.create_dirs();
  std::vector<PairOutcome> outcomes(pending.size());
  const pid_t parent = getpid();
  std::mutex progress_lock;  // the progress display is drawn by the workers and the ticker
  size_t running = 0;

  // Starts pair i as a child process writing its log; returns its pid.
  auto spawn = [&](size_t i) {
    const Pair& p = pending[i];
    std::error_code ec;
    fs::remove(layout.work_file(p), ec);
    std::vector<std::string> args = run_arguments(p, gpu_file, layout.work_file(p));
    args.insert(args.begin(), exe);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::string log = layout.log_file(p);
    int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log_fd < 0) throw Error(fmt::format("cannot write '{}': {}", log, std::strerror(errno)));
    pid_t pid = ::fork();
    if (pid < 0) {
      ::close(log_fd);
      throw Error(fmt::format("cannot start a run: fork: {}", std::strerror(errno)));
    }
    if (pid == 0) {
      // Child: die with the sweep (a killed sweep leaves no orphan writing results). The signal
      // follows the forking thread, which waits for this child before it ends.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      int null_fd = ::open("/dev/null", O_RDONLY);
      if (null_fd >= 0) ::dup2(null_fd, 0);
      ::dup2(log_fd, 1);
      ::dup2(log_fd, 2);
      ::execv(exe.c_str(), argv.data());
      const char msg[] = "cannot execute the warpsim binary\n";
      ssize_t ignored = ::write(2, msg, sizeof msg - 1);
      (void)ignored;
      ::_exit(127);
    }
    ::close(log_fd);
    return pid;
  };

  JobPoolOptions pool;
  pool.jobs = jobs;
  if (progress)
    pool.tick = [&] {
      std::lock_guard<std::mutex> lock(progress_lock);
      progress->tick();
    };
  run_jobs(pending.size(), pool, [&](size_t i) {
    auto start = Clock::now();
    {
      std::lock_guard<std::mutex> lock(progress_lock);
      ++running;
      if (progress) progress->set_running(running);
    }
    pid_t pid = spawn(i);
    int status = 0;
    pid_t got;
    do got = ::waitpid(pid, &status, 0);
    while (got < 0 && errno == EINTR);
    double secs = std::chrono::duration<double>(Clock::now() - start).count();
    int code = -1, sig = 0;
    if (got < 0) {
      code = 127;
    } else if (WIFEXITED(status)) {
      code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      sig = WTERMSIG(status);
    }
    outcomes[i] = finalize_pair(pending[i], layout, code, sig, secs);
    std::lock_guard<std::mutex> lock(progress_lock);
    --running;
    if (progress) {
      progress->set_running(running);
      progress->finished(pending[i], outcomes[i]);
    }
  });
  return outcomes;
}

}  // namespace warpsim::experiment

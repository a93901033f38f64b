// What tests that run programs share: reading files, shell commands, scratch directories,
// starting `warpsim` in the background and waiting for it, and the one-node Slurm cluster on
// localhost. (tests/support has no .cc files, so it is not a test program of its own.)
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace warpsim::testsupport {

namespace fs = std::filesystem;

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `cmd` with /bin/sh; its exit status, -1 when it did not exit normally.
inline int shell(const std::string& cmd) {
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Single-quotes `s` for the shell.
inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

// A fresh directory under the system's temporary directory, removed with everything in it when
// the object goes away.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "warpsim-test") {
    std::string tmpl = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(tmpl.data())) path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Starts `warpsim ARGS...` (no shell) with stdout and stderr to `log`; returns its pid.
inline pid_t start_warpsim(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> all = {WARPSIM_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    FILE* f = std::fopen(log.c_str(), "w");
    if (f) {
      ::dup2(fileno(f), 1);
      ::dup2(fileno(f), 2);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits for `pid`; its exit status, -1 when it was killed by a signal.
inline int wait_exit(pid_t pid) {
  int st = 0;
  ::waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// `warpsim ARGS...` run to completion with its output in `log`: exit status and that output.
struct Outcome {
  int status;
  std::string output;
};

inline Outcome run_warpsim_logged(const std::vector<std::string>& args, const std::string& log) {
  int st = wait_exit(start_warpsim(args, log));
  return {st, read_file(log)};
}

// The one-node Slurm cluster of scripts/slurm/local_cluster.sh in a scratch directory; stopped
// when the test ends, however it ends. start() returns the script's status: 0 up, 77 cannot be
// set up here (the test skips), anything else a failure, with the script's output in log().
class LocalSlurmCluster {
 public:
  explicit LocalSlurmCluster(const std::string& prefix) : dir_(prefix) {}
  ~LocalSlurmCluster() {
    if (started_) shell("bash " + script() + " stop " + dir_.path() + "/cluster >/dev/null 2>&1");
  }
  int start() {
    started_ = true;
    return shell("bash " + script() + " start " + dir_.path() + "/cluster >" + dir_.path() + "/start.log 2>&1");
  }
  std::string log() const { return read_file(dir_.path() + "/start.log"); }
  // Where the test keeps its own files.
  const std::string& dir() const { return dir_.path(); }

 private:
  static std::string script() { return std::string(WARPSIM_SOURCE_DIR) + "/scripts/slurm/local_cluster.sh"; }
  ScratchDir dir_;
  bool started_ = false;
};

}  // namespace warpsim::testsupport

// Running the real `warpsim` binary from the error tests: exit status and combined output.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/process.h"

namespace warpsim::errtest {

using testsupport::quote;
using testsupport::ScratchDir;
using testsupport::start_warpsim;
using testsupport::wait_exit;
namespace fs = std::filesystem;

struct CliResult {
  int rc = -1;         // exit status; -1 when killed by a signal
  int signal = 0;      // the signal, when killed by one
  std::string output;  // stdout and stderr
};

inline std::string read_text(const std::string& path) { return testsupport::read_file(path); }

// Path of a file in tests/data/errors.
inline std::string data(const std::string& name) {
  return std::string(WARPSIM_SOURCE_DIR) + "/tests/data/errors/" + name;
}

// Runs `warpsim ARGS` (ARGS already shell-quoted) with stdout and stderr captured.
inline CliResult run_warpsim(const std::string& args, const ScratchDir& dir) {
  std::string out = dir / "cli-output.txt";
  std::string cmd = std::string(WARPSIM_BINARY) + " " + args + " > '" + out + "' 2>&1 < /dev/null";
  int st = std::system(cmd.c_str());
  CliResult r;
  if (WIFEXITED(st)) {
    r.rc = WEXITSTATUS(st);
    // The shell reports a signal-killed child as 128 + signal.
    if (r.rc > 128 && r.rc < 128 + 65) r.signal = r.rc - 128;
  } else if (WIFSIGNALED(st)) {
    r.signal = WTERMSIG(st);
  }
  r.output = read_text(out);
  return r;
}

// The line warpsim prints for a user error: one "error: ..." line, no crash, exit status 1.
inline void expect_user_error(const CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.signal, 0) << r.output;
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(needle), std::string::npos) << "expected '" << needle << "' in:\n" << r.output;
}

}  // namespace warpsim::errtest

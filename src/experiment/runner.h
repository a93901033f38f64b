// Running the pairs of a sweep as child processes (`warpsim run ... --json`), several at a
// time, each isolated: a crash or a failed run is recorded and the others go on. A finished
// run is moved into the cache atomically; a killed sweep loses nothing already finished.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "experiment/sweep.h"

namespace warpsim::experiment {

struct PairOutcome {
  bool ok = false;
  int exit_code = 0;  // exit status, or -1 when killed by a signal
  int signal = 0;
  double seconds = 0;
  std::string message;  // why it failed: the end of its log
};

// Progress of a sweep: a redrawn bar with ETA on a terminal, one line per finished pair
// otherwise. Writes to `out` (stderr by default).
class Progress {
 public:
  Progress(size_t total, size_t cached, bool tty, std::FILE* out = stderr);
  void finished(const Pair& p, const PairOutcome& o);
  void set_running(size_t n) { running_ = n; }
  void tick();  // redraws the bar (terminal only), at most a few times a second
  void done();  // ends the bar's line
  size_t completed() const { return done_; }

 private:
  void draw();
  size_t total_, cached_, done_ = 0, failed_ = 0, running_ = 0;
  bool tty_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// Path of the running program (for spawning `warpsim run`).
std::string self_executable();

// Runs `pending` with at most `jobs` children of `exe` at a time. Outcomes are in the order of
// `pending`. Successful results end up in layout.cache_file(p); failures in layout.failed_file(p).
std::vector<PairOutcome> run_pairs_local(const std::vector<Pair>& pending, const Layout& layout,
                                         const std::string& gpu_file, const std::string& exe, int jobs,
                                         Progress* progress);

// Moves a finished run's JSON into the cache (adding the "harness" object) when `exit_code` is
// 0 and the JSON is readable, else records the failure. Returns the outcome.
PairOutcome finalize_pair(const Pair& p, const Layout& layout, int exit_code, int signal, double seconds);

// Last `max_lines` lines of a text file (empty when unreadable).
std::string file_tail(const std::string& path, size_t max_lines = 15);

}  // namespace warpsim::experiment

// The program's one pool of concurrent jobs. `warpsim compare`, `correlate`, `search` and
// `qos` all run their jobs through it: a harness job starts a `warpsim run` child process and
// waits for it (experiment/runner.h), a QoS job simulates its kernels in this process
// (experiment/multikernel.h). `--jobs` is the pool's width everywhere.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>

namespace warpsim::experiment {

struct JobPoolOptions {
  int jobs = 1;  // at most this many jobs at a time (values below 1 count as 1)
  // Called on the calling thread about every `tick_interval` while jobs run (progress bars).
  std::function<void()> tick;
  std::chrono::milliseconds tick_interval{100};
};

// Runs job(0) .. job(n - 1), at most `options.jobs` at a time, on worker threads, starting them
// in index order (on the calling thread when one job at a time and no tick are asked for).
// When a job throws, no further job starts; the running ones finish, then the first exception
// is rethrown. A job that must not stop the others catches its own errors.
void run_jobs(size_t n, const JobPoolOptions& options, const std::function<void(size_t)>& job);

}  // namespace warpsim::experiment

// Host threads that tick the SMs of one GPU in parallel (the `sm_threads` key).
//
// Within a cycle the SMs do not see each other: each reads the GPU-wide counters refreshed
// before the cycle and the memory system's state sampled at its tick, and changes only itself
// and its own port of the memory system (MemorySystem::open_sm_phase). So the SMs of a cycle can
// run in any order, on any thread, with the same result; the GPU hands each cycle's SMs to
// run(), which returns when every one has run.
//
// The workers wait for work by spinning (a cycle's work is a few microseconds, far shorter
// than waking a sleeping thread), and fall asleep after about a millisecond without any, so a
// GPU that is not simulating costs no host time.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace warpsim {

class SmWorkers {
 public:
  // `threads` host threads in all, the caller's included (so threads - 1 workers).
  explicit SmWorkers(uint32_t threads);
  ~SmWorkers();
  SmWorkers(const SmWorkers&) = delete;
  SmWorkers& operator=(const SmWorkers&) = delete;

  uint32_t threads() const { return uint32_t(workers_.size()) + 1; }
  // Calls task(i) for i in [0, n), each exactly once, and returns when all have returned:
  // thread k (the caller is 0) takes the i with i % threads() == k, so a given i runs on the
  // same thread in every call (an SM's state stays in one core's cache). If any threw,
  // rethrows the exception of the smallest i (the other tasks still ran to their end).
  void run(uint32_t n, const std::function<void(uint32_t)>& task);

 private:
  struct alignas(64) Done {
    std::atomic<uint64_t> round{0};  // the last round this worker finished
  };
  void work(uint32_t k);
  void run_share(uint32_t k);

  std::vector<std::thread> workers_;
  std::vector<Done> done_;  // per worker
  const std::function<void(uint32_t)>* task_ = nullptr;
  uint32_t n_ = 0;
  std::vector<std::exception_ptr> errors_;      // per task
  alignas(64) std::atomic<uint64_t> round_{0};  // incremented by each run() (and to stop)
  std::atomic<uint32_t> sleepers_{0};           // workers blocked in round_.wait
  bool stop_ = false;
};

}  // namespace warpsim

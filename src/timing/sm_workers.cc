#include "timing/sm_workers.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WARPSIM_SPIN_PAUSE() _mm_pause()
#else
#define WARPSIM_SPIN_PAUSE() std::atomic_signal_fence(std::memory_order_seq_cst)
#endif

namespace warpsim {

namespace {
// How long a worker spins for the next round before it blocks.
constexpr auto kSpinBeforeSleep = std::chrono::milliseconds(1);
// One turn of a spin-wait: a pause, and after a while a yield, so that a waiting thread does
// not hold a core that the thread it waits for needs (more threads than free cores). The
// pauses cover the usual wait (the serial part of a cycle, a few microseconds): a yield is a
// system call, and yielding sooner (after 64 or 512 pauses) made two threads on two free
// cores up to 2.3x slower than one (docs/performance.md).
void relax(uint32_t spins) {
  if (spins < 4096)
    WARPSIM_SPIN_PAUSE();
  else
    std::this_thread::yield();
}
}  // namespace

SmWorkers::SmWorkers(uint32_t threads) : done_(threads > 1 ? threads - 1 : 0) {
  workers_.reserve(done_.size());
  for (uint32_t k = 1; k < threads; ++k) workers_.emplace_back([this, k] { work(k); });
}

SmWorkers::~SmWorkers() {
  stop_ = true;
  round_.fetch_add(1);
  round_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void SmWorkers::run(uint32_t n, const std::function<void(uint32_t)>& task) {
  task_ = &task;
  n_ = n;
  errors_.assign(n, nullptr);
  const uint64_t round = round_.fetch_add(1) + 1;
  if (sleepers_.load() > 0) round_.notify_all();
  run_share(0);
  for (Done& d : done_)
    for (uint32_t spins = 1; d.round.load(std::memory_order_acquire) != round; ++spins) relax(spins);
  for (std::exception_ptr& e : errors_)
    if (e) std::rethrow_exception(e);
}

void SmWorkers::run_share(uint32_t k) {
  const uint32_t step = threads();
  for (uint32_t i = k; i < n_; i += step) {
    try {
      (*task_)(i);
    } catch (...) {
      errors_[i] = std::current_exception();
    }
  }
}

void SmWorkers::work(uint32_t k) {
  uint64_t seen = 0;
  for (;;) {
    // Wait for the next round: spin, then block.
    uint64_t r = round_.load(std::memory_order_acquire);
    if (r == seen) {
      auto start = std::chrono::steady_clock::now();
      for (uint32_t spins = 1; (r = round_.load(std::memory_order_acquire)) == seen; ++spins) {
        relax(spins);
        if ((spins & 1023) == 0 && std::chrono::steady_clock::now() - start > kSpinBeforeSleep) {
          sleepers_.fetch_add(1);
          round_.wait(seen);
          sleepers_.fetch_sub(1);
        }
      }
    }
    seen = r;
    if (stop_) return;
    run_share(k);
    done_[k - 1].round.store(r, std::memory_order_release);
  }
}

}  // namespace warpsim

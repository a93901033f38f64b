#include "experiment/job_pool.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace warpsim::experiment {

void run_jobs(size_t n, const JobPoolOptions& options, const std::function<void(size_t)>& job) {
  if (n == 0) return;
  const size_t width = std::min<size_t>(size_t(std::max(1, options.jobs)), n);
  std::mutex m;
  std::condition_variable cv;
  size_t next = 0, finished_workers = 0;
  std::exception_ptr error;

  auto worker = [&] {
    while (true) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(m);
        if (error || next >= n) break;
        i = next++;
      }
      try {
        job(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (!error) error = std::current_exception();
      }
    }
    std::lock_guard<std::mutex> lock(m);
    ++finished_workers;
    cv.notify_all();
  };

  if (width == 1 && !options.tick) {
    worker();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(width);
    for (size_t k = 0; k < width; ++k) threads.emplace_back(worker);
    {
      std::unique_lock<std::mutex> lock(m);
      while (finished_workers < width) {
        cv.wait_for(lock, options.tick_interval);
        if (options.tick && finished_workers < width) {
          lock.unlock();
          options.tick();
          lock.lock();
        }
      }
    }
    for (auto& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace warpsim::experiment

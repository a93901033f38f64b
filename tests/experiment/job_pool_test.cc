// The job pool every parallel command runs on: each job once, never more than `jobs` at once,
// the first error stops the rest and comes back to the caller, the ticker runs meanwhile.
#include "experiment/job_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace warpsim::experiment;

TEST(JobPool, RunsEachJobOnceAndNeverMoreThanItsWidth) {
  for (int width : {1, 2, 3, 8}) {
    std::vector<std::atomic<int>> runs(40);
    std::atomic<int> now{0}, most{0};
    JobPoolOptions o;
    o.jobs = width;
    run_jobs(runs.size(), o, [&](size_t i) {
      int n = ++now;
      int m = most.load();
      while (n > m && !most.compare_exchange_weak(m, n)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++runs[i];
      --now;
    });
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i].load(), 1) << "job " << i << " width " << width;
    EXPECT_LE(most.load(), width);
    if (width > 1) {
      EXPECT_GT(most.load(), 1) << "width " << width << " never ran jobs side by side";
    }
  }
}

TEST(JobPool, FirstErrorStopsNewJobsAndIsRethrown) {
  std::atomic<int> started{0};
  JobPoolOptions o;
  o.jobs = 2;
  try {
    run_jobs(100, o, [&](size_t i) {
      ++started;
      if (i == 3) throw std::runtime_error("job 3 failed");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "job 3 failed");
  }
  EXPECT_LT(started.load(), 100);
}

TEST(JobPool, TickerRunsOnTheCallingThreadWhileJobsRun) {
  std::atomic<int> ticks{0};
  const auto caller = std::this_thread::get_id();
  bool ticked_elsewhere = false;
  JobPoolOptions o;
  o.jobs = 1;
  o.tick_interval = std::chrono::milliseconds(1);
  o.tick = [&] {
    ++ticks;
    if (std::this_thread::get_id() != caller) ticked_elsewhere = true;
  };
  run_jobs(3, o, [](size_t) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); });
  EXPECT_GT(ticks.load(), 5);
  EXPECT_FALSE(ticked_elsewhere);
  run_jobs(0, o, [](size_t) { FAIL() << "no job to run"; });
}

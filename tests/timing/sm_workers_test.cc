#include "timing/sm_workers.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace warpsim::test {
namespace {

TEST(SmWorkers, RunsEveryTaskOnceOnTheSameThreadEachRound) {
  SmWorkers workers(3);
  ASSERT_EQ(workers.threads(), 3u);
  std::vector<std::thread::id> first(10);
  for (int round = 0; round < 200; ++round) {
    std::vector<int> calls(10, 0);
    std::vector<std::thread::id> who(10);
    workers.run(10, [&](uint32_t i) {
      ++calls[i];
      who[i] = std::this_thread::get_id();
    });
    for (int i = 0; i < 10; ++i) EXPECT_EQ(calls[i], 1) << "task " << i << " round " << round;
    if (round == 0) first = who;
    EXPECT_EQ(who, first) << "round " << round;
  }
  // Tasks i and i + 3 share a thread, the caller takes i % 3 == 0.
  EXPECT_EQ(first[0], std::this_thread::get_id());
  EXPECT_EQ(first[1], first[4]);
  EXPECT_NE(first[1], first[2]);
  EXPECT_NE(first[0], first[1]);
}

TEST(SmWorkers, RethrowsTheErrorOfTheSmallestTaskAfterAllRan) {
  SmWorkers workers(2);
  std::vector<int> ran(6, 0);
  try {
    workers.run(6, [&](uint32_t i) {
      ran[i] = 1;
      if (i == 3 || i == 4) throw std::runtime_error("task " + std::to_string(i));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 3");
  }
  for (int r : ran) EXPECT_EQ(r, 1);
  // The workers are still there for the next round.
  std::vector<int> again(6, 0);
  workers.run(6, [&](uint32_t i) { again[i] = int(i); });
  for (int i = 0; i < 6; ++i) EXPECT_EQ(again[i], i);
}

TEST(SmWorkers, WorkersThatFellAsleepWakeForTheNextRound) {
  SmWorkers workers(2);
  std::vector<int> out(4, 0);
  workers.run(4, [&](uint32_t i) { out[i] = 1; });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spinning
  workers.run(4, [&](uint32_t i) { out[i] += 1; });
  for (int v : out) EXPECT_EQ(v, 2);
}

TEST(SmWorkers, OneThreadRunsEverythingOnTheCaller) {
  SmWorkers workers(1);
  EXPECT_EQ(workers.threads(), 1u);
  int n = 0;
  const std::thread::id caller = std::this_thread::get_id();
  workers.run(5, [&](uint32_t) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    ++n;
  });
  EXPECT_EQ(n, 5);
}

}  // namespace
}  // namespace warpsim::test

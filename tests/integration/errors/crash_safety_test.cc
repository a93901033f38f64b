// Crash safety of `warpsim compare` and `warpsim search`: a sweep or search killed with SIGKILL
// at several moments (drawn from a seeded generator) and then re-run loses no finished work,
// never leaves a partial result or state file, and ends with the same results as a run that
// was never interrupted.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli_util.h"

namespace warpsim::errtest {
namespace {

// Six small synthetic kernels (a few loads and dependent ALU work each).
std::string write_suite(const ScratchDir& dir) {
  std::string suite;
  for (int i = 1; i <= 6; ++i) {
    std::string name = "c";
    name += std::to_string(i);
    std::string p = dir / (name + ".kern");
    std::ofstream(p) << "kernel c" << i << " grid=" << 6 + 4 * i << " block=96 regs=8\n"
                     << "loop " << 6 + 2 * i << "\n"
                     << "  ld.global pattern=coalesced width=4 base=0x20000000\n"
                     << "  alu sp 3\n"
                     << "  alu sp 1 use\n"
                     << "end\nexit\n";
    suite += (suite.empty() ? "" : ",") + p;
  }
  return suite;
}

std::vector<std::string> compare_args(const std::string& suite, const std::string& out, int jobs) {
  return {"compare",  "--suite", suite,   "--gpu", "gtx480", "--schedulers",       "lrr,gto",
          "--oracle", "lrr,gto", "--out", out,     "--jobs", std::to_string(jobs), "--progress",
          "lines"};
}

// Names of the finished pairs in the cache; every one must be a whole JSON object.
std::set<std::string> finished_pairs(const std::string& out) {
  std::set<std::string> names;
  std::error_code ec;
  fs::path cache = fs::path(out) / "cache";
  if (!fs::exists(cache, ec)) return names;
  for (const auto& e : fs::directory_iterator(cache, ec)) {
    if (e.path().extension() != ".json") continue;
    std::string text = read_text(e.path().string());
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    EXPECT_TRUE(!j.is_discarded() && j.is_object()) << "partial result file " << e.path();
    names.insert(e.path().filename().string());
  }
  return names;
}

TEST(CrashSafety, CompareKilledRepeatedlyResumesWithNothingLost) {
  ScratchDir d;
  std::string suite = write_suite(d);
  std::string out = d / "killed";
  const size_t total = 12;  // 6 kernels x 2 schedulers

  std::mt19937 rng(20261121);
  // Kills land anywhere from start-up to the report; one pair takes about 0.1 s.
  std::uniform_int_distribution<int> delay_ms(0, 400);
  std::set<std::string> before;
  int kills = 0;
  for (int round = 0; round < 10; ++round) {
    std::string log = "round";
    log += std::to_string(round);
    pid_t pid = start_warpsim(compare_args(suite, out, 1 + round % 2), d / (log + ".log"));
    int ms = delay_ms(rng);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ::kill(pid, SIGKILL);
    wait_exit(pid);
    ++kills;
    // The runs in flight die with the sweep (they hold no result yet).
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::set<std::string> now = finished_pairs(out);
    std::printf("kill %d after %d ms: %zu of %zu pairs finished\n", kills, ms, now.size(), total);
    for (const auto& name : before) EXPECT_TRUE(now.count(name)) << name << " lost after kill " << kills;
    before = now;
    if (before.size() == total) break;
  }
  ASSERT_GE(kills, 1);

  // The re-run runs only what is missing, and nothing fails.
  CliResult r;
  pid_t pid = start_warpsim(compare_args(suite, out, 2), d / "resume.log");
  r.rc = wait_exit(pid);
  r.output = read_text(d / "resume.log");
  ASSERT_EQ(r.rc, 0) << r.output;
  std::smatch m;
  std::regex re("pairs: (\\d+) total, (\\d+) cached, (\\d+) run, (\\d+) failed");
  ASSERT_TRUE(std::regex_search(r.output, m, re)) << r.output;
  EXPECT_EQ(std::stoul(m[1]), total);
  EXPECT_EQ(std::stoul(m[2]), before.size()) << r.output;
  EXPECT_EQ(std::stoul(m[3]), total - before.size()) << r.output;
  EXPECT_EQ(std::stoul(m[4]), 0u) << r.output;
  EXPECT_EQ(finished_pairs(out).size(), total);

  // Same results as a sweep that was never interrupted.
  std::string clean = d / "clean";
  pid = start_warpsim(compare_args(suite, clean, 2), d / "clean.log");
  ASSERT_EQ(wait_exit(pid), 0) << read_text(d / "clean.log");
  std::string csv = read_text(out + "/results.csv");
  EXPECT_FALSE(csv.empty());
  EXPECT_EQ(csv, read_text(clean + "/results.csv"));
  EXPECT_EQ(read_text(out + "/results.jsonl"), read_text(clean + "/results.jsonl"));
  EXPECT_EQ(finished_pairs(out), finished_pairs(clean));
}

std::vector<std::string> search_args(const std::string& out, int jobs) {
  return {"search",
          "rlws",
          "--gpu",
          "gtx480",
          "--size",
          "small",
          "--train",
          "dep_chain,barrier",
          "--population",
          "6",
          "--generations",
          "6",
          "--seed",
          "11",
          "--final-suite",
          "none",
          "--progress",
          "none",
          "--jobs",
          std::to_string(jobs),
          "--resume",
          "--out",
          out};
}

size_t lines(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

TEST(CrashSafety, SearchKilledRepeatedlyResumesToTheUninterruptedResult) {
  ScratchDir d;
  std::string clean = d / "clean", out = d / "killed";
  ASSERT_EQ(wait_exit(start_warpsim(search_args(clean, 2), d / "clean.log")), 0) << read_text(d / "clean.log");
  const std::string history = read_text(clean + "/history.csv");
  ASSERT_EQ(lines(history), 1u + 6 * 6);

  std::mt19937 rng(11212026);
  std::uniform_int_distribution<int> delay_ms(0, 700);
  size_t saved = 0;  // history rows on disk after the last kill
  int kills = 0;
  for (int round = 0; round < 12; ++round) {
    std::string log = d / ("round" + std::to_string(round) + ".log");
    pid_t pid = start_warpsim(search_args(out, 1 + round % 2), log);
    int ms = delay_ms(rng);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ::kill(pid, SIGKILL);
    int rc = wait_exit(pid);
    ++kills;
    // The state and every cached simulation are whole JSON whenever they exist, and saved
    // generations never go away.
    finished_pairs(out);
    if (fs::exists(out + "/state.json")) {
      nlohmann::json j = nlohmann::json::parse(read_text(out + "/state.json"), nullptr, false);
      EXPECT_TRUE(!j.is_discarded() && j.is_object()) << "partial state after kill " << kills;
    }
    size_t now = fs::exists(out + "/history.csv") ? lines(read_text(out + "/history.csv")) : 0;
    std::printf("kill %d after %d ms: %zu history rows\n", kills, ms, now);
    EXPECT_GE(now, saved) << "generations lost after kill " << kills;
    saved = now;
    if (rc == 0) break;  // it finished before the kill
  }

  pid_t pid = start_warpsim(search_args(out, 2), d / "resume.log");
  ASSERT_EQ(wait_exit(pid), 0) << read_text(d / "resume.log");
  EXPECT_EQ(read_text(out + "/history.csv"), history);
  EXPECT_EQ(read_text(out + "/best.toml"), read_text(clean + "/best.toml"));
  EXPECT_EQ(read_text(out + "/generations.csv"), read_text(clean + "/generations.csv"));
}

}  // namespace
}  // namespace warpsim::errtest

// `warpsim compare` end to end on small synthetic kernels: caching, resuming a killed sweep,
// --jobs 1 against --jobs 2, failed pairs, and the files a sweep writes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/process.h"

namespace {

using namespace warpsim::testsupport;

// Small kernels: a few loads and dependent ALU work, about a tenth of a second each.
std::vector<std::string> write_kernels(const std::string& dir, int n) {
  std::vector<std::string> paths;
  for (int i = 1; i <= n; ++i) {
    std::string p = dir + "/k" + std::to_string(i) + ".kern";
    std::ofstream out(p);
    out << "param CTAS=" << 10 + 5 * i << "\n"
        << "kernel k" << i << " grid=$CTAS block=128 regs=8\n"
        << "loop " << 8 + 2 * i << "\n"
        << "  ld.global pattern=coalesced width=4 base=0x10000000\n"
        << "  alu sp 4\n"
        << "  alu sp 1 use\n"
        << "end\nexit\n";
    paths.push_back(p);
  }
  return paths;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) {
    if (!s.empty()) s += ',';
    s += x;
  }
  return s;
}

std::vector<std::string> compare_args(const std::string& suite, const std::string& out, int jobs) {
  return {"compare",  "--suite", suite,   "--gpu", "gtx480", "--schedulers",       "lrr,gto",
          "--oracle", "lrr,gto", "--out", out,     "--jobs", std::to_string(jobs), "--progress",
          "lines"};
}

size_t count_files(const std::string& dir, const std::string& ext) {
  size_t n = 0;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return 0;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ext) ++n;
  return n;
}

// "pairs: T total, C cached, R run, F failed"
std::vector<int> pair_counts(const std::string& output) {
  std::smatch m;
  std::regex re("pairs: (\\d+) total, (\\d+) cached, (\\d+) run, (\\d+) failed");
  if (!std::regex_search(output, m, re)) return {};
  return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])};
}

}  // namespace

TEST(Sweep, RerunIsCachedAndJobsDoNotChangeResults) {
  ScratchDir d("warpsim-sweep");
  std::string suite = join(write_kernels(d.path(), 3));
  Outcome a = run_warpsim_logged(compare_args(suite, d.path() + "/j1", 1), d.path() + "/a.log");
  ASSERT_EQ(a.status, 0) << a.output;
  EXPECT_EQ(pair_counts(a.output), (std::vector<int>{6, 0, 6, 0})) << a.output;
  Outcome b = run_warpsim_logged(compare_args(suite, d.path() + "/j2", 2), d.path() + "/b.log");
  ASSERT_EQ(b.status, 0) << b.output;
  std::string csv1 = read_file(d.path() + "/j1/results.csv");
  EXPECT_EQ(std::count(csv1.begin(), csv1.end(), '\n'), 7);  // header + 3 kernels x 2 schedulers
  EXPECT_EQ(csv1, read_file(d.path() + "/j2/results.csv"));
  EXPECT_EQ(read_file(d.path() + "/j1/results.jsonl"), read_file(d.path() + "/j2/results.jsonl"));

  // A rerun finds everything in the cache and runs nothing.
  Outcome c = run_warpsim_logged(compare_args(suite, d.path() + "/j1", 2), d.path() + "/c.log");
  ASSERT_EQ(c.status, 0) << c.output;
  EXPECT_EQ(pair_counts(c.output), (std::vector<int>{6, 6, 0, 0})) << c.output;
  EXPECT_EQ(csv1, read_file(d.path() + "/j1/results.csv"));

  // A different seed is a different key.
  auto args = compare_args(suite, d.path() + "/j1", 2);
  args.insert(args.end(), {"--seed", "9"});
  Outcome s = run_warpsim_logged(args, d.path() + "/s.log");
  EXPECT_EQ(pair_counts(s.output), (std::vector<int>{6, 0, 6, 0})) << s.output;

  // Outputs: report, charts, summary with the geomean row.
  std::string html = read_file(d.path() + "/j1/report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_TRUE(fs::exists(d.path() + "/j1/svg/speedup.svg"));
  EXPECT_TRUE(fs::exists(d.path() + "/j1/svg/stalls.svg"));
  EXPECT_TRUE(fs::exists(d.path() + "/j1/svg/ipc_k1.svg"));
  EXPECT_NE(a.output.find("geomean"), std::string::npos);
  EXPECT_NE(a.output.find("report: " + d.path() + "/j1/report.html"), std::string::npos);
}

TEST(Sweep, KilledSweepResumesWithOnlyTheMissingPairs) {
  ScratchDir d("warpsim-sweep");
  std::string suite = join(write_kernels(d.path(), 8));
  std::string out = d.path() + "/out";
  pid_t pid = start_warpsim(compare_args(suite, out, 1), d.path() + "/killed.log");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (count_files(out + "/cache", ".json") < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGKILL);
  wait_exit(pid);
  // The run in flight dies with the sweep; give it a moment, then count what is finished.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  size_t finished = count_files(out + "/cache", ".json");
  ASSERT_GE(finished, 3u);
  ASSERT_LT(finished, 16u) << "the sweep finished before it could be killed";

  Outcome r = run_warpsim_logged(compare_args(suite, out, 2), d.path() + "/resume.log");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(pair_counts(r.output), (std::vector<int>{16, int(finished), 16 - int(finished), 0})) << r.output;
  EXPECT_EQ(count_files(out + "/cache", ".json"), 16u);
  EXPECT_EQ(count_files(out + "/work", ".json"), 0u);

  // The resumed sweep's results equal an uninterrupted one's.
  Outcome full = run_warpsim_logged(compare_args(suite, d.path() + "/full", 2), d.path() + "/full.log");
  ASSERT_EQ(full.status, 0) << full.output;
  EXPECT_EQ(read_file(out + "/results.csv"), read_file(d.path() + "/full/results.csv"));
}

TEST(Sweep, FailedPairIsReportedAndDoesNotStopTheOthers) {
  ScratchDir d("warpsim-sweep");
  auto kernels = write_kernels(d.path(), 2);
  std::string bad = d.path() + "/broken.kern";
  std::ofstream(bad) << "kernel broken grid=1 block=32\n  no_such_instruction 3\nexit\n";
  kernels.push_back(bad);
  std::string out = d.path() + "/out";
  Outcome r = run_warpsim_logged(compare_args(join(kernels), out, 2), d.path() + "/r.log");
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(pair_counts(r.output), (std::vector<int>{6, 0, 6, 2})) << r.output;
  EXPECT_NE(r.output.find("broken / lrr"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no_such_instruction"), std::string::npos) << r.output;  // the run's own error
  EXPECT_EQ(count_files(out + "/cache", ".json"), 4u);
  EXPECT_EQ(count_files(out + "/failed", ".json"), 2u);
  std::string csv = read_file(out + "/results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);  // the four good pairs
  // Failures are not cached: a rerun tries them again.
  Outcome again = run_warpsim_logged(compare_args(join(kernels), out, 2), d.path() + "/again.log");
  EXPECT_EQ(pair_counts(again.output), (std::vector<int>{6, 4, 2, 2})) << again.output;
}

TEST(Sweep, BadArgumentsAreErrors) {
  ScratchDir d("warpsim-sweep");
  Outcome r =
      run_warpsim_logged({"compare", "--suite", "no_such_workload_xyz", "--out", d.path() + "/o"}, d.path() + "/r.log");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("unknown workload"), std::string::npos) << r.output;
  Outcome s = run_warpsim_logged(
      {"compare", "--suite", "dep_chain", "--schedulers", "lrr,nope", "--out", d.path() + "/o"}, d.path() + "/s.log");
  EXPECT_NE(s.status, 0);
  EXPECT_NE(s.output.find("nope"), std::string::npos) << s.output;
  Outcome b = run_warpsim_logged({"compare", "--suite", "dep_chain", "--schedulers", "gto", "--out", d.path() + "/o"},
                                 d.path() + "/b.log");
  EXPECT_NE(b.status, 0);
  EXPECT_NE(b.output.find("--baseline"), std::string::npos) << b.output;
  Outcome p = run_warpsim_logged({"compare", "--suite", "dep_chain", "--sched-param", "tl=3", "--out", d.path() + "/o"},
                                 d.path() + "/p.log");
  EXPECT_NE(p.status, 0);
  EXPECT_NE(p.output.find("SCHEDULER:key=value"), std::string::npos) << p.output;
}

// --perturb 1: the sweep runs again with every kernel started a cycle later, as pairs of their
// own (cached like the others), and spread.csv holds each launch's GTO/LRR range, whose first
// value is the unperturbed run's speedup of results.csv.
TEST(Sweep, PerturbedRunsGiveEachLaunchASpeedupRange) {
  ScratchDir d("warpsim-sweep");
  std::string suite = join(write_kernels(d.path(), 2));
  auto args = compare_args(suite, d.path() + "/p", 2);
  args.insert(args.end(), {"--perturb", "1"});
  Outcome a = run_warpsim_logged(args, d.path() + "/a.log");
  ASSERT_EQ(a.status, 0) << a.output;
  EXPECT_EQ(pair_counts(a.output), (std::vector<int>{8, 0, 8, 0})) << a.output;
  EXPECT_NE(a.output.find("Spread (every kernel started 0..1 cycles later"), std::string::npos) << a.output;
  EXPECT_NE(a.output.find("gto            geomean over 2 launches:"), std::string::npos) << a.output;
  // The unperturbed results are those of a plain sweep.
  Outcome plain = run_warpsim_logged(compare_args(suite, d.path() + "/q", 2), d.path() + "/q.log");
  ASSERT_EQ(plain.status, 0) << plain.output;
  EXPECT_EQ(read_file(d.path() + "/p/results.csv"), read_file(d.path() + "/q/results.csv"));
  // cycles of (kernel, scheduler) in results.csv
  std::map<std::string, double> cycles;
  {
    std::istringstream in(read_file(d.path() + "/p/results.csv"));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream ls(line);
      for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
      ASSERT_GT(f.size(), 13u);
      cycles[f[1] + "/" + f[4]] = std::stod(f[13]);
    }
  }
  std::istringstream spread(read_file(d.path() + "/p/spread.csv"));
  std::string line;
  std::getline(spread, line);
  EXPECT_EQ(line, "scheduler,kernel,speedup_over_lrr,speedup_lo,speedup_hi,runs");
  int rows = 0;
  while (std::getline(spread, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    ASSERT_EQ(f.size(), 6u) << line;
    EXPECT_EQ(f[0], "gto");
    ASSERT_TRUE(cycles.count(f[1] + "/lrr") && cycles.count(f[1] + "/gto")) << line;
    EXPECT_NEAR(std::stod(f[2]), cycles[f[1] + "/lrr"] / cycles[f[1] + "/gto"], 1e-9) << line;
    EXPECT_LE(std::stod(f[3]), std::stod(f[2]));
    EXPECT_GE(std::stod(f[4]), std::stod(f[2]));
    EXPECT_EQ(f[5], "2");
    ++rows;
  }
  EXPECT_EQ(rows, 2);
  // A rerun runs nothing: the perturbed pairs are cached under keys of their own.
  const std::string first = read_file(d.path() + "/p/spread.csv");
  Outcome b = run_warpsim_logged(args, d.path() + "/b.log");
  ASSERT_EQ(b.status, 0) << b.output;
  EXPECT_EQ(pair_counts(b.output), (std::vector<int>{8, 8, 0, 0})) << b.output;
  EXPECT_EQ(read_file(d.path() + "/p/spread.csv"), first);
}

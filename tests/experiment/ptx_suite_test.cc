// PTX launches as suite items of `warpsim compare`: FILE.ptx@LAUNCH.toml and FILE.ptx with
// FILE.launch.toml beside it run under every scheduler, give the cycles `warpsim run` gives,
// are cached by content, and a PTX file without a description is a clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/process.h"

namespace {

using namespace warpsim::testsupport;
namespace fs = std::filesystem;

std::string kernel(const char* name) {
  return std::string(WARPSIM_SOURCE_DIR) + "/tests/data/kernels/" + name + ".ptx";
}

// (workload, scheduler) -> cycles of each results.jsonl line.
std::map<std::pair<std::string, std::string>, uint64_t> cycles(const std::string& jsonl) {
  std::map<std::pair<std::string, std::string>, uint64_t> out;
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line);
    out[{j["workload"].get<std::string>(), j["scheduler"].get<std::string>()}] = j["cycles"].get<uint64_t>();
  }
  return out;
}

class PtxSuite : public ::testing::Test {
 protected:
  ScratchDir d{"warpsim-ptx-suite"};
  std::string vecadd, triad;
  void SetUp() override {
    // saxpy(n, a, x, y) with its description beside a copy of the module.
    vecadd = d / "vecadd.ptx";
    fs::copy_file(kernel("vecadd"), vecadd);
    std::ofstream(d / "vecadd.launch.toml") << "grid = 4\nblock = 128\n"
                                               "args = [\"s32 512\", \"f32 2.0\", \"buffer f32 n=512 fill=random "
                                               "seed=1\", \"buffer f32 n=512 fill=iota\"]\n";
    // triad of bench_mem.ptx, named explicitly; its dump is ignored in a sweep.
    std::ofstream(d / "triad.toml")
        << "kernel = \"triad\"\ngrid = 2\nblock = 256\ndump = \"" << (d / "dump.json")
        << "\"\n"
           "args = [\"buffer f32 n=1000 fill=random seed=3\", \"buffer f32 n=1000 fill=iota\", "
           "\"buffer f32 n=1000 dump\", \"f32 2.0\", \"s32 1000\"]\n";
    triad = kernel("bench_mem") + "@" + (d / "triad.toml");
  }
  std::vector<std::string> compare(const std::string& out) const {
    return {"compare", "--suite",    vecadd + "," + triad,
            "--gpu",   "gtx480",     "--schedulers",
            "lrr,gto", "--oracle",   "lrr,gto",
            "--out",   out,          "--jobs",
            "2",       "--progress", "lines"};
  }
};

TEST_F(PtxSuite, LaunchesRunUnderEverySchedulerAsWarpsimRunDoes) {
  Outcome c = run_warpsim_logged(compare(d / "o"), d / "c.log");
  ASSERT_EQ(c.status, 0) << c.output;
  EXPECT_NE(c.output.find("pairs: 4 total, 0 cached, 4 run, 0 failed"), std::string::npos) << c.output;
  auto got = cycles(d / "o/results.jsonl");
  ASSERT_EQ(got.size(), 4u) << read_file(d / "o/results.jsonl");
  EXPECT_FALSE(fs::exists(d / "dump.json"));  // dumps belong to `warpsim run`

  // The same launches through `warpsim run`, one scheduler each: the same cycles.
  for (const char* sched : {"lrr", "gto"}) {
    Outcome v = run_warpsim_logged(
        {"run", vecadd, "--gpu", "gtx480", "--scheduler", sched, "-q", "--json", d / "v.json"}, d / "v.log");
    ASSERT_EQ(v.status, 0) << v.output;
    auto vj = nlohmann::json::parse(read_file(d / "v.json"));
    EXPECT_EQ(vj["workload"], "vecadd.ptx");
    EXPECT_EQ((got[{"vecadd.ptx", sched}]), vj["kernels"][0]["cycles"].get<uint64_t>()) << sched;
    Outcome t = run_warpsim_logged({"run", kernel("bench_mem"), "--launch", d / "triad.toml", "--gpu", "gtx480",
                                    "--scheduler", sched, "-q", "--json", d / "t.json"},
                                   d / "t.log");
    ASSERT_EQ(t.status, 0) << t.output;
    auto tj = nlohmann::json::parse(read_file(d / "t.json"));
    EXPECT_EQ((got[{"bench_mem.ptx@triad.toml", sched}]), tj["kernels"][0]["cycles"].get<uint64_t>()) << sched;
  }

  // Unchanged inputs are cached; a changed description is a new workload fingerprint.
  Outcome again = run_warpsim_logged(compare(d / "o"), d / "again.log");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("pairs: 4 total, 4 cached, 0 run, 0 failed"), std::string::npos) << again.output;
  std::ofstream(d / "vecadd.launch.toml", std::ios::app) << "shared = 256\n";
  Outcome changed = run_warpsim_logged(compare(d / "o"), d / "changed.log");
  ASSERT_EQ(changed.status, 0) << changed.output;
  EXPECT_NE(changed.output.find("pairs: 4 total, 2 cached, 2 run, 0 failed"), std::string::npos) << changed.output;
}

TEST_F(PtxSuite, PtxFileWithoutDescriptionIsAClearError) {
  fs::remove(d / "vecadd.launch.toml");
  Outcome c = run_warpsim_logged(compare(d / "o"), d / "c.log");
  EXPECT_EQ(c.status, 1) << c.output;
  EXPECT_NE(c.output.find("needs a launch description: FILE.ptx@LAUNCH.toml"), std::string::npos) << c.output;
  Outcome r = run_warpsim_logged({"run", vecadd, "-q"}, d / "r.log");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("vecadd.launch.toml beside it"), std::string::npos) << r.output;
  Outcome e = run_warpsim_logged({"run", vecadd + "@", "-q"}, d / "e.log");
  EXPECT_EQ(e.status, 1) << e.output;
  EXPECT_NE(e.output.find("no launch description after '@'"), std::string::npos) << e.output;
}

}  // namespace

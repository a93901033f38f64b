// `warpsim compare --backend slurm` against a real one-node Slurm cluster on localhost
// (scripts/slurm/local_cluster.sh installs slurm-wlm and munge when missing, starts munged,
// slurmctld and slurmd, and stops only those). Skipped when the cluster cannot be set up.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"

namespace {

using namespace warpsim::testsupport;

struct Result {
  int status;
  std::string output;
};

Result run_cli(const std::string& args, const std::string& log) {
  int st = shell(std::string(WARPSIM_BINARY) + " " + args + " >" + log + " 2>&1");
  return {st, read_file(log)};
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(SlurmBackend, SweepThroughSlurmEqualsLocalAndRetriesFailedTasks) {
  LocalSlurmCluster cluster("warpsim-slurm");
  const std::string dir = cluster.dir();
  int rc = cluster.start();
  if (rc == 77) GTEST_SKIP() << "no local Slurm cluster: " << cluster.log();
  ASSERT_EQ(rc, 0) << cluster.log();
  ::setenv("SLURM_CONF", (dir + "/cluster/slurm.conf").c_str(), 1);

  // Three small kernels, two schedulers, chunked into tasks of two pairs.
  std::string suite;
  for (int i = 1; i <= 3; ++i) {
    std::string p = dir + "/k" + std::to_string(i) + ".kern";
    std::ofstream(p)
        << "kernel k" << i << " grid=" << 10 * i << " block=128 regs=8\nloop " << 6 + 2 * i
        << "\n  ld.global pattern=coalesced width=4 base=0x10000000\n  alu sp 4\n  alu sp 1 use\nend\nexit\n";
    suite += (i > 1 ? "," : "") + p;
  }
  std::string common =
      "compare --suite " + suite + " --gpu gtx480 --schedulers lrr,gto --oracle lrr,gto --progress lines";
  Result s = run_cli(common + " --backend slurm --slurm-max-tasks 3 --slurm-poll 0.3 --out " + dir + "/slurm",
                     dir + "/slurm.log");
  ASSERT_EQ(s.status, 0) << s.output;
  EXPECT_EQ(count(s.output, "submitted Slurm job array"), 1) << s.output;
  EXPECT_NE(s.output.find("3 tasks"), std::string::npos) << s.output;
  EXPECT_NE(s.output.find("pairs: 6 total, 0 cached, 6 run, 0 failed"), std::string::npos) << s.output;
  Result l = run_cli(common + " --backend local --jobs 2 --out " + dir + "/local", dir + "/local.log");
  ASSERT_EQ(l.status, 0) << l.output;
  std::string csv = read_file(dir + "/slurm/results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_EQ(csv, read_file(dir + "/local/results.csv"));
  EXPECT_EQ(read_file(dir + "/slurm/results.jsonl"), read_file(dir + "/local/results.jsonl"));

  // Rerun through Slurm: everything cached, nothing submitted.
  Result again = run_cli(common + " --backend slurm --out " + dir + "/slurm", dir + "/again.log");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_EQ(count(again.output, "submitted Slurm job array"), 0) << again.output;
  EXPECT_NE(again.output.find("pairs: 6 total, 6 cached, 0 run, 0 failed"), std::string::npos) << again.output;

  // A pair that always fails: its task is resubmitted once (--slurm-retries 1), then the pair
  // is reported with the run's own error; the other pairs are unaffected.
  std::string bad = dir + "/broken.kern";
  std::ofstream(bad) << "kernel broken grid=1 block=32\n  no_such_instruction 3\nexit\n";
  Result f = run_cli("compare --suite " + suite + "," + bad +
                         " --gpu gtx480 --schedulers lrr,gto --oracle lrr,gto --progress lines --backend slurm"
                         " --slurm-max-tasks 8 --slurm-retries 1 --slurm-poll 0.3 --out " +
                         dir + "/slurm",
                     dir + "/fail.log");
  EXPECT_NE(f.status, 0) << f.output;
  EXPECT_EQ(count(f.output, "submitted Slurm job array"), 2) << f.output;
  EXPECT_NE(f.output.find("retry 1"), std::string::npos) << f.output;
  EXPECT_NE(f.output.find("pairs: 8 total, 6 cached, 2 run, 2 failed"), std::string::npos) << f.output;
  EXPECT_NE(f.output.find("no_such_instruction"), std::string::npos) << f.output;
}

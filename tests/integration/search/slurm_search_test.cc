// `warpsim search --backend slurm` against a one-node Slurm cluster on localhost
// (scripts/slurm/local_cluster.sh): the same search as with the local backend gives the same
// history. Skipped when the cluster cannot be set up.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/process.h"

using namespace warpsim::testsupport;

TEST(SlurmSearch, SearchThroughSlurmEqualsLocal) {
  LocalSlurmCluster cluster("warpsim-slurm-search");
  const std::string dir = cluster.dir();
  int rc = cluster.start();
  if (rc == 77) GTEST_SKIP() << "no local Slurm cluster: " << cluster.log();
  ASSERT_EQ(rc, 0) << cluster.log();
  ::setenv("SLURM_CONF", (dir + "/cluster/slurm.conf").c_str(), 1);

  std::string common = std::string(WARPSIM_BINARY) +
                       " search rlws --gpu gtx480 --size small --train dep_chain,barrier --population 3 "
                       "--generations 2 --seed 3 --final-suite none --progress none";
  int s = shell(common + " --backend slurm --slurm-max-tasks 4 --slurm-poll 0.3 --out " + dir + "/slurm >" + dir +
                "/slurm.log 2>&1");
  ASSERT_EQ(s, 0) << read_file(dir + "/slurm.log");
  EXPECT_NE(read_file(dir + "/slurm.log").find("submitted Slurm job array"), std::string::npos)
      << read_file(dir + "/slurm.log");
  int l = shell(common + " --backend local --jobs 2 --out " + dir + "/local >" + dir + "/local.log 2>&1");
  ASSERT_EQ(l, 0) << read_file(dir + "/local.log");
  std::string h = read_file(dir + "/slurm/history.csv");
  EXPECT_EQ(std::count(h.begin(), h.end(), '\n'), 7);  // header + 2 generations of 3
  EXPECT_EQ(h, read_file(dir + "/local/history.csv"));
  EXPECT_EQ(read_file(dir + "/slurm/best.toml"), read_file(dir + "/local/best.toml"));
}

// `--gpgpusim-stats` prints the statistics as GPGPU-Sim does: the same parser that reads
// GPGPU-Sim's logs for `warpsim correlate` reads them back to warpsim's own figures.
#include "experiment/gpgpusim_stats.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "experiment/correlate.h"
#include "experiment/reference.h"
#include "experiment/results.h"
#include "support/process.h"

namespace warpsim::experiment {
namespace {

using testsupport::read_file;
using testsupport::ScratchDir;

TEST(GpgpusimStats, GpgpusimsParserReadsBackEveryLaunch) {
  ScratchDir dir;
  const std::string json = dir / "run.json";
  auto out = testsupport::run_warpsim_logged({"run", "reduction", "--size", "small", "--gpu", "gtx480", "--scheduler",
                                              "gto", "-q", "--gpgpusim-stats", "--json", json},
                                             dir / "log");
  ASSERT_EQ(out.status, 0) << out.output;
  const nlohmann::json run = nlohmann::json::parse(read_file(json));
  const auto& kernels = run["kernels"];
  ASSERT_GE(kernels.size(), 2u);  // reduction relaunches on its partial sums
  const std::vector<GpgpusimLaunch> launches = parse_gpgpusim_log(out.output, "stdout");
  ASSERT_EQ(launches.size(), kernels.size());
  for (size_t i = 0; i < launches.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& k = kernels[i];
    EXPECT_EQ(launches[i].kernel, k["name"].get<std::string>());
    EXPECT_EQ(launches[i].uid, i + 1);
    EXPECT_EQ(launches[i].cycles, double(k["kernel_cycles"].get<uint64_t>()));
    EXPECT_EQ(launches[i].counters.at("thread_insts"), double(k["thread_insts"].get<uint64_t>()));
    // The running totals, differenced by the parser, give each launch's own counts.
    nlohmann::json row = nlohmann::json::object();
    flatten(k, "", row);
    for (const char* c : {"l1d_accesses", "l1d_misses", "l2_accesses", "l2_misses", "dram_reads", "dram_writes"})
      EXPECT_EQ(launches[i].counters.at(c), warpsim_counter(row, c).value()) << c;
  }
  EXPECT_GT(launches[0].counters.at("l2_accesses"), 0.0);
}

TEST(GpgpusimStats, NoKernelsStillEndsWithTheExitLine) {
  EXPECT_EQ(gpgpusim_stats_text(nlohmann::json::object()), "GPGPU-Sim: *** exit detected ***\n");
}

}  // namespace
}  // namespace warpsim::experiment

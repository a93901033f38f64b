// `--gpgpusim-stats` prints the statistics as GPGPU-Sim does: the same parser that reads
// GPGPU-Sim's logs for `warpsim correlate` reads them back to warpsim's own figures.
#include "experiment/gpgpusim_stats.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "experiment/correlate.h"
#include "experiment/reference.h"
#include "experiment/results.h"
#include "support/process.h"
#include "timing/gpgpusim_names.h"

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
    for (const GpgpusimCounter& c : gpgpusim_counters()) {  // every declared counter
      ASSERT_TRUE(launches[i].counters.count(c.name)) << c.gpgpusim;
      EXPECT_EQ(launches[i].counters.at(c.name), warpsim_counter(row, c.name).value()) << c.name;
    }
  }
  EXPECT_GT(launches[0].counters.at("l2_accesses"), 0.0);
}

// The exact lines: GPGPU-Sim's keys, its indentation and number formats, blocks in completion
// order with launch uids in launch order, cache and DRAM lines as running totals.
TEST(GpgpusimStats, PrintsGpgpusimsLinesAndFormats) {
  auto kernel = [](const char* name, uint64_t end, uint64_t cycles, uint64_t insn, uint64_t l1_hits) {
    return nlohmann::json{
        {"name", name},
        {"end_cycle", end},
        {"kernel_cycles", cycles},
        {"thread_insts", insn},
        {"l1d", {{"hits", l1_hits}, {"sector_accesses", l1_hits + 6}, {"sector_misses", 5}}},
        {"l2", {{"reads", 8}, {"writes", 2}, {"read_hits", 4}, {"write_hits", 1}, {"read_pending_hits", 1}}},
        {"dram", {{"read_atoms", 3}, {"write_atoms", 1}}}};
  };
  const nlohmann::json run = {{"kernels", {kernel("late", 900, 800, 6400, 10), kernel("early", 300, 200, 1000, 4)}}};
  EXPECT_EQ(gpgpusim_stats_text(run),
            "kernel_name = early \n"
            "kernel_launch_uid = 2 \n"
            "gpu_sim_cycle = 200\n"
            "gpu_sim_insn = 1000\n"
            "gpu_ipc =       5.0000\n"
            "gpu_tot_sim_cycle = 200\n"
            "gpu_tot_sim_insn = 1000\n"
            "gpu_tot_ipc =       5.0000\n"
            "\tL1D_total_cache_accesses = 10\n"
            "\tL1D_total_cache_misses = 5\n"
            "\tL1D_total_cache_miss_rate = 0.5000\n"
            "L2_total_cache_accesses = 10\n"
            "L2_total_cache_misses = 4\n"
            "L2_total_cache_miss_rate = 0.4000\n"
            "total dram reads = 3\n"
            "total dram writes = 1\n"
            "kernel_name = late \n"
            "kernel_launch_uid = 1 \n"
            "gpu_sim_cycle = 800\n"
            "gpu_sim_insn = 6400\n"
            "gpu_ipc =       8.0000\n"
            "gpu_tot_sim_cycle = 1000\n"
            "gpu_tot_sim_insn = 7400\n"
            "gpu_tot_ipc =       7.4000\n"
            "\tL1D_total_cache_accesses = 26\n"
            "\tL1D_total_cache_misses = 10\n"
            "\tL1D_total_cache_miss_rate = 0.3846\n"
            "L2_total_cache_accesses = 20\n"
            "L2_total_cache_misses = 8\n"
            "L2_total_cache_miss_rate = 0.4000\n"
            "total dram reads = 6\n"
            "total dram writes = 2\n"
            "GPGPU-Sim: *** exit detected ***\n");
}

TEST(GpgpusimStats, NoKernelsStillEndsWithTheExitLine) {
  EXPECT_EQ(gpgpusim_stats_text(nlohmann::json::object()), "GPGPU-Sim: *** exit detected ***\n");
}

}  // namespace
}  // namespace warpsim::experiment

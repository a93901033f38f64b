// Microbenchmark figures from per-launch cycles (experiment/microbench.h), checked on the
// committed H100 measurements and on hand-made launches.
#include "experiment/microbench.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "core/error.h"
#include "experiment/reference.h"
#include "support/process.h"

namespace warpsim::experiment {
namespace {

TEST(Microbench, FiguresFollowFromTheDifferenceOfTwoLaunches) {
  auto l = parse_microbench_launches(
      "device\tX\t-\nlaunch\t0\tlat\t0\tonce\nlaunch\t1\tlat\t100\tlatency\nlaunch\t2\tlat\t200\tlatency\n"
      "lat\t9.9\tcycles\nlaunch\t3\tbw\t1000\trate_ghz\nlaunch\t4\tbw\t3000\trate_ghz\n",
      "t");
  ASSERT_EQ(l.size(), 5u);
  auto f = microbench_figures(l, {50, 1500, 2500, 700, 1200}, 2.0);
  EXPECT_DOUBLE_EQ(f.at("lat").value, 10.0);  // 1000 cycles / 100 units
  EXPECT_DOUBLE_EQ(f.at("bw").value, 2000.0 / 500 * 2);
  EXPECT_EQ(f.at("bw").kind, "rate_ghz");  // units per cycle x GHz
  // A second launch that took no longer (it found warm caches) gives no figure.
  EXPECT_TRUE(std::isnan(microbench_figures(l, {50, 1500, 1400, 700, 1200}, 2.0).at("lat").value));
  EXPECT_THROW(microbench_figures(l, {1, 2}, 1.0), Error);  // counts differ
  EXPECT_EQ(parse_microbench_figures("lat\t9.9\tcycles\nlaunch\t1\tx\t2\tlatency\n").at("lat"), 9.9);
}

TEST(Microbench, MalformedLaunchLinesAreRejectedWithTheirLine) {
  try {
    parse_microbench_launches("launch\t0\tx\t1\tlatency\nlaunch\t2\tx\t2\tlatency\n", "out.tsv");
    FAIL() << "out of order";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("out.tsv:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_microbench_launches("launch\t0\tx\t1\tsometimes\n", "t"), Error);
  EXPECT_THROW(parse_microbench_launches("launch\t0\tx\n", "t"), Error);
  EXPECT_THROW(parse_microbench_launches("no launches\n", "t"), Error);
}

// The committed H100 data (Nsight Compute, caches flushed before each kernel) gives the figures
// docs/presets.md quotes, and agrees with the program's own clock64() figures where those
// measure the same thing.
TEST(Microbench, CommittedH100MeasurementsGiveTheDocumentedFigures) {
  const std::string dir = std::string(WARPSIM_SOURCE_DIR) + "/data/reference/h100/";
  auto t = read_ncu_csv(dir + "microbench_ncu.csv", "microbench", "default", "h100");
  std::vector<double> cycles;
  for (const auto& r : t.rows) cycles.push_back(r.cycles);
  std::ifstream in(dir + "microbench_ncu_launches.tsv");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto f = microbench_figures(parse_microbench_launches(text, "launches"), cycles, 1.9765);
  EXPECT_NEAR(f.at("fma_dependent_latency").value, 4.22, 0.01);
  EXPECT_NEAR(f.at("chase_ca_8KB_stride128").value, 38.75, 0.01);
  EXPECT_NEAR(f.at("chase_cg_8KB_stride128").value, 278.01, 0.01);
  EXPECT_NEAR(f.at("chase_cg_131072KB_stride128").value, 684.05, 0.01);
  EXPECT_NEAR(f.at("copy_bandwidth_dram").value, 2966, 1);
  std::ifstream own(dir + "microbench_hw.tsv");
  std::string own_text((std::istreambuf_iterator<char>(own)), std::istreambuf_iterator<char>());
  auto clock64 = parse_microbench_figures(own_text);
  for (const char* n : {"fma_dependent_latency", "sfu_sin_dependent_latency", "shared_load_latency",
                        "syncthreads_1024_threads", "fma_warp_ipc_per_sm"})
    EXPECT_NEAR(f.at(n).value / clock64.at(n), 1.0, 0.03) << n;
}

// `warpsim correlate microbench` on bad input: a message naming the file, and exit status 1.
TEST(Microbench, CommandNamesTheFileItCannotUse) {
  testsupport::ScratchDir dir("microbench-cli");
  const std::string launches = std::string(WARPSIM_SOURCE_DIR) + "/data/reference/h100/microbench_ncu_launches.tsv";
  std::ofstream(dir / "bad.json") << "{\"gpu\": \"h100\"}";
  std::ofstream(dir / "bad.tsv") << "launch\t0\tx\n";
  auto o =
      testsupport::run_warpsim_logged({"correlate", "microbench", launches, "--json", dir / "bad.json"}, dir / "a.log");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find(dir / "bad.json"), std::string::npos) << o.output;
  o = testsupport::run_warpsim_logged({"correlate", "microbench", dir / "bad.tsv", "--json", dir / "bad.json"},
                                      dir / "b.log");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("bad.tsv:1"), std::string::npos) << o.output;
  o = testsupport::run_warpsim_logged({"correlate", "microbench", launches}, dir / "c.log");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.output.find("one of --ncu and --json"), std::string::npos) << o.output;
}

}  // namespace
}  // namespace warpsim::experiment

// A bundled workload recorded into the Accel-Sim trace format and replayed gives the same
// cycles as the live run.
#include <gtest/gtest.h>

#include <filesystem>

#include "config/config_loader.h"
#include "timing/gpu.h"
#include "trace/trace_writer.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

TEST(TraceRoundTrip, RecordedBundledWorkloadReplaysWithTheSameCycles) {
  std::string dir = ::testing::TempDir() + "/warpsim_roundtrip";
  std::filesystem::remove_all(dir);
  GpuConfig cfg = load_preset("gtx480");
  WorkloadOptions opts;
  opts.size = "small";
  Gpu live(cfg, "gto");
  {
    TraceRecorder rec(dir);
    RecordingLaunchTarget target(live, rec);
    auto w = make_bundled_workload("vectoradd");
    ASSERT_TRUE(w);
    EXPECT_TRUE(w->run(target, opts).verified);
    rec.finish();
  }
  auto replay = resolve_workload(dir);
  for (const char* sched : {"gto", "lrr"}) {
    Gpu a(cfg, sched), b(cfg, sched);
    make_bundled_workload("vectoradd")->run(a, opts);
    resolve_workload(dir)->run(b, opts);
    ASSERT_EQ(a.results().size(), b.results().size());
    for (size_t i = 0; i < a.results().size(); ++i) {
      EXPECT_EQ(a.results()[i].end_cycle, b.results()[i].end_cycle) << sched;
      EXPECT_EQ(a.results()[i].warp_insts, b.results()[i].warp_insts) << sched;
    }
    EXPECT_EQ(a.snapshot().core.l1d_misses, b.snapshot().core.l1d_misses);
  }
  EXPECT_EQ(replay->category(), "trace");
}

}  // namespace
}  // namespace warpsim::test

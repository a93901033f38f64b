// The sample trace and a recorded-then-replayed kernel run through the timing model under
// every registered scheduler.
#include <gtest/gtest.h>

#include <filesystem>

#include "config/config_loader.h"
#include "sched/scheduler.h"
#include "timing/gpu.h"
#include "trace/trace_workload.h"
#include "trace/trace_writer.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

using trace_test::sample_dir;
using trace_test::TempDir;

TEST(TraceTiming, SampleRunsUnderEveryScheduler) {
  if (!std::filesystem::exists(sample_dir() + "/kernelslist.g")) GTEST_SKIP() << "sample trace not present";
  const GpuConfig cfg = load_preset("gtx480");
  for (const SchedulerFactory& f : scheduler_registry()) {
    SCOPED_TRACE(f.name);
    TraceWorkload wl(sample_dir());
    Gpu gpu(cfg, f.name);
    wl.enqueue_all(gpu);
    gpu.run_until_idle();
    ASSERT_EQ(gpu.results().size(), 1u);
    const KernelResult& r = gpu.results()[0];
    // 4 warps of 23 instructions and 28 of 9.
    EXPECT_EQ(r.warp_insts, 4u * 23 + 28u * 9);
    // Active lanes: warps 0-2: 22 full instructions (the early EXIT has mask 0); warp 3: 8
    // full, the EXIT of lanes 4-31 (28), 14 instructions of 4 lanes; warps 4-31: 9 full.
    EXPECT_EQ(r.thread_insts, 3u * 22 * 32 + (8u * 32 + 28 + 14 * 4) + 28u * 9 * 32);
    EXPECT_GT(r.end_cycle, r.start_cycle);
  }
}

// A kernel source that replays fixed CTAs (stands in for a functional front end).
class FixedKernel : public KernelSource {
 public:
  FixedKernel(KernelInfo info, std::vector<CtaStreams> ctas) : info_(std::move(info)), ctas_(std::move(ctas)) {}
  const KernelInfo& info() const override { return info_; }
  void produce_cta(uint32_t id, uint32_t, CtaStreams& out) override { out = ctas_[id]; }

 private:
  KernelInfo info_;
  std::vector<CtaStreams> ctas_;
};

TEST(TraceTiming, RecordedRunReplaysWithTheSameCycles) {
  // The sample kernel, read once from the trace, is the "live" front end.
  if (!std::filesystem::exists(sample_dir() + "/kernelslist.g")) GTEST_SKIP() << "sample trace not present";
  TraceWorkload wl(sample_dir());
  auto src = wl.open_kernel(0);
  KernelInfo info = src->info();
  std::vector<CtaStreams> ctas(info.num_ctas());
  for (uint32_t c = 0; c < ctas.size(); ++c) src->produce_cta(c, 0, ctas[c]);
  const GpuConfig cfg = load_preset("gtx480");
  TempDir d;
  // Live: kernel 1; the host waits for it; kernel 2 on another stream 100 cycles later and
  // kernel 3 on the first stream.
  std::vector<KernelResult> live;
  uint64_t live_cycles = 0;
  {
    TraceRecorder rec(d.str());
    Gpu gpu(cfg, "gto");
    RecordingLaunchTarget t(gpu, rec);
    t.enqueue(std::make_unique<FixedKernel>(info, ctas), 0);
    t.run_until_idle();
    t.enqueue(std::make_unique<FixedKernel>(info, ctas), 2, 100);
    t.enqueue(std::make_unique<FixedKernel>(info, ctas), 0);
    t.run_until_idle();
    live = gpu.results();
    live_cycles = gpu.now();
    rec.finish();
  }
  ASSERT_EQ(live.size(), 3u);
  EXPECT_GT(live[1].launch_cycle, 0u);
  TraceWorkload replay(d.str());
  ASSERT_EQ(replay.num_kernels(), 3u);
  // Kernel 2 was launched 100 cycles after kernel 3, both once kernel 1 had finished.
  EXPECT_EQ(replay.kernel_header(0).launch_cycle, 0u);
  EXPECT_EQ(replay.kernel_header(1).launch_cycle, replay.kernel_header(2).launch_cycle + 100);
  EXPECT_GT(replay.kernel_header(2).launch_cycle, 0u);
  Gpu gpu(cfg, "gto");
  replay.enqueue_all(gpu);
  gpu.run_until_idle();
  EXPECT_EQ(gpu.now(), live_cycles);
  ASSERT_EQ(gpu.results().size(), 3u);
  for (size_t i = 0; i < 3; ++i) {  // results in completion order, the same in both runs
    SCOPED_TRACE(i);
    const KernelResult& a = live[i];
    const KernelResult& b = gpu.results()[i];
    EXPECT_EQ(a.launch_cycle, b.launch_cycle);
    EXPECT_EQ(a.start_cycle, b.start_cycle);
    EXPECT_EQ(a.end_cycle, b.end_cycle);
    EXPECT_EQ(a.warp_insts, 344u);
    EXPECT_EQ(a.warp_insts, b.warp_insts);
    EXPECT_EQ(a.thread_insts, b.thread_insts);
  }
}

}  // namespace
}  // namespace warpsim

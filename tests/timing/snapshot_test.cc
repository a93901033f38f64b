// Simulation snapshots: a copy of the GPU taken at cycle C and run to the end gives the same
// cycles, per-kernel results and statistics as a run that never stopped, and running the copy
// leaves the original untouched.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "sched/clone_context.h"
#include "synth/synthetic_kernel.h"
#include "timing/gpu.h"
#include "timing/memo_source.h"
#include "timing/windowed_target.h"
#include "trace/trace_workload.h"
#include "trace/trace_writer.h"
#include "workloads/workload.h"

namespace warpsim {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

// A kernel that keeps every part of the model busy: global loads with reuse (L1, L2, DRAM),
// scattered loads, stores, shared memory, SFU work, dependent chains and barriers.
synth::SyntheticKernel busy_kernel(const std::string& name, uint32_t ctas, uint64_t seed) {
  KernelBuilder b(name);
  b.grid({ctas, 1, 1}).block({192, 1, 1}).shared_bytes(4096);
  b.loop(4, [&](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::per_cta(64 * 1024), 4, 2, /*use=*/true);
    l.load(MemSpace::Global, AccessPattern::random(1 << 22, seed), 4, 1);
    l.alu(Unit::SP, 6, /*dependent=*/true);
    l.alu(Unit::SFU, 2);
    l.load(MemSpace::Shared, AccessPattern::bank_conflict(2), 4, 1, true);
    l.use_load(Unit::SP, 2);
    l.barrier();
    l.store(MemSpace::Global, AccessPattern::strided(4), 4, 1, true);
  });
  return b.build();
}

GpuConfig test_gpu() {
  GpuConfig cfg = load_preset("gtx480");
  cfg.core.num_sms = 4;  // small enough to run quickly, large enough for CTA queues
  cfg.l2.partitions = 2;
  return cfg;
}

// Two kernels on two streams, the second launched 300 cycles later.
void enqueue_pair(Gpu& gpu) {
  gpu.enqueue(busy_kernel("k0", 20, 7).source(), 0);
  gpu.enqueue(busy_kernel("k1", 12, 9).source(), 1, 300);
}

std::string state_of(const Gpu& g) { return g.to_json().dump(); }

void expect_same_results(const Gpu& a, const Gpu& b) {
  EXPECT_EQ(a.now(), b.now());
  ASSERT_EQ(a.results().size(), b.results().size());
  for (size_t i = 0; i < a.results().size(); ++i) {
    const KernelResult& x = a.results()[i];
    const KernelResult& y = b.results()[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.start_cycle, y.start_cycle);
    EXPECT_EQ(x.end_cycle, y.end_cycle);
    EXPECT_EQ(x.warp_insts, y.warp_insts);
    EXPECT_EQ(x.thread_insts, y.thread_insts);
  }
  EXPECT_EQ(state_of(a), state_of(b));  // the full statistics JSON, scheduler report included
}

class SnapshotPolicies : public ::testing::TestWithParam<const char*> {};

TEST_P(SnapshotPolicies, CopyAtCycleCMatchesTheUninterruptedRun) {
  const GpuConfig cfg = test_gpu();
  const std::string policy = GetParam();
  Gpu ref(cfg, policy);
  enqueue_pair(ref);
  ref.run_until_idle();
  ASSERT_GT(ref.now(), 3000u);
  ASSERT_EQ(ref.results().size(), 2u);

  for (uint64_t c : {uint64_t(1), ref.now() / 3, ref.now() * 4 / 5}) {
    SCOPED_TRACE(c);
    Gpu orig(cfg, policy);
    enqueue_pair(orig);
    EXPECT_FALSE(orig.run_until_cycle(c));
    EXPECT_GE(orig.now(), c);
    std::unique_ptr<Gpu> copy = orig.clone();
    EXPECT_EQ(copy->now(), orig.now());
    EXPECT_EQ(state_of(*copy), state_of(orig));
    copy->run_until_idle();
    expect_same_results(*copy, ref);
    // The original, untouched by the copy's run, ends the same way.
    orig.run_until_idle();
    expect_same_results(orig, ref);
  }
}

TEST_P(SnapshotPolicies, CopiesOfCopiesAndManyStopsChangeNothing) {
  const GpuConfig cfg = test_gpu();
  const std::string policy = GetParam();
  Gpu ref(cfg, policy);
  enqueue_pair(ref);
  ref.run_until_idle();
  // Stop every 777 cycles and continue on a fresh copy each time, dropping the previous one.
  auto g = std::make_unique<Gpu>(cfg, policy);
  enqueue_pair(*g);
  int stops = 0;
  while (!g->run_for(777)) {
    g = g->clone();
    ++stops;
  }
  EXPECT_GT(stops, 3);
  expect_same_results(*g, ref);
}

INSTANTIATE_TEST_SUITE_P(Policies, SnapshotPolicies,
                         ::testing::Values("gto", "lrr", "tl", "rlws", "rlws_ms", "juggler"));

TEST(Snapshot, StreamWaitStopsAtTheStreamsEnd) {
  const GpuConfig cfg = test_gpu();
  Gpu g(cfg, "gto");
  enqueue_pair(g);
  EXPECT_TRUE(g.run_until_cycle(~0ull, 0));
  EXPECT_TRUE(g.done(0));
  ASSERT_GE(g.results().size(), 1u);
  // Stream 0's only kernel ended in the last step (the clock is past its end cycle).
  bool found = false;
  for (const KernelResult& r : g.results())
    if (r.stream == 0) {
      found = true;
      EXPECT_LT(r.end_cycle, g.now());
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(g.done(), g.done(1));
  EXPECT_TRUE(g.run_until_cycle(0, 5));  // a stream with no kernel is done at once
}

TEST(Snapshot, SchedulerSwapAtCycleZeroEqualsAFreshGpu) {
  const GpuConfig cfg = test_gpu();
  for (const char* to : {"lrr", "tl", "rlws"}) {
    SCOPED_TRACE(to);
    Gpu fresh(cfg, to);
    enqueue_pair(fresh);
    fresh.run_until_idle();
    Gpu swapped(cfg, "gto");
    enqueue_pair(swapped);
    swapped.set_scheduler(to);
    EXPECT_EQ(swapped.scheduler_name(), to);
    swapped.run_until_idle();
    expect_same_results(swapped, fresh);
  }
}

TEST(Snapshot, SchedulerSwapMidRunKeepsEveryWarpSchedulable) {
  // Fresh two-level schedulers must learn about the live warps (their active set) or the run
  // would deadlock; the instructions executed do not depend on the policy.
  const GpuConfig cfg = test_gpu();
  Gpu ref(cfg, "gto");
  enqueue_pair(ref);
  ref.run_until_idle();
  Gpu g(cfg, "gto");
  enqueue_pair(g);
  g.run_until_cycle(ref.now() / 2);
  auto lrr = g.clone();
  lrr->set_scheduler("lrr");
  g.set_scheduler("tl");
  g.run_until_idle();
  lrr->run_until_idle();
  EXPECT_EQ(g.warp_insts(), ref.warp_insts());
  EXPECT_EQ(lrr->warp_insts(), ref.warp_insts());
  EXPECT_EQ(g.results().size(), 2u);
  EXPECT_EQ(g.to_json()["scheduler"], "tl");
  EXPECT_THROW(g.set_scheduler("no_such_policy"), Error);
  SchedulerParams bad;
  bad.set("no_such_key", "1");
  EXPECT_THROW(g.set_scheduler("gto", bad), Error);
  EXPECT_EQ(g.scheduler_name(), "tl");
}

// Counts how often the wrapped front end is asked for CTAs.
class CountingSource : public KernelSource {
 public:
  CountingSource(synth::SyntheticKernel k, int* produced, int* done)
      : k_(std::move(k)), produced_(produced), done_(done) {}
  const KernelInfo& info() const override { return k_.info; }
  void produce_cta(uint32_t cta, uint32_t, CtaStreams& out) override {
    ++*produced_;
    k_.generate_cta(cta, out);
  }
  void on_kernel_done() override { ++*done_; }

 private:
  synth::SyntheticKernel k_;
  int* produced_;
  int* done_;
};

TEST(Snapshot, UncopyableSourceIsReportedAndMemoSourceCopiesIt) {
  const GpuConfig cfg = test_gpu();
  int produced = 0, done = 0;
  const synth::SyntheticKernel k = busy_kernel("k", 24, 3);
  {
    Gpu g(cfg, "gto");
    g.enqueue(std::make_unique<CountingSource>(k, &produced, &done), 0);
    g.run_until_cycle(500);
    try {
      g.clone();
      FAIL() << "copied a source that cannot be copied";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("'k' cannot be snapshotted"), std::string::npos) << e.what();
    }
  }
  Gpu ref(cfg, "gto");
  ref.enqueue(k.source(), 0);
  ref.run_until_idle();
  produced = done = 0;
  Gpu g(cfg, "gto");
  g.enqueue(std::make_unique<MemoSource>(std::make_unique<CountingSource>(k, &produced, &done)), 0);
  g.run_until_cycle(ref.now() / 2);
  auto a = g.clone(), b = g.clone();
  a->run_until_idle();
  b->run_until_idle();
  g.run_until_idle();
  expect_same_results(*a, ref);
  expect_same_results(*b, ref);
  expect_same_results(g, ref);
  EXPECT_EQ(produced, 24);  // each CTA once, however many copies ran it
  EXPECT_EQ(done, 1);
}

TEST(Snapshot, CloneContextSharesOneCopyPerOriginal) {
  auto p = std::make_shared<int>(5);
  SnapshotShared<int> a(p), b(p);
  {
    CloneContext ctx;
    SnapshotShared<int> a2(a), b2(b);
    EXPECT_EQ(a2.get(), b2.get());  // shared in the original, shared in the copy
    EXPECT_NE(a2.get(), p.get());
    *a2 = 6;
    EXPECT_EQ(*p, 5);
    int x = 1, y = 2;
    ctx.map(&x, &y);
    EXPECT_EQ(clone_remap(&x), &y);
    int z = 3;
    EXPECT_EQ(clone_remap(&z), &z);
  }
  SnapshotShared<int> c(a), d(a);  // no context: private copies
  EXPECT_NE(c.get(), d.get());
  EXPECT_EQ(*c, 5);
  int x = 1;
  EXPECT_EQ(clone_remap(&x), &x);
}

// A fresh directory for recorded traces.
std::string temp_dir(const std::string& tag) {
  auto p = std::filesystem::temp_directory_path() / ("warpsim_snapshot_" + std::to_string(::getpid()) + "_" + tag);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

TEST(Snapshot, TraceSourcesAreCopied) {
  const GpuConfig cfg = test_gpu();
  const std::string dir = temp_dir("trace");
  {
    TraceRecorder rec(dir);
    Gpu g(cfg, "gto");
    g.enqueue(rec.record(busy_kernel("t0", 24, 5).source(), 0), 0);
    g.enqueue(rec.record(busy_kernel("t1", 12, 6).source(), 1), 1);
    g.run_until_idle();
    rec.finish();
  }
  for (const char* policy : {"gto", "rlws"}) {
    SCOPED_TRACE(policy);
    TraceWorkload ref_wl(dir + "/kernelslist.g");
    Gpu ref(cfg, policy);
    ref_wl.enqueue_all(ref);
    ref.run_until_idle();
    ASSERT_EQ(ref.results().size(), 2u);
    TraceWorkload wl(dir + "/kernelslist.g");
    Gpu g(cfg, policy);
    wl.enqueue_all(g);
    g.run_until_cycle(ref.now() / 2);
    auto copy = g.clone();
    copy->run_until_idle();
    expect_same_results(*copy, ref);
    g.run_until_idle();
    expect_same_results(g, ref);
  }
  std::filesystem::remove_all(dir);
}

// Forwards to a Gpu; the first time the workload waits for a kernel, tries to copy the Gpu.
class TryCloneTarget : public LaunchTarget {
 public:
  explicit TryCloneTarget(Gpu& g) : g_(g) {}
  uint32_t enqueue(std::unique_ptr<KernelSource> k, uint32_t s, uint64_t d) override {
    return g_.enqueue(std::move(k), s, d);
  }
  void run_until_idle() override {
    attempt();
    g_.run_until_idle();
  }
  void run_until_stream_idle(uint32_t s) override {
    attempt();
    g_.run_until_stream_idle(s);
  }
  uint64_t now() const override { return g_.now(); }
  void copied(uint64_t addr, uint64_t bytes, bool to_device) override { g_.copied(addr, bytes, to_device); }
  const std::vector<KernelResult>& results() const override { return g_.results(); }
  std::string error;

 private:
  void attempt() {
    if (tried_ || g_.done()) return;
    tried_ = true;
    try {
      g_.clone();
    } catch (const Error& e) {
      error = e.what();
    }
  }
  Gpu& g_;
  bool tried_ = false;
};

class SnapshotBundled : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(SnapshotBundled, PtxWorkloadCopiedMidRunThroughMemoSources) {
  const auto [name, policy] = GetParam();
  const GpuConfig cfg = load_preset("gtx480");
  WorkloadOptions wo;
  wo.size = "small";
  auto wl = resolve_workload(name);
  Gpu ref(cfg, policy);
  WorkloadOutcome out = wl->run(ref, wo);
  ASSERT_TRUE(out.checked && out.verified) << out.message;
  ASSERT_GT(ref.now(), 1000u);

  // The PTX front end executes CTAs as they are dispatched: it cannot be copied as it is.
  {
    Gpu g(cfg, policy);
    TryCloneTarget t(g);
    wl->run(t, wo);
    EXPECT_NE(t.error.find("cannot be snapshotted"), std::string::npos) << t.error;
  }

  // Through a WindowedTarget (MemoSource around every kernel): replace the GPU by its copy at
  // the first step at or after cycle C, and once more later.
  const uint64_t c = ref.now() / 3;
  int copies = 0;
  WindowedTarget t(std::make_unique<Gpu>(cfg, policy), [&](std::unique_ptr<Gpu>& g, int stream) {
    bool done = g->run_until_cycle(copies == 0 ? c : g->now() + ref.now() / 10, stream);
    if (!done) {
      g = g->clone();  // the original is destroyed: the copy must stand on its own
      ++copies;
    }
  });
  WorkloadOutcome o2 = wl->run(t, wo);
  EXPECT_TRUE(o2.checked && o2.verified) << o2.message;
  EXPECT_GE(copies, 1);
  expect_same_results(t.gpu(), ref);
}

INSTANTIATE_TEST_SUITE_P(Workloads, SnapshotBundled,
                         ::testing::Values(std::make_pair("backprop", "gto"), std::make_pair("bfs", "lrr"),
                                           std::make_pair("backprop", "rlws")));

}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {

// Every registered policy, including the ones without a dedicated case above: a copy taken
// mid-run ends exactly like the original (a shallow clone() of shared or pointed-to state
// shows up here).
TEST(Snapshot, EveryRegisteredSchedulerCopiesExactly) {
  GpuConfig cfg = load_preset("gtx480");
  cfg.core.num_sms = 2;
  cfg.l2.partitions = 1;
  for (const SchedulerFactory& f : scheduler_registry()) {
    SCOPED_TRACE(f.name);
    Gpu ref(cfg, f.name);
    ref.enqueue(busy_kernel("k0", 6, 7).source(), 0);
    ref.enqueue(busy_kernel("k1", 4, 9).source(), 1, 300);
    ref.run_until_idle();
    Gpu g(cfg, f.name);
    g.enqueue(busy_kernel("k0", 6, 7).source(), 0);
    g.enqueue(busy_kernel("k1", 4, 9).source(), 1, 300);
    g.run_until_cycle(ref.now() / 2);
    auto copy = g.clone();
    copy->run_until_idle();
    g.run_until_idle();
    expect_same_results(*copy, ref);
    expect_same_results(g, ref);
  }
}

}  // namespace
}  // namespace warpsim

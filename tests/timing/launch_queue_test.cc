// Kernel launch queues: launches queued ahead of time on one or several streams run exactly as
// launches issued when their stream gets to them, each stream in order, each launch the cycle
// after its predecessor on the stream ended (or at its launch cycle, when later).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

// A few CTAs that load, compute on and store their own region of memory; `kind` varies the
// shape, so that consecutive launches leave different caches and SMs behind.
synth::SyntheticKernel queued_kernel(uint32_t kind) {
  KernelBuilder b("queued" + std::to_string(kind));
  const uint64_t base = uint64_t(kind + 1) << 20;
  b.grid({2 + kind, 1, 1}).block({64 + 32 * kind, 1, 1});
  b.loop(2 + kind, [&](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced().at(base), 4, 1, /*use=*/true);
    l.alu(Unit::SP, 3, /*dependent=*/true);
  });
  b.store(MemSpace::Global, AccessPattern::coalesced().at(base), 4, 1, /*dependent=*/true);
  return b.build();
}

struct Launch {
  uint32_t stream;
  synth::SyntheticKernel kernel;
};

// `per_stream` launches on each of `streams` streams, in round-robin order of streams; stream
// s alternates between two kernel shapes.
std::vector<Launch> round_robin(uint32_t streams, uint32_t per_stream) {
  std::vector<Launch> out;
  for (uint32_t i = 0; i < per_stream; ++i)
    for (uint32_t s = 0; s < streams; ++s) out.push_back({s, queued_kernel(s + i % 2)});
  return out;
}

// Two SMs: CTAs of concurrent launches compete for them.
GpuConfig queue_gpu(const std::string& dispatch = "round_robin") {
  GpuConfig cfg = small_gpu(2, 1);
  cfg.dispatch = dispatch;
  return cfg;
}

// The statistics JSON, less what depends on when the host queued each launch.
std::string timing_of(const Gpu& g) {
  nlohmann::json j = g.to_json();
  for (auto& k : j["kernels"]) {
    k.erase("launch_cycle");
    k.erase("response_time");
  }
  return j.dump();
}

// The launches of `results` on `stream`, in launch order.
std::vector<KernelResult> of_stream(const std::vector<KernelResult>& results, uint32_t stream) {
  std::vector<KernelResult> out;
  for (const KernelResult& r : results)
    if (r.stream == stream) out.push_back(r);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.launch_index < b.launch_index; });
  return out;
}

// Each stream ran in launch order, every launch from the cycle after its predecessor ended or
// from its launch cycle, whichever is later.
void expect_streams_in_order(const Gpu& g, uint32_t streams) {
  size_t seen = 0;
  for (uint32_t s = 0; s < streams; ++s) {
    std::vector<KernelResult> rs = of_stream(g.results(), s);
    seen += rs.size();
    for (size_t i = 0; i < rs.size(); ++i) {
      SCOPED_TRACE(testing::Message() << "stream " << s << ", launch " << rs[i].launch_index);
      uint64_t ready = i == 0 ? 0 : rs[i - 1].end_cycle + 1;
      EXPECT_EQ(rs[i].start_cycle, std::max(ready, rs[i].launch_cycle));
      EXPECT_GT(rs[i].end_cycle, rs[i].start_cycle);
    }
  }
  EXPECT_EQ(seen, g.results().size());
}

class OneStreamQueue : public ::testing::TestWithParam<const char*> {};

// Policies that do not look at the CTAs still waiting to be dispatched (those count the CTAs
// of queued launches): for them a queue is the same as issuing each launch after the last.
TEST_P(OneStreamQueue, RunsLikeLaunchesIssuedOneAtATime) {
  const GpuConfig cfg = queue_gpu();
  const std::vector<Launch> launches = round_robin(1, 40);
  Gpu queued(cfg, GetParam());
  for (const Launch& l : launches) queued.enqueue(l.kernel.source(), 0);
  queued.run_until_idle();

  Gpu single(cfg, GetParam());
  for (const Launch& l : launches) {
    single.enqueue(l.kernel.source(), 0);
    single.run_until_idle();
  }
  ASSERT_EQ(queued.results().size(), launches.size());
  EXPECT_EQ(queued.now(), single.now());
  EXPECT_EQ(timing_of(queued), timing_of(single));
  expect_streams_in_order(queued, 1);
}

INSTANTIATE_TEST_SUITE_P(Policies, OneStreamQueue, ::testing::Values("gto", "lrr"));

class SeveralStreamsQueue : public ::testing::TestWithParam<const char*> {};

// The same launches, each issued (in the same launch order) only once its stream has nothing
// else left to run: a launch waiting behind its stream's head changes nothing until it starts.
TEST_P(SeveralStreamsQueue, RunsLikeLaunchesIssuedWhenTheirStreamIsFree) {
  const GpuConfig cfg = queue_gpu(GetParam());
  const uint32_t streams = 3;
  const std::vector<Launch> launches = round_robin(streams, 12);
  Gpu queued(cfg, "gto");
  for (const Launch& l : launches) queued.enqueue(l.kernel.source(), l.stream);
  queued.run_until_idle();

  Gpu lazy(cfg, "gto");
  size_t next = 0;
  while (next < launches.size()) {
    // Issue up to the first launch not issued of every stream that is free, in launch order.
    size_t upto = next;
    std::vector<bool> seen(streams, false);
    for (size_t j = next; j < launches.size(); ++j) {
      uint32_t s = launches[j].stream;
      if (seen[s]) continue;
      seen[s] = true;
      if (lazy.done(int(s))) upto = j + 1;
    }
    for (; next < upto; ++next) lazy.enqueue(launches[next].kernel.source(), launches[next].stream);
    lazy.run_until_cycle(lazy.now() + 1);  // one step
  }
  lazy.run_until_idle();

  ASSERT_EQ(queued.results().size(), launches.size());
  EXPECT_EQ(queued.now(), lazy.now());
  EXPECT_EQ(timing_of(queued), timing_of(lazy));
  expect_streams_in_order(queued, streams);
  // The streams ran concurrently: some launches of different streams overlap.
  bool overlap = false;
  for (const KernelResult& a : queued.results())
    for (const KernelResult& b : queued.results())
      overlap |= a.stream != b.stream && a.start_cycle <= b.start_cycle && b.start_cycle <= a.end_cycle;
  EXPECT_TRUE(overlap);
}

INSTANTIATE_TEST_SUITE_P(Dispatch, SeveralStreamsQueue, ::testing::Values("round_robin", "fifo"));

// Launches queued with a delay start at their launch cycle, or after their predecessor on the
// stream, whichever is later; a delayed launch queued behind a busy head does not hold the
// stream's later launches back once it ran.
TEST(LaunchQueue, DelayedLaunchesStartAtTheirCycleBehindTheirStream) {
  const GpuConfig cfg = queue_gpu();
  Gpu gpu(cfg, "gto");
  const std::vector<Launch> launches = round_robin(3, 10);
  for (size_t i = 0; i < launches.size(); ++i) {
    const uint64_t delay = i % 4 == 1 ? 150 * i : i % 5 == 2 ? 40 : 0;
    gpu.enqueue(launches[i].kernel.source(), launches[i].stream, delay);
  }
  gpu.run_until_idle();
  ASSERT_EQ(gpu.results().size(), launches.size());
  expect_streams_in_order(gpu, 3);
  bool waited_for_cycle = false;
  for (const KernelResult& r : gpu.results()) waited_for_cycle |= r.launch_cycle > 0 && r.start_cycle == r.launch_cycle;
  EXPECT_TRUE(waited_for_cycle);
}

// Under fifo dispatch the oldest launch gets the SMs first, also when it started after a
// younger one: stream 1's second launch starts first (its predecessor is short), stream 0's
// second launch, queued before it, starts later and still finishes first.
TEST(LaunchQueue, FifoDispatchServesTheOldestLaunchFirst) {
  const GpuConfig cfg = queue_gpu("fifo");
  auto kernel = [](const std::string& name, uint32_t ctas, uint32_t trips) {
    KernelBuilder b(name);
    b.grid({ctas, 1, 1}).block({128, 1, 1});
    b.loop(trips, [](KernelBuilder& l) { l.alu(Unit::SP, 4, /*dependent=*/true); });
    return b.build();
  };
  Gpu gpu(cfg, "gto");
  const uint32_t long0 = gpu.enqueue(kernel("long", 2, 60).source(), 0);
  const uint32_t short1 = gpu.enqueue(kernel("short", 2, 2).source(), 1);
  const uint32_t wide0 = gpu.enqueue(kernel("wide", 64, 8).source(), 0);
  const uint32_t wide1 = gpu.enqueue(kernel("wide", 64, 8).source(), 1);
  gpu.run_until_idle();
  ASSERT_EQ(gpu.results().size(), 4u);
  std::vector<KernelResult> by_id(4);
  for (const KernelResult& r : gpu.results()) by_id[r.launch_index] = r;
  ASSERT_LT(by_id[short1].end_cycle, by_id[long0].end_cycle);
  ASSERT_LT(by_id[wide1].start_cycle, by_id[wide0].start_cycle);
  EXPECT_LT(by_id[wide0].end_cycle, by_id[wide1].end_cycle);
  expect_streams_in_order(gpu, 2);
}

// A run stopped in the middle of a queue, and a copy made there, end as the uninterrupted run.
TEST(LaunchQueue, StopsAndCopiesInTheMiddleOfAQueueChangeNothing) {
  const GpuConfig cfg = queue_gpu();
  const std::vector<Launch> launches = round_robin(3, 8);
  auto fill = [&](Gpu& g) {
    for (size_t i = 0; i < launches.size(); ++i)
      g.enqueue(launches[i].kernel.source(), launches[i].stream, i % 7 == 3 ? 500 : 0);
  };
  Gpu ref(cfg, "gto");
  fill(ref);
  ref.run_until_idle();

  Gpu stopped(cfg, "gto");
  fill(stopped);
  const uint64_t mid = ref.now() / 2;
  for (uint64_t c = 97; c < mid; c += 97) EXPECT_FALSE(stopped.run_until_cycle(c));
  EXPECT_FALSE(stopped.done());
  std::unique_ptr<Gpu> copy = stopped.clone();
  stopped.run_until_idle();
  copy->run_until_idle();
  EXPECT_EQ(stopped.to_json().dump(), ref.to_json().dump());
  EXPECT_EQ(copy->to_json().dump(), ref.to_json().dump());
}

// Waiting for a stream ends with the stream's last launch; other streams keep their work, and
// a stream that never had a launch is done from the start.
TEST(LaunchQueue, StreamWaitEndsWithTheStreamsLastLaunch) {
  const GpuConfig cfg = queue_gpu();
  Gpu gpu(cfg, "gto");
  for (int i = 0; i < 6; ++i) gpu.enqueue(queued_kernel(2).source(), 0);
  for (int i = 0; i < 2; ++i) gpu.enqueue(queued_kernel(0).source(), 1);
  EXPECT_TRUE(gpu.done(5));
  EXPECT_TRUE(gpu.run_until_cycle(1000, 5));
  EXPECT_EQ(gpu.now(), 0u);
  gpu.run_until_stream_idle(1);
  EXPECT_TRUE(gpu.done(1));
  EXPECT_FALSE(gpu.done(0));
  EXPECT_FALSE(gpu.done());
  const std::vector<KernelResult> stream1 = of_stream(gpu.results(), 1);
  ASSERT_EQ(stream1.size(), 2u);
  for (const KernelResult& r : gpu.results()) EXPECT_LE(r.end_cycle, stream1.back().end_cycle);  // stopped there
  gpu.run_until_idle();
  EXPECT_TRUE(gpu.done(0));
  EXPECT_EQ(gpu.results().size(), 8u);
  expect_streams_in_order(gpu, 2);
}

}  // namespace
}  // namespace warpsim::test

// The timing model against hand-computed expectations.
#include <gtest/gtest.h>

#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

synth::SyntheticKernel chain(uint32_t n, uint32_t warps = 1) {
  KernelBuilder b("chain");
  b.grid({1, 1, 1}).block({32 * warps, 1, 1}).alu(Unit::SP, n, /*dependent=*/true);
  return b.build();
}

TEST(Physics, DependentChainTakesItsLatencyPerStep) {
  GpuConfig cfg = small_gpu();
  cfg.icache.enabled = false;  // straight-line code: no instruction-cache misses in the way
  // Every SP result is ready 10 cycles after issue, so each step of the chain costs 10 cycles.
  uint64_t c100 = simulate(cfg, chain(100)).stats.cycle;
  uint64_t c300 = simulate(cfg, chain(300)).stats.cycle;
  EXPECT_NEAR(double(c300 - c100), 200.0 * 10, 2.0);
  cfg.units[int(Unit::SP)].latency[0] = 24;
  uint64_t d100 = simulate(cfg, chain(100)).stats.cycle;
  uint64_t d300 = simulate(cfg, chain(300)).stats.cycle;
  EXPECT_NEAR(double(d300 - d100), 200.0 * 24, 2.0);
}

TEST(Physics, IndependentAluReachesIssueWidth) {
  // Two schedulers with one SP unit each (initiation 1): at most 2 warp instructions per cycle.
  GpuConfig cfg = small_gpu(1, 2);
  cfg.core.ibuffer = 4;
  cfg.core.decode_width = 4;
  cfg.core.fetch_per_cycle = 2;
  KernelBuilder b("indep");
  b.grid({1, 1, 1}).block({32 * 32, 1, 1}).loop(50, [](KernelBuilder& l) { l.alu(Unit::SP, 24); });
  RunResult r = simulate(cfg, b.build());
  double ipc = double(r.stats.core.warp_insts) / double(r.stats.cycle);
  EXPECT_GE(ipc, 1.8);
  EXPECT_LE(ipc, 2.0);
}

TEST(Physics, SfuInitiationIntervalLimitsThroughput) {
  // One SFU with initiation interval 4: independent SFU work runs at 1/4 instruction per cycle.
  GpuConfig cfg = small_gpu(1, 1);
  KernelBuilder b("sfu");
  b.grid({1, 1, 1}).block({32 * 16, 1, 1}).loop(20, [](KernelBuilder& l) { l.alu(Unit::SFU, 20); });
  RunResult r = simulate(cfg, b.build());
  double ipc = double(r.stats.core.issued_by_unit[int(Unit::SFU)]) / double(r.stats.cycle);
  EXPECT_NEAR(ipc, 0.25, 0.01);
}

// One warp walking `footprint` bytes twice with 128-byte coalesced loads.
synth::SyntheticKernel walk(uint64_t footprint, uint32_t passes) {
  KernelBuilder b("walk");
  b.grid({1, 1, 1})
      .block({32, 1, 1})
      .load(MemSpace::Global, AccessPattern::per_warp(footprint), 4, uint32_t(passes * footprint / 128));
  return b.build();
}

TEST(Physics, L1HitsAndMissesOfStridedWalksMatchTheAnalyticCount) {
  GpuConfig cfg = small_gpu();
  cfg.l1d.size = 16 * 1024;
  cfg.l1d.assoc = 4;
  cfg.l1d.line = 128;
  cfg.l1d.sector = 128;
  // 8 KB fits: 64 compulsory misses, then 64 hits.
  RunResult fits = simulate(cfg, walk(8 * 1024, 2));
  EXPECT_EQ(fits.stats.core.l1d_misses, 64u);
  EXPECT_EQ(fits.stats.core.l1d_hits, 64u);
  // 32 KB does not: LRU evicts every line before its reuse, 512 misses.
  RunResult thrash = simulate(cfg, walk(32 * 1024, 2));
  EXPECT_EQ(thrash.stats.core.l1d_misses, 512u);
  EXPECT_EQ(thrash.stats.core.l1d_hits, 0u);
}

TEST(Physics, StrideOf128BytesTouchesOneLinePerLane) {
  GpuConfig cfg = small_gpu();
  KernelBuilder b("stride");
  b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::strided(128), 4, 1);
  RunResult r = simulate(cfg, b.build());
  EXPECT_EQ(r.stats.core.l1d_misses, 32u);  // 32 lanes, 32 distinct lines
  EXPECT_EQ(r.stats.core.mem_requests, 32u);
}

TEST(Physics, StreamingReachesConfiguredDramBandwidthButNeverMore) {
  GpuConfig cfg = small_gpu(8, 2);
  cfg.l2.partitions = 2;
  cfg.dram.bytes_per_cycle = 16;  // 32 B/cycle in all
  cfg.l1d.mshr_entries = 64;
  KernelBuilder b("stream");
  b.grid({64, 1, 1}).block({256, 1, 1}).loop(8, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced(), 4, 1);
  });
  RunResult r = simulate(cfg, b.build());
  double peak = cfg.dram.bytes_per_cycle * cfg.l2.partitions;
  double achieved = double(r.stats.mem.dram_bytes) / double(r.stats.cycle);
  EXPECT_GE(achieved, 0.7 * peak) << "achieved " << achieved << " of " << peak;
  EXPECT_LE(achieved, 1.0 * peak);
  // Every line is read from DRAM exactly once: 64 CTAs * 8 warps * 8 iterations * 128 B.
  EXPECT_EQ(r.stats.mem.dram_bytes, 64ull * 8 * 8 * 128);
}

TEST(Physics, BankConflictsCostTheirDegreeInCycles) {
  GpuConfig cfg = small_gpu();
  // Eight warps keep the shared-memory pipeline saturated: its occupancy decides the time.
  auto kernel = [](uint32_t ways) {
    KernelBuilder b("banks");
    b.grid({1, 1, 1})
        .block({256, 1, 1})
        .shared_bytes(16 * 1024)
        .load(MemSpace::Shared, AccessPattern::bank_conflict(ways), 4, 200);
    return b.build();
  };
  RunResult one = simulate(cfg, kernel(1));
  RunResult four = simulate(cfg, kernel(4));
  EXPECT_EQ(one.stats.core.shared_cycles, 1600u);
  EXPECT_EQ(four.stats.core.shared_cycles, 6400u);
  // The pipeline is the bottleneck: one access per cycle without conflicts, four with.
  EXPECT_GE(one.stats.cycle, 1600u);
  EXPECT_LE(one.stats.cycle, 1600u * 5 / 4);
  EXPECT_GE(four.stats.cycle, 6400u);
  EXPECT_LE(four.stats.cycle, 6400u * 21 / 20);
}

TEST(Physics, BarrierHoldsEveryWarp) {
  GpuConfig cfg = small_gpu();
  // Warp 0 works before the barrier, the others after it: with the barrier the phases cannot
  // overlap, so the kernel takes both phases back to back.
  auto kernel = [](bool with_barrier) {
    KernelBuilder b("bar");
    b.grid({1, 1, 1}).block({128, 1, 1});
    b.loop_per_warp([](uint32_t, uint32_t w) { return w == 0 ? 100 : 0; },
                    [](KernelBuilder& l) { l.alu(Unit::SP, 1, true); });
    if (with_barrier) b.barrier();
    b.loop_per_warp([](uint32_t, uint32_t w) { return w == 0 ? 0 : 100; },
                    [](KernelBuilder& l) { l.alu(Unit::SP, 1, true); });
    return b.build();
  };
  RunResult with = simulate(cfg, kernel(true));
  RunResult without = simulate(cfg, kernel(false));
  EXPECT_GT(with.stats.cycle, 2000u);     // two phases of 100 dependent 10-cycle steps
  EXPECT_LT(without.stats.cycle, 1400u);  // overlapped
  EXPECT_EQ(without.stats.core.sched_cycles[int(CycleClass::Barrier)], 0u);
}

TEST(Physics, OccupancyLimitsCapResidentCtas) {
  // 12 one-warp CTAs, each a 100-step dependent chain of 20-cycle steps (about 2000 cycles);
  // 12 warps need 0.6 issues per cycle, so issue bandwidth is never the limit and the time is
  // (number of waves) x (one CTA's time).
  auto run = [](GpuConfig cfg, uint32_t shared, uint32_t regs) {
    KernelBuilder b("occ");
    b.grid({12, 1, 1}).block({32, 1, 1}).shared_bytes(shared).regs_per_thread(regs).alu(Unit::SP, 100, true);
    return double(simulate(cfg, b.build()).stats.cycle);
  };
  GpuConfig cfg = small_gpu();
  cfg.icache.enabled = false;
  cfg.units[int(Unit::SP)].latency[0] = 20;
  cfg.core.max_ctas = 12;
  double wave = run(cfg, 0, 16);
  EXPECT_NEAR(wave, 2000, 50);
  GpuConfig c = cfg;
  c.core.max_ctas = 6;
  EXPECT_NEAR(run(c, 0, 16) / wave, 2.0, 0.1);
  c.core.max_ctas = 3;
  EXPECT_NEAR(run(c, 0, 16) / wave, 4.0, 0.2);
  c = cfg;  // 20 KB of 48 KB shared memory: 2 resident
  EXPECT_NEAR(run(c, 20 * 1024, 16) / wave, 6.0, 0.3);
  c = cfg;  // 255 registers/thread = 8192 per warp of 32768: 4 resident
  EXPECT_NEAR(run(c, 0, 255) / wave, 3.0, 0.15);
  c = cfg;  // 128 threads: 4 resident
  c.core.max_threads = 128;
  EXPECT_NEAR(run(c, 0, 16) / wave, 3.0, 0.15);
  c = cfg;  // 2 warps: 2 resident
  c.core.max_warps = 2;
  EXPECT_NEAR(run(c, 0, 16) / wave, 6.0, 0.3);
}

TEST(Physics, SameInputsGiveIdenticalCycles) {
  GpuConfig cfg = small_gpu(4, 2);
  KernelBuilder b("mixed");
  b.grid({16, 1, 1}).block({128, 1, 1}).loop(10, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::random(1 << 20, 7), 4, 1, true).alu(Unit::SP, 4);
  });
  auto k = b.build();
  uint64_t a = simulate(cfg, k, "lrr").stats.cycle;
  uint64_t c = simulate(cfg, k, "lrr").stats.cycle;
  EXPECT_EQ(a, c);
  EXPECT_EQ(simulate(cfg, k, "gto").stats.cycle, simulate(cfg, k, "gto").stats.cycle);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// core.barrier_latency: every release of a CTA barrier holds its warps that many cycles.
TEST(Physics, BarrierLatencyDelaysEveryRelease) {
  auto run = [](uint32_t latency) {
    GpuConfig cfg = small_gpu();
    cfg.core.barrier_latency = latency;
    KernelBuilder b("bars");
    b.grid({1, 1, 1}).block({128, 1, 1}).loop(40, [](KernelBuilder& l) { l.barrier(); });
    return simulate(cfg, b.build()).stats.cycle;
  };
  const uint64_t base = run(0), slow = run(50);
  EXPECT_NEAR(double(slow - base), 40.0 * 50, 40.0) << "latency 0: " << base << " cycles, 50: " << slow;
}

// l2.flush_at_launch: a second kernel reading what the first left in the L2 misses again.
TEST(Physics, L2FlushAtLaunchEmptiesTheL2ForEachKernel) {
  auto misses = [](bool flush) {
    GpuConfig cfg = small_gpu();
    cfg.l2.flush_at_launch = flush;
    cfg.l1d.enabled = false;  // every load reaches the L2
    std::vector<synth::SyntheticKernel> ks;
    for (int i = 0; i < 2; ++i) {
      KernelBuilder b("reread");
      b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::per_warp(16 * 1024), 4, 128);
      ks.push_back(b.build());
    }
    RunResult r = simulate(cfg, ks);
    return r.stats.mem.l2_reads - r.stats.mem.l2_read_hits;
  };
  const uint64_t kept = misses(false), flushed = misses(true);
  EXPECT_GT(kept, 0u);
  EXPECT_NEAR(double(flushed), 2.0 * double(kept), 0.1 * double(kept)) << "kept " << kept << ", flushed " << flushed;
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// Every scheduler of every SM counts every cycle in exactly one cycle class, also on SMs that
// hold no CTA for a whole kernel and sleep (Sm::asleep): one CTA on an 8-SM GPU, a kernel on
// all SMs, another single CTA, each after 500 cycles of launch latency in which every SM is idle.
TEST(Physics, IdleSmsCountEveryCycleOnce) {
  GpuConfig cfg = small_gpu(8, 2);
  cfg.core.kernel_launch_latency = 500;
  auto kernel = [](const char* name, uint32_t ctas) {
    KernelBuilder b(name);
    b.grid({ctas, 1, 1})
        .block({64, 1, 1})
        .load(MemSpace::Global, AccessPattern::coalesced(), 4, 4, true)
        .alu(Unit::SP, 20);
    return b.build();
  };
  std::vector<synth::SyntheticKernel> ks;
  ks.push_back(kernel("one", 1));
  ks.push_back(kernel("all", 16));
  ks.push_back(kernel("last", 1));
  RunResult r = simulate(cfg, ks);
  auto counted = [](const CoreStats& s) {
    uint64_t n = 0;
    for (uint64_t c : s.sched_cycles) n += c;
    return n;
  };
  const uint64_t per_cycle = 8 * 2;
  EXPECT_EQ(counted(r.stats.core), r.stats.cycle * per_cycle);
  ASSERT_EQ(r.kernels.size(), 3u);
}

}  // namespace
}  // namespace warpsim::test

// Physics of the mechanisms that make the timing model agree with GPGPU-Sim (docs/fidelity.md):
// each test turns one configuration key on and off and checks the difference it makes against
// a figure computed by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/config_loader.h"
#include "memory/cache.h"
#include "memory/memory_system.h"
#include "support/sim_helpers.h"
#include "workloads/bundled.h"

namespace warpsim::test {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

uint64_t kernel_cycles(const RunResult& r) { return r.kernels.at(0).end_cycle - r.kernels.at(0).start_cycle; }

synth::SyntheticKernel alu_grid(uint32_t ctas) {
  KernelBuilder b("alu");
  b.grid({ctas, 1, 1}).block({64, 1, 1}).alu(Unit::SP, 20);
  return b.build();
}

TEST(Fidelity, KernelLaunchLatencyAddsExactlyItsCyclesToTheKernel) {
  GpuConfig cfg = small_gpu(2, 1);
  uint64_t base = kernel_cycles(simulate(cfg, alu_grid(4)));
  cfg.core.kernel_launch_latency = 5000;
  EXPECT_EQ(kernel_cycles(simulate(cfg, alu_grid(4))), base + 5000);
  // GPGPU-Sim's TB launch latency: per CTA of the grid, before the first CTA.
  cfg.core.cta_dispatch_latency = 3;
  EXPECT_EQ(kernel_cycles(simulate(cfg, alu_grid(4))), base + 5000 + 4 * 3);
}

// The host submits one launch per core.kernel_submit_interval: launches of short kernels start
// that far apart, a kernel longer than the interval is not delayed, and no kernel's own cycles
// change.
TEST(Fidelity, KernelSubmitIntervalPacesLaunchesOfShortKernels) {
  GpuConfig cfg = small_gpu(2, 1);
  std::vector<synth::SyntheticKernel> ks;
  for (int i = 0; i < 4; ++i) ks.push_back(alu_grid(1));
  RunResult base = simulate(cfg, ks);
  const uint64_t len = kernel_cycles(base);
  ASSERT_GT(len, 10u);
  for (size_t i = 1; i < base.kernels.size(); ++i)  // back to back without a submission limit
    EXPECT_LE(base.kernels[i].start_cycle, base.kernels[i - 1].end_cycle + 1);
  cfg.core.kernel_submit_interval = uint32_t(len * 3);
  RunResult paced = simulate(cfg, ks);
  ASSERT_EQ(paced.kernels.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(paced.kernels[i].start_cycle, paced.kernels[0].start_cycle + i * len * 3) << i;
    EXPECT_EQ(paced.kernels[i].end_cycle - paced.kernels[i].start_cycle,
              base.kernels[i].end_cycle - base.kernels[i].start_cycle)
        << i;
  }
  // An interval shorter than the kernels changes nothing.
  cfg.core.kernel_submit_interval = uint32_t(len / 2);
  RunResult shorter = simulate(cfg, ks);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(shorter.kernels[i].end_cycle, base.kernels[i].end_cycle) << i;
}

// One warp issuing n pairs of independent instructions on one SP unit (initiation 1): a
// multiply-add (latency 5) then an add (latency 4). Issued back to back the add's result would
// land in the same cycle as the multiply-add's.
synth::SyntheticKernel mad_add_pairs(uint32_t n) {
  KernelBuilder b("pairs");
  b.grid({1, 1, 1}).block({32, 1, 1});
  for (uint32_t i = 0; i < n; ++i) b.alu(Unit::SP, 1, false, kLatMad).alu(Unit::SP, 1, false, kLatDefault);
  return b.build();
}

TEST(Fidelity, ResultSlotConflictsDelayTheSecondOfTwoResultsDueTogether) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.core.ibuffer = 8;
  cfg.core.decode_width = 8;
  cfg.units[int(Unit::SP)] = uniform_unit(1, 4, 1);
  cfg.units[int(Unit::SP)].latency[kLatMad] = 5;
  const uint32_t n = 40;
  RunResult off = simulate(cfg, mad_add_pairs(n));
  EXPECT_EQ(off.stats.core.unit_busy[int(Unit::SP)], 0u);
  cfg.core.result_slot_conflicts = true;
  RunResult on = simulate(cfg, mad_add_pairs(n));
  // Each add finds the slot of the multiply-add issued the cycle before taken and waits one
  // cycle, after which it completes one cycle later than that multiply-add: n waits in all.
  EXPECT_EQ(on.stats.core.unit_busy[int(Unit::SP)], n);
  EXPECT_EQ(on.stats.cycle, off.stats.cycle + n);
  EXPECT_EQ(on.stats.core.warp_insts, off.stats.core.warp_insts);
}

TEST(Fidelity, ResultSlotsDoNotBlockEqualLatencies) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.core.result_slot_conflicts = true;
  KernelBuilder b("same");
  b.grid({1, 1, 1}).block({32, 1, 1}).alu(Unit::SP, 60);
  RunResult r = simulate(cfg, b.build());
  EXPECT_EQ(r.stats.core.unit_busy[int(Unit::SP)], 0u);
}

// One warp, one load whose 32 lanes read 4 bytes from 32 different lines.
synth::SyntheticKernel column_load(uint64_t lane_stride) {
  KernelBuilder b("column");
  b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::strided(lane_stride), 4, 1);
  return b.build();
}

TEST(Fidelity, L1BanksServeOneAccessPerBankPerCycle) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.ports = 4;
  cfg.l1d.perfect = true;  // all hits: the L1 ports, not the misses, set the pace
  // 1 KB rows: every lane's 32-byte block has the same offset, so all 32 fall in one bank.
  RunResult ports_only = simulate(cfg, column_load(1024));
  EXPECT_EQ(ports_only.stats.core.l1d_bank_conflicts, 0u);
  cfg.l1d.banks = 4;
  cfg.l1d.bank_interleave = 32;
  RunResult same_bank = simulate(cfg, column_load(1024));
  // One access per cycle instead of four: 31 cycles in which the second access waited.
  EXPECT_EQ(same_bank.stats.core.l1d_bank_conflicts, 31u);
  EXPECT_EQ(same_bank.stats.cycle, ports_only.stats.cycle + 32 - 8);
  // Rows of 1 KB + 32 B: consecutive lanes rotate over the four banks, four per cycle again.
  RunResult rotating = simulate(cfg, column_load(1024 + 32));
  EXPECT_EQ(rotating.stats.core.l1d_bank_conflicts, 0u);
}

// Streaming 32-byte sectors: one lane per line, so each request is one sector.
synth::SyntheticKernel sector_stream() {
  KernelBuilder b("sectors");
  b.grid({8, 1, 1}).block({256, 1, 1}).loop(8, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::strided(128), 4, 1);
  });
  return b.build();
}

TEST(Fidelity, DramAtomMakesSectorReadsCostAWholeAtom) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.enabled = false;
  cfg.l2.cache.enabled = false;
  cfg.l2.partitions = 1;
  cfg.l2.slices_per_partition = 1;
  cfg.dram.bytes_per_cycle = 4;  // a 32-byte burst takes 8 cycles, a 64-byte atom 16
  RunResult plain = simulate(cfg, sector_stream());
  cfg.dram.atom = 64;
  RunResult atom = simulate(cfg, sector_stream());
  EXPECT_EQ(atom.stats.mem.dram_reads, plain.stats.mem.dram_reads);
  EXPECT_EQ(atom.stats.mem.dram_bytes, plain.stats.mem.dram_bytes);  // useful bytes are the same
  // Bandwidth-bound: twice the bus time per read.
  double ratio = double(atom.stats.cycle) / double(plain.stats.cycle);
  EXPECT_GT(ratio, 1.8);
  EXPECT_LT(ratio, 2.05);
}

// core.ifetch_through_memory: an I-cache miss reads its line through the L2 (GPGPU-Sim). A
// kernel whose 5 lines of code do not fit a one-line I-cache, launched twice: with the fixed
// miss latency both launches take equally long; through memory the first launch's lines come
// from DRAM and stay in the L2, so the second launch is faster, and every miss is an L2 read.
TEST(Fidelity, InstructionFetchesGoThroughTheL2) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.size = 128;
  cfg.icache.assoc = 1;
  cfg.icache.line = 128;
  cfg.icache.sector = 128;
  auto twice = [] {
    std::vector<synth::SyntheticKernel> k;
    for (int i = 0; i < 2; ++i) {
      KernelBuilder b("straight");
      b.grid({1, 1, 1}).block({32, 1, 1}).alu(Unit::SP, 64);
      k.push_back(b.build());
    }
    return k;
  };
  auto cycles = [](const KernelResult& k) { return k.end_cycle - k.start_cycle; };
  RunResult fixed = simulate(cfg, twice());
  ASSERT_EQ(fixed.kernels.size(), 2u);
  EXPECT_EQ(cycles(fixed.kernels[0]), cycles(fixed.kernels[1]));
  EXPECT_EQ(fixed.stats.mem.l2_reads, 0u);
  EXPECT_GE(fixed.stats.core.icache_misses, 2u * 5);

  cfg.core.ifetch_through_memory = true;
  RunResult mem = simulate(cfg, twice());
  ASSERT_EQ(mem.kernels.size(), 2u);
  EXPECT_LT(cycles(mem.kernels[1]), cycles(mem.kernels[0]));
  EXPECT_EQ(mem.stats.core.icache_misses, fixed.stats.core.icache_misses);
  EXPECT_EQ(mem.stats.mem.l2_reads, mem.stats.core.icache_misses);
  EXPECT_GE(mem.stats.mem.l2_read_hits, mem.stats.core.icache_misses / 2);  // the second launch's
}

// core.const_through_memory: a constant-cache miss reads its line through the L2 (GPGPU-Sim).
// Two warps read the same constant word: one miss and one request merged into its MSHR, a
// single L2 read; with the fixed miss latency nothing reaches the L2. A second kernel reading
// the word finds the line in the constant cache.
TEST(Fidelity, ConstantMissesGoThroughTheL2) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.core.const_miss_latency = 200;
  auto reader = [] {
    KernelBuilder b("const_reader");
    b.grid({1, 1, 1}).block({64, 1, 1}).load(MemSpace::Const, AccessPattern::broadcast(), 4, 1, true);
    return b.build();
  };
  RunResult fixed = simulate(cfg, {reader()});
  EXPECT_EQ(fixed.stats.mem.l2_reads, 0u);

  cfg.core.const_through_memory = true;
  RunResult mem = simulate(cfg, {reader()});
  EXPECT_EQ(mem.stats.core.const_accesses, 2u);
  EXPECT_EQ(mem.stats.core.const_misses, 2u);  // a miss and a pending hit
  EXPECT_EQ(mem.stats.mem.l2_reads, 1u);
  EXPECT_NE(kernel_cycles(mem), kernel_cycles(fixed));
  RunResult two = simulate(cfg, {reader(), reader()});
  ASSERT_EQ(two.kernels.size(), 2u);
  EXPECT_EQ(two.stats.mem.l2_reads, 1u);
  EXPECT_EQ(two.stats.core.const_misses, 2u);
}

// core.l1_miss_after_latency: GPGPU-Sim looks an L1D access up after its latency queue, so a
// miss reaches the interconnect l1d.latency cycles after the access. One warp, one load that
// misses and its use: the kernel takes exactly l1d.latency cycles more; a load that hits takes
// as long in both modes. With the lookup itself at the pipeline's end
// (core.l1_lookup_after_latency) the figures are the same, for a hit and a merge too.
TEST(Fidelity, L1MissesLeaveAfterTheL1Latency) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.latency = 35;
  auto one_load = [](uint32_t loads) {
    KernelBuilder b("load");
    b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::broadcast(), 4, loads, true);
    return std::vector<synth::SyntheticKernel>{b.build()};
  };
  const uint64_t at_once = kernel_cycles(simulate(cfg, one_load(1)));
  const uint64_t at_once_hit = kernel_cycles(simulate(cfg, one_load(2))) - at_once;
  cfg.core.l1_miss_after_latency = true;
  RunResult after = simulate(cfg, one_load(1));
  EXPECT_EQ(kernel_cycles(after), at_once + 35);
  EXPECT_EQ(after.stats.core.l1d_misses, 1u);
  EXPECT_EQ(kernel_cycles(simulate(cfg, one_load(2))) - kernel_cycles(after), at_once_hit);
  cfg.core.l1_lookup_after_latency = true;
  RunResult at_end = simulate(cfg, one_load(1));
  EXPECT_EQ(kernel_cycles(at_end), at_once + 35);
  EXPECT_EQ(at_end.stats.core.l1d_misses, 1u);
  EXPECT_EQ(kernel_cycles(simulate(cfg, one_load(2))) - kernel_cycles(at_end), at_once_hit);
  cfg.core.l1_lookup_after_latency = false;
  // The kernel's cycles do not depend on the latency of a pipeline that does nothing else.
  cfg.l1d.latency = 5;
  EXPECT_EQ(kernel_cycles(simulate(cfg, one_load(1))), at_once + 5);
}

// l1d.miss_queue: the L1's latency pipeline (l1d.latency stages per bank) and its miss queue are
// two buffers, as GPGPU-Sim's l1_latency_queue and miss queue. A warp whose 16 lanes read 16
// lines (1 KB apart, one bank) enters one miss per cycle and each leaves l1d.latency cycles
// later, a one-entry miss queue notwithstanding: the stream is only delayed, by exactly the
// latency. (Had the two shared the miss queue's one entry, each miss would wait for the one
// before it to leave, 35 cycles per miss.)
TEST(Fidelity, L1LatencyPipelineDelaysAMissStreamWithoutThrottlingIt) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.latency = 35;
  cfg.l1d.miss_queue = 1;
  cfg.l1d.mshr_entries = 32;  // every line its own MSHR: the L1's buffers alone set the pace
  auto half_column = [] {
    KernelBuilder b("half_column");
    b.grid({1, 1, 1}).block({16, 1, 1}).load(MemSpace::Global, AccessPattern::strided(1024), 4, 1);
    return b.build();
  };
  const RunResult at_once = simulate(cfg, half_column());
  cfg.core.l1_miss_after_latency = true;
  const RunResult after = simulate(cfg, half_column());
  EXPECT_EQ(after.stats.core.l1d_misses, 16u);
  EXPECT_EQ(after.stats.core.l1d_bank_conflicts, 0u);
  EXPECT_EQ(kernel_cycles(after), kernel_cycles(at_once) + 35);
}

// core.l1_lookup_after_latency (GPGPU-Sim's l1_latency_queue): an access is looked up at the end
// of its bank's pipeline, so an instruction leaves the LD/ST unit once its accesses have entered
// it, and a lookup that finds no MSHR waits at the pipeline's head, not at the unit's. One warp,
// one MSHR: a load of line A (a miss that takes the MSHR), a load of line B (no MSHR until A's
// fill) and a shared-memory load whose value an SP op uses. Looked up as they enter, B's load
// holds the unit, and the shared load with it, until A's data is back (a memory round trip);
// looked up at the pipeline's end, the shared load goes by the waiting B: its use issues
// core.shared_latency cycles after it (the warp issues one instruction per cycle, the shared load
// enters the unit the cycle it issues).
TEST(Fidelity, ALookupWaitingForAnMshrHoldsItsBankNotTheLdstUnit) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.latency = 20;
  cfg.l1d.mshr_entries = 1;
  cfg.core.shared_latency = 10;
  KernelBuilder b("blocked_lookup");
  b.grid({1, 1, 1})
      .block({32, 1, 1})
      .load(MemSpace::Global, AccessPattern::broadcast(), 4)
      .load(MemSpace::Global, AccessPattern::broadcast().at(1 << 20), 4)
      .load(MemSpace::Shared, AccessPattern::broadcast(), 4, 1, true);
  const synth::SyntheticKernel k = b.build();
  // Issue cycles of the warp's instructions: the two global loads, the shared load, its use.
  auto issues = [&] {
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<uint64_t> at;
    for (const auto& d : r.log)
      if (d.slot == 0) at.push_back(d.cycle);
    EXPECT_EQ(r.stats.core.l1d_misses, 2u);
    EXPECT_GT(r.stats.core.l1d_fails, 0u);  // B's lookup waited for the MSHR in both modes
    return at;
  };
  cfg.core.l1_miss_after_latency = true;
  const std::vector<uint64_t> at_entry = issues();
  cfg.core.l1_lookup_after_latency = true;
  const std::vector<uint64_t> at_end = issues();
  ASSERT_GE(at_entry.size(), 4u);
  ASSERT_GE(at_end.size(), 4u);
  EXPECT_EQ(at_end[3] - at_end[2], 10u);
  EXPECT_GT(at_entry[3] - at_entry[2], 100u);  // the miss of A went to DRAM and back first
}

// Nothing that leaves the L1 is lost when its queue is full: a write-back L1 of four lines takes
// 32 line stores (each evicting a dirty line) and then 32 loads of other lines (whose fills evict
// the last four), with a one-entry miss queue; every dirty line reaches the L2 (one written
// sector each): here more write-backs arrive than the queue has spare room for.
TEST(Fidelity, EveryDirtyLineEvictedFromTheL1ReachesTheL2) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.size = 4 * 128;
  cfg.l1d.assoc = 0;
  cfg.l1d.sector = 128;
  cfg.l1d.write_policy = "write_back";
  cfg.l1d.write_allocate = "allocate";
  cfg.l1d.miss_queue = 1;
  KernelBuilder b("evict");
  b.grid({1, 1, 1})
      .block({32, 1, 1})
      .store(MemSpace::Global, AccessPattern::strided(128), 4, 1)
      .load(MemSpace::Global, AccessPattern::strided(128).at(1 << 20), 4, 1, true);
  const RunResult r = simulate(cfg, b.build());
  EXPECT_EQ(r.stats.core.l1d_misses, 32u);
  EXPECT_EQ(r.stats.mem.l2_writes, 32u);
  // A line of an unsectored L1 is written back whole: at a sectored L2 that looks it up sector
  // by sector, four writes each (GPGPU-Sim's L1_WRBK_ACC of 128 bytes).
  cfg.l2.sector_lookups = true;
  EXPECT_EQ(simulate(cfg, b.build()).stats.mem.l2_writes, 4u * 32u);
}

// A full miss queue stalls the pipeline's last stage, and a full pipeline stops the unit (counted
// as a bank conflict, as GPGPU-Sim counts it). Stores of 16 bytes a lane in 8-byte flits take
// two cycles each to leave the SM, so 32 of them back up: with a 1-entry miss queue and an
// 8-stage pipeline the unit waits; with room for all 32 it never does. Either way the SM's port
// sets the pace, so the kernel takes as long.
TEST(Fidelity, AFullL1MissQueueHoldsThePipelineAndTheUnit) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icnt.flit = 8;
  cfg.l1d.latency = 8;
  cfg.core.l1_miss_after_latency = true;
  auto column_store = [] {
    KernelBuilder b("column_store");
    b.grid({1, 1, 1}).block({32, 1, 1}).store(MemSpace::Global, AccessPattern::strided(1024), 16, 1);
    return b.build();
  };
  cfg.l1d.miss_queue = 1;
  const RunResult tight = simulate(cfg, column_store());
  cfg.l1d.miss_queue = 64;
  const RunResult roomy = simulate(cfg, column_store());
  EXPECT_EQ(roomy.stats.core.l1d_bank_conflicts, 0u);
  EXPECT_GT(tight.stats.core.l1d_bank_conflicts, 10u);
  EXPECT_EQ(kernel_cycles(tight), kernel_cycles(roomy));
}

// l2.sector_requests and l2.fill_replies_per_cycle, at the start of a kernel on GTX480: all 15
// SMs miss the kernel's first instruction line (four 32-byte sectors) in one L2 slice, SM s's
// request arriving a cycle after SM s - 1's. By default the line is one MSHR entry that takes
// the requests of SMs 0-3 (mshr_merge 4); SM 4's is refused and waits at the head of the queue,
// the fill answers SMs 0-3 at once, SM 4's lookup then hits, and the SMs start in SM order.
// GPGPU-Sim's L2 looks each sector up as a request of its own, so each sector's MSHR entry
// takes SMs 0-3 and refuses SM 4; a filled entry hands its four requests out one a cycle while
// SM 4's lookups, no longer refused, hit. SM 4 has its line first, SMs 0-3 theirs after it. With
// both keys the first issues, relative to SM 4's, are GPGPU-Sim's to the cycle (SM2_GTX480 on
// vectoradd: SM 4 at cycle 270, then SM 5 278, SMs 0-3 283-289, SM 6 286, SMs 7-14 292-320);
// neither key alone gives them.
TEST(Fidelity, SectorRequestsAndPacedFillsStartTheSmsInGpgpuSimsOrder) {
  GpuConfig cfg = load_preset("gtx480");
  KernelBuilder b("alu");
  b.grid({15, 1, 1}).block({32, 1, 1}).alu(Unit::SP, 4);
  const synth::SyntheticKernel k = b.build();
  auto first_issue = [&](bool split, bool paced) {
    cfg.l2.sector_requests = split;
    cfg.l2.fill_replies_per_cycle = paced;
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<uint64_t> first(15, ~0ull);
    for (const auto& d : r.log)
      if (d.slot >= 0) first.at(d.sm) = std::min(first.at(d.sm), d.cycle);
    return first;
  };
  const std::vector<uint64_t> off = first_issue(false, false);
  for (int s = 1; s < 15; ++s) EXPECT_GT(off[s], off[s - 1]) << "SM " << s;
  const std::vector<uint64_t> on = first_issue(true, true);
  const uint64_t gpgpusim[15] = {283, 285, 287, 289, 270, 278, 286, 292, 296, 300, 304, 308, 312, 316, 320};
  for (int s = 0; s < 15; ++s) EXPECT_EQ(on[s] - on[4], gpgpusim[s] - gpgpusim[4]) << "SM " << s;
  const std::vector<uint64_t> split = first_issue(true, false);
  EXPECT_LT(split[0], split[4]);  // the fill still answers SMs 0-3 before SM 4's lookup
  const std::vector<uint64_t> paced = first_issue(false, true);
  EXPECT_LT(paced[4], paced[0]);
  EXPECT_NE(paced[0] - paced[4], on[0] - on[4]);  // but the whole line comes with the last hand-out
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// GPGPU-Sim's -gpgpu_perf_sim_memcpy: a copy leaves its sectors in the L2, so the first reads of
// copied inputs hit there. vectoradd (small) copies a and b (2 x 64 KB, within TITAN V's L2) and
// then reads each line of them once.
TEST(Fidelity, CopiesLeaveTheirSectorsInTheL2) {
  auto run = [](bool fill) {
    GpuConfig cfg = load_preset("titanv");
    cfg.l2.fill_on_copy = fill;
    Gpu gpu(cfg, "lrr");
    WorkloadOptions o;
    o.size = "small";
    EXPECT_TRUE(make_bundled_workload("vectoradd")->run(gpu, o).verified);
    return gpu.snapshot();
  };
  StatsSnapshot off = run(false), on = run(true);
  // TITAN V's L2 counts one read per 32-byte sector (l2.sector_lookups): four per input line.
  const uint64_t lines = 2 * 16384 * 4 / 128, sectors = 4 * lines;
  EXPECT_EQ(off.mem.l2_reads - off.mem.l2_read_hits, sectors);  // every input line misses once
  EXPECT_EQ(on.mem.l2_reads - on.mem.l2_read_hits, 0u);
  EXPECT_EQ(on.mem.l2_reads, off.mem.l2_reads);
  EXPECT_LT(on.cycle, off.cycle);
}

// A copy that covers part of a line leaves exactly its sectors in the L2: binomial (small)
// copies three arrays of 64 bytes, the first two sectors of a line each, and its kernel reads
// them all (48 sector reads) without a miss or a DRAM read, as GPGPU-Sim's 48 hits. (The
// second sector of each was left out, and the third and fourth filled instead.)
TEST(Fidelity, ACopyOfPartOfALineLeavesJustItsSectors) {
  GpuConfig cfg = load_preset("titanv");
  Gpu gpu(cfg, "gto");
  WorkloadOptions o;
  o.size = "small";
  ASSERT_TRUE(make_bundled_workload("binomial")->run(gpu, o).verified);
  const StatsSnapshot s = gpu.snapshot();
  EXPECT_EQ(s.mem.l2_reads, 48u);
  EXPECT_EQ(s.mem.l2_read_hits, 48u);
  EXPECT_EQ(s.mem.dram_read_atoms, 0u);
}

TEST(Fidelity, CopyFillDoesNotEvictDirtyLines) {
  CacheConfig c{true, 2 * 128, 2, 128, 32, 4, 4, 1, "write_back", "allocate", 1};  // one set, two ways
  Cache cache(c);
  cache.write(0, 0xf, 1);    // dirty line 0
  cache.write(128, 0xf, 2);  // dirty line 1
  cache.install(256, 0x1);   // would have to evict a dirty line: not installed
  EXPECT_EQ(cache.valid_sectors(256), 0u);
  EXPECT_TRUE(cache.evictions().empty());
  Cache clean(c);
  clean.install(0, 0x3);
  clean.install(0, 0x4);
  EXPECT_EQ(clean.valid_sectors(0), 0x7u);
  EXPECT_EQ(clean.dirty_sectors(0), 0u);
  uint64_t hits = clean.hits;
  EXPECT_EQ(clean.read(0, 0x7, 0, 3).outcome, Cache::Outcome::Hit);
  EXPECT_EQ(clean.hits, hits + 1);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// GPGPU-Sim's 'L' L1 policy: local stores are written back and stay; a global store that hits
// evicts the line. Both write misses go on below (no write-allocate).
TEST(Fidelity, LocalWriteBackPolicy) {
  CacheConfig c{true, 4 * 128, 4, 128, 128, 4, 4, 1, "local_write_back", "no_allocate", 1};
  Cache cache(c);
  EXPECT_FALSE(cache.write(0, 0xf, 1, true));  // local miss: forwarded, not allocated
  EXPECT_TRUE(cache.write_forwarded());
  EXPECT_EQ(cache.valid_sectors(0), 0u);
  EXPECT_EQ(cache.read(0, 0xf, 0, 2).outcome, Cache::Outcome::Miss);
  cache.fill(0, 3);
  EXPECT_TRUE(cache.write(0, 0xf, 4, true));  // local hit: absorbed, dirty
  EXPECT_FALSE(cache.write_forwarded());
  EXPECT_NE(cache.dirty_sectors(0), 0u);
  EXPECT_EQ(cache.read(128, 0xf, 0, 5).outcome, Cache::Outcome::Miss);
  cache.fill(0, 6);
  EXPECT_TRUE(cache.write(128, 0xf, 7, false));  // global hit: the line is evicted
  EXPECT_TRUE(cache.write_forwarded());
  EXPECT_EQ(cache.valid_sectors(128), 0u);
}

// One warp stores, loads, stores and loads again 16 local words; the second loads hit only if
// the words of a thread spread over the L1 sets (a power-of-two stride would put all 16 lines
// in one 4-way set of the Fermi-hashed L1).
TEST(Fidelity, LocalWordsOfAThreadSpreadOverTheL1Sets) {
  GpuConfig cfg = load_preset("gtx480");
  AccessPattern words = AccessPattern::broadcast();
  words.step_set = true;
  words.step = 4;
  KernelBuilder b("local");
  b.grid({1, 1, 1}).block({32, 1, 1}).local_bytes(64);
  b.store(MemSpace::Local, words, 4, 16).load(MemSpace::Local, words, 4, 16, true);
  b.store(MemSpace::Local, words, 4, 16).load(MemSpace::Local, words, 4, 16, true);
  RunResult r = simulate(cfg, b.build());
  EXPECT_EQ(r.stats.core.l1d_misses, 16u);  // the first loads; the second ones all hit
  EXPECT_EQ(r.stats.core.l1d_hits, 16u);
}

// core.local_layout: one warp (a one-CTA grid on GTX480's 15 SMs) loads its 64 local words
// twice. A word-row is 15 x 1536 threads (92160 bytes) with the "thread" layout and 15 x 32
// threads (1920 bytes: one CTA slot, as the grid needs, of 32 threads on each SM) with "cta",
// GPGPU-Sim's default. Under the Fermi set hash the 64 lines of the first fall into 25 sets,
// one set holding 5 of them; those of the second into 29 sets, three holding 5: the second
// pass misses on the 5 or the 15 lines of those sets (4 ways, LRU) and hits on the rest.
TEST(Fidelity, LocalWordRowsFollowTheLayout) {
  auto second_pass_misses = [](const char* layout) {
    GpuConfig cfg = load_preset("gtx480");
    cfg.core.local_layout = layout;
    AccessPattern words = AccessPattern::broadcast();
    words.step_set = true;
    words.step = 4;
    KernelBuilder b("local");
    b.grid({1, 1, 1}).block({32, 1, 1}).local_bytes(256);
    b.load(MemSpace::Local, words, 4, 64, true).load(MemSpace::Local, words, 4, 64, true);
    const RunResult r = simulate(cfg, b.build());
    EXPECT_EQ(r.stats.core.l1d_hits + r.stats.core.l1d_misses, 128u);
    return r.stats.core.l1d_misses - 64;  // the first pass misses on all 64
  };
  EXPECT_EQ(second_pass_misses("thread"), 5u);
  EXPECT_EQ(second_pass_misses("cta"), 15u);
}

// core.l1_flush_by_cluster: two CTAs of one kernel that cannot share the SM (one CTA per SM) read
// the same 4 lines, then a second kernel reads them again. Flushing as each SM's last CTA
// finishes, the second CTA misses too; deciding after the next dispatch, as GPGPU-Sim's check
// follows its CTA issue, the second CTA arrives first and hits. The second kernel finds the L1
// flushed either way.
TEST(Fidelity, AnSmGivenItsNextCtaAtOnceKeepsItsL1) {
  auto misses = [](bool by_cluster) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.core.max_ctas = 1;
    cfg.core.l1_flush_when_idle = true;
    cfg.core.l1_flush_by_cluster = by_cluster;
    auto reader = [] {
      KernelBuilder b("reader");
      b.grid({2, 1, 1})
          .block({32, 1, 1})
          .load(MemSpace::Global, AccessPattern::coalesced().every(128).wrap(512), 4, 4, true);
      return b.build();
    };
    std::vector<synth::SyntheticKernel> k;
    k.push_back(reader());
    k.push_back(reader());
    const RunResult r = simulate(cfg, std::move(k));
    EXPECT_EQ(r.stats.core.l1d_hits + r.stats.core.l1d_misses, 16u);
    return r.stats.core.l1d_misses;
  };
  EXPECT_EQ(misses(false), 16u);
  EXPECT_EQ(misses(true), 8u);  // the first CTA of each kernel
}

// core.access_order: one warp loads 8 lines (lane i reads line i mod 8) into an L1 of four lines
// (LRU), then lines 0-3 again. In lane order lines 0-3 are taken first and 4-7 push them out, so
// the second load misses four times; highest address first (GPGPU-Sim's LD/ST unit serving its
// coalescer's queue from the back), lines 0-3 come last and stay, and the second load hits.
TEST(Fidelity, AWarpsAccessesAreTakenInTheConfiguredOrder) {
  auto second_load_hits = [](const char* order) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.l1d.size = 4 * 128;
    cfg.l1d.assoc = 0;
    cfg.l1d.sector = 128;
    cfg.core.access_order = order;
    KernelBuilder b("order");
    b.grid({1, 1, 1})
        .block({32, 1, 1})
        .load(MemSpace::Global, AccessPattern::strided(128).wrap(8 * 128), 4, 1, true)
        .load(MemSpace::Global, AccessPattern::strided(128).wrap(4 * 128), 4, 1, true);
    const RunResult r = simulate(cfg, b.build());
    EXPECT_EQ(r.stats.core.l1d_hits + r.stats.core.l1d_misses, 12u);
    return r.stats.core.l1d_hits;
  };
  EXPECT_EQ(second_load_hits("lane"), 0u);
  EXPECT_EQ(second_load_hits("descending"), 4u);
}

// core.sector_accesses: a warp reads all four sectors of two lines (lane i reads bytes 8i..8i+3).
// As lines, that is two L1 accesses, each a miss and one request of four sectors. As sectors
// (GPGPU-Sim's coalescer from Maxwell on), eight accesses, each its own miss and its own
// one-sector request. A line's four sectors lie in the four banks, so the sectors take two cycles
// of four accesses without a conflict; the two lines, both in bank 0, conflict once.
TEST(Fidelity, SectorAccessesAreL1AccessesOfTheirOwn) {
  auto run = [](bool sectors) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.l1d.line = 128;
    cfg.l1d.sector = 32;
    cfg.l1d.ports = 4;
    cfg.l1d.banks = 4;
    cfg.l1d.bank_interleave = 32;
    cfg.core.access_order = "descending";
    cfg.core.sector_accesses = sectors;
    KernelBuilder b("sectors");
    b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::strided(8), 4, 1, true);
    return simulate(cfg, b.build());
  };
  const RunResult lines = run(false), sectors = run(true);
  EXPECT_EQ(lines.stats.core.l1d_misses, 2u);
  EXPECT_EQ(lines.stats.core.mem_requests, 2u);
  EXPECT_EQ(lines.stats.core.l1d_sector_misses, 8u);
  EXPECT_EQ(lines.stats.core.l1d_bank_conflicts, 1u);
  EXPECT_EQ(sectors.stats.core.l1d_misses, 8u);
  EXPECT_EQ(sectors.stats.core.mem_requests, 8u);
  EXPECT_EQ(sectors.stats.core.l1d_sector_misses, 8u);
  EXPECT_EQ(sectors.stats.core.l1d_bank_conflicts, 0u);
  // An L2 that looks up a request at a time sees two reads or eight.
  EXPECT_EQ(lines.stats.mem.l2_reads, 2u);
  EXPECT_EQ(sectors.stats.mem.l2_reads, 8u);
  // Two warps of a CTA read the same line, one sector a lane (lanes 8 apart read one sector): as
  // sectors the second warp's four accesses are merged into the first's four fetches in flight.
  auto shared = [](bool sectors) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.l1d.line = 128;
    cfg.l1d.sector = 32;
    cfg.core.sector_accesses = sectors;
    KernelBuilder b("shared");
    b.grid({1, 1, 1}).block({64, 1, 1}).load(MemSpace::Global, AccessPattern::strided(4).wrap(128), 4, 1, true);
    return simulate(cfg, b.build());
  };
  EXPECT_EQ(shared(false).stats.core.l1d_pending_hits, 1u);
  EXPECT_EQ(shared(true).stats.core.l1d_pending_hits, 4u);
  EXPECT_EQ(shared(true).stats.core.mem_requests, 4u);
}

// GPGPU-Sim's -gpgpu_flush_l1_cache: an SM left without CTAs empties its L1, so a second kernel
// reading the same lines misses again.
TEST(Fidelity, IdleSmFlushesItsL1) {
  GpuConfig cfg = small_gpu(1, 1);
  auto reader = [] {
    KernelBuilder b("reader");
    b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::coalesced(), 4, 4, true);
    return b.build();
  };
  auto two = [&] {
    std::vector<synth::SyntheticKernel> k;
    k.push_back(reader());
    k.push_back(reader());
    return k;
  };
  RunResult keep = simulate(cfg, two());
  cfg.core.l1_flush_when_idle = true;
  RunResult flush = simulate(cfg, two());
  EXPECT_EQ(keep.stats.core.l1d_misses, 4u);  // the second kernel hits the first one's lines
  EXPECT_EQ(flush.stats.core.l1d_misses, 8u);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// core.atomic_waits: a GPGPU-Sim warp with an atomic outstanding issues nothing (its
// outstanding-atomic count). One warp, one global atomic whose result is never read, then 40
// independent ALU instructions: without the wait they run under the atomic's round trip; with
// it they start only after the atomic returned, so the kernel takes at least the atomic's own
// time plus one issue per instruction.
TEST(Fidelity, AWarpWaitsForItsAtomic) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  auto kernel = [](uint32_t alus) {
    KernelBuilder b("atomic_then_alu");
    b.grid({1, 1, 1}).block({32, 1, 1}).atomic(MemSpace::Global, AccessPattern::broadcast(), 4, 1);
    if (alus) b.alu(Unit::SP, alus);
    return b.build();
  };
  const uint64_t atomic_only = kernel_cycles(simulate(cfg, kernel(0)));
  ASSERT_GT(atomic_only, 60u);  // a round trip to the L2 and DRAM
  const uint64_t overlapped = kernel_cycles(simulate(cfg, kernel(40)));
  EXPECT_LT(overlapped, atomic_only + 40);  // the ALU work hides under the round trip
  cfg.core.atomic_waits = true;
  EXPECT_EQ(kernel_cycles(simulate(cfg, kernel(0))), atomic_only);
  EXPECT_GE(kernel_cycles(simulate(cfg, kernel(40))), atomic_only + 40);
}

// core.ifill_feeds_one_per_fetch: eight warps, each with a scheduler of its own (so issue is no
// limit), all miss the I-cache on the kernel's first line: the first warp's miss is sent, the
// other seven merge into its MSHR. Without the switch the fill gives every waiting warp its
// instructions in the cycle after it, so all eight issue their first instruction in one cycle.
// With it (GPGPU-Sim's fetch takes one m_L1I->next_access() per fetch round) the fill serves
// one waiting warp per fetch slot, in the order they missed: one round per cycle gives first
// issues on eight consecutive cycles, two rounds two per cycle.
TEST(Fidelity, AnInstructionFillServesOneWaitingWarpPerFetchSlot) {
  GpuConfig cfg = small_gpu(1, 8);
  KernelBuilder b("alu8");
  b.grid({1, 1, 1}).block({256, 1, 1}).alu(Unit::SP, 4);
  const synth::SyntheticKernel k = b.build();
  auto first_issue = [&] {
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<uint64_t> first(8, 0);
    for (const auto& d : r.log)
      if (d.slot >= 0 && d.slot < 8 && first[d.slot] == 0) first[d.slot] = d.cycle;
    EXPECT_EQ(r.stats.core.icache_misses, 8u);  // one sent, seven merged
    return first;
  };
  const std::vector<uint64_t> all_at_once = first_issue();
  for (int w = 1; w < 8; ++w) EXPECT_EQ(all_at_once[w], all_at_once[0]) << "warp " << w;
  cfg.core.ifill_feeds_one_per_fetch = true;
  const std::vector<uint64_t> one_per_cycle = first_issue();
  EXPECT_EQ(one_per_cycle[0], all_at_once[0]);
  for (int w = 0; w < 8; ++w) EXPECT_EQ(one_per_cycle[w], all_at_once[0] + w) << "warp " << w;
  cfg.core.fetch_per_cycle = 2;
  const std::vector<uint64_t> two_per_cycle = first_issue();
  for (int w = 0; w < 8; ++w) EXPECT_EQ(two_per_cycle[w], all_at_once[0] + w / 2) << "warp " << w;
}

// core.fetch_refusal_moves_on: one I-cache MSHR that takes two requests, six warps (each with a
// scheduler of its own, so a warp issues the cycle after its fetch and the order of first issues
// is the order of fetches), the kernel's first line missing. Warp 0's fetch misses and warp 1's merges into its
// MSHR; warps 2-5 are refused, one attempt per cycle. Without the switch the round robin stays
// on the refused warp, so warp 2 tries every cycle and, once the line is back, warps 2, 3, 4, 5
// fetch in slot order. With it (GPGPU-Sim's fetch sets m_last_warp_fetched on a reservation
// failure) each refusal moves the round robin on, so the refused warps take turns, 2, 3, 4, 5,
// 2, ..., and the first of them to fetch after the fill is the one whose turn it is then: with
// the miss taking L cycles from warp 0's fetch in cycle c0, the fill is found in cycle c0 + L,
// whose attempt is the (L - 2)-th refusal slot, warp 2 + (L - 2) mod 4.
TEST(Fidelity, ARefusedFetchMovesTheRoundRobinOn) {
  KernelBuilder b("alu6");
  b.grid({1, 1, 1}).block({192, 1, 1}).alu(Unit::SP, 2);
  const synth::SyntheticKernel k = b.build();
  // The refused warps (2-5) in the order of their first issue.
  auto order = [&](uint32_t miss_latency, bool moves_on) {
    GpuConfig cfg = small_gpu(1, 6);
    cfg.icache.mshr_entries = 1;
    cfg.icache.mshr_merge = 2;
    cfg.core.icache_miss_latency = miss_latency;
    cfg.core.fetch_refusal_moves_on = moves_on;
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<int> seen;
    for (const auto& d : r.log)
      if (d.slot >= 2 && d.slot < 6 && std::find(seen.begin(), seen.end(), d.slot) == seen.end())
        seen.push_back(d.slot);
    return seen;
  };
  for (uint32_t lat : {20u, 21u, 22u, 23u}) {
    EXPECT_EQ(order(lat, false), (std::vector<int>{2, 3, 4, 5})) << "latency " << lat;
    std::vector<int> want;
    for (int i = 0; i < 4; ++i) want.push_back(2 + int((lat - 2 + i) % 4));
    EXPECT_EQ(order(lat, true), want) << "latency " << lat;
  }
}

// core.rotate_issue_priority: the schedulers of an SM share one memory issue slot per cycle
// (core.mem_issue_per_sm = 1). Four warps, two per scheduler (even slots on scheduler 0, odd on
// scheduler 1), each issue four independent loads, all ready from the same cycle. Asked in a fixed
// order, scheduler 0 takes the slot every cycle it has a load, so its eight loads go first; with
// the order rotating every cycle (GPGPU-Sim's shader_core_ctx::issue) the two schedulers take it
// in turn once both have a load ready.
TEST(Fidelity, RotatingIssuePriorityAlternatesTheSharedMemorySlot) {
  GpuConfig cfg = small_gpu(1, 2);
  cfg.icache.perfect = true;
  cfg.core.ldst_queue = 16;
  KernelBuilder b("loads");
  b.grid({1, 1, 1}).block({128, 1, 1}).load(MemSpace::Global, AccessPattern::coalesced(), 4, 4);
  const synth::SyntheticKernel k = b.build();
  // The scheduler of each of the first eight issues, and their cycles.
  auto first_issues = [&](std::vector<uint64_t>* cycles) {
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<int> sched;
    for (const auto& d : r.log)
      if (d.slot >= 0 && sched.size() < 8) {
        sched.push_back(d.sched);
        cycles->push_back(d.cycle);
        EXPECT_EQ(d.slot % 2, d.sched);
      }
    EXPECT_EQ(sched.size(), 8u);
    return sched;
  };
  std::vector<uint64_t> fixed_cycles, rotating_cycles;
  const std::vector<int> fixed = first_issues(&fixed_cycles);
  EXPECT_EQ(fixed, std::vector<int>(8, 0));
  for (int i = 1; i < 8; ++i) EXPECT_EQ(fixed_cycles[i], fixed_cycles[0] + i) << "issue " << i;
  cfg.core.rotate_issue_priority = true;
  const std::vector<int> rotating = first_issues(&rotating_cycles);
  EXPECT_EQ(rotating_cycles[0], fixed_cycles[0]);
  // Scheduler 1's warps are ready a cycle after scheduler 0's first (one warp fetches per cycle);
  // from its first load on, the slot goes to the scheduler asked first: cycle c starts at
  // scheduler c mod 2.
  const size_t first1 = size_t(std::find(rotating.begin(), rotating.end(), 1) - rotating.begin());
  ASSERT_LE(first1, 2u);
  for (size_t i = 1; i < 8; ++i) EXPECT_EQ(rotating_cycles[i], rotating_cycles[0] + i) << "issue " << i;
  for (size_t i = first1; i < 8; ++i) EXPECT_EQ(uint64_t(rotating[i]), rotating_cycles[i] % 2) << "issue " << i;
}

// core.long_op_marks_persist: one warp loads a word from global memory, then issues six
// independent instructions that read it (with the exit, eight instructions: one fetch). The
// scheduler is two-level with an active set of one and owns eight warp slots, seven of them
// empty (an empty slot counts as waiting, so each cycle demotes it and promotes the next slot of
// the pending FIFO). Without marks the uses issue on consecutive cycles once the load is back.
// With them (GPGPU-Sim's scoreboard leaves the loaded register on its long-operation list) each
// use reads a long-op register, so the warp is demoted every cycle and issues only in the cycle
// it comes back to the front: one use every eight cycles. Greedy-then-oldest does not look at
// the marks: its cycles do not change.
TEST(Fidelity, ALoadedRegisterKeepsTwoLevelDemotingItsReaders) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.core.ibuffer = 8;  // the whole kernel in one fetch (an empty buffer keeps a warp active)
  cfg.core.decode_width = 8;
  cfg.core.max_warps = 8;
  KernelBuilder b("load_then_uses");
  b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::coalesced(), 4).use_load(Unit::SP, 6);
  const synth::SyntheticKernel k = b.build();
  SchedulerParams one_active;
  one_active.set("active", "1");
  auto use_cycles = [&](const std::string& sched, const SchedulerParams& params) {
    RunResult r = simulate(cfg, k, sched, params, /*log=*/true);
    std::vector<uint64_t> cycles;
    for (const auto& d : r.log)
      if (d.slot == 0) cycles.push_back(d.cycle);
    EXPECT_EQ(cycles.size(), 8u);  // the load, six uses, the exit
    if (cycles.size() >= 7) cycles = std::vector<uint64_t>(cycles.begin() + 1, cycles.begin() + 7);
    return cycles;
  };
  const std::vector<uint64_t> unmarked = use_cycles("tl", one_active);
  ASSERT_EQ(unmarked.size(), 6u);
  for (size_t i = 1; i < 6; ++i) EXPECT_EQ(unmarked[i], unmarked[i - 1] + 1) << "use " << i;
  const uint64_t gto = kernel_cycles(simulate(cfg, k, "gto"));
  cfg.core.long_op_marks_persist = true;
  const std::vector<uint64_t> marked = use_cycles("tl", one_active);
  ASSERT_EQ(marked.size(), 6u);
  EXPECT_GE(marked[0], unmarked[0]);
  EXPECT_LT(marked[0], unmarked[0] + 8);  // at the warp's first turn once the data is back
  for (size_t i = 1; i < 6; ++i) EXPECT_EQ(marked[i], marked[i - 1] + 8) << "use " << i;
  EXPECT_EQ(kernel_cycles(simulate(cfg, k, "gto")), gto);
}

// core.mem_writeback_per_cycle: the LD/ST unit writes back one memory response per cycle. Eight
// warps load the same line: one miss and seven accesses merged into its MSHR, all answered by
// the same fill. Each warp has a scheduler of its own, so without the limit the eight uses of
// the loaded value issue in one cycle; with one write-back per cycle they issue on eight
// consecutive cycles, in the order the loads merged.
TEST(Fidelity, MemoryResponsesWriteBackOnePerCycle) {
  GpuConfig cfg = small_gpu(1, 8);
  cfg.icache.perfect = true;
  KernelBuilder b("shared_line");
  b.grid({1, 1, 1}).block({256, 1, 1}).load(MemSpace::Global, AccessPattern::broadcast(), 4, 1, true);
  const synth::SyntheticKernel k = b.build();
  // Issue cycle of each warp's second instruction (the use).
  auto use_cycles = [&] {
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    EXPECT_EQ(r.stats.core.l1d_misses, 8u);  // one miss, seven merged (pending hits)
    EXPECT_EQ(r.stats.mem.l2_reads, 1u);
    std::vector<uint64_t> use(8, 0);
    std::vector<int> seen(8, 0);
    for (const auto& d : r.log)
      if (d.slot >= 0 && d.slot < 8 && ++seen[d.slot] == 2) use[d.slot] = d.cycle;
    return use;
  };
  const std::vector<uint64_t> free_wb = use_cycles();
  for (int w = 1; w < 8; ++w) EXPECT_EQ(free_wb[w], free_wb[0]) << "warp " << w;
  cfg.core.mem_writeback_per_cycle = 1;
  const std::vector<uint64_t> one = use_cycles();
  for (int w = 0; w < 8; ++w) EXPECT_EQ(one[w], free_wb[0] + w) << "warp " << w;
  cfg.core.mem_writeback_per_cycle = 8;  // enough for all of them
  EXPECT_EQ(use_cycles(), free_wb);
}

// l2.sector_lookups: GPGPU-Sim splits a request into one request per sector at a sectored L2.
// One warp reads one whole 128-byte line (four 32-byte sectors) through a one-port L2 and no
// L1, in two kernels. The first kernel misses: the slice sends one DRAM read for the four
// sectors, as before. The second hits: its four lookups take four cycles, so the answer comes
// three cycles later. Each request counts as four L2 reads.
TEST(Fidelity, SectoredL2LooksUpEachSector) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.l1d.enabled = false;
  cfg.l2.partitions = 1;
  cfg.l2.slices_per_partition = 1;
  cfg.l2.cache.ports = 1;
  cfg.l2.cache.sector = 32;
  auto twice = [] {
    std::vector<synth::SyntheticKernel> ks;
    for (int i = 0; i < 2; ++i) {
      KernelBuilder b("line");
      b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::coalesced(), 4, 1, true);
      ks.push_back(b.build());
    }
    return ks;
  };
  RunResult whole = simulate(cfg, twice());
  ASSERT_EQ(whole.kernels.size(), 2u);
  EXPECT_EQ(whole.stats.mem.l2_reads, 2u);
  EXPECT_EQ(whole.stats.mem.l2_read_hits, 1u);
  cfg.l2.sector_lookups = true;
  RunResult sectors = simulate(cfg, twice());
  ASSERT_EQ(sectors.kernels.size(), 2u);
  EXPECT_EQ(sectors.stats.mem.l2_reads, 8u);
  EXPECT_EQ(sectors.stats.mem.l2_read_hits, 4u);
  EXPECT_EQ(sectors.stats.mem.dram_reads, whole.stats.mem.dram_reads);
  auto cycles = [](const KernelResult& k) { return k.end_cycle - k.start_cycle; };
  EXPECT_EQ(cycles(sectors.kernels[0]), cycles(whole.kernels[0]));
  EXPECT_EQ(cycles(sectors.kernels[1]), cycles(whole.kernels[1]) + 3);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// core.param_through_const_cache: GPGPU-Sim reads kernel parameters through the constant cache,
// and every kernel's parameters lie at the same addresses. Two warps load the same parameter:
// without the key both take the hit latency and nothing reaches the L2; with it (and misses
// through the L2) there is one miss, one request merged into its MSHR and one L2 read, and a
// second kernel finds the line in the constant cache.
TEST(Fidelity, KernelParametersGoThroughTheConstantCache) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.core.const_through_memory = true;
  auto reader = [] {
    KernelBuilder b("param_reader");
    b.grid({1, 1, 1}).block({64, 1, 1}).load(MemSpace::Param, AccessPattern::broadcast(), 8, 1, true);
    return b.build();
  };
  RunResult fixed = simulate(cfg, {reader()});
  EXPECT_EQ(fixed.stats.core.const_accesses, 0u);
  EXPECT_EQ(fixed.stats.mem.l2_reads, 0u);
  cfg.core.param_through_const_cache = true;
  RunResult cached = simulate(cfg, {reader()});
  EXPECT_EQ(cached.stats.core.const_accesses, 2u);
  EXPECT_EQ(cached.stats.core.const_misses, 2u);  // a miss and a pending hit
  EXPECT_EQ(cached.stats.mem.l2_reads, 1u);
  EXPECT_GT(kernel_cycles(cached), kernel_cycles(fixed));  // the miss went to the L2 and DRAM
  RunResult two = simulate(cfg, {reader(), reader()});
  ASSERT_EQ(two.kernels.size(), 2u);
  EXPECT_EQ(two.stats.mem.l2_reads, 1u);
  EXPECT_EQ(two.stats.core.const_misses, 2u);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// Stores through the L1D are counted as L1D writes (GPGPU-Sim's L1D counters include them): a
// warp storing 32 words to 32 lines makes 32 write accesses, all misses of a write-through,
// no-allocate L1; loads of those lines afterwards are not affected.
TEST(Fidelity, StoresAreCountedAsL1Writes) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.l1d.write_policy = "write_through";
  cfg.l1d.write_allocate = "no_allocate";
  KernelBuilder b("column_store");
  b.grid({1, 1, 1}).block({32, 1, 1}).store(MemSpace::Global, AccessPattern::strided(1024), 4, 1);
  RunResult r = simulate(cfg, b.build());
  EXPECT_EQ(r.stats.core.l1d_writes, 32u);
  EXPECT_EQ(r.stats.core.l1d_write_misses, 32u);
  EXPECT_EQ(r.stats.core.l1d_hits + r.stats.core.l1d_misses, 0u);
  cfg.l1d.enabled = false;
  EXPECT_EQ(simulate(cfg, b.build()).stats.core.l1d_writes, 0u);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// GPGPU-Sim counts L1D accesses and misses per sector of a sectored L1 and per line otherwise:
// a warp whose 32 lanes read 4 bytes 64 bytes apart touches 16 lines, two 32-byte sectors of
// each; a warp storing to 32 lines 1 KB apart touches one sector of each.
TEST(Fidelity, L1SectorCountsFollowTheL1Sectors) {
  auto run = [](uint32_t sector, bool store) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.l1d.line = 128;
    cfg.l1d.sector = sector;
    cfg.l1d.write_policy = "write_through";
    cfg.l1d.write_allocate = "no_allocate";
    KernelBuilder b("sectors");
    b.grid({1, 1, 1}).block({32, 1, 1});
    if (store)
      b.store(MemSpace::Global, AccessPattern::strided(1024), 4, 1);
    else
      b.load(MemSpace::Global, AccessPattern::strided(64), 4, 1, true);
    return simulate(cfg, b.build()).stats.core;
  };
  CoreStats sectored = run(32, false);
  EXPECT_EQ(sectored.l1d_hits + sectored.l1d_misses, 16u);
  EXPECT_EQ(sectored.l1d_sector_accesses, 32u);
  EXPECT_EQ(sectored.l1d_sector_misses, 32u);
  CoreStats lines = run(128, false);
  EXPECT_EQ(lines.l1d_sector_accesses, 16u);
  EXPECT_EQ(lines.l1d_sector_misses, 16u);
  CoreStats stores = run(32, true);
  EXPECT_EQ(stores.l1d_writes, 32u);
  EXPECT_EQ(stores.l1d_sector_accesses, 32u);
  EXPECT_EQ(stores.l1d_sector_misses, 32u);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// GPGPU-Sim counts an L2 read merged into a fetch already in flight as a pending hit, not a
// miss: two SMs reading the same line at once make one DRAM read, and the second SM's reads
// are pending hits.
TEST(Fidelity, L2ReadsMergedIntoAFetchAreCountedApart) {
  GpuConfig cfg = small_gpu(2, 1);
  KernelBuilder b("same_line");
  b.grid({2, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::broadcast(), 4, 1, true);
  RunResult r = simulate(cfg, b.build());
  const MemoryStats& m = r.stats.mem;
  ASSERT_EQ(m.l2_read_hits, 0u);
  EXPECT_EQ(m.dram_reads, 1u);
  EXPECT_GT(m.l2_read_pending_hits, 0u);
  EXPECT_EQ(2 * m.l2_read_pending_hits, m.l2_reads);  // the second SM's half
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// GPGPU-Sim's lazy fetch on read (write-allocate 'L' of its SM2/SM7 L2s): a warp storing every
// other 4-byte word of 8 sectors leaves each sector half written, so reading them back fetches
// them all from DRAM; when the stores cover whole sectors, or the L2 allocates written sectors as
// readable, the reads hit.
TEST(Fidelity, LazyFetchOnReadFetchesSectorsWrittenInPart) {
  auto run = [](const char* alloc, uint64_t stride) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.l1d.write_policy = "write_through";
    cfg.l1d.write_allocate = "no_allocate";
    cfg.l2.cache.line = 128;
    cfg.l2.cache.sector = 32;
    cfg.l2.cache.write_policy = "write_back";
    cfg.l2.cache.write_allocate = alloc;
    KernelBuilder b("write_then_read");
    b.grid({1, 1, 1})
        .block({32, 1, 1})
        .store(MemSpace::Global, AccessPattern::strided(stride), 4, 1)
        .load(MemSpace::Global, AccessPattern::strided(stride), 4, 1, true);
    return simulate(cfg, b.build());
  };
  RunResult lazy = run("lazy_fetch_on_read", 8);
  EXPECT_EQ(lazy.stats.mem.l2_read_hits, 0u);
  EXPECT_EQ(lazy.stats.mem.dram_reads, 2u);  // a request per line, for its 4 half-written sectors
  RunResult whole = run("lazy_fetch_on_read", 4);
  EXPECT_EQ(whole.stats.mem.dram_reads, 0u);
  EXPECT_EQ(whole.stats.mem.l2_read_hits, whole.stats.mem.l2_reads);
  RunResult eager = run("allocate", 8);
  EXPECT_EQ(eager.stats.mem.dram_reads, 0u);
  EXPECT_GT(kernel_cycles(lazy), kernel_cycles(eager));
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// icnt.slice_back_pressure: two kernels run side by side on two SMs of a GPU with two
// partitions of one L2 slice each (a DRAM channel each). The flood kernel's warp reads 32 new
// lines of slice 0 per load, all misses, which fills slice 0's two-request input queue while it
// waits for its slow DRAM; the probe kernel's warp reads one line of slice 1 again and again (L2
// hits). With global back-pressure the full queue of slice 0 holds the probe's requests back
// too: a slot frees each time a DRAM read ends (every 32 cycles), so each of the probe's loads
// (a 41-cycle round trip alone) waits for the second slot after it comes back, 64 cycles a load;
// per destination nothing holds the probe back, and it takes exactly as long as it does alone.
TEST(Fidelity, PerSliceBackPressureHoldsBackOnlyRequestsForTheFullSlice) {
  GpuConfig cfg = small_gpu(2, 1);
  cfg.l1d.enabled = false;
  cfg.l2.partitions = 2;
  cfg.l2.slices_per_partition = 1;
  cfg.l2.hash = "linear";
  cfg.l2.interleave = 256;
  cfg.icnt.input_queue = 2;
  cfg.dram.bytes_per_cycle = 1;  // a sector read holds its channel for 32 cycles
  cfg.l2.cache.latency = 18;     // a probe load's round trip (40 cycles) is not a multiple of it
  const uint64_t probe_line = (1u << 20) + 256;
  {
    MemorySystem m(cfg);
    ASSERT_EQ(m.slice_of(0), m.slice_of(512));
    ASSERT_NE(m.slice_of(0), m.slice_of(probe_line));
  }
  KernelBuilder flood("flood");
  flood.grid({1, 1, 1}).block({32, 1, 1}).loop(16, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::strided(512).every(32 * 512), 4, 1);
  });
  KernelBuilder probe("probe");
  probe.grid({1, 1, 1}).block({32, 1, 1}).loop(64, [&](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::broadcast().at(probe_line), 4, 1, true);
  });
  const synth::SyntheticKernel f = flood.build(), p = probe.build();
  auto run = [&](bool per_slice, bool with_flood) {
    GpuConfig c = cfg;
    c.icnt.slice_back_pressure = per_slice;
    Gpu gpu(c, "gto", {});
    if (with_flood) gpu.enqueue(f.source(), 0);
    gpu.enqueue(p.source(), 1);
    gpu.run_until_idle();
    const std::vector<KernelResult>& done = gpu.results();
    const KernelResult& k =
        *std::find_if(done.begin(), done.end(), [](const KernelResult& r) { return r.name == "probe"; });
    return k.end_cycle - k.start_cycle;
  };
  const uint64_t alone = run(false, false);
  EXPECT_EQ(run(true, false), alone);  // no full queue: the key changes nothing
  const uint64_t global = run(false, true), per_slice = run(true, true);
  EXPECT_GT(global, alone * 3 / 2);
  EXPECT_EQ(per_slice, alone);
}

// core.exit_at_fetch_scan: a finished warp leaves the SM (and its CTA's slot is freed once all of
// the CTA's warps have left) only when the fetch stage's round robin passes over it. One SM with
// room for one CTA and a grid of two: when the first CTA's last warp exits nothing else fetches,
// so the first search after its exit has left the pipeline passes every warp. With room for four
// CTAs and a grid of five, the first CTA's warps (slots 0 and 1) finish while the next three
// CTAs' six warps keep fetching: a search reaches slots 0 and 1 only when it wraps around after
// slot 7, so the fifth CTA starts later than that, but within a turn of the round robin.
TEST(Fidelity, AFinishedWarpLeavesWhenTheFetchSearchPassesIt) {
  // The cycle of the first issue of the CTA that takes the first CTA's slots, and the kernel's
  // cycles. CTAs 1 to resident - 1 run 40 trips of their loop, the others 2.
  auto run = [](uint32_t ctas, uint32_t resident, bool at_fetch, uint64_t* cycles) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.icache.perfect = true;
    cfg.core.max_ctas = resident;
    cfg.core.fetch_after_issue = true;
    cfg.core.exit_at_fetch_scan = at_fetch;
    KernelBuilder b("exit");
    b.grid({ctas, 1, 1}).block({64, 1, 1});
    b.loop_per_warp([=](uint32_t cta, uint32_t) { return cta > 0 && cta < resident ? 40 : 2; },
                    [](KernelBuilder& l) { l.alu(Unit::SP, 2); });
    RunResult r = simulate(cfg, b.build(), "lrr", {}, /*log=*/true);
    *cycles = kernel_cycles(r);
    // Slot 0 holds CTA 0's first warp, then the first warp of the next CTA placed (same code):
    // the second half of its issues are that CTA's.
    std::vector<uint64_t> slot0;
    for (const auto& d : r.log)
      if (d.slot == 0) slot0.push_back(d.cycle);
    return slot0.size() % 2 ? 0 : slot0[slot0.size() / 2];
  };
  // A warp is reclaimed once its exit has left the pipeline and a search passes it. Alone on the
  // SM: each CTA leaves a fixed delay after its last exit (the exit's pipeline), so the next one
  // starts that much later, and the kernel ends twice that later.
  uint64_t c_off = 0, c_on = 0;
  const uint64_t serial_off = run(2, 1, false, &c_off);
  const uint64_t serial_on = run(2, 1, true, &c_on);
  ASSERT_GT(serial_off, 0u);
  ASSERT_GT(serial_on, serial_off);
  const uint64_t lat = serial_on - serial_off;
  EXPECT_EQ(c_on, c_off + 2 * lat);
  // Beside CTAs whose warps keep fetching: later still, within a turn of the round robin.
  const uint64_t shared_off = run(5, 4, false, &c_off);
  const uint64_t shared_on = run(5, 4, true, &c_on);
  ASSERT_GT(shared_off, 0u);
  EXPECT_GT(shared_on, shared_off + lat);
  EXPECT_LE(shared_on, shared_off + lat + 8);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// l1d.write_ratio (GPGPU-Sim -gpgpu_l1_cache_write_ratio): a warp writes a whole line, reads four
// other lines through an L1 of one set of four ways, then reads the written line again. The
// written line is the least recently used when the fourth read needs a way: replaced without the
// ratio (the last read misses and goes to the L2), kept with it (one written line of four is
// 25 %, under 50 %: the last read hits). Kept, it also leaves the fourth read no way until the
// first read's fill comes back (the other three ways await fills): the read is refused meanwhile.
TEST(Fidelity, AWrittenL1LineIsKeptBelowTheWriteRatio) {
  auto run = [](uint32_t ratio) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.l1d.size = 512;
    cfg.l1d.assoc = 4;
    cfg.l1d.line = 128;
    cfg.l1d.sector = 32;
    cfg.l1d.write_policy = "write_through";
    cfg.l1d.write_allocate = "lazy_fetch_on_read";
    cfg.l1d.write_ratio = ratio;
    KernelBuilder b("write_stream_reread");
    b.grid({1, 1, 1})
        .block({32, 1, 1})
        .store(MemSpace::Global, AccessPattern::coalesced().at(0x100000), 4, 1)
        .load(MemSpace::Global, AccessPattern::coalesced().at(0x200000), 4, 4, true)
        .load(MemSpace::Global, AccessPattern::coalesced().at(0x100000), 4, 1, true);
    return simulate(cfg, b.build());
  };
  RunResult plain = run(0), kept = run(50);
  EXPECT_EQ(plain.stats.core.l1d_hits, 0u);
  EXPECT_EQ(plain.stats.core.l1d_misses, 5u);
  EXPECT_EQ(kept.stats.core.l1d_hits, 1u);
  EXPECT_EQ(kept.stats.core.l1d_misses, 4u);
  EXPECT_EQ(plain.stats.core.l1d_fails, 0u);
  EXPECT_GT(kept.stats.core.l1d_fails, 0u);
  EXPECT_EQ(run(25).stats.core.l1d_hits, 0u) << "one written line of four is not under 25 %";
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// core.ldst_queue_per_scheduler: two sub-core schedulers, each with two warps of four
// independent loads whose 32 lanes read 32 lines (32 cycles in the LD/ST unit each). Without the
// bound each scheduler issues all eight of its loads into the 16-entry LD/ST queue at once. With
// a bound of 2 a scheduler has at most two loads waiting behind the head (GPGPU-Sim's sub-core
// slots): the head's scheduler issues three, the other two, until the head leaves the unit 32
// cycles after it entered.
TEST(Fidelity, EachSchedulerHoldsAtMostItsShareOfTheLdstQueue) {
  GpuConfig cfg = small_gpu(1, 2);
  cfg.icache.perfect = true;
  cfg.core.subcore = true;
  cfg.core.mem_issue_per_sm = 2;
  cfg.core.ldst_queue = 16;
  KernelBuilder b("column_loads");
  b.grid({1, 1, 1}).block({128, 1, 1}).load(MemSpace::Global, AccessPattern::strided(1024), 4, 4);
  const synth::SyntheticKernel k = b.build();
  // Loads each scheduler issued within 30 cycles of the first.
  auto early = [&](uint32_t cap) {
    cfg.core.ldst_queue_per_scheduler = cap;
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<int> n(2, 0);
    uint64_t first = ~0ull;
    for (const auto& d : r.log)
      if (d.slot >= 0) {
        first = std::min(first, d.cycle);
        if (d.cycle < first + 30) ++n[d.sched];
      }
    return n;
  };
  const std::vector<int> free = early(0), bounded = early(2);
  EXPECT_GE(free[0], 7);
  EXPECT_GE(free[1], 7);
  EXPECT_EQ(bounded[0] + bounded[1], 5);
  EXPECT_LE(std::max(bounded[0], bounded[1]), 3);
  EXPECT_GE(std::min(bounded[0], bounded[1]), 2);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// icnt.write_data_sectors: 32 lanes store the same 4-byte word. Counted lane by lane that is 128
// bytes of data, four 40-byte flits; as GPGPU-Sim's coalescer sends it, one 32-byte chunk, one
// flit. Eight warps on one SM store to one word in turn: the slice port (one flit a cycle) takes
// their packets in 8 x 4 or 8 x 1 cycles.
TEST(Fidelity, AStoreCarriesItsSectorsNotItsLanesBytes) {
  auto run = [](bool sectors) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.icache.perfect = true;
    cfg.icnt.flit = 40;
    cfg.icnt.write_data_sectors = sectors;
    KernelBuilder b("same_word_stores");
    b.grid({1, 1, 1}).block({256, 1, 1}).store(MemSpace::Global, AccessPattern::broadcast(), 4, 1);
    return simulate(cfg, b.build());
  };
  RunResult lanes = run(false), sectors = run(true);
  EXPECT_EQ(lanes.stats.mem.icnt_flits_up, 8u * 4u);
  EXPECT_EQ(sectors.stats.mem.icnt_flits_up, 8u * 1u);
  EXPECT_LT(kernel_cycles(sectors), kernel_cycles(lanes));
}

// icnt.store_segments: half a warp (16 lanes, 4 bytes each) stores 64 bytes of a 128-byte line.
// At bytes 32-95 its sectors (1 and 2) lie in both halves of the segment, so GPGPU-Sim's Fermi
// coalescer keeps the whole 128-byte segment and its sectored L2 looks up all four sectors:
// 4 L2 writes and a 128-byte packet (four 40-byte flits with the data, as the store of a whole
// line) instead of 2 and two flits. At bytes 64-127 (one half) it narrows the segment to 64
// bytes: 2 sectors either way.
TEST(Fidelity, AStoreOverBothHalvesOfASegmentTakesTheWholeSegment) {
  auto run = [](uint64_t offset, bool segments) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.icache.perfect = true;
    cfg.icnt.flit = 40;
    cfg.icnt.write_data_sectors = true;
    cfg.icnt.store_segments = segments;
    cfg.l2.sector_lookups = true;
    KernelBuilder b("half_warp_store");
    b.grid({1, 1, 1}).block({16, 1, 1}).store(MemSpace::Global, AccessPattern::coalesced().at(offset), 4, 1);
    return simulate(cfg, b.build()).stats.mem;
  };
  EXPECT_EQ(run(32, false).l2_writes, 2u);
  EXPECT_EQ(run(32, false).icnt_flits_up, 2u);
  EXPECT_EQ(run(32, true).l2_writes, 4u);
  EXPECT_EQ(run(32, true).icnt_flits_up, 4u);
  EXPECT_EQ(run(64, true).l2_writes, 2u);
  EXPECT_EQ(run(64, true).icnt_flits_up, 2u);
}

// Write hits sector by sector at the L1 and the L2 (both sectored, lazy fetch on read, as
// TITAN V's): one warp stores 4 bytes at byte 28 of line 0, then a second kernel stores 32
// lanes at bytes 0-127. The second store finds sector 0 written and sectors 1-3 not: at each
// level one write hit and three misses, as GPGPU-Sim counts them (it was 4 misses at each).
TEST(Fidelity, AWriteHitsSectorBySector) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.l1d.sector = 32;
  cfg.l1d.write_policy = "write_through";
  cfg.l1d.write_allocate = "lazy_fetch_on_read";
  cfg.l2.cache.write_allocate = "lazy_fetch_on_read";
  cfg.l2.sector_lookups = true;
  KernelBuilder one("one_word");
  one.grid({1, 1, 1}).block({1, 1, 1}).store(MemSpace::Global, AccessPattern::coalesced().at(28), 4, 1);
  KernelBuilder row("row");
  row.grid({1, 1, 1}).block({32, 1, 1}).store(MemSpace::Global, AccessPattern::coalesced(), 4, 1);
  const RunResult r = simulate(cfg, std::vector<synth::SyntheticKernel>{one.build(), row.build()});
  EXPECT_EQ(r.stats.mem.l2_writes, 5u);
  EXPECT_EQ(r.stats.mem.l2_write_hits, 1u);
  EXPECT_EQ(r.stats.core.l1d_sector_accesses, 5u);
  EXPECT_EQ(r.stats.core.l1d_sector_misses, 4u);
}

// l2.upper_half_write_next_line: a kernel stores the upper 64 bytes of line 0 (16 lanes at byte
// 64), a second one loads them through a sectored L1. As warpsim has it, the store makes those
// two sectors valid in the L2 and the load hits on them. As GPGPU-Sim splits the store, its
// sectors are written at line 128 instead, so line 0 holds nothing and the load misses and
// reads DRAM. The store is looked up as two sector writes either way.
TEST(Fidelity, AnUpperHalfWriteLandsOnTheNextLine) {
  auto run = [](bool next_line) {
    GpuConfig cfg = small_gpu(1, 1);
    cfg.icache.perfect = true;
    cfg.icnt.store_segments = true;
    cfg.l2.sector_lookups = true;
    cfg.l2.upper_half_write_next_line = next_line;
    cfg.l1d.sector = 32;
    KernelBuilder st("upper_half_store");
    st.grid({1, 1, 1}).block({16, 1, 1}).store(MemSpace::Global, AccessPattern::coalesced().at(64), 4, 1);
    KernelBuilder ld("upper_half_load");
    ld.grid({1, 1, 1}).block({16, 1, 1}).load(MemSpace::Global, AccessPattern::coalesced().at(64), 4, 1, true);
    return simulate(cfg, std::vector<synth::SyntheticKernel>{st.build(), ld.build()});
  };
  const RunResult off = run(false), on = run(true);
  EXPECT_EQ(off.stats.mem.l2_writes, 2u);
  EXPECT_EQ(on.stats.mem.l2_writes, 2u);
  EXPECT_EQ(off.stats.mem.l2_reads, 2u);
  EXPECT_EQ(on.stats.mem.l2_reads, 2u);
  EXPECT_EQ(off.stats.mem.l2_read_hits, 2u);
  EXPECT_EQ(on.stats.mem.l2_read_hits, 0u);
  EXPECT_EQ(off.stats.mem.dram_read_atoms, 0u);
  EXPECT_GT(on.stats.mem.dram_read_atoms, 0u);
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// core.cta_dispatch_per_cluster: four SMs in two clusters of two (SM c + 2j is the j-th SM of
// cluster c), four CTAs of one warp. Off, every SM takes a CTA in the first dispatch cycle. On,
// each cluster takes one CTA per cycle, its SMs in turn (GPGPU-Sim's issue_block2core): CTAs 0
// and 1 go to SMs 0 and 1, the clusters' first SMs, and CTAs 2 and 3 a cycle later to SMs 2
// and 3, which issue their first instruction a cycle later.
TEST(Fidelity, AClusterTakesOneCtaPerCycleItsSmsInTurn) {
  GpuConfig cfg = small_gpu(4, 1);
  cfg.icache.perfect = true;
  cfg.core.sms_per_cluster = 2;
  KernelBuilder b("alu");
  b.grid({4, 1, 1}).block({32, 1, 1}).alu(Unit::SP, 8);
  const synth::SyntheticKernel k = b.build();
  auto first_issue = [&] {
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<uint64_t> first(4, ~0ull);
    for (const auto& d : r.log)
      if (d.slot >= 0) first.at(d.sm) = std::min(first.at(d.sm), d.cycle);
    return first;
  };
  const std::vector<uint64_t> off = first_issue();
  ASSERT_NE(off[0], ~0ull);
  for (int s = 1; s < 4; ++s) EXPECT_EQ(off[s], off[0]) << "SM " << s;
  cfg.core.cta_dispatch_per_cluster = true;
  const std::vector<uint64_t> on = first_issue();
  EXPECT_EQ(on[0], off[0]);
  EXPECT_EQ(on[1], off[0]);
  EXPECT_EQ(on[2], off[0] + 1);
  EXPECT_EQ(on[3], off[0] + 1);
}

// oc.mem_holds_collectors: one sub-core scheduler with two general collector units and room
// for four memory instructions of its own (GPGPU-Sim's ID_OC_MEM slot, two collector units and
// OC_EX_MEM slot). One warp issues four independent loads whose 32 lanes each read a different
// line, so the LD/ST unit spends at least a cycle per line (32) on each, then an independent
// ALU instruction. Without holding, the ALU instruction takes a free collector unit a few cycles
// after the loads issue. With it, the second load waits in the collector-to-unit slot and the
// third and fourth hold both collector units until the unit takes the second load, once all
// 32 lines of the first have entered the L1: the ALU instruction issues no earlier than 32
// cycles after the first load.
TEST(Fidelity, WaitingMemoryInstructionsHoldTheirCollectorUnits) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.core.subcore = true;
  cfg.core.mem_issue_per_sm = 1;
  cfg.core.ldst_queue = 5;
  cfg.core.ldst_queue_per_scheduler = 4;
  cfg.oc.enabled = true;
  cfg.oc.queued_dispatch = true;
  cfg.oc.collectors = 2;
  cfg.oc.collectors_sp = cfg.oc.collectors_sfu = cfg.oc.collectors_mem = 0;
  KernelBuilder b("loads_then_alu");
  b.grid({1, 1, 1}).block({32, 1, 1}).load(MemSpace::Global, AccessPattern::strided(1024), 4, 4).alu(Unit::SP, 1);
  const synth::SyntheticKernel k = b.build();
  // Issue cycles of the four loads and of the ALU instruction.
  auto issues = [&] {
    RunResult r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<uint64_t> c;
    for (const auto& d : r.log)
      if (d.slot >= 0 && c.size() < 5) c.push_back(d.cycle);
    EXPECT_EQ(c.size(), 5u);
    c.resize(5, 0);
    return c;
  };
  const std::vector<uint64_t> free_units = issues();
  EXPECT_LE(free_units[4], free_units[3] + 4);
  cfg.oc.mem_holds_collectors = true;
  const std::vector<uint64_t> held = issues();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(held[i], free_units[i]) << "load " << i;
  EXPECT_GE(held[4], held[0] + 32);
}

// core.first_fetch_warp: one CTA of four warps on one scheduler, every fetch a hit. The fetch
// round robin hands each warp its first instructions in the order it searches them, and the
// warps issue in that order: from warp 0 by default, from warp 1 (so warp 0 last) with
// GPGPU-Sim's start (m_last_warp_fetched = 0).
TEST(Fidelity, TheFirstFetchSearchStartsAtItsWarp) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  KernelBuilder b("alu");
  b.grid({1, 1, 1}).block({128, 1, 1}).alu(Unit::SP, 4);
  const synth::SyntheticKernel k = b.build();
  auto first_issue_order = [&] {
    RunResult r = simulate(cfg, k, "lrr", {}, /*log=*/true);
    std::vector<int> order;
    for (const auto& d : r.log)
      if (d.slot >= 0 && std::find(order.begin(), order.end(), d.slot) == order.end()) order.push_back(d.slot);
    return order;
  };
  EXPECT_EQ(first_issue_order(), (std::vector<int>{0, 1, 2, 3}));
  cfg.core.first_fetch_warp = 1;
  EXPECT_EQ(first_issue_order(), (std::vector<int>{1, 2, 3, 0}));
  cfg.core.first_fetch_warp = 64;
  EXPECT_THROW(validate(cfg), Error);
}

}  // namespace
}  // namespace warpsim::test

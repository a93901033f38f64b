#include "synth/synthetic_kernel.h"

#include <gtest/gtest.h>

#include <set>

#include "core/error.h"

namespace warpsim::synth {
namespace {

CtaStreams gen(const SyntheticKernel& k, uint32_t cta = 0) {
  CtaStreams t;
  k.generate_cta(cta, t);
  return t;
}

uint64_t addr(const WarpStream& s, const WarpInst& i, uint32_t lane) { return s.addrs[i.addr_index + lane]; }

// Register ids of the default plan: r0 address, r1 input, r2..r17 ALU pool, r18..r25 load pool.
constexpr RegId kAlu0 = 2;
constexpr RegId kLoad0 = 18;

TEST(SyntheticKernel, DependentChainReadsPreviousDestination) {
  KernelBuilder b("chain");
  b.grid({1}).block({32}).alu(Unit::SP, 5, true);
  const CtaStreams t = gen(b.build());
  ASSERT_EQ(t.warps.size(), 1u);
  const auto& in = t.warps[0].insts;
  ASSERT_EQ(in.size(), 6u);  // 5 ALU + EXIT
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(in[i].op, OpClass::ALU);
    EXPECT_EQ(in[i].unit, Unit::SP);
    EXPECT_EQ(in[i].pc, uint32_t(8 * i));
    EXPECT_EQ(in[i].active_mask, 0xffffffffu);
    EXPECT_EQ(in[i].dst[0], RegId(kAlu0 + i));
    EXPECT_EQ(in[i].src[0], i == 0 ? RegisterPlan::kDataReg : in[i - 1].dst[0]);
  }
  EXPECT_EQ(in[5].op, OpClass::EXIT);
  EXPECT_EQ(in[5].pc, 40u);
}

TEST(SyntheticKernel, IndependentOpsRotateOverRegisterPool) {
  KernelBuilder b("indep");
  b.registers(4, 2).alu(Unit::INT, 9, false, kLatMul);
  const CtaStreams t = gen(b.build());
  const auto& in = t.warps[0].insts;
  ASSERT_EQ(in.size(), 10u);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(in[i].unit, Unit::INT);
    EXPECT_EQ(in[i].latency_class, kLatMul);
    EXPECT_EQ(in[i].dst[0], RegId(2 + i % 4));
    EXPECT_EQ(in[i].src[0], RegisterPlan::kDataReg);
  }
}

TEST(SyntheticKernel, PartialLastWarpMask) {
  KernelBuilder b("partial");
  b.block({40}).alu(Unit::SP, 1);
  const CtaStreams t = gen(b.build());
  ASSERT_EQ(t.warps.size(), 2u);
  EXPECT_EQ(t.warps[0].insts[0].active_mask, 0xffffffffu);
  EXPECT_EQ(t.warps[1].insts[0].active_mask, 0xffu);
  EXPECT_EQ(t.warps[1].insts[1].active_mask, 0xffu);  // EXIT
  EXPECT_EQ(t.warps[1].insts[0].flags & kFlagDiverged, 0);
}

TEST(SyntheticKernel, CoalescedAddresses) {
  KernelBuilder b("coal");
  b.grid({2}).block({64}).load(MemSpace::Global, AccessPattern::coalesced().at(0x1000), 4, 2);
  const CtaStreams t = gen(b.build(), 1);
  const WarpStream& w = t.warps[1];
  ASSERT_EQ(w.insts.size(), 3u);
  const WarpInst& l0 = w.insts[0];
  const WarpInst& l1 = w.insts[1];
  EXPECT_EQ(l0.op, OpClass::LOAD);
  EXPECT_EQ(l0.unit, Unit::MEM);
  EXPECT_EQ(l0.space, MemSpace::Global);
  EXPECT_EQ(l0.width, 4);
  EXPECT_EQ(l0.dst[0], kLoad0);
  EXPECT_EQ(l1.dst[0], kLoad0 + 1);
  EXPECT_EQ(l0.src[0], RegisterPlan::kAddrReg);
  // CTA 1, warp 1, lane 3: global thread 64 + 32 + 3 = 99.
  EXPECT_EQ(addr(w, l0, 3), 0x1000u + 99 * 4);
  // Next iteration moves by the whole grid: 128 threads * 4 bytes.
  EXPECT_EQ(addr(w, l1, 3), 0x1000u + 99 * 4 + 512);
  EXPECT_EQ(addr(w, l0, 0) + 124, addr(w, l0, 31));
}

TEST(SyntheticKernel, StridedAddressesWrapInFootprint) {
  KernelBuilder b("strided");
  b.loop(3, [](KernelBuilder& k) { k.load(MemSpace::Global, AccessPattern::strided(64).wrap(4096), 4); });
  const CtaStreams t = gen(b.build());
  const WarpStream& w = t.warps[0];
  ASSERT_EQ(w.insts.size(), 7u);  // 3 * (ld + bra) + exit
  const WarpInst* loads[3] = {&w.insts[0], &w.insts[2], &w.insts[4]};
  for (uint32_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(addr(w, *loads[0], lane), lane * 64);
    EXPECT_EQ(addr(w, *loads[1], lane), 2048 + lane * 64);  // step = 32 threads * 64 bytes
    EXPECT_EQ(addr(w, *loads[2], lane), lane * 64);         // 4096 wraps to 0
  }
  EXPECT_EQ(loads[0]->pc, loads[2]->pc);
}

TEST(SyntheticKernel, RandomIsDeterministicAlignedAndInFootprint) {
  auto make = [](uint64_t seed) {
    KernelBuilder b("rnd");
    b.grid({4}).block({64}).load(MemSpace::Global, AccessPattern::random(1 << 20, seed).at(1 << 24), 8, 4);
    return b.build();
  };
  const CtaStreams a = gen(make(7), 2), a2 = gen(make(7), 2), c = gen(make(8), 2);
  EXPECT_EQ(a.warps[1].addrs, a2.warps[1].addrs);
  EXPECT_NE(a.warps[1].addrs, c.warps[1].addrs);
  std::set<uint64_t> distinct;
  for (uint64_t x : a.warps[1].addrs) {
    EXPECT_GE(x, uint64_t(1) << 24);
    EXPECT_LT(x, (uint64_t(1) << 24) + (1 << 20));
    EXPECT_EQ(x % 8, 0u);
    distinct.insert(x);
  }
  EXPECT_GT(distinct.size(), 100u);  // 128 draws from 131072 slots
  // Different CTAs and warps draw differently.
  EXPECT_NE(a.warps[0].addrs, a.warps[1].addrs);
  EXPECT_NE(gen(make(7), 1).warps[1].addrs, a.warps[1].addrs);
}

TEST(SyntheticKernel, BroadcastAndBankConflict) {
  KernelBuilder b("bc");
  b.block({32})
      .load(MemSpace::Const, AccessPattern::broadcast().at(0x40).every(16), 4, 2)
      .load(MemSpace::Shared, AccessPattern::bank_conflict(4), 4);
  const CtaStreams t = gen(b.build());
  const WarpStream& w = t.warps[0];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(addr(w, w.insts[0], lane), 0x40u);
    EXPECT_EQ(addr(w, w.insts[1], lane), 0x50u);
    EXPECT_EQ(addr(w, w.insts[2], lane), lane * 16);  // 4-way: banks 0,4,..,28 each hit by 4 lanes
  }
  EXPECT_EQ(w.insts[2].space, MemSpace::Shared);
}

TEST(SyntheticKernel, PerWarpFootprintRegions) {
  KernelBuilder b("pw");
  b.grid({2}).block({64}).loop(
      3, [](KernelBuilder& k) { k.load(MemSpace::Global, AccessPattern::per_warp(256).at(0x10000), 4); });
  const CtaStreams t = gen(b.build(), 1);
  const WarpStream& w = t.warps[1];  // global warp 3: region 0x10000 + 3 * 256
  const uint64_t region = 0x10000 + 3 * 256;
  EXPECT_EQ(addr(w, w.insts[0], 5), region + 20);
  EXPECT_EQ(addr(w, w.insts[2], 5), region + 128 + 20);  // step = 32 lanes * 4 bytes
  EXPECT_EQ(addr(w, w.insts[4], 5), region + 20);        // 256 wraps
}

TEST(SyntheticKernel, PerCtaInterleavesWarps) {
  KernelBuilder b("pc");
  b.grid({2}).block({64}).loop(5, [](KernelBuilder& k) { k.load(MemSpace::Global, AccessPattern::per_cta(1024), 4); });
  const CtaStreams t = gen(b.build(), 1);
  const WarpStream& w0 = t.warps[0];
  const WarpStream& w1 = t.warps[1];
  // step = 2 warps * 32 lanes * 4 bytes = 256
  EXPECT_EQ(addr(w0, w0.insts[0], 0), 1024u);
  EXPECT_EQ(addr(w1, w1.insts[0], 0), 1024u + 128);
  EXPECT_EQ(addr(w1, w1.insts[6], 0), 1024u + 128 + 768);  // iteration 3
  EXPECT_EQ(addr(w1, w1.insts[8], 0), 1024u + 128);        // iteration 4 wraps
}

TEST(SyntheticKernel, LoadUseAndStoreData) {
  KernelBuilder b("use");
  b.load(MemSpace::Global, {}, 4, 2, true)
      .store(MemSpace::Global, {}, 4, 1, true)
      .store(MemSpace::Global, {}, 4, 1, false);
  const CtaStreams t = gen(b.build());
  const auto& in = t.warps[0].insts;
  ASSERT_EQ(in.size(), 7u);
  EXPECT_EQ(in[0].dst[0], kLoad0);
  EXPECT_EQ(in[1].dst[0], kLoad0 + 1);
  EXPECT_EQ(in[2].op, OpClass::ALU);
  EXPECT_EQ(in[2].src[0], kLoad0);
  EXPECT_EQ(in[3].src[0], kLoad0 + 1);
  EXPECT_EQ(in[2].pc, 16u);
  EXPECT_EQ(in[4].op, OpClass::STORE);
  EXPECT_EQ(in[4].dst[0], kNoReg);
  EXPECT_EQ(in[4].src[1], in[3].dst[0]);  // dependent store: data is the last value
  EXPECT_EQ(in[5].src[1], RegisterPlan::kDataReg);
  EXPECT_EQ(in[4].pc, 32u);
  EXPECT_EQ(in[6].op, OpClass::EXIT);
}

TEST(SyntheticKernel, DelayedUseReadsTheLastLoad) {
  KernelBuilder b("delayed");
  b.load(MemSpace::Global, {}, 4, 2).alu(Unit::SP, 2).use_load(Unit::SP, 2).alu(Unit::SP, 1, true);
  const CtaStreams t = gen(b.build());
  const auto& in = t.warps[0].insts;
  ASSERT_EQ(in.size(), 8u);
  EXPECT_EQ(in[2].src[0], RegisterPlan::kDataReg);  // independent work
  EXPECT_EQ(in[4].src[0], kLoad0 + 1);              // both uses read the second load
  EXPECT_EQ(in[5].src[0], kLoad0 + 1);
  EXPECT_EQ(in[5].dst[0], kAlu0 + 3);
  EXPECT_EQ(in[6].src[0], in[5].dst[0]);  // a dependent op chains onto the use
}

TEST(SyntheticKernel, LoopEmitsBackBranches) {
  KernelBuilder b("loop");
  b.loop(3, [](KernelBuilder& k) { k.alu(Unit::SP, 2); }).barrier();
  const SyntheticKernel k = b.build();
  EXPECT_EQ(k.num_pcs, 5u);
  const CtaStreams t = gen(k);
  const auto& in = t.warps[0].insts;
  ASSERT_EQ(in.size(), 11u);
  for (int it = 0; it < 3; ++it) {
    EXPECT_EQ(in[3 * it].pc, 0u);
    EXPECT_EQ(in[3 * it + 1].pc, 8u);
    EXPECT_EQ(in[3 * it + 2].op, OpClass::BRANCH);
    EXPECT_EQ(in[3 * it + 2].unit, Unit::BRANCH);
    EXPECT_EQ(in[3 * it + 2].pc, 16u);
  }
  EXPECT_EQ(in[9].op, OpClass::BARRIER);
  EXPECT_EQ(in[9].pc, 24u);
  EXPECT_EQ(in[10].pc, 32u);
}

TEST(SyntheticKernel, PerWarpTripCountsWithGuard) {
  KernelBuilder b("imbalance");
  b.block({96}).loop_per_warp([](uint32_t, uint32_t warp) { return warp; },
                              [](KernelBuilder& k) { k.alu(Unit::SP, 1); });
  const CtaStreams t = gen(b.build());
  ASSERT_EQ(t.warps.size(), 3u);
  // Layout: guard 0, alu 8, back branch 16, exit 24.
  const auto& w0 = t.warps[0].insts;
  ASSERT_EQ(w0.size(), 2u);
  EXPECT_EQ(w0[0].op, OpClass::BRANCH);
  EXPECT_EQ(w0[0].pc, 0u);
  EXPECT_EQ(w0[1].pc, 24u);
  const auto& w2 = t.warps[2].insts;
  ASSERT_EQ(w2.size(), 6u);
  const uint32_t pcs[] = {0, 8, 16, 8, 16, 24};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(w2[i].pc, pcs[i]);
}

TEST(SyntheticKernel, DivergeThenElse) {
  KernelBuilder b("div");
  b.diverge(
      lanes_mod(2), [](KernelBuilder& k) { k.alu(Unit::SP, 1); },
      [](KernelBuilder& k) { k.load(MemSpace::Global, {}, 4); });
  const CtaStreams t = gen(b.build());
  const auto& w = t.warps[0];
  const auto& in = w.insts;
  ASSERT_EQ(in.size(), 5u);
  EXPECT_EQ(in[0].op, OpClass::BRANCH);
  EXPECT_EQ(in[0].active_mask, 0xffffffffu);
  EXPECT_EQ(in[0].flags & kFlagDiverged, 0);
  EXPECT_EQ(in[1].active_mask, 0x55555555u);
  EXPECT_NE(in[1].flags & kFlagDiverged, 0);
  EXPECT_EQ(in[2].op, OpClass::BRANCH);
  EXPECT_EQ(in[2].pc, 16u);
  EXPECT_EQ(in[2].active_mask, 0x55555555u);
  EXPECT_EQ(in[3].active_mask, 0xaaaaaaaau);
  EXPECT_EQ(in[3].pc, 24u);
  EXPECT_EQ(addr(w, in[3], 0), 0u);  // inactive lane
  EXPECT_EQ(addr(w, in[3], 1), 4u);
  EXPECT_EQ(in[4].op, OpClass::EXIT);
  EXPECT_EQ(in[4].active_mask, 0xffffffffu);
  EXPECT_EQ(in[4].flags & kFlagDiverged, 0);
}

TEST(SyntheticKernel, NestedAndDegenerateDivergence) {
  KernelBuilder b("nest");
  b.diverge(half_lanes(),
            [](KernelBuilder& k) { k.diverge(lanes_mod(2), [](KernelBuilder& k2) { k2.alu(Unit::SP, 1); }); })
      .diverge(fixed_mask(0xffffffffu), [](KernelBuilder& k) { k.alu(Unit::SFU, 1); })
      .diverge(fixed_mask(0), [](KernelBuilder& k) { k.alu(Unit::DP, 1); });
  const CtaStreams t = gen(b.build());
  const auto& in = t.warps[0].insts;
  ASSERT_EQ(in.size(), 7u);  // bra bra alu | bra alu | bra | exit
  EXPECT_EQ(in[1].active_mask, 0xffffu);
  EXPECT_EQ(in[2].active_mask, 0x5555u);
  EXPECT_EQ(in[4].unit, Unit::SFU);
  EXPECT_EQ(in[4].flags & kFlagDiverged, 0);  // every lane takes it: not diverged
  EXPECT_EQ(in[5].op, OpClass::BRANCH);
  EXPECT_EQ(in[6].op, OpClass::EXIT);
}

TEST(SyntheticKernel, IterationCountersArePerWarpAndPerStatement) {
  KernelBuilder b("iters");
  b.block({64}).loop(2, [](KernelBuilder& k) {
    k.load(MemSpace::Global, AccessPattern::broadcast().every(4), 4)
        .load(MemSpace::Global, AccessPattern::broadcast().at(1000).every(4), 4);
  });
  const CtaStreams t = gen(b.build());
  for (const WarpStream& w : t.warps) {
    EXPECT_EQ(addr(w, w.insts[0], 0), 0u);
    EXPECT_EQ(addr(w, w.insts[1], 0), 1000u);
    EXPECT_EQ(addr(w, w.insts[3], 0), 4u);
    EXPECT_EQ(addr(w, w.insts[4], 0), 1004u);
  }
}

TEST(SyntheticKernel, BadArgumentsThrow) {
  KernelBuilder b("bad");
  EXPECT_THROW(b.alu(Unit::MEM, 1), Error);
  EXPECT_THROW(b.alu(Unit::SP, 0), Error);
  EXPECT_THROW(b.load(MemSpace::Global, {}, 3), Error);
  EXPECT_THROW(b.load(MemSpace::None, {}, 4), Error);
  EXPECT_THROW(b.store(MemSpace::Const, {}, 4), Error);
  EXPECT_THROW(b.atomic(MemSpace::Local, {}, 4), Error);
  EXPECT_THROW(b.load(MemSpace::Global, AccessPattern::random(0), 4), Error);
  EXPECT_THROW(b.load(MemSpace::Global, AccessPattern::per_warp(2), 4), Error);
  EXPECT_THROW(b.load(MemSpace::Global, AccessPattern::strided(0), 4), Error);
  EXPECT_THROW(b.load(MemSpace::Shared, AccessPattern::bank_conflict(33), 4), Error);
  EXPECT_THROW(b.loop(0, {}), Error);
  EXPECT_THROW(b.end(), Error);
  EXPECT_THROW(b.begin_else(), Error);
  EXPECT_THROW(b.block({2048}), Error);
  EXPECT_THROW(b.grid({0}), Error);
  b.begin_diverge(half_lanes());
  EXPECT_THROW(b.barrier(), Error);
  EXPECT_THROW(b.build(), Error);  // unclosed block
  b.begin_else();
  EXPECT_THROW(b.begin_else(), Error);
  b.end();
  EXPECT_NO_THROW(b.build());
}

TEST(SyntheticKernel, MismatchedBarriersAndRunawayLoopsThrow) {
  KernelBuilder b("barriers");
  b.block({64}).loop_per_warp([](uint32_t, uint32_t w) { return w + 1; }, [](KernelBuilder& k) { k.barrier(); });
  CtaStreams t;
  EXPECT_THROW(b.build().generate_cta(0, t), Error);

  KernelBuilder r("runaway");
  r.loop(1u << 20, [](KernelBuilder& k) { k.loop(1u << 20, [](KernelBuilder& k2) { k2.alu(Unit::SP, 1); }); });
  EXPECT_THROW(r.build().generate_cta(0, t), Error);
  EXPECT_THROW(r.build().generate_cta(1, t), Error);  // out of range
}

TEST(SyntheticKernel, SourceProducesTheSameStreams) {
  KernelBuilder b("src");
  b.grid({3}).block({64}).regs_per_thread(20).shared_bytes(1024).load(MemSpace::Global, {}, 4, 1, true);
  const SyntheticKernel k = b.build();
  auto src = k.source();
  EXPECT_EQ(src->info().name, "src");
  EXPECT_EQ(src->info().num_ctas(), 3u);
  EXPECT_EQ(src->info().regs_per_thread, 20u);
  EXPECT_EQ(src->info().shared_bytes_per_cta, 1024u);
  EXPECT_EQ(src->info().inst_bytes, 8u);
  CtaStreams a;
  src->produce_cta(2, 0, a);
  const CtaStreams e = gen(k, 2);
  EXPECT_EQ(a.cta_id, 2u);
  ASSERT_EQ(a.warps.size(), e.warps.size());
  for (size_t w = 0; w < a.warps.size(); ++w) EXPECT_EQ(a.warps[w].addrs, e.warps[w].addrs);
  // Reusing the trace for a smaller CTA keeps nothing stale.
  src->produce_cta(0, 0, a);
  EXPECT_EQ(a.warps[0].insts.size(), 3u);
  EXPECT_NE(disassemble(a.warps[0]).find("ld.global.b32"), std::string::npos);
}

}  // namespace
}  // namespace warpsim::synth

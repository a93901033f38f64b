// The WarpInst streams handed to the timing model.
#include <gtest/gtest.h>

#include "harness.h"

namespace warpsim::test {
namespace {

struct Traced {
  SnippetRun r;
  std::vector<WarpStream> warps;
  explicit Traced(const std::string& body, uint32_t threads = 32, const std::string& extra = "") {
    r.target.set_observer([&](const KernelInfo&, const CtaStreams& t) {
      for (const auto& w : t.warps) warps.push_back(w);
    });
    r.run(body, threads, extra);
  }
  const WarpInst* find(const WarpStream& w, OpClass op, Unit u) const {
    for (const auto& i : w.insts)
      if (i.op == op && i.unit == u) return &i;
    return nullptr;
  }
};

TEST(Trace, PcsUnitsAndClasses) {
  Traced t(
      "mov.f32 %f2, 0f3F800000; sin.approx.f32 %f1, %f2; div.rn.f32 %f3, %f1, %f2; mul.lo.s32 %r1, %r99, 3;"
      "mov.f64 %fd2, 0d3FF0000000000000; add.f64 %fd1, %fd2, %fd2; bar.sync 1; membar.gl;"
      "st.global.u32 [%rd99], %r1;");
  ASSERT_EQ(t.warps.size(), 1u);
  const auto& in = t.warps[0].insts;
  // wrapper prologue: ld.param, mov, mul.wide, add, then the body
  ASSERT_GE(in.size(), 14u);
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(in[i].pc, i * 8) << i;  // straight-line code
  EXPECT_EQ(in[0].op, OpClass::LOAD);
  EXPECT_EQ(in[0].space, MemSpace::Param);
  EXPECT_EQ(in[0].unit, Unit::MEM);
  EXPECT_EQ(in[0].width, 8);
  EXPECT_NE(in[0].addr_index, kNoAddr);
  EXPECT_EQ(in[5].unit, Unit::SFU);
  EXPECT_EQ(in[5].latency_class, kLatTrans);
  EXPECT_EQ(in[6].latency_class, kLatDiv);
  EXPECT_EQ(in[6].unit, Unit::SFU);         // GPGPU-Sim: div on the SFU ...
  EXPECT_EQ(in[6].latency_unit, Unit::SP);  // ... with the f32 DIV latency
  EXPECT_EQ(in[7].latency_class, kLatMul);
  EXPECT_EQ(in[7].unit, Unit::INT);
  EXPECT_EQ(in[9].unit, Unit::DP);
  EXPECT_EQ(in[10].op, OpClass::BARRIER);
  EXPECT_EQ(in[10].barrier_id, 1);
  EXPECT_EQ(in[11].op, OpClass::MEMBAR);
  EXPECT_EQ(in[12].op, OpClass::STORE);
  EXPECT_EQ(in[12].space, MemSpace::Global);
  EXPECT_EQ(in.back().op, OpClass::EXIT);
  EXPECT_EQ(in.back().active_mask, 0xffffffffu);
  // per-lane addresses: 128-byte slots
  const uint64_t* a = t.warps[0].addrs.data() + in[12].addr_index;
  for (int l = 1; l < 32; ++l) EXPECT_EQ(a[l] - a[0], uint64_t(l) * 128);
}

// Units and latency classes follow GPGPU-Sim's classification of PTX (docs/timing-model.md,
// "Instruction classes").
TEST(Trace, InstructionClassesFollowGpgpuSim) {
  Traced t(
      "add.s32 %r1, %r99, 3; add.f32 %f1, %f40, %f40; add.f64 %fd1, %fd40, %fd40; min.s32 %r2, %r1, 7;"
      "fma.rn.f32 %f2, %f1, %f1, %f1; mad.lo.s32 %r3, %r1, %r1, %r2; mov.u32 %r4, %r3;"
      "setp.lt.s32 %p1, %r4, 9; and.b32 %r5, %r4, 255; cvt.rn.f32.s32 %f3, %r5; div.s32 %r6, %r5, 3;"
      "div.rn.f64 %fd2, %fd1, %fd1; rcp.rn.f32 %f4, %f3; abs.f32 %f5, %f4; @%p1 bra DONE; DONE:"
      "st.global.f32 [%rd99], %f5;");
  const auto& in = t.warps[0].insts;
  size_t b = 4;  // after the wrapper prologue
  struct Want {
    Unit unit;
    uint8_t cls;
    Unit latency_unit;
  };
  const Want want[] = {{Unit::INT, kLatDefault, Unit::kCount}, {Unit::SP, kLatDefault, Unit::kCount},
                       {Unit::DP, kLatDefault, Unit::kCount},  {Unit::INT, kLatMax, Unit::kCount},
                       {Unit::SP, kLatMad, Unit::kCount},      {Unit::INT, kLatMad, Unit::kCount},
                       {Unit::INT, kLatAlu, Unit::kCount},     {Unit::INT, kLatAlu, Unit::kCount},
                       {Unit::INT, kLatAlu, Unit::kCount},     {Unit::INT, kLatAlu, Unit::kCount},
                       {Unit::SFU, kLatDiv, Unit::INT},        {Unit::SFU, kLatDiv, Unit::DP},
                       {Unit::SFU, kLatTrans, Unit::kCount},   {Unit::INT, kLatAlu, Unit::kCount},
                       {Unit::BRANCH, kLatAlu, Unit::kCount}};
  ASSERT_GE(in.size(), b + std::size(want));
  for (size_t i = 0; i < std::size(want); ++i) {
    EXPECT_EQ(in[b + i].unit, want[i].unit) << i;
    EXPECT_EQ(int(in[b + i].latency_class), int(want[i].cls)) << i;
    EXPECT_EQ(in[b + i].latency_unit, want[i].latency_unit) << i;
  }
  EXPECT_EQ(in[b + 14].op, OpClass::BRANCH);
}

TEST(Trace, RegistersForTheScoreboard) {
  Traced t("add.s32 %r1, %r2, %r3; add.s32 %r4, %r1, 7; st.global.u32 [%rd99], %r4;");
  const auto& in = t.warps[0].insts;
  const WarpInst& a = in[4];
  const WarpInst& b = in[5];
  ASSERT_NE(a.dst[0], kNoReg);
  EXPECT_NE(a.src[0], kNoReg);
  EXPECT_NE(a.src[1], kNoReg);
  EXPECT_EQ(b.src[0], a.dst[0]);  // RAW dependence visible
  EXPECT_EQ(b.src[1], kNoReg);    // immediates are not registers
  const WarpInst& st = in[6];
  EXPECT_EQ(st.dst[0], kNoReg);
  EXPECT_TRUE(st.src[0] == b.dst[0] || st.src[1] == b.dst[0]);
}

TEST(Trace, DivergenceMasksAndTakenBranches) {
  Traced t(
      "and.b32 %r2, %r99, 1; setp.eq.s32 %p1, %r2, 0; @%p1 bra EVEN; add.s32 %r1, %r1, 1; bra.uni JOIN;"
      "EVEN: add.s32 %r1, %r1, 2; JOIN: st.global.u32 [%rd99], %r1;");
  const auto& in = t.warps[0].insts;
  int diverged = 0;
  bool saw_taken = false;
  for (size_t i = 0; i + 1 < in.size(); ++i) {
    if (in[i].flags & kFlagDiverged) {
      ++diverged;
      EXPECT_TRUE(in[i].active_mask == 0x55555555u || in[i].active_mask == 0xAAAAAAAAu) << i;
    }
    if (in[i].op == OpClass::BRANCH && in[i + 1].pc != in[i].pc + 8) saw_taken = true;
  }
  EXPECT_EQ(diverged, 3);  // add (odd), bra.uni (odd), add (even)
  EXPECT_TRUE(saw_taken);
  // after reconvergence the store runs with the full mask
  const WarpInst& st = in[in.size() - 2];
  EXPECT_EQ(st.op, OpClass::STORE);
  EXPECT_EQ(st.active_mask, 0xffffffffu);
  EXPECT_EQ(st.flags & kFlagDiverged, 0);
}

TEST(Trace, PartialWarpAndPredicatedOff) {
  Traced t("setp.eq.s32 %p1, 1, 0; @%p1 st.global.u32 [%rd99], 1;", 40);
  ASSERT_EQ(t.warps.size(), 2u);
  EXPECT_EQ(t.warps[1].insts[0].active_mask, 0xffu);
  const auto& in = t.warps[0].insts;
  EXPECT_EQ(in[5].op, OpClass::STORE);
  EXPECT_EQ(in[5].active_mask, 0u);  // issued, no lane executes
  EXPECT_EQ(in.back().op, OpClass::EXIT);
}

TEST(Trace, BranchLanesWhoseGuardFailsAreNotActive) {
  // Odd lanes take the branch, even lanes fall through: the branch is issued with the odd lanes
  // active, as GPGPU-Sim leaves lanes whose guard fails out of an instruction's active mask
  // (and of its count of thread instructions). A guarded branch no lane takes has none.
  Traced t(
      "and.b32 %r2, %r99, 1; setp.eq.s32 %p1, %r2, 1; @%p1 bra ODD; add.s32 %r1, %r1, 1;"
      "ODD: setp.eq.s32 %p2, 1, 0; @%p2 bra END; st.global.u32 [%rd99], %r1; END: ret;");
  const auto& in = t.warps[0].insts;
  std::vector<uint32_t> branch_masks;
  for (const auto& i : in)
    if (i.op == OpClass::BRANCH) branch_masks.push_back(i.active_mask);
  ASSERT_EQ(branch_masks.size(), 2u);
  EXPECT_EQ(branch_masks[0], 0xAAAAAAAAu);
  EXPECT_EQ(branch_masks[1], 0u);
  uint64_t lanes = 0;
  for (const auto& i : in) lanes += uint64_t(__builtin_popcount(i.active_mask));
  EXPECT_EQ(t.r.target.results().back().thread_insts, lanes);
}

}  // namespace
}  // namespace warpsim::test

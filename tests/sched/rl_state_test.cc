// RLWS state attributes (sched/rl_state.h) on a fake SM: the readings of RLMI and of the ratio
// attributes that docs/rlws.md lists as design choices, and how RLWS learns which memory
// instructions are long-latency (rlmi = observed).
#include "sched/rl_state.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sched/fake_sm.h"
#include "sched/rlws_actions.h"

namespace warpsim::test {
namespace {

using rl::Attr;

WarpInst load_at(uint32_t pc) {
  WarpInst in = global_load();
  in.pc = pc;
  return in;
}

TEST(RlState, RlmiReadings) {
  FakeSm sm(8);
  sm.add_warp(0, 0);
  sm.set_next_inst(0, load_at(0x40));
  WarpSummaries w;
  summarize_warps(sm, w);
  RlBaseline base{};
  auto attr = [&](Attr a, const std::vector<uint32_t>* pcs) { return attribute_value(a, sm, w, {&base, &base, pcs}); };
  // global_load: every ready off-chip read counts.
  EXPECT_EQ(attr(Attr::RLMI, nullptr), 1.0);
  EXPECT_EQ(attr(Attr::RGMI, nullptr), 1.0);
  // observed: only a read at a PC seen to be long-latency.
  std::vector<uint32_t> none, others{0x10, 0x80}, this_one{0x10, 0x40};
  EXPECT_EQ(attr(Attr::RLMI, &none), 0.0);
  EXPECT_EQ(attr(Attr::RGMI, &none), 1.0);  // still a ready global memory instruction
  EXPECT_EQ(attr(Attr::RLMI, &others), 0.0);
  EXPECT_EQ(attr(Attr::RLMI, &this_one), 1.0);
}

TEST(RlState, RatioAttributesStartFromTheirOwnBaseline) {
  FakeSm sm(8);
  sm.add_warp(0, 0);
  sm.counters().l1d_hits = 100;
  sm.counters().l1d_misses = 100;
  sm.counters().ctas_finished = 1;
  WarpSummaries w;
  summarize_warps(sm, w);
  RlBaseline kernel{}, window{};
  kernel.sm.ctas_finished = 1;
  window.sm.l1d_hits = 90;  // since the window started: 10 hits, 90 misses
  window.sm.l1d_misses = 10;
  auto attr = [&](Attr a, const RlBaseline& ratios) { return attribute_value(a, sm, w, {&kernel, &ratios}); };
  EXPECT_DOUBLE_EQ(attr(Attr::L1MP, kernel), 50.0);  // cumulative over the kernel
  EXPECT_EQ(attr(Attr::NTF, kernel), 1.0);
  EXPECT_DOUBLE_EQ(attr(Attr::L1MP, window), 90.0);
  EXPECT_DOUBLE_EQ(attr(Attr::NIPL1M, window), 0.0);  // no instructions issued in either
  EXPECT_EQ(attr(Attr::NTF, window), 1.0);            // NTF stays relative to the kernel's start
}

TEST(RlState, WarpCountsComeFromTheSummaryPass) {
  // Six warps: two ready (an ALU and an SFU instruction), a ready load of CTA 1, a load waiting
  // for a busy unit, one waiting for a register and one at a barrier.
  FakeSm sm(8);
  for (int i = 0; i < 6; ++i) sm.add_warp(i, uint64_t(i), 0, i == 2 ? 1 : 0);
  sm.set_next_inst(0, alu_inst());
  sm.set_next_inst(1, sfu_inst());
  sm.set_next_inst(2, global_load());
  sm.set_next_inst(3, global_load());
  sm.set_status(3, WarpStatus::UnitBusy);
  sm.set_next_inst(4, alu_inst());
  sm.set_status(4, WarpStatus::RAW);
  sm.set_status(5, WarpStatus::Barrier);
  sm.counters().last_mem_cta = 1;
  WarpSummaries w;
  summarize_warps(sm, w);
  EXPECT_EQ(w.n, 6);
  RlBaseline base{};
  auto attr = [&](Attr a) { return attribute_value(a, sm, w, {&base, &base}); };
  EXPECT_EQ(attr(Attr::NRI), 3.0);
  EXPECT_EQ(attr(Attr::NRSPI), 1.0);
  EXPECT_EQ(attr(Attr::NRSFI), 1.0);
  EXPECT_EQ(attr(Attr::NRAI), 2.0);
  EXPECT_EQ(attr(Attr::NRGMI), 1.0);
  EXPECT_EQ(attr(Attr::NFMI), 2.0);  // the ready load and the one waiting for its unit
  EXPECT_EQ(attr(Attr::NFSFI), 1.0);
  EXPECT_EQ(attr(Attr::NPS), 1.0);
  EXPECT_EQ(attr(Attr::NMPS), 1.0);
  EXPECT_EQ(attr(Attr::NSPPS), 0.0);
  EXPECT_EQ(attr(Attr::NWI), 1.0);
  EXPECT_EQ(attr(Attr::NWS), 5.0);     // all but the one at the barrier
  EXPECT_EQ(attr(Attr::STBRMI), 1.0);  // the ready load is of CTA 1
  EXPECT_EQ(attr(Attr::RLMI), 1.0);
  EXPECT_EQ(attr(Attr::RSTCMI), 0.0);
  // The last-issued warp comes first within an action, else the oldest.
  EXPECT_EQ(rlws_warp_for(kSpInstr, w, -1), 0);
  EXPECT_EQ(rlws_warp_for(kGmemInstr, w, 3), 2);  // 3 is not ready
  EXPECT_EQ(rlws_possible_actions(w, kSpInstr),
            (1u << kNoInstr) | (1u << kSpInstr) | (1u << kSfuInstr) | (1u << kGmemInstr));
}

TEST(RlState, ObservedReadingMarksTheReadsThatKeepTheirWarpWaiting) {
  // rlmi = observed, long_latency 10: warp 0's read at 0x40 keeps it waiting on memory for more
  // than 10 cycles; warp 1's read at 0x80 does not (its warp never waits on memory).
  auto p = make_policy("rlws", {{"rlmi", "observed"}, {"long_latency", "10"}, {"epsilon", "0"}});
  FakeSm sm(8);
  sm.attach(*p);
  sm.start_kernel(0);
  sm.add_warp(0, 0);
  sm.add_warp(1, 1);
  sm.set_next_inst(0, load_at(0x40));
  sm.set_next_inst(1, load_at(0x80));
  bool issued[2] = {false, false};
  for (int c = 0; c < 200 && !(issued[0] && issued[1]); ++c) {
    int slot = sm.cycle();
    if (slot < 0) continue;
    issued[slot] = true;
    sm.set_next_inst(slot, alu_inst());  // the next instruction uses the loaded value
    if (slot == 0) {
      sm.set_status(0, WarpStatus::RAW);
      sm.set_waiting_on_memory(0, true);
    }
  }
  ASSERT_TRUE(issued[0] && issued[1]);
  for (int c = 0; c < 12; ++c) sm.cycle();
  nlohmann::json report;
  p->report(report);
  EXPECT_EQ(report["rlws"]["long_latency_pcs_sm0"], nlohmann::json::array({0x40}));
}

}  // namespace
}  // namespace warpsim::test

// RLWS state attributes (sched/rl_state.h) on a fake SM: the readings of RLMI and of the ratio
// attributes that docs/rlws.md lists as design choices, and how RLWS learns which memory
// instructions are long-latency (rlmi = observed).
#include "sched/rl_state.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sched/fake_sm.h"

namespace warpsim::test {
namespace {

using rl::Attr;

double attr(const rl::AttrValues& v, Attr a) { return v[int(a)]; }

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
  rl::AttrValues v;
  // global_load: every ready off-chip read counts.
  compute_attributes(sm, w, {&base, &base, nullptr}, v);
  EXPECT_EQ(attr(v, Attr::RLMI), 1.0);
  EXPECT_EQ(attr(v, Attr::RGMI), 1.0);
  // observed: only a read at a PC seen to be long-latency.
  std::vector<uint32_t> none, others{0x10, 0x80}, this_one{0x10, 0x40};
  compute_attributes(sm, w, {&base, &base, &none}, v);
  EXPECT_EQ(attr(v, Attr::RLMI), 0.0);
  EXPECT_EQ(attr(v, Attr::RGMI), 1.0);  // still a ready global memory instruction
  compute_attributes(sm, w, {&base, &base, &others}, v);
  EXPECT_EQ(attr(v, Attr::RLMI), 0.0);
  compute_attributes(sm, w, {&base, &base, &this_one}, v);
  EXPECT_EQ(attr(v, Attr::RLMI), 1.0);
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
  rl::AttrValues v;
  compute_attributes(sm, w, {&kernel, &kernel}, v);
  EXPECT_DOUBLE_EQ(attr(v, Attr::L1MP), 50.0);  // cumulative over the kernel
  EXPECT_EQ(attr(v, Attr::NTF), 1.0);
  compute_attributes(sm, w, {&kernel, &window}, v);
  EXPECT_DOUBLE_EQ(attr(v, Attr::L1MP), 90.0);
  EXPECT_DOUBLE_EQ(attr(v, Attr::NIPL1M), 0.0);  // no instructions issued in either
  EXPECT_EQ(attr(v, Attr::NTF), 1.0);            // NTF stays relative to the kernel's start
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

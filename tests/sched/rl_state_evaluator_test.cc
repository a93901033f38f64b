// RlStateEvaluator (sched/rl_state_evaluator.h): the state it keeps up to date from what changed
// equals the state made from scratch (attribute_value and a Bucketizer per attribute), through
// random changes of the warps, the SM and GPU counters and the baselines.
#include "sched/rl_state_evaluator.h"

#include <gtest/gtest.h>

#include "core/rng.h"
#include "sched/fake_sm.h"

namespace warpsim::test {
namespace {

using rl::Attr;

rl::State from_scratch(const std::vector<rl::AttrUse>& attrs, const FakeSm& sm, const WarpSummaries& w,
                       const AttrInputs& in) {
  rl::State s;
  for (size_t i = 0; i < attrs.size(); ++i) {
    const rl::AttrInfo& info = rl::attr_info(attrs[i].attr);
    double range = info.range == 0  ? double(sm.warps_per_scheduler())
                   : info.range < 0 ? 40.0 * double(sm.num_sms())
                                    : info.range;
    s.v[i] = uint8_t(rl::Bucketizer(range, attrs[i].buckets, info.spacing)(attribute_value(attrs[i].attr, sm, w, in)));
  }
  return s;
}

WarpInst inst_of_class(int c) {
  switch (c) {
    case 0:
      return alu_inst();
    case 1:
      return sfu_inst();
    case 2:
      return global_load();
    default:
      return shared_load();
  }
}

// Every attribute of Table II at once (a state holds them all), RLMI read either way.
void check_random_walk(bool observed_rlmi, uint64_t seed) {
  std::vector<rl::AttrUse> attrs;
  for (int a = 0; a < rl::kNumAttrs; ++a) attrs.push_back({Attr(a), uint32_t(2 + a % 7)});
  FakeSm sm(16);
  Rng rng(seed);
  for (int i = 0; i < 16; ++i) sm.add_warp(i, uint64_t(i), 0, uint32_t(i % 4));
  RlBaseline kernel{}, window{};
  std::vector<uint32_t> pcs{0x10, 0x40};
  AttrInputs in{&kernel, &window, observed_rlmi ? &pcs : nullptr};
  RlStateEvaluator eval(attrs, sm, observed_rlmi);
  WarpSummaries w;
  uint64_t summary_version = 0, baseline_version = 0;
  summarize_warps(sm, w);
  uint64_t* sm_fields[] = {&sm.counters().insts_issued,  &sm.counters().alu_issued,    &sm.counters().mem_issued,
                           &sm.counters().mem_in_flight, &sm.counters().l1d_hits,      &sm.counters().l1d_misses,
                           &sm.counters().icache_hits,   &sm.counters().icache_misses, &sm.counters().ctas_finished};
  uint64_t* gpu_fields[] = {&sm.gpu_counters().ctas_waiting, &sm.gpu_counters().l2_hits, &sm.gpu_counters().l2_misses,
                            &sm.gpu_counters().avg_mem_latency, &sm.gpu_counters().mem_in_flight};
  int changed_counters = 0, changed_warps = 0, rebased = 0;
  for (int step = 0; step < 4000; ++step) {
    switch (rng.below(6)) {
      case 0: {  // a warp's status or next instruction changes: a new summary
        int slot = int(rng.below(16));
        sm.set_status(slot, WarpStatus(rng.below(kNumWarpStatus)));
        WarpInst in = inst_of_class(int(rng.below(4)));
        in.pc = rng.below(2) ? 0x40 : 0x80;
        sm.set_next_inst(slot, in);
        sm.counters().last_mem_cta = int32_t(rng.below(4));
        summarize_warps(sm, w);
        summary_version++;
        changed_warps++;
        break;
      }
      case 1:  // the baselines move (a kernel start, a ratio window)
        kernel = {sm.counters(), sm.gpu_counters()};
        if (rng.below(2)) window = kernel;
        baseline_version++;
        rebased++;
        break;
      default: {  // counters grow (or memory in flight falls)
        uint64_t* f = rng.below(2) ? sm_fields[rng.below(9)] : gpu_fields[rng.below(5)];
        *f += rng.below(40);
        if (f == &sm.counters().mem_in_flight || f == &sm.gpu_counters().mem_in_flight) *f = rng.below(700);
        changed_counters++;
        break;
      }
    }
    const rl::State& got = eval.evaluate(sm, w, summary_version, in, baseline_version);
    rl::State want = from_scratch(attrs, sm, w, in);
    for (size_t i = 0; i < attrs.size(); ++i)
      ASSERT_EQ(int(got.v[i]), int(want.v[i]))
          << "attribute " << rl::attr_info(attrs[i].attr).name << " at step " << step;
  }
  EXPECT_GT(changed_counters, 1000);
  EXPECT_GT(changed_warps, 300);
  EXPECT_GT(rebased, 300);
}

TEST(RlStateEvaluator, EqualsTheStateMadeFromScratch) { check_random_walk(false, 7); }

TEST(RlStateEvaluator, EqualsTheStateMadeFromScratchWithObservedRlmi) { check_random_walk(true, 11); }

TEST(RlStateEvaluator, SourcesOfTheAttributes) {
  EXPECT_EQ(attribute_source(Attr::GNMIE, false), AttrSource::Counters);
  EXPECT_EQ(attribute_source(Attr::NTF, false), AttrSource::Counters);
  EXPECT_EQ(attribute_source(Attr::NRAI, false), AttrSource::Summary);
  EXPECT_EQ(attribute_source(Attr::RLMI, false), AttrSource::Summary);
  EXPECT_EQ(attribute_source(Attr::RLMI, true), AttrSource::Other);
  EXPECT_EQ(attribute_source(Attr::ATBWB, false), AttrSource::Other);
  EXPECT_EQ(attribute_source(Attr::STBRMI, false), AttrSource::Other);
}

}  // namespace
}  // namespace warpsim::test

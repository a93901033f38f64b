#include "sched/rl_state_evaluator.h"

namespace warpsim {

RlStateEvaluator::RlStateEvaluator(const std::vector<rl::AttrUse>& attrs, const SchedulerContext& ctx,
                                   bool observed_rlmi) {
  for (size_t i = 0; i < attrs.size(); ++i) {
    const rl::AttrUse& u = attrs[i];
    const rl::AttrInfo& info = rl::attr_info(u.attr);
    // Warp counts range over the scheduler's warp slots (24 on Fermi); GNMIE over 40 memory
    // instructions per SM of the GPU (600 on a 15-SM Fermi).
    double range = info.range == 0  ? double(ctx.warps_per_scheduler())
                   : info.range < 0 ? 40.0 * double(ctx.num_sms())
                                    : info.range;
    Slot slot{u.attr, uint8_t(i), rl::Bucketizer(range, u.buckets, info.spacing), counter_inputs(u.attr)};
    switch (attribute_source(u.attr, observed_rlmi)) {
      case AttrSource::Summary:
        summary_.push_back(slot);
        break;
      case AttrSource::Counters:
        counters_.push_back(slot);
        break;
      case AttrSource::Other:
        other_.push_back(slot);
        break;
    }
  }
}

const rl::State& RlStateEvaluator::evaluate(const SchedulerContext& ctx, const WarpSummaries& warps,
                                            uint64_t summary_version, const AttrInputs& in, uint64_t baseline_version) {
  if (!primed_ || summary_version != summary_version_) {
    for (const Slot& s : summary_) state_.v[s.index] = uint8_t(s.bucket(attribute_value(s.attr, ctx, warps, in)));
    summary_version_ = summary_version;
  }
  const SmCounters& sm = ctx.sm();
  const GpuCounters& gpu = ctx.gpu();
  if (&sm != sm_ || &gpu != gpu_) {
    static constexpr uint64_t kZero = 0;
    for (Slot& s : counters_) {
      s.at[0] = s.inputs.ref[0].in(sm, gpu);
      s.at[1] = s.inputs.count > 1 ? s.inputs.ref[1].in(sm, gpu) : &kZero;
    }
    sm_ = &sm, gpu_ = &gpu;
  }
  bool rebased = !primed_ || baseline_version != baseline_version_;
  for (Slot& s : counters_) {
    const uint64_t now[2] = {*s.at[0], *s.at[1]};
    if (rebased) {
      const RlBaseline& b = counter_baseline(s.attr, in);
      s.inputs.read(b.sm, b.gpu, s.base);
    } else if (now[0] == s.now[0] && now[1] == s.now[1]) {
      continue;
    }
    s.now[0] = now[0], s.now[1] = now[1];
    state_.v[s.index] = uint8_t(s.bucket(counter_attribute(s.attr, now, s.base)));
  }
  baseline_version_ = baseline_version;
  for (const Slot& s : other_) state_.v[s.index] = uint8_t(s.bucket(attribute_value(s.attr, ctx, warps, in)));
  primed_ = true;
  return state_;
}

}  // namespace warpsim

// The SM's implementation of SchedulerContext (sched/scheduler.h): the view one of its warp
// schedulers gets for a cycle's decision. Made on the stack by Sm::cycle for each scheduler it
// asks; the plain parts are copied in once, the virtual parts forward to the SM.
#pragma once
#include "sched/scheduler.h"
#include "timing/sm.h"

namespace warpsim {

class SmSchedulerContext final : public SchedulerContext {
 public:
  // The view of scheduler `sched_id` of `sm` at the SM's current cycle; `idle` in a cycle in
  // which the scheduler's warps did not change since its previous decision.
  SmSchedulerContext(Sm& sm, int sched_id, bool replaying = false, bool idle = false) : sm_(sm) {
    now_ = sm.now();
    replaying_ = replaying;
    warps_unchanged_ = idle;
    sched_id_ = sched_id;
    age_order_ = &sm.sched_warps(sched_id);
    slot_order_ = &sm.sched_slots(sched_id);
    sm_counters_ = &sm.counters();
    gpu_counters_ = &sm.gpu();
    sm_id_ = sm.id();
    num_cta_slots_ = sm.num_cta_slots();
    warps_per_scheduler_ = sm.warps_per_scheduler();
    num_schedulers_ = sm.num_schedulers();
    num_sms_ = sm.num_sms();
  }

  WarpStatus status(int slot) const override { return sm_.status(slot); }
  bool waiting_on_memory(int slot) const override { return sm_.waiting_on_memory(slot); }
  bool waits_on_long_op(int slot) const override { return sm_.waits_on_long_op(slot); }
  const WarpInst& next_inst(int slot) const override { return sm_.next_inst(slot); }
  InstBrief next_brief(int slot) const override { return sm_.next_brief(slot); }
  const WarpInfo& warp(int slot) const override { return sm_.warp_info(slot); }
  const CtaInfo& cta(int cta_slot) const override { return sm_.cta_info(cta_slot); }

 private:
  Sm& sm_;
};

}  // namespace warpsim

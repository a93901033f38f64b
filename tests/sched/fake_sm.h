// A fake SM for testing scheduling policies decision by decision: it implements the
// SchedulerContext a policy sees (sched/scheduler.h) with state a test sets directly (each
// warp's status, age, next instruction, memory wait, CTA, the counters), and drives a policy the
// way the SM does (select, on_issue, on_cycle_end, one cycle at a time).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "sched/scheduler.h"

namespace warpsim::test {

class FakeSm final : public SchedulerContext {
 public:
  // Scheduler `sched_id` of `num_schedulers` on an SM with `max_warps` warp slots (slot s belongs
  // to scheduler s mod num_schedulers) and `cta_slots` CTA slots.
  explicit FakeSm(int max_warps = 8, int sched_id = 0, int num_schedulers = 1, int cta_slots = 8)
      : info_(size_t(max_warps)),
        status_(size_t(max_warps), WarpStatus::Finished),
        on_memory_(size_t(max_warps), false),
        inst_(size_t(max_warps)),
        ctas_(size_t(cta_slots)) {
    now_ = 0;
    sched_id_ = sched_id;
    age_order_ = &age_list_;
    slot_order_ = &slot_list_;
    sm_counters_ = &counters_;
    gpu_counters_ = &gpu_;
    num_cta_slots_ = cta_slots;
    warps_per_scheduler_ = max_warps / num_schedulers;
    num_schedulers_ = num_schedulers;
    num_sms_ = 1;
  }

  // --- what the policy reads ---
  WarpStatus status(int slot) const override {
    ++status_calls_;
    return status_.at(size_t(slot));
  }
  bool waiting_on_memory(int slot) const override { return on_memory_.at(size_t(slot)); }
  const WarpInst& next_inst(int slot) const override { return inst_.at(size_t(slot)); }
  const WarpInfo& warp(int slot) const override { return info_.at(size_t(slot)); }
  const CtaInfo& cta(int cta_slot) const override { return ctas_.at(size_t(cta_slot)); }

  // --- what a test sets ---
  // A live warp in `slot` with launch order `age` (smaller is older), Ready by default. It joins
  // warps() in age order and slots() in slot order, and the policy is told (on_warp_added)
  // when one is attached.
  void add_warp(int slot, uint64_t age, uint32_t kernel = 0, uint32_t cta_slot = 0) {
    WarpInfo& w = info_.at(size_t(slot));
    EXPECT_FALSE(w.valid) << "slot " << slot << " already holds a warp";
    w = WarpInfo{};
    w.age = age;
    w.kernel = kernel;
    w.cta_slot = cta_slot;
    w.valid = true;
    status_[size_t(slot)] = WarpStatus::Ready;
    on_memory_[size_t(slot)] = false;
    auto by_age = std::find_if(age_list_.begin(), age_list_.end(), [&](uint16_t s) { return info_[s].age > age; });
    age_list_.insert(by_age, uint16_t(slot));
    slot_list_.insert(std::upper_bound(slot_list_.begin(), slot_list_.end(), uint16_t(slot)), uint16_t(slot));
    if (policy_) policy_->on_warp_added(slot);
  }
  // The warp in `slot` leaves (finished): out of the lists, the policy told (on_warp_removed).
  void remove_warp(int slot) {
    info_.at(size_t(slot)).valid = false;
    status_[size_t(slot)] = WarpStatus::Finished;
    std::erase(age_list_, uint16_t(slot));
    std::erase(slot_list_, uint16_t(slot));
    if (policy_) policy_->on_warp_removed(slot);
  }
  void set_status(int slot, WarpStatus s) { status_.at(size_t(slot)) = s; }
  void set_all(WarpStatus s) {
    for (uint16_t w : slot_list_) status_[w] = s;
  }
  void set_waiting_on_memory(int slot, bool v) { on_memory_.at(size_t(slot)) = v; }
  void set_next_inst(int slot, const WarpInst& in) { inst_.at(size_t(slot)) = in; }
  WarpInfo& info(int slot) { return info_.at(size_t(slot)); }
  CtaInfo& cta_info(int cta_slot) { return ctas_.at(size_t(cta_slot)); }
  SmCounters& counters() { return counters_; }
  GpuCounters& gpu_counters() { return gpu_; }
  void set_now(uint64_t t) {
    now_ = t;
    gpu_.cycle = t;
  }
  int status_calls() const { return status_calls_; }
  int last_selected() const { return selected_; }  // what select() returned in the last cycle()

  // --- driving a policy ---
  void attach(WarpScheduler& p) { policy_ = &p; }
  // Kernel `id` starts (on_kernel_start, then on_kernel_launch), as the SM announces it.
  void start_kernel(uint32_t id, const std::string& name = "k", uint32_t stream = 0) {
    policy_->on_kernel_start(id);
    KernelLaunch k;
    k.id = id;
    k.name = name;
    k.stream = stream;
    k.launch_cycle = k.start_cycle = now_;
    policy_->on_kernel_launch(k);
  }
  // What the policy selects now (no issue, no end of cycle).
  int peek() { return policy_->select(*this); }
  // One cycle as the SM runs it with one issue slot: select; when the warp is one of this
  // scheduler's and Ready, issue it (on_issue); on_cycle_end with the outcome (`stall` when
  // nothing issued); then the next cycle. Returns the slot issued, or -1.
  int cycle(WarpStatus stall = WarpStatus::RAW) {
    int slot = slot_list_.empty() ? -1 : policy_->select(*this);
    selected_ = slot;
    bool ok = slot >= 0 && size_t(slot) < info_.size() && slot % num_schedulers_ == sched_id_ &&
              info_[size_t(slot)].valid && status_[size_t(slot)] == WarpStatus::Ready;
    if (ok) {
      policy_->on_issue(*this, slot, inst_[size_t(slot)]);
      info_[size_t(slot)].issued++;
    }
    policy_->on_cycle_end(*this, ok, ok ? WarpStatus::Ready : stall);
    set_now(now_ + 1);
    return ok ? slot : -1;
  }

 private:
  std::vector<WarpInfo> info_;
  std::vector<WarpStatus> status_;
  std::vector<bool> on_memory_;
  std::vector<WarpInst> inst_;
  std::vector<CtaInfo> ctas_;
  std::vector<uint16_t> age_list_, slot_list_;
  SmCounters counters_;
  GpuCounters gpu_;
  mutable int status_calls_ = 0;
  int selected_ = -1;
  WarpScheduler* policy_ = nullptr;
};

// The registered policy `name` for scheduler `sched_id` of `num_schedulers` on SM 0, with
// `params` (key=value pairs).
inline std::unique_ptr<WarpScheduler> make_policy(const std::string& name,
                                                  const std::vector<std::pair<std::string, std::string>>& params = {},
                                                  int sched_id = 0, int num_schedulers = 1) {
  SchedulerParams p;
  for (const auto& [k, v] : params) p.set(k, v);
  auto all = make_sm_schedulers(find_scheduler(name), p, 0, num_schedulers);
  p.check_all_used(name);
  return std::move(all.at(size_t(sched_id)));
}

// Instructions of each RLWS pipeline class.
inline WarpInst alu_inst() { return WarpInst{}; }
inline WarpInst sfu_inst() {
  WarpInst in;
  in.unit = Unit::SFU;
  return in;
}
inline WarpInst global_load() {
  WarpInst in;
  in.unit = Unit::MEM;
  in.op = OpClass::LOAD;
  in.space = MemSpace::Global;
  return in;
}
inline WarpInst shared_load() {
  WarpInst in;
  in.unit = Unit::MEM;
  in.op = OpClass::LOAD;
  in.space = MemSpace::Shared;
  return in;
}

}  // namespace warpsim::test

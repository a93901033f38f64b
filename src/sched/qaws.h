// QoS-aware warp scheduling (QAWS): the per-sub-core state machine of Algorithm 1 of the QAWS
// paper, generalised to any number of budget groups (docs/qaws.md).
//
// Warps are grouped by the budget of their kernel (kernels with equal budgets share a group).
// Groups form a ring ordered by budget, highest first. The prioritised group g0 goes first in
// the issue order, then the groups that follow it in the ring; inside a group the order is
// greedy-then-oldest. A stall of the head of the issue order that makes the scheduler issue
// another warp of g0 is one context switch of g0; g0 may switch `budget` times, and the switch
// after that hands the priority to the next group of the ring and resets g0's count. A stall
// after which no warp of g0 issues (all of g0 stalled) is not counted. With one group (equal
// budgets, or one kernel on the sub-core) the order is exactly greedy-then-oldest.
//
// QawsCore is independent of the timing model: select() is a template over a context that
// offers now(), warps() (live slots, oldest first), warp(slot) (WarpInfo) and status(slot), so
// unit tests can drive it with a scripted sub-core and the SM drives it with SchedulerContext.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sched/scheduler.h"

namespace warpsim {

// When the budget decision of Algorithm 1 is taken.
enum class QawsDecide : uint8_t {
  // As Algorithm 1 is written: SORTWARPS at cycle t looks at cycle t-1 (was the head issued,
  // which warp issued). The switch that exceeds the budget is itself issued, and the priority
  // moves on the next cycle.
  LastCycle,
  // As the paper's Fig. 3 walk-through reads: the stall of the head is seen in the cycle it
  // happens, so the switch that would exceed the budget is not made and the next group issues
  // in that same cycle.
  SameCycle,
};
const char* qaws_decide_name(QawsDecide d);

// Budgets of kernels, from scheduler parameters (docs/qaws.md, "Budgets"):
//   budget.<launch index>=B  budget.<kernel name>=B  budget.stream.<id>=B  budget.default=B
// First match wins in that order. B is an integer in [0, 2^31).
struct QawsBudgets {
  static constexpr int64_t kDefaultBudget = 1;
  static constexpr int64_t kMaxBudget = (int64_t(1) << 31) - 1;
  int64_t default_budget = kDefaultBudget;
  std::map<uint32_t, int64_t> by_index;
  std::map<std::string, int64_t> by_name;
  std::map<uint32_t, int64_t> by_stream;

  int64_t budget_of(const KernelLaunch& k) const;
  // Reads every `budget.*` key of `params` (marking them used); throws Error on bad keys/values.
  static QawsBudgets from_params(const SchedulerParams& params);
};

// Counters of one budget group (all kernels with that budget) on one sub-core.
struct QawsGroupCounters {
  uint64_t switches = 0;  // context switches counted against the budget (ncs increments)
  uint64_t yields = 0;    // times the group reached its budget and passed the priority on
  uint64_t gains = 0;     // times the group received the priority (a yield or a vanish)
};

class QawsCore {
 public:
  static constexpr int kMaxGroups = 64;

  explicit QawsCore(QawsDecide decide = QawsDecide::LastCycle) : decide_(decide) {
    groups_.reserve(8);
    kernel_group_.reserve(16);
    rank_.fill(0);
  }

  QawsDecide decide() const { return decide_; }

  // Registers kernel launch `kernel` (WarpInfo::kernel) with its budget. Kernels never
  // registered belong to the group of `unregistered_budget` (1 unless set).
  void set_kernel_budget(uint32_t kernel, int64_t budget);
  void set_unregistered_budget(int64_t budget) { unregistered_budget_ = budget; }
  int64_t kernel_budget(uint32_t kernel) const {
    int g = group_of(kernel);
    return g < 0 ? unregistered_budget_ : groups_[g].budget;
  }

  // The warp slot to issue, or -1. The first call of a cycle runs SORTWARPS (the budget logic).
  template <class Ctx>
  int select(const Ctx& ctx);
  // The slot issued (after select returned it) and its kernel.
  void issued(uint64_t now, int slot, uint32_t kernel);
  // A warp entered / left `slot` (the SM's on_warp_added / on_warp_removed). Optional: when
  // they are called, the groups present are counted incrementally (a group is present while it
  // has warps resident on the sub-core) and each slot's group is cached; otherwise select()
  // reads every warp's kernel and a group is present while it has unfinished warps.
  void warp_added(int slot);
  void warp_removed(int slot);

  // Inspection (tests, reports).
  int num_groups() const { return int(groups_.size()); }
  int64_t group_budget(int g) const { return groups_[g].budget; }
  // Budget of the prioritised group, or -1 before any decision.
  int64_t prioritized_budget() const { return g0_ < 0 ? -1 : groups_[g0_].budget; }
  uint64_t context_switch_count(int64_t budget) const;  // current ncs of that group
  const QawsGroupCounters& counters(int g) const { return groups_[g].counters; }
  uint64_t priority_changes() const { return priority_changes_; }
  int greedy() const { return greedy_; }

 private:
  struct Group {
    int64_t budget = 0;
    uint64_t ncs = 0;
    int ring_pos = 0;  // position in the ring (0 = highest budget)
    QawsGroupCounters counters;
  };

  int group_of(uint32_t kernel) const {
    return kernel < kernel_group_.size() ? kernel_group_[kernel] : unregistered_group_;
  }
  template <class Ctx>
  int slot_group(const Ctx& ctx, int slot) const {
    if (size_t(slot) < slot_group_.size() && slot_group_[slot] >= 0) return slot_group_[slot];
    return group_of(ctx.warp(slot).kernel);
  }
  // Resolves the groups of slots announced since the last decision.
  template <class Ctx>
  void count_added(const Ctx& ctx);
  int group_index(int64_t budget);  // creates the group when new (not on the hot path)
  void rebuild_ring();
  void update_ranks();
  // The present group following `g` in the ring (g itself when it is the only one).
  int next_present(int g, uint64_t present) const;
  void give_priority(int g);
  // One pass in issue order: the first ready warp, and g0's oldest live warp (-1: g0 has none
  // here, unless the greedy warp is in g0).
  struct Scan {
    int pick = -1;
    int g0_oldest = -1;
    bool g0_live = false;
  };
  template <class Ctx>
  Scan scan(const Ctx& ctx);
  template <class Ctx>
  uint64_t present_groups(const Ctx& ctx);
  // Budget rule when g0 switched warps: count the switch, or pass the priority on at the budget.
  // Returns true when the priority moved.
  bool count_switch(uint64_t present);

  QawsDecide decide_;
  std::vector<Group> groups_;                    // by group id (creation order)
  std::vector<int> ring_;                        // group ids, budget descending
  std::vector<int> kernel_group_;                // kernel launch index -> group id
  std::vector<int8_t> slot_group_;               // warp slot -> group id, -1 unknown (announced warps)
  std::vector<uint16_t> added_;                  // announced slots whose group is not resolved yet
  std::array<uint16_t, kMaxGroups> resident_{};  // announced warps per group
  uint64_t resident_mask_ = 0;                   // groups with announced warps
  bool announced_ = false;                       // warp_added has been called
  std::array<int16_t, kMaxGroups> rank_;         // group id -> ring distance from g0 (issue order)
  int64_t unregistered_budget_ = QawsBudgets::kDefaultBudget;
  int unregistered_group_ = -1;

  // Algorithm 1 state.
  int g0_ = -1;                 // prioritised group (group id)
  int greedy_ = -1;             // last warp issued (kept across idle cycles, as gto does)
  int head_ = -1;               // head of this cycle's issue order
  bool issued_head_ = false;    // the first issue of the last issuing cycle was the head
  int last_issued_group_ = -1;  // group of that issue
  uint64_t last_issue_cycle_ = ~0ull;
  uint64_t cycle_ = ~0ull;  // cycle of the last SORTWARPS
  uint64_t priority_changes_ = 0;
};

// --- template implementation ------------------------------------------------------------------

template <class Ctx>
void QawsCore::count_added(const Ctx& ctx) {
  for (uint16_t slot : added_) {
    int g = group_of(ctx.warp(slot).kernel);
    slot_group_[slot] = int8_t(g);
    ++resident_[g];
    resident_mask_ |= uint64_t(1) << g;
  }
  added_.clear();
}

template <class Ctx>
uint64_t QawsCore::present_groups(const Ctx& ctx) {
  if (announced_) return resident_mask_;
  uint64_t present = 0;
  for (uint16_t w : ctx.warps())
    if (ctx.status(w) != WarpStatus::Finished) present |= uint64_t(1) << slot_group(ctx, w);
  return present;
}

template <class Ctx>
QawsCore::Scan QawsCore::scan(const Ctx& ctx) {
  Scan s;
  int best_rank = 1 << 30;
  // The greedy warp goes first inside its group.
  if (greedy_ >= 0) {
    WarpStatus st = ctx.status(greedy_);
    if (st != WarpStatus::Finished) {
      int g = slot_group(ctx, greedy_);
      s.g0_live = g == g0_;
      if (st == WarpStatus::Ready) {
        s.pick = greedy_;
        best_rank = rank_[g];
        if (best_rank == 0) return s;
      }
    }
  }
  for (uint16_t w : ctx.warps()) {
    int g = slot_group(ctx, w);
    int r = rank_[g];
    if (r >= best_rank) continue;  // cannot come first; g0's warps (rank 0) always get here
    WarpStatus st = ctx.status(w);
    if (st == WarpStatus::Finished) continue;
    if (r == 0 && s.g0_oldest < 0) s.g0_oldest = w;
    if (st != WarpStatus::Ready) continue;
    s.pick = w;
    best_rank = r;
    if (r == 0) break;
  }
  s.g0_live |= s.g0_oldest >= 0;
  return s;
}

template <class Ctx>
int QawsCore::select(const Ctx& ctx) {
  const uint64_t now = ctx.now();
  if (unregistered_group_ < 0) unregistered_group_ = group_index(unregistered_budget_);
  if (!added_.empty()) count_added(ctx);
  if (now == cycle_) return g0_ < 0 ? -1 : scan(ctx).pick;  // a further issue slot of the cycle
  cycle_ = now;
  // Algorithm 1, lines 13-14: the head did not issue last cycle but another warp of g0 did.
  const bool switched_last_cycle = decide_ == QawsDecide::LastCycle && g0_ >= 0 && last_issued_group_ == g0_ &&
                                   last_issue_cycle_ + 1 == now && !issued_head_;
  // Fast path: no decision pending and the greedy warp, in g0 and so the head, is ready.
  if (g0_ >= 0 && greedy_ >= 0 && !switched_last_cycle && ctx.status(greedy_) == WarpStatus::Ready &&
      slot_group(ctx, greedy_) == g0_) {
    head_ = greedy_;
    return greedy_;
  }
  head_ = -1;
  if (g0_ < 0) {
    // No history: the group with the highest budget among those present (GETGROUPS).
    uint64_t present = present_groups(ctx);
    if (present == 0) return -1;
    for (int g : ring_)
      if (present >> g & 1) {
        give_priority(g);
        break;
      }
  }
  // Lines 8-9 (one group: nothing counted) and 15-20, with Algorithm 1's timing.
  if (switched_last_cycle) count_switch(present_groups(ctx));
  Scan s = scan(ctx);
  if (!s.g0_live) {
    // The prioritised group left the sub-core: the next group of the ring takes over.
    uint64_t present = present_groups(ctx);
    if (present == 0) return -1;
    groups_[g0_].ncs = 0;
    give_priority(next_present(g0_, present));
    s = scan(ctx);
  }
  // The head of the issue order: the greedy warp if it belongs to g0, else g0's oldest warp.
  head_ = greedy_ >= 0 && ctx.status(greedy_) != WarpStatus::Finished && slot_group(ctx, greedy_) == g0_ ? greedy_
                                                                                                         : s.g0_oldest;
  // The first ready warp of the order is the head when the head is ready (lines 11-12).
  if (s.pick == head_ || s.pick < 0) return s.pick;
  if (decide_ == QawsDecide::SameCycle && slot_group(ctx, s.pick) == g0_) {
    // The head stalls now and another warp of g0 would issue: a context switch of g0.
    if (count_switch(present_groups(ctx))) s = scan(ctx);
  }
  return s.pick;
}

}  // namespace warpsim

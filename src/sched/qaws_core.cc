// QAWS budget groups, the ring, and budget parameters (the per-cycle logic is in qaws.h).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/error.h"
#include "sched/qaws.h"

namespace warpsim {

const char* qaws_decide_name(QawsDecide d) { return d == QawsDecide::SameCycle ? "same" : "last"; }

// --- budgets ----------------------------------------------------------------------------------

int64_t QawsBudgets::budget_of(const KernelLaunch& k) const {
  if (auto it = by_index.find(k.id); it != by_index.end()) return it->second;
  if (auto it = by_name.find(k.name); it != by_name.end()) return it->second;
  if (auto it = by_stream.find(k.stream); it != by_stream.end()) return it->second;
  return default_budget;
}

namespace {

bool parse_u32(const std::string& s, uint32_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

QawsBudgets QawsBudgets::from_params(const SchedulerParams& params) {
  QawsBudgets b;
  static const std::string kPrefix = "budget.";
  for (const auto& [key, value] : params.values()) {
    if (key.compare(0, kPrefix.size(), kPrefix) != 0) continue;
    int64_t v = params.get_int(key, 0);  // marks the key used; throws on a non-integer
    if (v < 0 || v > kMaxBudget)
      throw Error(fmt::format("scheduler parameter '{}': budget {} is out of range [0, {}]", key, v, kMaxBudget));
    std::string what = key.substr(kPrefix.size());
    if (what.empty()) throw Error(fmt::format("scheduler parameter '{}': no kernel after 'budget.'", key));
    uint32_t n = 0;
    if (what == "default") {
      b.default_budget = v;
    } else if (what.compare(0, 7, "stream.") == 0) {
      if (!parse_u32(what.substr(7), &n))
        throw Error(fmt::format("scheduler parameter '{}': '{}' is not a stream number", key, what.substr(7)));
      b.by_stream[n] = v;
    } else if (parse_u32(what, &n)) {
      b.by_index[n] = v;
    } else {
      b.by_name[what] = v;
    }
  }
  return b;
}

// --- groups and ring --------------------------------------------------------------------------

int QawsCore::group_index(int64_t budget) {
  for (size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].budget == budget) return int(g);
  if (groups_.size() >= size_t(kMaxGroups))
    throw Error(fmt::format("qaws: more than {} distinct budgets on one sub-core", kMaxGroups));
  Group g;
  g.budget = budget;
  groups_.push_back(g);
  rebuild_ring();
  return int(groups_.size() - 1);
}

void QawsCore::rebuild_ring() {
  ring_.resize(groups_.size());
  for (size_t g = 0; g < groups_.size(); ++g) ring_[g] = int(g);
  std::sort(ring_.begin(), ring_.end(), [&](int a, int b) { return groups_[a].budget > groups_[b].budget; });
  for (size_t p = 0; p < ring_.size(); ++p) groups_[ring_[p]].ring_pos = int(p);
  update_ranks();
}

void QawsCore::update_ranks() {
  if (g0_ < 0) return;
  int n = int(ring_.size());
  for (int g = 0; g < n; ++g) {
    int d = groups_[g].ring_pos - groups_[g0_].ring_pos;
    rank_[g] = int16_t(d < 0 ? d + n : d);
  }
}

void QawsCore::warp_added(int slot) {
  if (slot < 0) return;
  if (!announced_) {
    announced_ = true;
    added_.reserve(64);
  }
  if (size_t(slot) >= slot_group_.size()) slot_group_.resize(size_t(slot) + 1, -1);
  slot_group_[slot] = -1;
  added_.push_back(uint16_t(slot));
}

void QawsCore::warp_removed(int slot) {
  if (slot == greedy_) greedy_ = -1;
  if (slot < 0 || size_t(slot) >= slot_group_.size()) return;
  int g = slot_group_[slot];
  if (g >= 0) {
    if (--resident_[g] == 0) resident_mask_ &= ~(uint64_t(1) << g);
    slot_group_[slot] = -1;
  } else if (auto it = std::find(added_.begin(), added_.end(), uint16_t(slot)); it != added_.end()) {
    added_.erase(it);
  }
}

void QawsCore::set_kernel_budget(uint32_t kernel, int64_t budget) {
  if (budget < 0 || budget > QawsBudgets::kMaxBudget)
    throw Error(
        fmt::format("qaws: budget {} of kernel {} is out of range [0, {}]", budget, kernel, QawsBudgets::kMaxBudget));
  if (unregistered_group_ < 0) unregistered_group_ = group_index(unregistered_budget_);
  int g = group_index(budget);
  if (kernel_group_.size() <= kernel) kernel_group_.resize(size_t(kernel) + 1, unregistered_group_);
  kernel_group_[kernel] = g;
  // A kernel registered again may change group: resolve the resident warps again.
  for (size_t slot = 0; slot < slot_group_.size(); ++slot) {
    int h = slot_group_[slot];
    if (h < 0) continue;
    if (--resident_[h] == 0) resident_mask_ &= ~(uint64_t(1) << h);
    slot_group_[slot] = -1;
    added_.push_back(uint16_t(slot));
  }
}

int QawsCore::next_present(int g, uint64_t present) const {
  int n = int(ring_.size());
  int p = groups_[g].ring_pos;
  for (int k = 1; k <= n; ++k) {
    int h = ring_[(p + k) % n];
    if (present >> h & 1) return h;
  }
  return g;
}

void QawsCore::give_priority(int g) {
  if (g == g0_) return;
  if (g0_ >= 0) ++priority_changes_;
  ++groups_[g].counters.gains;
  g0_ = g;
  update_ranks();
}

bool QawsCore::count_switch(uint64_t present) {
  if ((present & (present - 1)) == 0) return false;  // one group: greedy-then-oldest, no counting
  Group& g = groups_[g0_];
  if (g.ncs < uint64_t(g.budget)) {
    ++g.ncs;
    ++g.counters.switches;
    return false;
  }
  g.ncs = 0;
  ++g.counters.yields;
  give_priority(next_present(g0_, present));
  return true;
}

void QawsCore::issued(uint64_t now, int slot, uint32_t kernel) {
  if (now != last_issue_cycle_) {
    issued_head_ = slot == head_;
    last_issued_group_ = group_of(kernel);
    last_issue_cycle_ = now;
  }
  greedy_ = slot;
}

uint64_t QawsCore::context_switch_count(int64_t budget) const {
  for (const Group& g : groups_)
    if (g.budget == budget) return g.ncs;
  return 0;
}

}  // namespace warpsim

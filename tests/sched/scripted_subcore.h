// A scripted sub-core for scheduler unit tests: each warp runs a fixed program in which
// instruction i makes the warp's next instruction wait lat[i] cycles (1 = no stall); one
// instruction issues per cycle; warps arrive with their kernel. It offers the context that
// QawsCore::select reads (now, warps, warp, status), so the policy under test is the real one.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sched/qaws.h"

namespace warpsim::test {

struct ScriptKernel {
  uint32_t warps = 0;
  uint64_t arrive = 0;   // cycle its warps join the sub-core
  std::vector<int> lat;  // the program every warp of the kernel runs
};

struct ScriptRun {
  std::string order;                       // warp issued per cycle ('0'..'9', 'a'..; '.' for none)
  std::vector<uint64_t> completion;        // per kernel: cycle its last warp completes
  std::vector<int> issued;                 // per cycle: slot, or -1
  std::vector<int64_t> prioritized;        // per cycle, after the decision: budget of g0 (QAWS only)
  std::vector<std::vector<uint64_t>> ncs;  // per cycle, after the decision: ncs per kernel's group
  uint64_t response(size_t k, const std::vector<ScriptKernel>& ks) const { return completion[k] - ks[k].arrive; }
};

class ScriptedSubCore {
 public:
  explicit ScriptedSubCore(std::vector<ScriptKernel> kernels) : kernels_(std::move(kernels)) {
    for (uint32_t k = 0; k < kernels_.size(); ++k)
      for (uint32_t w = 0; w < kernels_[k].warps; ++w) {
        WarpInfo info;
        info.kernel = k;
        info.age = info_.size();
        info_.push_back(info);
        ready_at_.push_back(kernels_[k].arrive);
        next_.push_back(0);
      }
  }

  // The context QawsCore::select reads.
  uint64_t now() const { return now_; }
  std::span<const uint16_t> warps() const { return live_; }
  const WarpInfo& warp(int slot) const { return info_[slot]; }
  WarpStatus status(int slot) const {
    const WarpInfo& i = info_[slot];
    if (!i.valid || i.finished) return WarpStatus::Finished;
    return ready_at_[slot] <= now_ ? WarpStatus::Ready : WarpStatus::RAW;
  }

  // Runs to completion with `pick(subcore)` choosing each cycle's warp (-1 for none) and
  // `issued(subcore, slot)` told of each issue; `observe` runs after each decision; `added` and
  // `removed` are told when a warp arrives and when it leaves (right after its last issue, as
  // if every warp were a CTA of its own).
  ScriptRun run(const std::function<int(const ScriptedSubCore&)>& pick,
                const std::function<void(const ScriptedSubCore&, int)>& issued,
                const std::function<void(ScriptRun&)>& observe = {}, const std::function<void(int)>& added = {},
                const std::function<void(int)>& removed = {}) {
    ScriptRun r;
    r.completion.assign(kernels_.size(), 0);
    size_t left = info_.size();
    for (now_ = 0; left > 0 && now_ < 10000; ++now_) {
      for (size_t w = 0; w < info_.size(); ++w)
        if (!info_[w].valid && kernels_[info_[w].kernel].arrive == now_) {
          info_[w].valid = true;
          live_.push_back(uint16_t(w));  // arrival order is age order
          if (added) added(int(w));
        }
      int s = pick(*this);
      r.issued.push_back(s);
      r.order += s < 0 ? '.' : char(s < 10 ? '0' + s : 'a' + s - 10);
      if (observe) observe(r);
      if (s < 0) continue;
      if (status(s) != WarpStatus::Ready) throw std::logic_error("picked a warp that is not ready");
      issued(*this, s);
      WarpInfo& i = info_[s];
      const std::vector<int>& lat = kernels_[i.kernel].lat;
      ready_at_[s] = now_ + uint64_t(lat[next_[s]]);
      ++i.issued;
      if (++next_[s] == lat.size()) {
        i.finished = true;
        --left;
        r.completion[i.kernel] = std::max(r.completion[i.kernel], ready_at_[s]);
        i.valid = false;
        live_.erase(std::find(live_.begin(), live_.end(), uint16_t(s)));
        if (removed) removed(s);
      }
    }
    return r;
  }

  // Reference policies, written independently of QawsCore.
  int gto(int greedy) const {
    if (greedy >= 0 && status(greedy) == WarpStatus::Ready) return greedy;
    for (uint16_t w : live_)
      if (status(w) == WarpStatus::Ready) return w;
    return -1;
  }
  int lrr(int last) const {
    size_t n = info_.size();
    for (size_t k = 1; k <= n; ++k) {
      size_t w = (size_t(last + 1) + k - 1) % n;
      if (status(int(w)) == WarpStatus::Ready) return int(w);
    }
    return -1;
  }

 private:
  std::vector<ScriptKernel> kernels_;
  std::vector<WarpInfo> info_;
  std::vector<uint64_t> ready_at_;
  std::vector<size_t> next_;
  std::vector<uint16_t> live_;
  uint64_t now_ = 0;
};

inline ScriptRun run_gto(std::vector<ScriptKernel> ks) {
  ScriptedSubCore sc(std::move(ks));
  int greedy = -1;
  return sc.run([&](const ScriptedSubCore& s) { return s.gto(greedy); },
                [&](const ScriptedSubCore&, int w) { greedy = w; });
}

inline ScriptRun run_lrr(std::vector<ScriptKernel> ks) {
  ScriptedSubCore sc(std::move(ks));
  int last = -1;
  return sc.run([&](const ScriptedSubCore& s) { return s.lrr(last); },
                [&](const ScriptedSubCore&, int w) { last = w; });
}

// QAWS with budgets[k] for kernel k; records g0's budget and every kernel's group ncs per cycle.
// With `announce_warps`, the core is told when warps arrive and leave (as the SM does with
// on_warp_added / on_warp_removed); without, it reads each warp's kernel every time.
inline ScriptRun run_qaws(std::vector<ScriptKernel> ks, const std::vector<int64_t>& budgets, QawsDecide decide,
                          QawsCore* out = nullptr, bool announce_warps = true) {
  QawsCore core(decide);
  for (size_t k = 0; k < budgets.size(); ++k) core.set_kernel_budget(uint32_t(k), budgets[k]);
  ScriptedSubCore sc(std::move(ks));
  ScriptRun r = sc.run([&](const ScriptedSubCore& s) { return core.select(s); },
                       [&](const ScriptedSubCore& s, int w) { core.issued(s.now(), w, s.warp(w).kernel); },
                       [&](ScriptRun& rr) {
                         rr.prioritized.push_back(core.prioritized_budget());
                         std::vector<uint64_t> n;
                         for (int64_t b : budgets) n.push_back(core.context_switch_count(b));
                         rr.ncs.push_back(n);
                       },
                       [&](int w) {
                         if (announce_warps) core.warp_added(w);
                       },
                       [&](int w) {
                         if (announce_warps) core.warp_removed(w);
                       });
  if (out) *out = core;
  return r;
}

}  // namespace warpsim::test

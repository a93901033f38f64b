// Per-warp scoreboard: registers with a write in flight and the cycle their value is ready
// (kPending until a memory load returns). Small and flat: a warp rarely has more than a dozen
// writes outstanding.
#pragma once
#include <cstdint>
#include <vector>

#include "core/warp_inst.h"

namespace warpsim {

class Scoreboard {
 public:
  static constexpr uint64_t kPending = ~0ull;
  static constexpr int kCapacity = 32;

  // True when any register `inst` reads or writes is not ready at `now`. Sets *until to the
  // first cycle at which all of them can be ready (kPending while one waits for memory).
  bool blocks(const WarpInst& inst, uint64_t now, uint64_t* until) const {
    uint64_t latest = 0;
    int n = count_;
    int live = 0;  // entries still outstanding at `now` (the others are freed by the next reserve)
    for (int i = 0; i < n; ++i) {
      const Entry& e = entries_[i];
      if (e.ready <= now) continue;
      ++live;
      RegId r = e.reg;
      if (inst.reads(r) || inst.writes(r)) latest = e.ready > latest ? e.ready : latest;
    }
    if (latest == 0 && live >= kCapacity) latest = now + 1;  // full: retry next cycle
    *until = latest;
    return latest != 0;
  }

  // True when a source register of `inst` is still to be written by a long-latency operation
  // (a load from global, local, parameter or texture memory: GPGPU-Sim's "long op").
  bool reads_long_op(const WarpInst& inst, uint64_t now) const {
    for (int i = 0; i < count_; ++i) {
      const Entry& e = entries_[i];
      if (!e.long_op || e.ready <= now) continue;
      RegId r = e.reg;
      if (inst.reads(r)) return true;
    }
    return false;
  }

  // Record a write of `reg` ready at `ready` (kPending: until release()); `long_op` marks the
  // write of a long-latency operation, `over_mark` a write that replaces a long-op mark (below)
  // and keeps the register long-latency until it is ready.
  void reserve(RegId reg, uint64_t ready, uint64_t now, bool long_op = false, bool over_mark = false) {
    if (reg == kNoReg) return;
    compact(now);
    for (int i = 0; i < count_; ++i)
      if (entries_[i].reg == reg) {
        entries_[i].ready = ready;
        entries_[i].long_op = long_op;
        entries_[i].over_mark = over_mark;
        return;
      }
    if (count_ < kCapacity) entries_[count_++] = {reg, long_op, over_mark, ready};
  }

  // Long-op marks (core.long_op_marks_persist): registers a long-latency load wrote, marked once
  // its data is back and kept until an execution unit's write replaces them (GPGPU-Sim's
  // scoreboard releases a load's register without taking it off its long-operation list).
  void mark_long_op(RegId reg) {
    const size_t word = reg / 64;
    if (word >= marks_.size()) marks_.resize(word + 1, 0);
    marks_[word] |= uint64_t(1) << (reg % 64);
  }
  // Takes the mark off `reg`; true when it had one.
  bool unmark_long_op(RegId reg) {
    const size_t word = reg / 64;
    if (word >= marks_.size()) return false;
    const uint64_t bit = uint64_t(1) << (reg % 64);
    const bool had = (marks_[word] & bit) != 0;
    marks_[word] &= ~bit;
    return had;
  }
  // True when a source of `inst` is long-latency in GPGPU-Sim's sense: marked, written by a
  // long-latency load still in flight, or by an execution unit's write over a mark not yet done.
  bool reads_long_op_mark(const WarpInst& inst, uint64_t now) const {
    for (RegId r : inst.src) {
      if (r == kNoReg) continue;
      const size_t word = r / 64;
      if (word < marks_.size() && (marks_[word] >> (r % 64) & 1)) return true;
    }
    for (int i = 0; i < count_; ++i) {
      const Entry& e = entries_[i];
      if ((e.long_op || e.over_mark) && e.ready > now && inst.reads(e.reg)) return true;
    }
    return false;
  }

  // A pending register becomes ready at `ready`.
  void release(RegId reg, uint64_t ready) {
    for (int i = 0; i < count_; ++i)
      if (entries_[i].reg == reg && entries_[i].ready == kPending) {
        entries_[i].ready = ready;
        return;
      }
  }

  // Forgets the writes in flight. The long-op marks stay: GPGPU-Sim's scoreboard lives as long as
  // its SM, so a warp slot's marks pass to the warps that use the slot after it.
  void clear() { count_ = 0; }
  bool empty_at(uint64_t now) {
    compact(now);
    return count_ == 0;
  }
  // Latest ready time of a non-pending entry, or 0.
  uint64_t last_ready() const {
    uint64_t t = 0;
    for (int i = 0; i < count_; ++i)
      if (entries_[i].ready != kPending && entries_[i].ready > t) t = entries_[i].ready;
    return t;
  }
  // Earliest future ready time (> now) of a non-pending entry, or ~0.
  uint64_t next_ready(uint64_t now) const {
    uint64_t t = ~0ull;
    for (int i = 0; i < count_; ++i)
      if (entries_[i].ready > now && entries_[i].ready < t) t = entries_[i].ready;
    return t == kPending ? ~0ull : t;
  }

 private:
  struct Entry {
    RegId reg;
    bool long_op;
    bool over_mark;
    uint64_t ready;
  };
  void compact(uint64_t now) {
    int j = 0;
    for (int i = 0; i < count_; ++i)
      if (entries_[i].ready > now) entries_[j++] = entries_[i];
    count_ = j;
  }
  Entry entries_[kCapacity];
  int count_ = 0;
  std::vector<uint64_t> marks_;  // long-op marks, one bit per register
};

}  // namespace warpsim

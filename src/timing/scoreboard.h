// Per-warp scoreboard: registers with a write in flight and the cycle their value is ready
// (kPending until a memory load returns). Small and flat: a warp rarely has more than a dozen
// writes outstanding.
#pragma once
#include <cstdint>

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
  // write of a long-latency operation.
  void reserve(RegId reg, uint64_t ready, uint64_t now, bool long_op = false) {
    if (reg == kNoReg) return;
    compact(now);
    for (int i = 0; i < count_; ++i)
      if (entries_[i].reg == reg) {
        entries_[i].ready = ready;
        entries_[i].long_op = long_op;
        return;
      }
    if (count_ < kCapacity) entries_[count_++] = {reg, long_op, ready};
  }

  // A pending register becomes ready at `ready`.
  void release(RegId reg, uint64_t ready) {
    for (int i = 0; i < count_; ++i)
      if (entries_[i].reg == reg && entries_[i].ready == kPending) {
        entries_[i].ready = ready;
        return;
      }
  }

  void clear() { count_ = 0; }
  bool empty_at(uint64_t now) {
    compact(now);
    return count_ == 0;
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
};

}  // namespace warpsim

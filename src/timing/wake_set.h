// The future cycles at which something in an SM may change by itself (a unit frees, a result
// is written, a barrier's delay ends): the SM asks only for the earliest one and forgets the
// cycles that have passed. Near cycles, which are nearly all of them, are bits of a ring
// (adding one is a bit set, adding it again changes nothing); cycles beyond the ring wait in a
// min-heap. The earliest cycle is the same as that of one heap holding every cycle added.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "timing/slot_ring.h"

namespace warpsim {

class WakeSet {
 public:
  static constexpr uint32_t kNear = 1024;

  WakeSet() { far_.reserve(64); }

  // A cycle at which to look again; it must lie after the last drop_through().
  void add(uint64_t t) {
    if (near_.in_window(t)) {
      near_.take(t);
      return;
    }
    for (uint64_t r : recent_far_)
      if (r == t) return;
    recent_far_[recent_next_++ & 3] = t;
    far_.push_back(t);
    std::push_heap(far_.begin(), far_.end(), std::greater<uint64_t>());
  }

  // Forgets every cycle up to and including `now`.
  void drop_through(uint64_t now) {
    near_.advance(now + 1);
    while (!far_.empty() && far_.front() <= now) {
      std::pop_heap(far_.begin(), far_.end(), std::greater<uint64_t>());
      far_.pop_back();
    }
  }

  // The earliest cycle added and not dropped, or ~0 if none.
  uint64_t earliest() const {
    uint64_t t = far_.empty() ? ~0ull : far_.front();
    const uint64_t c = near_.cleared_to;
    constexpr uint32_t kWords = kNear / 64;
    const uint64_t w0 = c / 64;
    for (uint32_t i = 0; i <= kWords; ++i) {
      uint64_t bits = near_.bits[(w0 + i) % kWords];
      if (i == 0) bits &= ~0ull << (c % 64);                           // cycles from c on
      if (i == kWords) bits &= (c % 64) ? ~0ull >> (64 - c % 64) : 0;  // the ring's last cycles
      if (bits) return std::min(t, (w0 + i) * 64 + uint64_t(std::countr_zero(bits)));
    }
    return t;
  }

 private:
  SlotRing<kNear> near_;
  std::vector<uint64_t> far_;  // min-heap of the cycles beyond the ring when they were added
  // The last cycles pushed to the heap: a cycle stays there until it has passed, so pushing it
  // again changes nothing.
  std::array<uint64_t, 4> recent_far_{};
  uint32_t recent_next_ = 0;
};

}  // namespace warpsim

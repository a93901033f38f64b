// A window of future cycles (or steps), one bit each, marking those already taken. Indexes
// wrap around a ring of `Bits` entries, so only the next `Bits` positions after the last
// advance() can be taken; advance(now) forgets everything before `now`.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>

namespace warpsim {

template <uint32_t Bits>
struct SlotRing {
  static_assert(Bits % 64 == 0);
  static constexpr uint32_t kSize = Bits;
  uint64_t bits[Bits / 64] = {};
  uint64_t cleared_to = 0;

  bool taken(uint64_t t) const { return bits[(t / 64) % (Bits / 64)] >> (t % 64) & 1; }
  void take(uint64_t t) { bits[(t / 64) % (Bits / 64)] |= 1ull << (t % 64); }
  // Whether `t` is inside the window that starts at the last advance().
  bool in_window(uint64_t t) const { return t >= cleared_to && t - cleared_to < Bits; }
  void advance(uint64_t now) {
    if (now <= cleared_to) return;
    if (now - cleared_to >= Bits) {
      std::fill(std::begin(bits), std::end(bits), 0);
    } else {
      for (uint64_t c = cleared_to; c < now;) {
        uint64_t stop = std::min(now, (c / 64 + 1) * 64);
        uint64_t n = stop - c;
        bits[(c / 64) % (Bits / 64)] &= ~((n >= 64 ? ~0ull : ((1ull << n) - 1)) << (c % 64));
        c = stop;
      }
    }
    cleared_to = now;
  }
};

}  // namespace warpsim

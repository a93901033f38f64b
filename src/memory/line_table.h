// A map from line numbers (a cache line's tag, a line address) to a small integer (the way
// holding it, the newest MSHR entry for it): open addressing with linear probing, which a
// cache with hundreds of ways looks lines up in instead of scanning them. Erasing shifts the
// entries behind the erased one back, so no tombstones build up. ~0 is not a valid key.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace warpsim {

class LineTable {
 public:
  static constexpr uint32_t kAbsent = ~0u;

  // Empties the table, sized for up to `entries` keys at once.
  void reset(size_t entries) {
    const size_t slots = std::bit_ceil(std::max<size_t>(16, entries * 2));
    shift_ = 64 - uint32_t(std::countr_zero(slots));
    mask_ = slots - 1;
    keys_.assign(slots, kEmpty);
    values_.assign(slots, 0);
  }
  uint32_t get(uint64_t key) const {
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return values_[i];
      if (keys_[i] == kEmpty) return kAbsent;
    }
  }
  void set(uint64_t key, uint32_t value) {
    size_t i = home(key);
    while (keys_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask_;
    keys_[i] = key;
    values_[i] = value;
  }
  void erase(uint64_t key) {
    size_t i = home(key);
    while (keys_[i] != key) {
      if (keys_[i] == kEmpty) return;
      i = (i + 1) & mask_;
    }
    // Move back each later entry of the run that may sit at i (its home is not in (i, j]).
    for (size_t j = (i + 1) & mask_; keys_[j] != kEmpty; j = (j + 1) & mask_) {
      const size_t h = home(keys_[j]);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      keys_[i] = keys_[j];
      values_[i] = values_[j];
      i = j;
    }
    keys_[i] = kEmpty;
  }

 private:
  static constexpr uint64_t kEmpty = ~0ull;
  size_t home(uint64_t key) const { return size_t((key * 0x9e3779b97f4a7c15ull) >> shift_); }
  uint32_t shift_ = 60;
  size_t mask_ = 15;
  std::vector<uint64_t> keys_ = std::vector<uint64_t>(16, kEmpty);
  std::vector<uint32_t> values_ = std::vector<uint32_t>(16, 0);
};

}  // namespace warpsim

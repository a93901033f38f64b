#include "runtime/device_heap.h"

#include "runtime/device_memory.h"

namespace warpsim {

bool DeviceHeap::set_size(uint64_t bytes) {
  if (base_) return false;
  size_ = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return true;
}

uint64_t DeviceHeap::allocate(uint64_t bytes) {
  if (size_ == 0) return 0;
  if (!base_) {
    base_ = memory_.allocate(size_);
    free_[0] = size_;
  }
  if (bytes > size_) return 0;
  const uint64_t need = (bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const uint64_t off = it->first, left = it->second - need;
    free_.erase(it);
    if (left) free_[off + need] = left;
    blocks_[base_ + off] = need;
    in_use_ += need;
    return base_ + off;
  }
  return 0;
}

DeviceHeap::FreeResult DeviceHeap::release(uint64_t addr) {
  if (addr == 0) return FreeResult::Freed;
  auto b = blocks_.find(addr);
  if (b == blocks_.end()) return FreeResult::NotAllocated;
  uint64_t off = addr - base_, bytes = b->second;
  blocks_.erase(b);
  in_use_ -= bytes;
  auto next = free_.lower_bound(off);
  if (next != free_.end() && next->first == off + bytes) {
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      prev->second += bytes;
      return FreeResult::Freed;
    }
  }
  free_[off] = bytes;
  return FreeResult::Freed;
}

}  // namespace warpsim

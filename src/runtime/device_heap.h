// The heap of device-side malloc and free (and of C++ new and delete in kernels): one region of
// device memory per runtime, `size` bytes (cudaLimitMallocHeapSize, 8 MiB by default as in
// CUDA), reserved at the first allocation. Blocks are 16-byte aligned and handed out first fit
// from the lowest address; freed blocks merge with free neighbours. Allocations live until
// freed, across kernel launches. The order of the calls (the executor makes them lane by lane,
// warp by warp, CTA by CTA as the timing model dispatches them) fixes every address.
#pragma once
#include <cstdint>
#include <map>

namespace warpsim {

class DeviceMemory;

class DeviceHeap {
 public:
  static constexpr uint64_t kDefaultSize = uint64_t(8) << 20;
  static constexpr uint64_t kAlignment = 16;

  explicit DeviceHeap(DeviceMemory& memory) : memory_(memory) {}
  // The heap's size; false (nothing changes) once the region is reserved, as CUDA refuses to
  // change cudaLimitMallocHeapSize after a kernel used the heap.
  bool set_size(uint64_t bytes);
  uint64_t size() const { return size_; }
  // A block of `bytes` bytes (at least one), 16-byte aligned; 0 when the heap has no room.
  uint64_t allocate(uint64_t bytes);
  enum class FreeResult { Freed, NotAllocated };
  // Frees the block malloc returned at `addr`; free(0) does nothing.
  FreeResult release(uint64_t addr);
  uint64_t bytes_in_use() const { return in_use_; }

 private:
  DeviceMemory& memory_;
  uint64_t size_ = kDefaultSize;
  uint64_t base_ = 0;                    // 0: not reserved yet
  std::map<uint64_t, uint64_t> free_;    // offset -> bytes, disjoint, not adjacent
  std::map<uint64_t, uint64_t> blocks_;  // address -> bytes of each live block
  uint64_t in_use_ = 0;
};

}  // namespace warpsim

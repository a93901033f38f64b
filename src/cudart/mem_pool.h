// Stream-ordered allocation: memory pools (what cudaMemPool_t points to) and the blocks taken
// from them by cudaMallocAsync and cudaMallocFromPoolAsync.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>

namespace warpsim {
class Runtime;
}

namespace warpsim::cudart {

struct MemPool {
  uint64_t max_size = 0;           // bytes the pool may reserve (0: no limit)
  uint64_t release_threshold = 0;  // freed bytes the pool keeps reserved for reuse
  int reuse[3] = {1, 1, 1};        // cudaMemPoolReuse* attributes (kept, no effect)
  uint64_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  std::multimap<uint64_t, uint64_t> cached;  // freed blocks the pool keeps: size -> address
  std::map<uint64_t, uint64_t> live;         // blocks in use: address -> size
  bool destroyed = false;                    // the handle is gone; freed once `live` is empty
};

// The process's pools: the device's default pool, those the program created, and which pool
// cudaMallocAsync takes from (cudaDeviceSetMemPool).
class MemPools {
 public:
  MemPool* default_pool();
  MemPool* current() { return current_ ? current_ : default_pool(); }
  void set_current(MemPool* p) { current_ = p; }
  MemPool* create(uint64_t max_size);
  // The live pool behind a handle; throws ShimError (cudaErrorInvalidValue) otherwise.
  MemPool& pool(const void* handle);
  // Destroys a created pool: its cached blocks are freed now, blocks in use when freed.
  void destroy(Runtime& rt, MemPool& p);

  // A block of at least `bytes` from `p`: a cached block of the same rounded size, or fresh
  // device memory. Throws ShimError (cudaErrorMemoryAllocation) past the pool's max_size.
  uint64_t allocate(Runtime& rt, MemPool& p, uint64_t bytes);
  bool owns(uint64_t addr) const { return owner_.count(addr) != 0; }
  // Returns a block to its pool, which keeps freed blocks up to its release threshold and
  // gives the rest back to the device.
  void release(Runtime& rt, uint64_t addr);
  // Gives cached blocks back to the device until the pool reserves at most `keep` bytes.
  void trim(Runtime& rt, MemPool& p, uint64_t keep);

 private:
  std::unique_ptr<MemPool> default_;
  std::set<MemPool*> created_;
  std::map<uint64_t, MemPool*> owner_;  // block address -> pool
  MemPool* current_ = nullptr;
};

}  // namespace warpsim::cudart

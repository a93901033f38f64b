#include "cudart/mem_pool.h"

#include <fmt/format.h>

#include <algorithm>

#include "cudart/shim.h"
#include "runtime/runtime.h"

namespace warpsim::cudart {

namespace {
// Blocks are reserved in multiples of this, so that freed blocks fit later requests of similar size.
constexpr uint64_t kGranule = 512;
}  // namespace

MemPool* MemPools::default_pool() {
  if (!default_) default_ = std::make_unique<MemPool>();
  return default_.get();
}

MemPool* MemPools::create(uint64_t max_size) {
  auto p = std::make_unique<MemPool>();
  p->max_size = max_size;
  created_.insert(p.get());
  return p.release();
}

MemPool& MemPools::pool(const void* handle) {
  auto* p = static_cast<MemPool*>(const_cast<void*>(handle));
  if (p && (p == default_.get() || (created_.count(p) && !p->destroyed))) return *p;
  throw ShimError(cudaErrorInvalidValue, "unknown memory pool");
}

void MemPools::destroy(Runtime& rt, MemPool& p) {
  if (&p == default_.get())
    throw ShimError(cudaErrorInvalidValue, "the device's default memory pool cannot be destroyed");
  if (current_ == &p) current_ = nullptr;
  p.destroyed = true;
  trim(rt, p, 0);
  if (p.live.empty()) {
    created_.erase(&p);
    delete &p;
  }
}

uint64_t MemPools::allocate(Runtime& rt, MemPool& p, uint64_t bytes) {
  uint64_t size = std::max<uint64_t>(1, (bytes + kGranule - 1) / kGranule) * kGranule;
  uint64_t addr = 0;
  auto it = p.cached.find(size);
  if (it != p.cached.end()) {
    addr = it->second;
    p.cached.erase(it);
  } else {
    if (p.max_size && p.reserved + size > p.max_size)
      throw ShimError(cudaErrorMemoryAllocation, fmt::format("{} bytes exceed the pool's maximum size of {} bytes "
                                                             "({} reserved)",
                                                             bytes, p.max_size, p.reserved));
    try {
      addr = rt.malloc(size);
    } catch (const Error& e) {
      throw ShimError(cudaErrorMemoryAllocation, e.what());
    }
    p.reserved += size;
    p.reserved_high = std::max(p.reserved_high, p.reserved);
  }
  p.live[addr] = size;
  p.used += size;
  p.used_high = std::max(p.used_high, p.used);
  owner_[addr] = &p;
  return addr;
}

void MemPools::release(Runtime& rt, uint64_t addr) {
  auto o = owner_.find(addr);
  if (o == owner_.end()) throw ShimError(cudaErrorInvalidValue, "not a block of a memory pool");
  MemPool& p = *o->second;
  owner_.erase(o);
  auto it = p.live.find(addr);
  uint64_t size = it->second;
  p.live.erase(it);
  p.used -= size;
  p.cached.emplace(size, addr);
  trim(rt, p, p.destroyed ? 0 : p.release_threshold);
  if (p.destroyed && p.live.empty()) {
    created_.erase(&p);
    delete &p;
  }
}

void MemPools::trim(Runtime& rt, MemPool& p, uint64_t keep) {
  // The largest blocks go first: the fewest frees to get under `keep`.
  while (p.reserved > keep && !p.cached.empty()) {
    auto it = std::prev(p.cached.end());
    rt.free(it->second);
    p.reserved -= it->first;
    p.cached.erase(it);
  }
}

}  // namespace warpsim::cudart

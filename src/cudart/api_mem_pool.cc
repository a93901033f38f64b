// Stream-ordered allocation: cudaMallocAsync, cudaFreeAsync and memory pools.
//
// A block is taken from its pool when cudaMallocAsync is called: that is no earlier than the
// stream's work before it needs it, and the block is not in use by anything else. cudaFreeAsync
// waits for the stream's earlier work (simulating it) before the block returns to its pool, so
// work queued later on any stream may reuse it. A pool keeps freed blocks up to its release
// threshold (0 by default: every free gives the memory back to the device at once).
#include <fmt/format.h>

#include <cstring>

#include "cudart/shim.h"

using namespace warpsim::cudart;

#define CUDART_API extern "C" __attribute__((visibility("default")))

namespace {

void* host_ptr(uint64_t p) { return reinterpret_cast<void*>(uintptr_t(p)); }

void check_device(int device) {
  if (device != 0) throw ShimError(cudaErrorInvalidDevice, "the simulator models one GPU (device 0)");
}

void check_location(const cudaMemLocation* loc) {
  if (!loc) throw ShimError(cudaErrorInvalidValue, "null memory location");
  if (loc->type != cudaMemLocationTypeDevice || loc->id != 0)
    throw ShimError(cudaErrorInvalidValue, fmt::format("memory location (type {}, id {}) is not device 0: pools "
                                                       "live in the memory of the simulated device",
                                                       loc->type, loc->id));
}

// CUDA 13's pool calls by memory location and allocation type: device 0's pinned memory only.
void check_pinned_device(const cudaMemLocation* loc, int type) {
  check_location(loc);
  if (type != cudaMemAllocationTypePinned)
    throw ShimError(cudaErrorInvalidValue, fmt::format("allocation type {} is not pinned device memory", type));
}

cudaError_t malloc_from(State& s, const char* api, void** p, size_t n, MemPool* pool, void* stream) {
  if (!p) return cudaErrorInvalidValue;
  s.check_sticky();
  if (Stream* st = s.capturing(stream, api)) {
    // In a capture: a graph allocation node (its memory is the graph's; api_graph.cc).
    if (pool) s.stop(api, "allocation from a given pool during stream capture is not supported");
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeMemAlloc;
    node->mem_bytes = n;
    node->mem_addr = s.graph_allocation(n);
    *p = host_ptr(node->mem_addr);
    s.capture_node(st, std::move(node));
    return cudaSuccess;
  }
  s.stream_id(stream, api);
  MemPool& pl = pool ? s.pools.pool(pool) : *s.pools.current();
  *p = host_ptr(s.pools.allocate(s.rt(), pl, n));
  return cudaSuccess;
}

}  // namespace

CUDART_API cudaError_t cudaMallocAsync(void** p, size_t n, void* stream) {
  return guarded("cudaMallocAsync",
                 [&](State& s) -> cudaError_t { return malloc_from(s, "cudaMallocAsync", p, n, nullptr, stream); });
}

CUDART_API cudaError_t cudaMallocFromPoolAsync(void** p, size_t n, void* pool, void* stream) {
  return guarded("cudaMallocFromPoolAsync", [&](State& s) -> cudaError_t {
    if (!pool) return cudaErrorInvalidValue;
    return malloc_from(s, "cudaMallocFromPoolAsync", p, n, static_cast<MemPool*>(pool), stream);
  });
}

// Frees pool blocks and cudaMalloc memory alike, after the stream's earlier work.
CUDART_API cudaError_t cudaFreeAsync(void* p, void* stream) {
  return guarded("cudaFreeAsync", [&](State& s) -> cudaError_t {
    if (!p) return cudaSuccess;
    uint64_t a = reinterpret_cast<uintptr_t>(p);
    auto graph_mem = s.graph_allocations.find(a);
    if (Stream* st = s.capturing(stream, "cudaFreeAsync")) {
      if (graph_mem == s.graph_allocations.end())
        throw ShimError(cudaErrorInvalidValue, "a graph can free only memory allocated by a graph");
      auto n = std::make_unique<GraphNode>();
      n->type = cudaGraphNodeTypeMemFree;
      n->mem_addr = a;
      n->mem_bytes = graph_mem->second;
      s.capture_node(st, std::move(n));
      return cudaSuccess;
    }
    uint32_t sid = s.stream_id(stream, "cudaFreeAsync");
    s.before_stream_op(sid);
    try {
      if (graph_mem != s.graph_allocations.end()) {
        // graph memory stays where its graph's next launch expects it
      } else if (s.pools.owns(a)) {
        s.pools.release(s.rt(), a);
      } else {
        s.rt().free(a);
      }
    } catch (const warpsim::Error& e) {
      throw ShimError(cudaErrorInvalidValue, e.what());
    }
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDeviceGetDefaultMemPool(void** pool, int device) {
  return guarded("cudaDeviceGetDefaultMemPool", [&](State& s) -> cudaError_t {
    if (!pool) return cudaErrorInvalidValue;
    check_device(device);
    *pool = s.pools.default_pool();
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDeviceGetMemPool(void** pool, int device) {
  return guarded("cudaDeviceGetMemPool", [&](State& s) -> cudaError_t {
    if (!pool) return cudaErrorInvalidValue;
    check_device(device);
    *pool = s.pools.current();
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDeviceSetMemPool(int device, void* pool) {
  return guarded("cudaDeviceSetMemPool", [&](State& s) -> cudaError_t {
    check_device(device);
    s.pools.set_current(&s.pools.pool(pool));
    return cudaSuccess;
  });
}

// CUDA 13's forms by memory location: device 0's pinned pools only.
CUDART_API cudaError_t cudaMemGetDefaultMemPool(void** pool, const cudaMemLocation* loc, int type) {
  return guarded("cudaMemGetDefaultMemPool", [&](State& s) -> cudaError_t {
    if (!pool) return cudaErrorInvalidValue;
    check_pinned_device(loc, type);
    *pool = s.pools.default_pool();
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemGetMemPool(void** pool, const cudaMemLocation* loc, int type) {
  return guarded("cudaMemGetMemPool", [&](State& s) -> cudaError_t {
    if (!pool) return cudaErrorInvalidValue;
    check_pinned_device(loc, type);
    *pool = s.pools.current();
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemSetMemPool(const cudaMemLocation* loc, int type, void* pool) {
  return guarded("cudaMemSetMemPool", [&](State& s) -> cudaError_t {
    check_pinned_device(loc, type);
    s.pools.set_current(&s.pools.pool(pool));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemPoolCreate(void** pool, const cudaMemPoolProps* props) {
  return guarded("cudaMemPoolCreate", [&](State& s) -> cudaError_t {
    if (!pool || !props) return cudaErrorInvalidValue;
    if (props->allocType != cudaMemAllocationTypePinned)
      throw ShimError(cudaErrorInvalidValue,
                      fmt::format("allocation type {}: only pinned (device) pools are supported", props->allocType));
    check_location(&props->location);
    *pool = s.pools.create(props->maxSize);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemPoolDestroy(void* pool) {
  return guarded("cudaMemPoolDestroy", [&](State& s) -> cudaError_t {
    s.pools.destroy(s.rt(), s.pools.pool(pool));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemPoolTrimTo(void* pool, size_t keep) {
  return guarded("cudaMemPoolTrimTo", [&](State& s) -> cudaError_t {
    s.pools.trim(s.rt(), s.pools.pool(pool), keep);
    return cudaSuccess;
  });
}

// Reuse policies are int attributes; the threshold and the byte counts are 64-bit.
CUDART_API cudaError_t cudaMemPoolSetAttribute(void* pool, int attr, void* value) {
  return guarded("cudaMemPoolSetAttribute", [&](State& s) -> cudaError_t {
    MemPool& p = s.pools.pool(pool);
    if (!value) return cudaErrorInvalidValue;
    uint64_t v = 0;
    switch (attr) {
      case cudaMemPoolReuseFollowEventDependencies:
      case cudaMemPoolReuseAllowOpportunistic:
      case cudaMemPoolReuseAllowInternalDependencies:
        std::memcpy(&p.reuse[attr - 1], value, sizeof(int));
        return cudaSuccess;
      case cudaMemPoolAttrReleaseThreshold:
        std::memcpy(&p.release_threshold, value, 8);
        return cudaSuccess;
      case cudaMemPoolAttrReservedMemHigh:
      case cudaMemPoolAttrUsedMemHigh:
        std::memcpy(&v, value, 8);
        if (v != 0) throw ShimError(cudaErrorInvalidValue, "a high watermark can only be reset (to 0)");
        if (attr == cudaMemPoolAttrReservedMemHigh)
          p.reserved_high = p.reserved;
        else
          p.used_high = p.used;
        return cudaSuccess;
      default:
        throw ShimError(cudaErrorInvalidValue, fmt::format("memory pool attribute {} cannot be set", attr));
    }
  });
}

CUDART_API cudaError_t cudaMemPoolGetAttribute(void* pool, int attr, void* value) {
  return guarded("cudaMemPoolGetAttribute", [&](State& s) -> cudaError_t {
    MemPool& p = s.pools.pool(pool);
    if (!value) return cudaErrorInvalidValue;
    uint64_t v = 0;
    switch (attr) {
      case cudaMemPoolReuseFollowEventDependencies:
      case cudaMemPoolReuseAllowOpportunistic:
      case cudaMemPoolReuseAllowInternalDependencies:
        std::memcpy(value, &p.reuse[attr - 1], sizeof(int));
        return cudaSuccess;
      case cudaMemPoolAttrReleaseThreshold:
        v = p.release_threshold;
        break;
      case cudaMemPoolAttrReservedMemCurrent:
        v = p.reserved;
        break;
      case cudaMemPoolAttrReservedMemHigh:
        v = p.reserved_high;
        break;
      case cudaMemPoolAttrUsedMemCurrent:
        v = p.used;
        break;
      case cudaMemPoolAttrUsedMemHigh:
        v = p.used_high;
        break;
      default:
        throw ShimError(cudaErrorInvalidValue, fmt::format("unknown memory pool attribute {}", attr));
    }
    std::memcpy(value, &v, 8);
    return cudaSuccess;
  });
}

// One device: it always has read-write access to its pools.
CUDART_API cudaError_t cudaMemPoolSetAccess(void* pool, const cudaMemAccessDesc* descs, size_t count) {
  return guarded("cudaMemPoolSetAccess", [&](State& s) -> cudaError_t {
    s.pools.pool(pool);
    if (count && !descs) return cudaErrorInvalidValue;
    for (size_t i = 0; i < count; ++i) {
      check_location(&descs[i].location);
      if (descs[i].flags != cudaMemAccessFlagsProtReadWrite)
        throw ShimError(cudaErrorInvalidValue, "the pool's own device keeps read-write access");
    }
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemPoolGetAccess(int* flags, void* pool, cudaMemLocation* loc) {
  return guarded("cudaMemPoolGetAccess", [&](State& s) -> cudaError_t {
    if (!flags) return cudaErrorInvalidValue;
    s.pools.pool(pool);
    check_location(loc);
    *flags = cudaMemAccessFlagsProtReadWrite;
    return cudaSuccess;
  });
}

// Device, host-pinned and array memory; copies, memsets and symbols.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cudart/shim.h"
#include "runtime/device_memory.h"

using namespace warpsim::cudart;
using warpsim::DevPtr;

#define CUDART_API extern "C" __attribute__((visibility("default")))

namespace {

DevPtr dev(const void* p) { return DevPtr(reinterpret_cast<uintptr_t>(p)); }
void* host_ptr(DevPtr p) { return reinterpret_cast<void*>(uintptr_t(p)); }

// Device memory proper: managed, pinned and registered host memory is mapped for the device
// too, but copies treat it as the host memory it is (an H2D copy from pinned memory stays one).
bool is_device(State& s, const void* p) { return s.mem().is_mapped(dev(p), 1) && !s.host_range(p); }

// Resolves cudaMemcpyDefault from where the pointers lie.
int direction(State& s, int kind, const void* dst, const void* src) {
  if (kind < 0 || kind > 4) throw ShimError(cudaErrorInvalidMemcpyDirection, fmt::format("invalid copy kind {}", kind));
  if (kind != cudaMemcpyDefault) return kind;
  bool d = is_device(s, dst), sd = is_device(s, src);
  return d ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
           : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

void check_host(const void* p, size_t n, const char* what) {
  if (n && !p) throw ShimError(cudaErrorInvalidValue, fmt::format("{} pointer is null", what));
}

// One copy after its stream's earlier work; kernels on other streams keep running. Copies
// between host and device reach the launch target (l2.fill_on_copy) unless they are symbol
// copies (`engine` false), which GPGPU-Sim 4.2 writes without the L2 fill.
void copy(State& s, void* dst, const void* src, size_t n, int kind, uint32_t stream, bool engine = true) {
  kind = direction(s, kind, dst, src);
  if (n == 0) return;
  s.before_stream_op(stream);
  auto& m = s.mem();
  switch (kind) {
    case cudaMemcpyHostToHost:
      check_host(dst, n, "destination");
      check_host(src, n, "source");
      std::memmove(dst, src, n);
      break;
    case cudaMemcpyHostToDevice:
      check_host(src, n, "source");
      m.write(dev(dst), src, n);
      if (engine) s.rt().target().copied(dev(dst), n, true);
      break;
    case cudaMemcpyDeviceToHost:
      check_host(dst, n, "destination");
      m.read(dev(src), dst, n);
      if (engine) s.rt().target().copied(dev(src), n, false);
      break;
    default:
      m.copy(dev(dst), dev(src), n);
  }
}

// Rows of a 2D copy between pitched regions.
void copy2d(State& s, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind,
            uint32_t stream) {
  if (width > dpitch || width > spitch)
    throw ShimError(cudaErrorInvalidPitchValue,
                    fmt::format("row width {} exceeds a pitch ({} / {})", width, dpitch, spitch));
  kind = direction(s, kind, dst, src);
  for (size_t r = 0; r < height; ++r)
    copy(s, static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width, kind, stream);
}

// A copy of `height` rows of `width` bytes between pitched regions, as a 3D copy's parameters.
cudaMemcpy3DParms pitched_copy(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                               int kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{const_cast<void*>(src), spitch, width, height};
  p.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
  p.extent = cudaExtent{width, height, 1};
  p.kind = cudaMemcpyKind(kind);
  return p;
}

// When `stream` takes part in a stream capture, records the copy as a graph node (it runs when
// the graph is launched) and returns true.
bool captured_copy(State& s, void* stream, const char* api, const cudaMemcpy3DParms& p) {
  Stream* st = s.capturing(stream, api);
  if (!st) return false;
  if (p.kind < 0 || p.kind > 4)
    throw ShimError(cudaErrorInvalidMemcpyDirection, fmt::format("invalid copy kind {}", int(p.kind)));
  auto n = std::make_unique<GraphNode>();
  n->type = cudaGraphNodeTypeMemcpy;
  n->copy = p;
  s.capture_node(st, std::move(n));
  return true;
}

bool captured_memset(State& s, void* stream, const char* api, void* dst, size_t pitch, int value, size_t width,
                     size_t height) {
  Stream* st = s.capturing(stream, api);
  if (!st) return false;
  auto n = std::make_unique<GraphNode>();
  n->type = cudaGraphNodeTypeMemset;
  n->memset = cudaMemsetParams{dst, pitch, unsigned(uint8_t(value)), 1, width, height};
  s.capture_node(st, std::move(n));
  return true;
}

// One side of a 3D copy: where its first byte lies, its row and slice pitches in bytes.
struct CopySide {
  char* base = nullptr;
  size_t pitch = 0, slice = 0;
};

CopySide copy_side(State& s, CudaArray* array, const cudaPitchedPtr& ptr, const cudaPos& pos, size_t width_bytes,
                   size_t height, size_t depth, const char* what) {
  if (array && ptr.ptr)
    throw ShimError(cudaErrorInvalidValue, fmt::format("the {} is both an array and a pointer", what));
  CopySide c;
  if (array) {
    CudaArray& a = s.array(array, "cudaMemcpy3D");
    size_t x = pos.x * a.elem_bytes;
    if (x + width_bytes > a.pitch || pos.y + height > a.height || pos.z + depth > a.depth)
      throw ShimError(cudaErrorInvalidValue,
                      fmt::format("the copy ({} bytes x {} x {} at ({}, {}, {})) exceeds the {} array ({} x {} x {})",
                                  width_bytes, height, depth, pos.x, pos.y, pos.z, what, a.width, a.height, a.depth));
    c.pitch = a.pitch;
    c.slice = a.pitch * a.height;
    c.base = static_cast<char*>(host_ptr(a.data)) + pos.z * c.slice + pos.y * c.pitch + x;
    return c;
  }
  if (!ptr.ptr) throw ShimError(cudaErrorInvalidValue, fmt::format("the {} has neither an array nor a pointer", what));
  if (pos.x + width_bytes > ptr.pitch)
    throw ShimError(cudaErrorInvalidPitchValue, fmt::format("{} bytes at x = {} exceed the {} pitch of {} bytes",
                                                            width_bytes, pos.x, what, ptr.pitch));
  c.pitch = ptr.pitch;
  c.slice = ptr.pitch * std::max<size_t>(1, ptr.ysize);
  c.base = static_cast<char*>(ptr.ptr) + pos.z * c.slice + pos.y * c.pitch + pos.x;
  return c;
}

}  // namespace

namespace warpsim::cudart {

void copy_3d(State& s, const cudaMemcpy3DParms& p, uint32_t stream) {
  size_t elem = p.srcArray ? s.array(p.srcArray, "cudaMemcpy3D").elem_bytes
                           : (p.dstArray ? s.array(p.dstArray, "cudaMemcpy3D").elem_bytes : 1);
  if (p.srcArray && p.dstArray && s.array(p.dstArray, "cudaMemcpy3D").elem_bytes != elem)
    throw ShimError(cudaErrorInvalidValue, "the arrays' elements differ in size");
  size_t width = p.extent.width * elem, height = p.extent.height, depth = p.extent.depth;
  if (width == 0 || height == 0 || depth == 0) return;
  CopySide src = copy_side(s, p.srcArray, p.srcPtr, p.srcPos, width, height, depth, "source");
  CopySide dst = copy_side(s, p.dstArray, p.dstPtr, p.dstPos, width, height, depth, "destination");
  int kind = direction(s, p.kind, dst.base, src.base);
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      copy(s, dst.base + z * dst.slice + y * dst.pitch, src.base + z * src.slice + y * src.pitch, width, kind, stream);
}

void memset_2d(State& s, const cudaMemsetParams& p, uint32_t stream) {
  unsigned e = p.elementSize;
  if (e != 1 && e != 2 && e != 4)
    throw ShimError(cudaErrorInvalidValue, fmt::format("memset element size {} (1, 2 or 4 bytes)", e));
  size_t row = p.width * e;
  if (p.height > 1 && p.pitch < row)
    throw ShimError(cudaErrorInvalidPitchValue, fmt::format("row of {} bytes exceeds the pitch {}", row, p.pitch));
  if (row == 0 || p.height == 0) return;
  s.before_stream_op(stream);
  std::vector<uint8_t> pattern;
  if (e > 1) {
    pattern.resize(row);
    for (size_t i = 0; i < row; ++i) pattern[i] = uint8_t(p.value >> (8 * (i % e)));
  }
  for (size_t r = 0; r < p.height; ++r) {
    DevPtr at = dev(p.dst) + r * p.pitch;
    if (e == 1)
      s.mem().fill(at, uint8_t(p.value), row);
    else
      s.mem().write(at, pattern.data(), row);
  }
}

}  // namespace warpsim::cudart

// ------------------------------------------------------------------ allocation

CUDART_API cudaError_t cudaMalloc(void** p, size_t n) {
  return guarded("cudaMalloc", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    s.check_sticky();
    try {
      *p = host_ptr(s.rt().malloc(n ? n : 1));
    } catch (const warpsim::Error& e) {
      throw ShimError(cudaErrorMemoryAllocation, e.what());
    }
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaFree(void* p) {
  return guarded("cudaFree", [&](State& s) {
    if (!p) return cudaSuccess;
    auto it = s.host_ranges.find(reinterpret_cast<uintptr_t>(p));
    if (it != s.host_ranges.end() && it->second.kind == HostRange::Managed) {
      s.sync_all();
      s.release_host_range(it->first);
      return cudaSuccess;
    }
    s.sync_all();
    try {
      if (s.graph_allocations.count(dev(p))) {
        // graph memory stays where its graph's next launch expects it (api_graph.cc)
      } else if (s.pools.owns(dev(p))) {
        s.pools.release(s.rt(), dev(p));  // a block from cudaMallocAsync goes back to its pool
      } else {
        s.rt().free(dev(p));
      }
    } catch (const warpsim::Error& e) {
      throw ShimError(cudaErrorInvalidDevicePointer, e.what());
    }
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  return guarded("cudaMallocPitch", [&](State& s) {
    if (!p || !pitch) return cudaErrorInvalidValue;
    size_t pt = (width + 255) / 256 * 256;
    if (pt == 0) pt = 256;
    *p = host_ptr(s.rt().malloc(pt * (height ? height : 1)));
    *pitch = pt;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMalloc3D(cudaPitchedPtr* pp, cudaExtent e) {
  return guarded("cudaMalloc3D", [&](State& s) {
    if (!pp) return cudaErrorInvalidValue;
    size_t pt = std::max<size_t>(256, (e.width + 255) / 256 * 256);
    size_t rows = std::max<size_t>(1, e.height) * std::max<size_t>(1, e.depth);
    pp->ptr = host_ptr(s.rt().malloc(pt * rows));
    pp->pitch = pt;
    pp->xsize = e.width;
    pp->ysize = e.height;
    return cudaSuccess;
  });
}

// Pinned host memory is mapped, as CUDA maps it under unified addressing: the device reaches
// the same bytes at the same address, so cudaHostGetDevicePointer returns the host pointer.
namespace {

constexpr unsigned kHostAllocMapped = 0x02;
constexpr unsigned kHostAllocFlags = 0x01 | 0x02 | 0x04;            // Portable, Mapped, WriteCombined
constexpr unsigned kHostRegisterFlags = 0x01 | 0x02 | 0x04 | 0x08;  // Portable, Mapped, IoMemory, ReadOnly
constexpr unsigned kMemAttachGlobal = 0x01, kMemAttachHost = 0x02, kMemAttachSingle = 0x04;

// How the process maps [a, end): 0 when some page is not mapped, 1 when every page is readable
// but some is not writable, 2 when every page is readable and writable (from /proc/self/maps).
int host_access(uintptr_t a, uintptr_t end) {
  a &= ~uintptr_t(4095);
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (!f) return 2;  // cannot tell: trust the program
  int access = 2;
  char line[512];
  while (a < end && std::fgets(line, sizeof line, f)) {
    unsigned long lo = 0, hi = 0;
    char perms[8] = {};
    if (std::sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || hi <= a) continue;
    if (lo > a || perms[0] != 'r') {  // a hole before this mapping, or unreadable
      access = 0;
      break;
    }
    if (perms[1] != 'w') access = 1;
    a = hi;
  }
  std::fclose(f);
  return a < end ? 0 : access;
}

// Host memory the device reaches at the same address (pinned or managed), recorded as a range.
void* alloc_host_range(State& s, HostRange::Kind kind, size_t n, unsigned flags) {
  HostRange r;
  r.kind = kind;
  r.size = n;
  r.flags = flags;
  void* q = s.alloc_device_visible(n, &r.mapped);
  r.device = true;
  s.host_ranges[reinterpret_cast<uintptr_t>(q)] = r;
  return q;
}

cudaError_t host_alloc(State& s, void** p, size_t n, unsigned flags) {
  if (!p) return cudaErrorInvalidValue;
  if (flags & ~kHostAllocFlags) throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
  *p = alloc_host_range(s, HostRange::Pinned, n, flags);
  return cudaSuccess;
}

// The managed range holding [p, p+n), or a ShimError.
HostRange& managed_range(State& s, const void* p, size_t n) {
  auto* r = s.host_range(p, std::max<size_t>(n, 1));
  if (!r || r->second.kind != HostRange::Managed)
    throw ShimError(cudaErrorInvalidValue,
                    fmt::format("{} bytes at {} are not managed memory (cudaMallocManaged, __managed__)", n, p));
  return r->second;
}

}  // namespace

CUDART_API cudaError_t cudaMallocHost(void** p, size_t n) {
  return guarded("cudaMallocHost", [&](State& s) { return host_alloc(s, p, n, 0); });
}

CUDART_API cudaError_t cudaHostAlloc(void** p, size_t n, unsigned flags) {
  return guarded("cudaHostAlloc", [&](State& s) { return host_alloc(s, p, n, flags); });
}

CUDART_API cudaError_t cudaFreeHost(void* p) {
  return guarded("cudaFreeHost", [&](State& s) {
    if (!p) return cudaSuccess;
    auto it = s.host_ranges.find(reinterpret_cast<uintptr_t>(p));
    if (it == s.host_ranges.end() || it->second.kind != HostRange::Pinned)
      throw ShimError(cudaErrorInvalidValue, "pointer was not allocated by cudaMallocHost or cudaHostAlloc");
    s.release_host_range(it->first);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaHostRegister(void* p, size_t n, unsigned flags) {
  return guarded("cudaHostRegister", [&](State& s) {
    if (!p || n == 0) throw ShimError(cudaErrorInvalidValue, "null pointer or zero size");
    if (flags & ~kHostRegisterFlags) throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (a + n < a) throw ShimError(cudaErrorInvalidValue, "the range wraps around");
    auto it = s.host_ranges.lower_bound(a);
    bool overlaps =
        (it != s.host_ranges.end() && it->first < a + n) ||
        (it != s.host_ranges.begin() && std::prev(it)->first + std::max<size_t>(1, std::prev(it)->second.size) > a);
    if (overlaps || s.mem().is_mapped(a, 1))
      throw ShimError(
          cudaErrorHostMemoryAlreadyRegistered,
          fmt::format("{} bytes at {} overlap memory that is already registered, pinned, managed or on the device", n,
                      p));
    // Kernels may write what is mapped for them: the range must be writable host memory.
    int access = host_access(a, a + n);
    if (access == 0)
      throw ShimError(cudaErrorInvalidValue, fmt::format("{} bytes at {} are not all mapped host memory", n, p));
    if (access == 1 && !(flags & 0x08))
      throw ShimError(
          cudaErrorInvalidValue,
          fmt::format("{} bytes at {} are read-only host memory: that needs cudaHostRegisterReadOnly", n, p));
    if (access == 1)
      s.stop("cudaHostRegister", fmt::format("{} bytes at {} are read-only host memory, which warpsim cannot map for "
                                             "the device (cudaHostRegisterReadOnly)",
                                             n, p));
    HostRange r;
    r.kind = HostRange::Registered;
    r.size = n;
    r.flags = flags;
    r.device = s.map_host(p, n);
    if (!r.device && (flags & kHostAllocMapped))
      s.stop("cudaHostRegister",
             fmt::format("{} bytes at {} lie where the simulated device keeps its own addresses, so they cannot be "
                         "mapped for the device (cudaHostRegisterMapped)",
                         n, p));
    s.host_ranges[a] = r;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaHostUnregister(void* p) {
  return guarded("cudaHostUnregister", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    auto it = s.host_ranges.find(reinterpret_cast<uintptr_t>(p));
    if (it == s.host_ranges.end() || it->second.kind != HostRange::Registered)
      throw ShimError(cudaErrorHostMemoryNotRegistered,
                      fmt::format("{} is not the start of a cudaHostRegister range", p));
    s.release_host_range(it->first);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaHostGetDevicePointer(void** dev_ptr, void* host, unsigned flags) {
  return guarded("cudaHostGetDevicePointer", [&](State& s) {
    if (!dev_ptr || !host) throw ShimError(cudaErrorInvalidValue, "null pointer");
    if (flags != 0) throw ShimError(cudaErrorInvalidValue, fmt::format("flags must be 0 (got {:#x})", flags));
    auto* r = s.host_range(host);
    if (!r || !r->second.device)
      throw ShimError(
          cudaErrorInvalidValue,
          fmt::format("{} is not in mapped host memory (cudaHostAlloc, cudaMallocHost, cudaHostRegister)", host));
    *dev_ptr = host;  // unified addressing: the device reaches the host bytes at their address
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaHostGetFlags(unsigned* flags, void* host) {
  return guarded("cudaHostGetFlags", [&](State& s) {
    if (!flags) return cudaErrorInvalidValue;
    auto* r = s.host_range(host);
    if (!r || r->second.kind != HostRange::Pinned)
      throw ShimError(cudaErrorInvalidValue,
                      fmt::format("{} was not allocated by cudaHostAlloc or cudaMallocHost", host));
    *flags = r->second.flags | kHostAllocMapped;
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ managed memory
//
// Managed memory is host memory that the simulated device reaches at the same address: the
// host and the kernels read and write the same bytes, nothing is copied or migrated, and
// kernels see it as global memory with the timing of any other global access. Kernels run
// when the host waits for them, so the host may touch it only while no kernel that uses it is
// pending (after a synchronisation), as on GPUs without concurrent managed access.

CUDART_API cudaError_t cudaMallocManaged(void** p, size_t n, unsigned flags) {
  return guarded("cudaMallocManaged", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    if (n == 0) throw ShimError(cudaErrorInvalidValue, "size 0");
    if (flags != kMemAttachGlobal && flags != kMemAttachHost)
      throw ShimError(cudaErrorInvalidValue,
                      fmt::format("flags must be cudaMemAttachGlobal or cudaMemAttachHost (got {:#x})", flags));
    s.check_sticky();
    *p = alloc_host_range(s, HostRange::Managed, n, flags);
    return cudaSuccess;
  });
}

// Prefetches, advice and stream attachment move nothing (the bytes are shared already) and
// take no simulated time. The arguments that follow the range differ between CUDA 12 and 13
// (device ordinal or cudaMemLocation) and are not looked at.
CUDART_API cudaError_t cudaMemPrefetchAsync(const void* p, size_t n) {
  return guarded("cudaMemPrefetchAsync", [&](State& s) {
    s.check_sticky();
    managed_range(s, p, n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemAdvise(const void* p, size_t n, int advice) {
  return guarded("cudaMemAdvise", [&](State& s) {
    if (advice < 1 || advice > 6) throw ShimError(cudaErrorInvalidValue, fmt::format("invalid advice {}", advice));
    managed_range(s, p, n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamAttachMemAsync(void* stream, void* p, size_t n, unsigned flags) {
  return guarded("cudaStreamAttachMemAsync", [&](State& s) {
    s.stream(stream, "cudaStreamAttachMemAsync");
    if (flags != kMemAttachGlobal && flags != kMemAttachHost && flags != kMemAttachSingle)
      throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
    HostRange& r = managed_range(s, p, n);
    if (n != 0 && n != r.size) throw ShimError(cudaErrorInvalidValue, "the length must be 0 or the whole allocation");
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  return guarded("cudaMemGetInfo", [&](State& s) {
    const uint64_t capacity = s.config().global_memory;
    uint64_t used = s.mem().bytes_allocated();
    if (free_bytes) *free_bytes = used < capacity ? capacity - used : 0;
    if (total) *total = capacity;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* p) {
  return guarded("cudaPointerGetAttributes", [&](State& s) {
    if (!a) return cudaErrorInvalidValue;
    std::memset(a, 0, sizeof(*a));
    a->device = s.device;
    auto* r = s.host_range(p);
    if (r && r->second.kind == HostRange::Managed) {
      a->type = cudaMemoryTypeManaged;
      a->devicePointer = const_cast<void*>(p);
      a->hostPointer = const_cast<void*>(p);
    } else if (r) {
      a->type = cudaMemoryTypeHost;
      a->devicePointer = r->second.device ? const_cast<void*>(p) : nullptr;
      a->hostPointer = const_cast<void*>(p);
    } else if (is_device(s, p)) {
      a->type = cudaMemoryTypeDevice;
      a->devicePointer = const_cast<void*>(p);
    } else {
      a->type = cudaMemoryTypeUnregistered;
      a->hostPointer = const_cast<void*>(p);
      a->device = -2;
    }
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ copies

CUDART_API cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, int kind) {
  return guarded("cudaMemcpy", [&](State& s) {
    s.check_sticky();
    copy(s, dst, src, n, kind, 0);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, int kind, void* stream) {
  return guarded("cudaMemcpyAsync", [&](State& s) {
    s.check_sticky();
    if (captured_copy(s, stream, "cudaMemcpyAsync", pitched_copy(dst, n, src, n, n, 1, kind))) return cudaSuccess;
    copy(s, dst, src, n, kind, s.stream_id(stream, "cudaMemcpyAsync"));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                    size_t height, int kind) {
  return guarded("cudaMemcpy2D", [&](State& s) {
    s.check_sticky();
    copy2d(s, dst, dpitch, src, spitch, width, height, kind, 0);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                         size_t height, int kind, void* stream) {
  return guarded("cudaMemcpy2DAsync", [&](State& s) {
    s.check_sticky();
    if (width > dpitch || width > spitch)
      throw ShimError(cudaErrorInvalidPitchValue,
                      fmt::format("row width {} exceeds a pitch ({} / {})", width, dpitch, spitch));
    if (captured_copy(s, stream, "cudaMemcpy2DAsync", pitched_copy(dst, dpitch, src, spitch, width, height, kind)))
      return cudaSuccess;
    copy2d(s, dst, dpitch, src, spitch, width, height, kind, s.stream_id(stream, "cudaMemcpy2DAsync"));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemset(void* p, int value, size_t n) {
  return guarded("cudaMemset", [&](State& s) {
    s.check_sticky();
    if (n == 0) return cudaSuccess;
    s.before_stream_op(0);
    s.mem().fill(dev(p), uint8_t(value), n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemsetAsync(void* p, int value, size_t n, void* stream) {
  return guarded("cudaMemsetAsync", [&](State& s) {
    s.check_sticky();
    if (captured_memset(s, stream, "cudaMemsetAsync", p, n, value, n, 1)) return cudaSuccess;
    uint32_t sid = s.stream_id(stream, "cudaMemsetAsync");
    if (n == 0) return cudaSuccess;
    s.before_stream_op(sid);
    s.mem().fill(dev(p), uint8_t(value), n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height) {
  return guarded("cudaMemset2D", [&](State& s) {
    s.check_sticky();
    if (width > pitch) throw ShimError(cudaErrorInvalidPitchValue, "width exceeds the pitch");
    s.before_stream_op(0);
    for (size_t r = 0; r < height; ++r) s.mem().fill(dev(p) + r * pitch, uint8_t(value), width);
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ symbols

namespace {

DevPtr symbol_address(State& s, const void* symbol, const char* api, uint64_t* size) {
  Variable& v = s.variable(symbol, api);
  Module& m = s.loaded(*v.module);
  try {
    return s.rt().symbol_address(m.handle, v.name, size);
  } catch (const warpsim::Error& e) {
    throw ShimError(cudaErrorInvalidSymbol, e.what());
  }
}

void symbol_range(State& s, const void* symbol, size_t n, size_t offset, const char* api, DevPtr* addr) {
  uint64_t size = 0;
  *addr = symbol_address(s, symbol, api, &size);
  if (offset > size || n > size - offset)
    throw ShimError(cudaErrorInvalidValue,
                    fmt::format("{} bytes at offset {} exceed the variable's {} bytes", n, offset, size));
  *addr += offset;
}

}  // namespace

CUDART_API cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t n, size_t offset, int kind) {
  return guarded("cudaMemcpyToSymbol", [&](State& s) {
    s.check_sticky();
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
      return cudaErrorInvalidMemcpyDirection;
    DevPtr a;
    symbol_range(s, symbol, n, offset, "cudaMemcpyToSymbol", &a);
    copy(s, host_ptr(a), src, n, kind, 0, false);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t n, size_t offset, int kind) {
  return guarded("cudaMemcpyFromSymbol", [&](State& s) {
    s.check_sticky();
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
      return cudaErrorInvalidMemcpyDirection;
    DevPtr a;
    symbol_range(s, symbol, n, offset, "cudaMemcpyFromSymbol", &a);
    copy(s, dst, host_ptr(a), n, kind, 0, false);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t n, size_t offset, int kind,
                                               void* stream) {
  return guarded("cudaMemcpyToSymbolAsync", [&](State& s) {
    s.check_sticky();
    DevPtr a;
    symbol_range(s, symbol, n, offset, "cudaMemcpyToSymbolAsync", &a);
    if (captured_copy(s, stream, "cudaMemcpyToSymbolAsync", pitched_copy(host_ptr(a), n, src, n, n, 1, kind)))
      return cudaSuccess;
    copy(s, host_ptr(a), src, n, kind, s.stream_id(stream, "cudaMemcpyToSymbolAsync"), false);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t n, size_t offset, int kind,
                                                 void* stream) {
  return guarded("cudaMemcpyFromSymbolAsync", [&](State& s) {
    s.check_sticky();
    DevPtr a;
    symbol_range(s, symbol, n, offset, "cudaMemcpyFromSymbolAsync", &a);
    if (captured_copy(s, stream, "cudaMemcpyFromSymbolAsync", pitched_copy(dst, n, host_ptr(a), n, n, 1, kind)))
      return cudaSuccess;
    copy(s, dst, host_ptr(a), n, kind, s.stream_id(stream, "cudaMemcpyFromSymbolAsync"), false);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGetSymbolAddress(void** p, const void* symbol) {
  return guarded("cudaGetSymbolAddress", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    *p = host_ptr(symbol_address(s, symbol, "cudaGetSymbolAddress", nullptr));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGetSymbolSize(size_t* n, const void* symbol) {
  return guarded("cudaGetSymbolSize", [&](State& s) {
    if (!n) return cudaErrorInvalidValue;
    uint64_t size = 0;
    symbol_address(s, symbol, "cudaGetSymbolSize", &size);
    *n = size;
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ CUDA arrays

CUDART_API cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  cudaChannelFormatDesc d{x, y, z, w, cudaChannelFormatKind(f)};
  return d;
}

namespace {

// A CUDA array of width x height x depth elements (height and depth at least 1), rows packed.
cudaError_t make_array(State& s, CudaArray** out, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                       size_t depth, unsigned flags) {
  if (!out || !desc || width == 0) return cudaErrorInvalidValue;
  int bits = desc->x;
  int channels = (desc->x > 0) + (desc->y > 0) + (desc->z > 0) + (desc->w > 0);
  if ((bits != 8 && bits != 16 && bits != 32) || (channels != 1 && channels != 2 && channels != 4) ||
      (desc->y && desc->y != bits) || (desc->z && desc->z != bits) || (desc->w && desc->w != bits))
    throw ShimError(
        cudaErrorInvalidChannelDescriptor,
        fmt::format("channel format ({}, {}, {}, {}) is not supported: 1, 2 or 4 channels of 8, 16 or 32 bits", desc->x,
                    desc->y, desc->z, desc->w));
  auto a = std::make_unique<CudaArray>();
  a->width = width;
  a->height = height ? height : 1;
  a->depth = depth ? depth : 1;
  a->three_d = depth > 0;
  a->one_d_layered = (flags & kArrayLayered) && height == 0;
  a->flags = flags;
  a->elem_bytes = size_t(bits / 8) * size_t(channels);
  a->pitch = width * a->elem_bytes;
  a->desc = *desc;
  a->data = s.rt().malloc(a->pitch * a->height * a->depth);
  *out = a.get();
  s.arrays.insert(a.release());
  return cudaSuccess;
}

}  // namespace

CUDART_API cudaError_t cudaMallocArray(CudaArray** out, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                                       unsigned flags) {
  return guarded("cudaMallocArray", [&](State& s) {
    if (flags & ~unsigned(kArraySurfaceLoadStore | kArrayTextureGather | kArrayColorAttachment))
      throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
    return make_array(s, out, desc, width, height, 0, flags);
  });
}

// Layered arrays (extent.depth layers of width x height, or of width elements when the height
// is 0), cubemaps (extent width x width x 6) and layered cubemaps (width x width x 6 x layers).
CUDART_API cudaError_t cudaMalloc3DArray(CudaArray** out, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                         unsigned flags) {
  return guarded("cudaMalloc3DArray", [&](State& s) {
    if (flags &
        ~unsigned(kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap | kArrayTextureGather | kArrayColorAttachment))
      throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
    if (flags & kArrayCubemap) {
      if (extent.width != extent.height)
        throw ShimError(cudaErrorInvalidValue, "a cubemap array needs width == height");
      if ((flags & kArrayLayered) ? (extent.depth == 0 || extent.depth % 6) : extent.depth != 6)
        throw ShimError(cudaErrorInvalidValue, (flags & kArrayLayered)
                                                   ? "a layered cubemap array needs a depth that is a multiple of 6"
                                                   : "a cubemap array needs a depth of 6");
    } else if (flags & kArrayLayered) {
      if (extent.depth == 0) throw ShimError(cudaErrorInvalidValue, "a layered array needs a depth (its layers)");
    } else if (extent.depth && !extent.height) {
      throw ShimError(cudaErrorInvalidValue, "a 3D array needs a height");
    }
    return make_array(s, out, desc, extent.width, extent.height, extent.depth, flags);
  });
}

CUDART_API cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  return guarded("cudaMemcpy3D", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    s.check_sticky();
    copy_3d(s, *p, 0);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, void* stream) {
  return guarded("cudaMemcpy3DAsync", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    s.check_sticky();
    if (captured_copy(s, stream, "cudaMemcpy3DAsync", *p)) return cudaSuccess;
    copy_3d(s, *p, s.stream_id(stream, "cudaMemcpy3DAsync"));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaFreeArray(CudaArray* a) {
  return guarded("cudaFreeArray", [&](State& s) {
    if (!a) return cudaSuccess;
    CudaArray& arr = s.array(a, "cudaFreeArray");
    s.sync_all();
    s.rt().free(arr.data);
    s.arrays.erase(a);
    delete a;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpy2DToArray(CudaArray* dst, size_t w_off, size_t h_off, const void* src, size_t spitch,
                                           size_t width, size_t height, int kind) {
  return guarded("cudaMemcpy2DToArray", [&](State& s) {
    s.check_sticky();
    CudaArray& a = s.array(dst, "cudaMemcpy2DToArray");
    if (w_off + width > a.pitch || h_off + height > a.height)
      throw ShimError(cudaErrorInvalidValue, "the copy exceeds the array");
    copy2d(s, host_ptr(a.data + h_off * a.pitch + w_off), a.pitch, src, spitch, width, height,
           kind == cudaMemcpyDefault
               ? cudaMemcpyDefault
               : (kind == cudaMemcpyHostToDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice),
           0);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, CudaArray* src, size_t w_off, size_t h_off,
                                             size_t width, size_t height, int kind) {
  return guarded("cudaMemcpy2DFromArray", [&](State& s) {
    s.check_sticky();
    CudaArray& a = s.array(src, "cudaMemcpy2DFromArray");
    if (w_off + width > a.pitch || h_off + height > a.height)
      throw ShimError(cudaErrorInvalidValue, "the copy exceeds the array");
    copy2d(s, dst, dpitch, host_ptr(a.data + h_off * a.pitch + w_off), a.pitch, width, height,
           kind == cudaMemcpyDefault
               ? cudaMemcpyDefault
               : (kind == cudaMemcpyDeviceToHost ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice),
           0);
    return cudaSuccess;
  });
}

// Linear copy into an array starting at (w_off bytes, h_off rows), wrapping at row ends.
CUDART_API cudaError_t cudaMemcpyToArray(CudaArray* dst, size_t w_off, size_t h_off, const void* src, size_t n,
                                         int kind) {
  return guarded("cudaMemcpyToArray", [&](State& s) {
    s.check_sticky();
    CudaArray& a = s.array(dst, "cudaMemcpyToArray");
    size_t start = h_off * a.pitch + w_off;
    if (w_off > a.pitch || start > a.pitch * a.height * a.depth || n > a.pitch * a.height * a.depth - start)
      throw ShimError(cudaErrorInvalidValue, "the copy exceeds the array");
    copy(s, host_ptr(a.data + start), src, n,
         kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDefault ? kind : cudaMemcpyDeviceToDevice, 0);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaMemcpyFromArray(void* dst, CudaArray* src, size_t w_off, size_t h_off, size_t n, int kind) {
  return guarded("cudaMemcpyFromArray", [&](State& s) {
    s.check_sticky();
    CudaArray& a = s.array(src, "cudaMemcpyFromArray");
    size_t start = h_off * a.pitch + w_off;
    if (w_off > a.pitch || start > a.pitch * a.height * a.depth || n > a.pitch * a.height * a.depth - start)
      throw ShimError(cudaErrorInvalidValue, "the copy exceeds the array");
    copy(s, dst, host_ptr(a.data + start), n,
         kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDefault ? kind : cudaMemcpyDeviceToDevice, 0);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags,
                                        CudaArray* arr) {
  return guarded("cudaArrayGetInfo", [&](State& s) {
    CudaArray& a = s.array(arr, "cudaArrayGetInfo");
    if (desc) *desc = a.desc;
    if (extent)
      *extent =
          cudaExtent{a.width, (a.height > 1 || a.three_d) && !a.one_d_layered ? a.height : 0, a.three_d ? a.depth : 0};
    if (flags) *flags = a.flags;
    return cudaSuccess;
  });
}

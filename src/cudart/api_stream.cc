// Streams, events and texture objects.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cudart/shim.h"
#include "timing/gpu.h"

using namespace warpsim::cudart;

#define CUDART_API extern "C" __attribute__((visibility("default")))

// ------------------------------------------------------------------ streams

CUDART_API cudaError_t cudaStreamCreateWithPriority(void** out, unsigned flags, int priority) {
  return guarded("cudaStreamCreateWithPriority", [&](State& s) {
    if (!out) return cudaErrorInvalidValue;
    if (flags & ~kStreamNonBlocking)
      throw ShimError(cudaErrorInvalidValue, fmt::format("unknown stream flags {:#x}", flags));
    auto st = std::make_unique<Stream>();
    st->id = s.rt().create_stream();
    st->flags = flags;
    st->priority = priority;
    *out = st.get();
    s.streams.insert(st.release());
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamCreateWithFlags(void** out, unsigned flags) {
  return cudaStreamCreateWithPriority(out, flags, 0);
}

CUDART_API cudaError_t cudaStreamCreate(void** out) { return cudaStreamCreateWithPriority(out, 0, 0); }

CUDART_API cudaError_t cudaStreamDestroy(void* stream) {
  return guarded("cudaStreamDestroy", [&](State& s) {
    Stream* st = s.stream(stream, "cudaStreamDestroy");
    if (!st) return cudaErrorInvalidResourceHandle;
    // A stream that joined another stream's capture may go; the one that began it may not.
    if (st->capture && st->capture->origin == st)
      throw ShimError(cudaErrorIllegalState, "the stream is capturing (end the capture first)");
    // Work already queued still completes; the handle becomes invalid now.
    s.streams.erase(st);
    delete st;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamSynchronize(void* stream) {
  return guarded("cudaStreamSynchronize", [&](State& s) {
    if (s.capturing(stream, "cudaStreamSynchronize"))
      throw ShimError(cudaErrorStreamCaptureUnsupported, "the stream is capturing");
    s.sync_stream(s.stream_id(stream, "cudaStreamSynchronize"));
    return cudaSuccess;
  });
}

// Host functions in a stream: the function runs once the work enqueued on the stream before it
// is done, and later work on the stream waits for it. The shim finishes that work (simulating
// it) and calls the function from the enqueuing thread before returning, which keeps both
// orders; the function runs without the runtime's lock held.
namespace {
using HostFn = void (*)(void*);
using StreamCallback = void (*)(void*, cudaError_t, void*);

// In a stream capture, cudaLaunchHostFunc adds a host node (*captured set) instead.
cudaError_t run_host_function(const char* api, void* stream, bool valid, cudaError_t* status, HostFn fn = nullptr,
                              void* user_data = nullptr, bool* captured = nullptr) {
  return guarded(api, [&](State& s) {
    if (!valid) return cudaErrorInvalidValue;
    if (Stream* st = s.capturing(stream, api)) {
      if (!captured) throw ShimError(cudaErrorStreamCaptureUnsupported, "stream callbacks cannot be captured");
      auto n = std::make_unique<GraphNode>();
      n->type = cudaGraphNodeTypeHost;
      n->host = cudaHostNodeParams{fn, user_data};
      s.capture_node(st, std::move(n));
      *captured = true;
      return cudaSuccess;
    }
    s.sync_stream(s.stream_id(stream, api));
    *status = s.sticky;
    return cudaSuccess;
  });
}
}  // namespace

CUDART_API cudaError_t cudaLaunchHostFunc(void* stream, HostFn fn, void* user_data) {
  cudaError_t status = cudaSuccess;
  bool captured = false;
  cudaError_t rc = run_host_function("cudaLaunchHostFunc", stream, fn != nullptr, &status, fn, user_data, &captured);
  if (rc == cudaSuccess && !captured) fn(user_data);
  return rc;
}

CUDART_API cudaError_t cudaLaunchHostFunc_ptsz(void* stream, HostFn fn, void* user_data) {
  return cudaLaunchHostFunc(stream, fn, user_data);
}

// The older form: the callback also gets the stream and the stream's error status; flags must be 0.
CUDART_API cudaError_t cudaStreamAddCallback(void* stream, StreamCallback cb, void* user_data, unsigned flags) {
  cudaError_t status = cudaSuccess;
  cudaError_t rc = run_host_function("cudaStreamAddCallback", stream, cb != nullptr && flags == 0, &status);
  if (rc == cudaSuccess) cb(stream, status, user_data);
  return rc;
}

CUDART_API cudaError_t cudaStreamAddCallback_ptsz(void* stream, StreamCallback cb, void* user_data, unsigned flags) {
  return cudaStreamAddCallback(stream, cb, user_data, flags);
}

// The simulation advances only when the host waits, so a query waits: a polling loop ends.
CUDART_API cudaError_t cudaStreamQuery(void* stream) { return cudaStreamSynchronize(stream); }

CUDART_API cudaError_t cudaStreamGetPriority(void* stream, int* priority) {
  return guarded("cudaStreamGetPriority", [&](State& s) {
    if (!priority) return cudaErrorInvalidValue;
    Stream* st = s.stream(stream, "cudaStreamGetPriority");
    *priority = st ? st->priority : 0;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamGetFlags(void* stream, unsigned* flags) {
  return guarded("cudaStreamGetFlags", [&](State& s) {
    if (!flags) return cudaErrorInvalidValue;
    Stream* st = s.stream(stream, "cudaStreamGetFlags");
    *flags = st ? st->flags : 0;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamWaitEvent(void* stream, void* event, unsigned flags) {
  return guarded("cudaStreamWaitEvent", [&](State& s) {
    Stream* st = s.stream(stream, "cudaStreamWaitEvent");
    Event& e = s.event(event, "cudaStreamWaitEvent");
    if (e.capture) {
      // An event recorded in a stream capture: the stream joins the capture (a fork) or, if it
      // takes part already, follows the event's nodes too (a join).
      if (!st || (st->capture && st->capture != e.capture))
        throw ShimError(cudaErrorStreamCaptureIsolation, "the event was recorded in another stream capture");
      if (!st->capture) {
        st->capture = e.capture;
        st->capture_tail = e.captured;
      } else {
        for (GraphNode* n : e.captured)
          if (std::find(st->capture_tail.begin(), st->capture_tail.end(), n) == st->capture_tail.end())
            st->capture_tail.push_back(n);
      }
      return cudaSuccess;
    }
    // Conservative: the event's work completes before anything later is queued.
    if (e.recorded) s.event_cycle(e);
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ events

CUDART_API cudaError_t cudaEventCreateWithFlags(void** out, unsigned flags) {
  return guarded("cudaEventCreateWithFlags", [&](State& s) {
    if (!out) return cudaErrorInvalidValue;
    auto e = std::make_unique<Event>();
    e->flags = flags;
    *out = e.get();
    s.events.insert(e.release());
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaEventCreate(void** out) { return cudaEventCreateWithFlags(out, 0); }

CUDART_API cudaError_t cudaEventDestroy(void* event) {
  return guarded("cudaEventDestroy", [&](State& s) {
    Event& e = s.event(event, "cudaEventDestroy");
    s.events.erase(&e);
    delete &e;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaEventRecord(void* event, void* stream) {
  return guarded("cudaEventRecord", [&](State& s) {
    Event& e = s.event(event, "cudaEventRecord");
    s.check_sticky();
    if (Stream* st = s.capturing(stream, "cudaEventRecord")) {
      e.capture = st->capture;  // stands for the stream's captured work so far
      e.captured = st->capture_tail;
      return cudaSuccess;
    }
    e.capture = nullptr;
    s.record_event(e, s.stream_id(stream, "cudaEventRecord"));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaEventRecordWithFlags(void* event, void* stream, unsigned) {
  return cudaEventRecord(event, stream);
}

CUDART_API cudaError_t cudaEventSynchronize(void* event) {
  return guarded("cudaEventSynchronize", [&](State& s) {
    Event& e = s.event(event, "cudaEventSynchronize");
    s.check_sticky();
    if (e.recorded) s.event_cycle(e);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaEventQuery(void* event) { return cudaEventSynchronize(event); }

// Milliseconds between two events, from simulated cycles at the preset's core clock.
CUDART_API cudaError_t cudaEventElapsedTime(float* ms, void* start, void* end) {
  return guarded("cudaEventElapsedTime", [&](State& s) {
    if (!ms) return cudaErrorInvalidValue;
    Event& a = s.event(start, "cudaEventElapsedTime");
    Event& b = s.event(end, "cudaEventElapsedTime");
    if ((a.flags | b.flags) & kEventDisableTiming)
      throw ShimError(cudaErrorInvalidResourceHandle, "an event was created with cudaEventDisableTiming");
    if (!a.recorded || !b.recorded) throw ShimError(cudaErrorInvalidResourceHandle, "an event was never recorded");
    s.check_sticky();
    double ca = double(s.event_cycle(a)), cb = double(s.event_cycle(b));
    *ms = float((cb - ca) / (s.config().clock_mhz * 1e3));
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ texture objects

namespace {

warpsim::TextureDesc::Address address_mode(int m) {
  switch (m) {
    case cudaAddressModeWrap:
      return warpsim::TextureDesc::Wrap;
    case cudaAddressModeMirror:
      return warpsim::TextureDesc::Mirror;
    case cudaAddressModeBorder:
      return warpsim::TextureDesc::Border;
    default:
      return warpsim::TextureDesc::Clamp;
  }
}

void channel_format(const cudaChannelFormatDesc& d, warpsim::TextureDesc& t) {
  int channels = (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
  if ((d.x != 8 && d.x != 16 && d.x != 32) || (channels != 1 && channels != 2 && channels != 4) ||
      (d.y && d.y != d.x) || (d.z && d.z != d.x) || (d.w && d.w != d.x))
    throw ShimError(cudaErrorInvalidChannelDescriptor,
                    fmt::format("texture channel format ({}, {}, {}, {}) is not supported", d.x, d.y, d.z, d.w));
  if (d.f != cudaChannelFormatKindSigned && d.f != cudaChannelFormatKindUnsigned && d.f != cudaChannelFormatKindFloat)
    throw ShimError(cudaErrorInvalidChannelDescriptor,
                    fmt::format("texture channel kind {} is not supported", int(d.f)));
  t.channels = uint32_t(channels);
  t.channel_bits = uint32_t(d.x);
  t.is_float = d.f == cudaChannelFormatKindFloat;
  t.is_signed = d.f == cudaChannelFormatKindSigned;
}

}  // namespace

CUDART_API cudaError_t cudaCreateTextureObject(unsigned long long* out, const cudaResourceDesc* res,
                                               const cudaTextureDesc* tex, const void* view) {
  return guarded("cudaCreateTextureObject", [&](State& s) {
    if (!out || !res || !tex) return cudaErrorInvalidValue;
    if (view) throw ShimError(cudaErrorNotSupported, "texture resource views are not supported");
    warpsim::TextureDesc t;
    switch (res->resType) {
      case cudaResourceTypeLinear: {
        channel_format(res->res.linear.desc, t);
        uint64_t ebytes = uint64_t(t.channels) * t.channel_bits / 8;
        uint64_t n = res->res.linear.sizeInBytes / ebytes;
        if (n == 0 || n > 0xffffffffull) throw ShimError(cudaErrorInvalidValue, "linear texture size out of range");
        t.data = reinterpret_cast<uintptr_t>(res->res.linear.devPtr);
        t.width = uint32_t(n);
        t.height = 1;
        break;
      }
      case cudaResourceTypePitch2D: {
        channel_format(res->res.pitch2D.desc, t);
        t.data = reinterpret_cast<uintptr_t>(res->res.pitch2D.devPtr);
        t.width = uint32_t(res->res.pitch2D.width);
        t.height = uint32_t(res->res.pitch2D.height);
        t.pitch = uint32_t(res->res.pitch2D.pitchInBytes);
        break;
      }
      case cudaResourceTypeArray: {
        CudaArray& a = s.array(res->res.array.array, "cudaCreateTextureObject");
        channel_format(a.desc, t);
        t.data = a.data;
        t.width = uint32_t(a.width);
        t.height = uint32_t(a.height);
        t.pitch = uint32_t(a.pitch);
        if (a.flags & kArrayCubemap) {
          t.cubemap = true;
          t.layered = a.flags & kArrayLayered;
          t.layers = uint32_t(a.depth / 6);
        } else if (a.flags & kArrayLayered) {
          t.layered = true;
          t.layers = uint32_t(a.depth);
        } else {
          t.depth = uint32_t(a.depth);  // 1 but for 3D arrays
        }
        break;
      }
      default:
        throw ShimError(cudaErrorNotSupported, "mipmapped-array textures are not supported");
    }
    t.normalized_coords = tex->normalizedCoords != 0;
    t.read_normalized_float = tex->readMode == cudaReadModeNormalizedFloat;
    for (int i = 0; i < 3; ++i) t.address[i] = address_mode(tex->addressMode[i]);
    t.linear_filter = tex->filterMode == cudaFilterModeLinear;
    uint64_t h = s.rt().create_texture(t);
    s.textures[uintptr_t(h)] = h;
    *out = h;
    return cudaSuccess;
  });
}

// Surface objects over CUDA arrays made with cudaArraySurfaceLoadStore (suld.b/sust.b).
CUDART_API cudaError_t cudaCreateSurfaceObject(unsigned long long* out, const cudaResourceDesc* res) {
  return guarded("cudaCreateSurfaceObject", [&](State& s) {
    if (!out || !res) return cudaErrorInvalidValue;
    if (res->resType != cudaResourceTypeArray)
      throw ShimError(cudaErrorInvalidValue, "a surface object needs a CUDA array (cudaResourceTypeArray)");
    CudaArray& a = s.array(res->res.array.array, "cudaCreateSurfaceObject");
    if (!(a.flags & kArraySurfaceLoadStore))
      throw ShimError(cudaErrorInvalidValue, "the array was not created with cudaArraySurfaceLoadStore");
    warpsim::SurfaceDesc d;
    d.data = a.data;
    d.width = uint32_t(a.width);
    d.height = uint32_t(a.height);
    d.slices = uint32_t(a.depth);
    d.pitch = uint32_t(a.pitch);
    d.elem_bytes = uint32_t(a.elem_bytes);
    d.layered = a.flags & (kArrayLayered | kArrayCubemap);  // cubemap faces are layers to suld/sust
    d.channels = uint32_t((a.desc.x > 0) + (a.desc.y > 0) + (a.desc.z > 0) + (a.desc.w > 0));
    d.channel_bits = uint32_t(a.desc.x);
    d.is_float = a.desc.f == cudaChannelFormatKindFloat;
    d.is_signed = a.desc.f == cudaChannelFormatKindSigned;
    uint64_t h = s.rt().create_surface(d);
    s.surfaces.insert(h);
    *out = h;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDestroySurfaceObject(unsigned long long surf) {
  return guarded("cudaDestroySurfaceObject", [&](State& s) {
    if (surf == 0) return cudaSuccess;
    if (!s.surfaces.erase(surf)) throw ShimError(cudaErrorInvalidValue, "unknown surface object");
    s.sync_all();
    s.rt().destroy_surface(surf);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDestroyTextureObject(unsigned long long tex) {
  return guarded("cudaDestroyTextureObject", [&](State& s) {
    if (tex == 0) return cudaSuccess;
    if (!s.textures.erase(uintptr_t(tex))) throw ShimError(cudaErrorInvalidValue, "unknown texture object");
    s.sync_all();
    s.rt().destroy_texture(tex);
    return cudaSuccess;
  });
}

// Persisting L2 accesses (CUDA's L2 cache set-aside and access policy windows): the
// cudaLimitPersistingL2CacheSize limit, stream and kernel-node access policy windows, and
// cudaCtxResetPersistingL2Cache. The device supports them when the preset's
// l2.persisting_max_bytes is non-zero (compute capability 8.0 and later); elsewhere a window or
// a set-aside is refused with cudaErrorNotSupported. The timing model's set-aside and windows are
// described in docs/memory.md ("Persisting L2 accesses").
#include <fmt/format.h>

#include <cmath>

#include "cudart/shim.h"

#define CUDART_API extern "C" __attribute__((visibility("default")))

namespace warpsim::cudart {

namespace {

AccessProperty property(int p, const char* field) {
  switch (p) {
    case cudaAccessPropertyNormal:
      return AccessProperty::Normal;
    case cudaAccessPropertyStreaming:
      return AccessProperty::Streaming;
    case cudaAccessPropertyPersisting:
      return AccessProperty::Persisting;
    default:
      throw ShimError(cudaErrorInvalidValue,
                      fmt::format("access policy window {} {} is not a cudaAccessProperty", field, p));
  }
}

}  // namespace

cudaAccessPolicyWindow& State::stream_window(const void* handle, const char* api) {
  Stream* st = stream(handle, api);
  return st ? st->window : default_stream_window_;
}

AccessPolicyWindow State::access_window(const cudaAccessPolicyWindow& w, const char* /*api*/) {
  AccessPolicyWindow out;
  if (w.num_bytes == 0) return out;
  const L2Config& l2 = config().l2;
  if (l2.access_policy_max_window == 0)
    throw ShimError(cudaErrorNotSupported,
                    fmt::format("access policy window: the device ({}, compute capability {}.{}) has no "
                                "persisting L2 (accessPolicyMaxWindowSize is 0; windows need 8.0 or later)",
                                config().name, config().compute_capability / 10, config().compute_capability % 10));
  if (w.num_bytes > l2.access_policy_max_window)
    throw ShimError(cudaErrorInvalidValue,
                    fmt::format("access policy window of {} bytes exceeds accessPolicyMaxWindowSize ({})", w.num_bytes,
                                l2.access_policy_max_window));
  if (!(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f))
    throw ShimError(cudaErrorInvalidValue,
                    fmt::format("access policy window hitRatio {} is outside [0, 1]", w.hitRatio));
  out.base = reinterpret_cast<uintptr_t>(w.base_ptr);
  out.bytes = w.num_bytes;
  out.hit_ratio = w.hitRatio;
  out.hit_prop = property(w.hitProp, "hitProp");
  out.miss_prop = property(w.missProp, "missProp");
  return out;
}

void State::set_persisting_l2_limit(size_t bytes) {
  const uint64_t max = config().l2.persisting_max_bytes;
  if (max == 0 && bytes)
    throw ShimError(cudaErrorNotSupported,
                    fmt::format("cudaLimitPersistingL2CacheSize: the device ({}) has no persisting "
                                "L2 (persistingL2CacheMaxSize is 0; it needs compute capability 8.0 or later)",
                                config().name));
  if (bytes > max)
    throw ShimError(cudaErrorInvalidValue, fmt::format("cudaLimitPersistingL2CacheSize: {} bytes exceed "
                                                       "persistingL2CacheMaxSize ({})",
                                                       bytes, max));
  // The L2 rounds the set-aside up to whole ways; what it set aside is reported back, at most
  // the maximum.
  persisting_l2_limit_ = size_t(std::min<uint64_t>(rt().target().set_persisting_l2(bytes), max));
}

// cudaStreamAttributeAccessPolicyWindow (= cudaLaunchAttributeAccessPolicyWindow and the
// kernel node attribute); the other stream and kernel node attributes are not modelled.
void set_window_attribute(State& s, const char* api, cudaAccessPolicyWindow& slot, int attr,
                          const cudaLaunchAttributeValue* v) {
  if (!v) throw ShimError(cudaErrorInvalidValue, "null attribute value");
  if (attr != cudaLaunchAttributeAccessPolicyWindow)
    throw ShimError(cudaErrorNotSupported,
                    fmt::format("attribute {} is not supported (only the access policy window)", attr));
  s.access_window(v->accessPolicyWindow, api);  // refuses what the device cannot take
  slot = v->accessPolicyWindow;
}

void get_window_attribute(const char* /*api*/, const cudaAccessPolicyWindow& slot, int attr,
                          cudaLaunchAttributeValue* v) {
  if (!v) throw ShimError(cudaErrorInvalidValue, "null attribute value");
  if (attr != cudaLaunchAttributeAccessPolicyWindow)
    throw ShimError(cudaErrorNotSupported,
                    fmt::format("attribute {} is not supported (only the access policy window)", attr));
  *v = {};
  v->accessPolicyWindow = slot;
}

}  // namespace warpsim::cudart

using namespace warpsim;
using namespace warpsim::cudart;

namespace {

template <class F>
cudaError_t with_window(const char* api, const void* stream, F&& f) {
  return guarded(api, [&](State& s) {
    f(s, s.stream_window(stream, api));
    return cudaSuccess;
  });
}

}  // namespace

CUDART_API cudaError_t cudaStreamSetAttribute(void* stream, int attr, const cudaLaunchAttributeValue* v) {
  const char* api = "cudaStreamSetAttribute";
  return with_window(api, stream,
                     [&](State& s, cudaAccessPolicyWindow& w) { set_window_attribute(s, api, w, attr, v); });
}
CUDART_API cudaError_t cudaStreamSetAttribute_ptsz(void* stream, int attr, const cudaLaunchAttributeValue* v) {
  return cudaStreamSetAttribute(stream, attr, v);
}
CUDART_API cudaError_t cudaStreamGetAttribute(void* stream, int attr, cudaLaunchAttributeValue* v) {
  const char* api = "cudaStreamGetAttribute";
  return with_window(api, stream, [&](State&, cudaAccessPolicyWindow& w) { get_window_attribute(api, w, attr, v); });
}
CUDART_API cudaError_t cudaStreamGetAttribute_ptsz(void* stream, int attr, cudaLaunchAttributeValue* v) {
  return cudaStreamGetAttribute(stream, attr, v);
}

// Every persisting line of the L2 becomes normal, after the work queued so far.
CUDART_API cudaError_t cudaCtxResetPersistingL2Cache() {
  return guarded("cudaCtxResetPersistingL2Cache", [&](State& s) {
    s.sync_all();
    s.rt().target().reset_persisting_l2();
    return cudaSuccess;
  });
}

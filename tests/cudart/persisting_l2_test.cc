// The persisting-L2 API of the shim: device properties and attributes per preset, the
// cudaLimitPersistingL2CacheSize limit, stream access policy windows, windows on launches and
// cudaCtxResetPersistingL2Cache. A preset other than the default gtx480 needs a process of its
// own: those checks run in a re-executed child (a death test that must exit 0).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "cudart/cuda_abi.h"
#include "support/cudart_shim.h"

using namespace warpsim::cudart;
using warpsim::testsupport::Shim;

namespace {

constexpr int kLimitPersistingL2CacheSize = 6;

using SetLimitFn = int (*)(int, size_t);
using GetLimitFn = int (*)(size_t*, int);
using StreamAttrSetFn = int (*)(void*, int, const cudaLaunchAttributeValue*);
using StreamAttrGetFn = int (*)(void*, int, cudaLaunchAttributeValue*);

// Failed checks of a child process, printed before it exits 1.
struct Checks {
  std::vector<std::string> failed;
  void operator()(bool ok, const std::string& what) {
    if (!ok) failed.push_back(what);
  }
  [[noreturn]] void exit() {
    for (const auto& f : failed) std::fprintf(stderr, "FAILED: %s\n", f.c_str());
    std::exit(failed.empty() ? 0 : 1);
  }
};

cudaAccessPolicyWindow window(void* base, size_t bytes, float ratio = 0.6f) {
  return {base, bytes, ratio, cudaAccessPropertyPersisting, cudaAccessPropertyStreaming};
}

int attribute(Shim& shim, int attr) {
  int v = -1;
  shim.fn<int (*)(int*, int, int)>("cudaDeviceGetAttribute")(&v, attr, 0);
  return v;
}

// A preset without persisting L2 (compute capability below 8.0): everything reports 0 and
// windows and set-asides are refused, never ignored.
void check_without_persisting_l2(Shim& shim, Checks& check) {
  cudaDeviceProp p{};
  shim.fn<int (*)(cudaDeviceProp*, int)>("cudaGetDeviceProperties")(&p, 0);
  check(p.persistingL2CacheMaxSize == 0, "persistingL2CacheMaxSize is 0");
  check(p.accessPolicyMaxWindowSize == 0, "accessPolicyMaxWindowSize is 0");
  check(attribute(shim, cudaDevAttrMaxPersistingL2CacheSize) == 0, "attribute 108 is 0");
  check(attribute(shim, cudaDevAttrMaxAccessPolicyWindowSize) == 0, "attribute 109 is 0");
  check(shim.fn<SetLimitFn>("cudaDeviceSetLimit")(kLimitPersistingL2CacheSize, 1 << 20) == cudaErrorNotSupported,
        "a set-aside is refused");
  check(shim.fn<SetLimitFn>("cudaDeviceSetLimit")(kLimitPersistingL2CacheSize, 0) == 0, "a set-aside of 0 is fine");
  cudaLaunchAttributeValue v{};
  v.accessPolicyWindow = window(nullptr, 4096);
  check(shim.fn<StreamAttrSetFn>("cudaStreamSetAttribute")(nullptr, cudaLaunchAttributeAccessPolicyWindow, &v) ==
            cudaErrorNotSupported,
        "a stream window is refused");
  v.accessPolicyWindow.num_bytes = 0;
  check(shim.fn<StreamAttrSetFn>("cudaStreamSetAttribute")(nullptr, cudaLaunchAttributeAccessPolicyWindow, &v) == 0,
        "an empty window is fine");
  shim.fn<int (*)()>("cudaGetLastError")();
}

TEST(PersistingL2Api, Gtx480HasNone) {
  SHIM_OR_SKIP();
  Checks check;
  check_without_persisting_l2(shim, check);
  for (const auto& f : check.failed) ADD_FAILURE() << f;
}

TEST(PersistingL2Api, Rtx2060HasNone) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Shim& shim = Shim::get("rtx2060");
        if (!shim.ok()) std::exit(0);
        Checks check;
        check_without_persisting_l2(shim, check);
        check.exit();
      },
      ::testing::ExitedWithCode(0), "");
}

void check_h100(Shim& shim, Checks& check) {
  const warpsim::GpuConfig cfg = warpsim::load_preset("h100");
  const uint64_t max = cfg.l2.persisting_max_bytes;
  check(max > 0 && cfg.l2.access_policy_max_window > 0, "the h100 preset has persisting L2");
  cudaDeviceProp p{};
  shim.fn<int (*)(cudaDeviceProp*, int)>("cudaGetDeviceProperties")(&p, 0);
  check(uint64_t(p.persistingL2CacheMaxSize) == max, "persistingL2CacheMaxSize from the preset");
  check(uint64_t(p.accessPolicyMaxWindowSize) == cfg.l2.access_policy_max_window, "accessPolicyMaxWindowSize");
  check(attribute(shim, cudaDevAttrMaxPersistingL2CacheSize) == p.persistingL2CacheMaxSize, "attribute 108");
  check(attribute(shim, cudaDevAttrMaxAccessPolicyWindowSize) == p.accessPolicyMaxWindowSize, "attribute 109");

  // The limit: more than the maximum is refused (as on an H100); a small one is rounded up to a
  // whole L2 way; the maximum is reported as itself.
  auto set = shim.fn<SetLimitFn>("cudaDeviceSetLimit");
  auto get = shim.fn<GetLimitFn>("cudaDeviceGetLimit");
  size_t got = 0;
  check(set(kLimitPersistingL2CacheSize, max + 1) == cudaErrorInvalidValue, "over the maximum is refused");
  shim.fn<int (*)()>("cudaGetLastError")();
  check(set(kLimitPersistingL2CacheSize, 1) == 0 && get(&got, kLimitPersistingL2CacheSize) == 0, "small limit");
  const uint64_t way = uint64_t(p.l2CacheSize) / cfg.l2.cache.assoc;
  check(got == way, "a 1-byte set-aside is one way: " + std::to_string(got) + " vs " + std::to_string(way));
  check(set(kLimitPersistingL2CacheSize, max) == 0 && get(&got, kLimitPersistingL2CacheSize) == 0 && got == max,
        "the maximum set-aside reads back as the maximum: " + std::to_string(got));

  // Stream attribute round trip, and windows the device refuses.
  void* stream = nullptr;
  shim.fn<int (*)(void**)>("cudaStreamCreate")(&stream);
  void* buf = nullptr;
  shim.fn<int (*)(void**, size_t)>("cudaMalloc")(&buf, 1 << 20);
  auto sset = shim.fn<StreamAttrSetFn>("cudaStreamSetAttribute");
  auto sget = shim.fn<StreamAttrGetFn>("cudaStreamGetAttribute");
  cudaLaunchAttributeValue in{}, out{};
  in.accessPolicyWindow = window(buf, 1 << 20, 0.6f);
  check(sset(stream, cudaLaunchAttributeAccessPolicyWindow, &in) == 0, "stream window set");
  check(sget(stream, cudaLaunchAttributeAccessPolicyWindow, &out) == 0, "stream window get");
  check(out.accessPolicyWindow.base_ptr == buf && out.accessPolicyWindow.num_bytes == (1u << 20) &&
            out.accessPolicyWindow.hitRatio == 0.6f && out.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
            out.accessPolicyWindow.missProp == cudaAccessPropertyStreaming,
        "the stream window reads back");
  cudaLaunchAttributeValue bad = in;
  bad.accessPolicyWindow.num_bytes = cfg.l2.access_policy_max_window + 1;
  check(sset(stream, cudaLaunchAttributeAccessPolicyWindow, &bad) == cudaErrorInvalidValue, "too large a window");
  bad = in;
  bad.accessPolicyWindow.hitRatio = 1.5f;
  check(sset(stream, cudaLaunchAttributeAccessPolicyWindow, &bad) == cudaErrorInvalidValue, "hitRatio over 1");
  bad = in;
  bad.accessPolicyWindow.hitProp = 7;
  check(sset(stream, cudaLaunchAttributeAccessPolicyWindow, &bad) == cudaErrorInvalidValue, "unknown property");
  check(
      sget(stream, cudaLaunchAttributeAccessPolicyWindow, &out) == 0 && out.accessPolicyWindow.num_bytes == (1u << 20),
      "a refused window leaves the stream's as it was");
  shim.fn<int (*)()>("cudaGetLastError")();

  // Launches with the stream's window and with a launch attribute window run the kernel.
  const int n = 256;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  auto cmalloc = shim.fn<int (*)(void**, size_t)>("cudaMalloc");
  auto cmemcpy = shim.fn<int (*)(void*, const void*, size_t, int)>("cudaMemcpy");
  cmalloc(&da, n * 4);
  cmalloc(&db, n * 4);
  cmalloc(&dc, n * 4);
  cmemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cmemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  int nn = n;
  void* args[] = {&da, &db, &dc, &nn};
  in.accessPolicyWindow = window(da, n * 4, 1.0f);
  check(sset(stream, cudaLaunchAttributeAccessPolicyWindow, &in) == 0, "window on the kernel's input");
  check(shim.fn<int (*)(const void*, dim3, dim3, void**, size_t, void*)>("cudaLaunchKernel")(
            shim.kernel(), dim3{4, 1, 1}, dim3{64, 1, 1}, args, 0, stream) == 0,
        "launch on a stream with a window");
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeAccessPolicyWindow;
  attr.val.accessPolicyWindow = window(db, n * 4, 0.5f);
  cudaLaunchConfig_t lc{dim3{4, 1, 1}, dim3{64, 1, 1}, 0, nullptr, &attr, 1};
  check(shim.fn<int (*)(const cudaLaunchConfig_t*, const void*, void**)>("cudaLaunchKernelExC")(&lc, shim.kernel(),
                                                                                                args) == 0,
        "launch with a window attribute");
  check(cmemcpy(c.data(), dc, n * 4, cudaMemcpyDefault) == 0, "copy back");
  for (int i = 0; i < n; ++i)
    if (c[i] != 3.0f) {
      check(false, "kernel result " + std::to_string(i));
      break;
    }
  // A kernel node's window: set, read back, kept by the instantiated graph, launched.
  void* graph = nullptr;
  void* node = nullptr;
  cudaKernelNodeParams kp{const_cast<void*>(shim.kernel()), dim3{4, 1, 1}, dim3{64, 1, 1}, 0, args, nullptr};
  shim.fn<int (*)(void**, unsigned)>("cudaGraphCreate")(&graph, 0);
  check(shim.fn<int (*)(void**, void*, void* const*, size_t, const cudaKernelNodeParams*)>("cudaGraphAddKernelNode")(
            &node, graph, nullptr, 0, &kp) == 0,
        "kernel node");
  cudaLaunchAttributeValue nv{}, nout{};
  nv.accessPolicyWindow = window(dc, n * 4, 0.25f);
  check(shim.fn<StreamAttrSetFn>("cudaGraphKernelNodeSetAttribute")(node, cudaLaunchAttributeAccessPolicyWindow, &nv) ==
            0,
        "kernel node window set");
  check(shim.fn<StreamAttrGetFn>("cudaGraphKernelNodeGetAttribute")(node, cudaLaunchAttributeAccessPolicyWindow,
                                                                    &nout) == 0 &&
            nout.accessPolicyWindow.base_ptr == dc && nout.accessPolicyWindow.hitRatio == 0.25f,
        "kernel node window reads back");
  void* exec = nullptr;
  check(shim.fn<int (*)(void**, void*, unsigned long long)>("cudaGraphInstantiate")(&exec, graph, 0) == 0 &&
            shim.fn<int (*)(void*, void*)>("cudaGraphLaunch")(exec, nullptr) == 0,
        "graph with a windowed kernel node runs");
  attr.val.accessPolicyWindow.num_bytes = cfg.l2.access_policy_max_window + 1;
  check(shim.fn<int (*)(const cudaLaunchConfig_t*, const void*, void**)>("cudaLaunchKernelExC")(
            &lc, shim.kernel(), args) == cudaErrorInvalidValue,
        "a launch with too large a window is refused");
  shim.fn<int (*)()>("cudaGetLastError")();
  check(shim.fn<int (*)()>("cudaCtxResetPersistingL2Cache")() == 0, "reset");
  check(shim.fn<int (*)()>("cudaDeviceSynchronize")() == 0, "synchronize");
}

TEST(PersistingL2Api, H100HasIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Shim& shim = Shim::get("h100");
        if (!shim.ok()) std::exit(0);
        Checks check;
        check_h100(shim, check);
        check.exit();
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace

// The access policy window of a launch reaches the L2 of the timing model: with a set-aside,
// the window's lines stay in the L2 across launches that stream a working set larger than it.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_helpers.h"
#include "runtime/runtime.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

// L2 read hits of the second and third of three saxpy launches over 2 MB (the default L2 holds
// 768 KB), each with a persisting window over the first `window_bytes` of x, after setting
// aside `set_aside` bytes.
uint64_t later_hits(uint64_t set_aside, uint64_t window_bytes) {
  GpuConfig cfg;
  Gpu gpu(cfg, "gto");
  Runtime rt(&gpu);
  EXPECT_EQ(gpu.set_persisting_l2(set_aside) > 0, set_aside > 0);
  auto m = rt.load_module(test::read_kernel_ptx("vecadd"), "vecadd.ptx");
  const int n = 256 * 1024;
  std::vector<float> host(n, 1.0f);
  DevPtr x = rt.malloc(n * 4), y = rt.malloc(n * 4);
  rt.memcpy_h2d(x, host.data(), n * 4);
  rt.memcpy_h2d(y, host.data(), n * 4);
  AccessPolicyWindow w;
  w.base = x;
  w.bytes = window_bytes;
  w.hit_ratio = 1.0f;
  w.hit_prop = AccessProperty::Persisting;
  w.miss_prop = AccessProperty::Streaming;
  uint64_t first = 0;
  for (int launch = 0; launch < 3; ++launch) {
    rt.launch(rt.get_kernel(m, "saxpy"), Dim3{n / 256, 1, 1}, Dim3{256, 1, 1},
              KernelArgs().add(n).add(2.0f).add(x).add(y), 0, 0, w);
    rt.synchronize();
    if (launch == 0) first = gpu.memory().stats().l2_read_hits;
  }
  return gpu.memory().stats().l2_read_hits - first;
}

TEST(PersistingL2Timing, WindowLinesHitInLaterLaunchesWithASetAside) {
  const uint64_t window = 128 * 1024;  // 1024 lines of 128 bytes
  const uint64_t with = later_hits(384 * 1024, window);
  const uint64_t without = later_hits(0, window);
  // Two later launches, each finding (nearly) every line of the window in the L2 (a warp's load
  // of 128 bytes is one L2 access of the default configuration).
  EXPECT_GE(with, without + 2 * (window / 128) * 9 / 10) << "with " << with << ", without " << without;
}

}  // namespace
}  // namespace warpsim

#include <gtest/gtest.h>

#include <vector>

#include "kernel_helpers.h"
#include "runtime/functional_target.h"
#include "runtime/runtime.h"

namespace warpsim {
namespace {

TEST(RuntimeSaxpy, MatchesCpuReference) {
  FunctionalTarget target;
  Runtime rt(&target);
  auto mod = rt.load_module(test::read_kernel_ptx("vecadd"), "vecadd.ptx");
  auto k = rt.get_kernel(mod, "saxpy");
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i) * 0.5f, y[i] = float(n - i);
  DevPtr dx = rt.malloc(n * 4), dy = rt.malloc(n * 4);
  rt.memcpy_h2d(dx, x.data(), n * 4);
  rt.memcpy_h2d(dy, y.data(), n * 4);
  KernelArgs args;
  args.add(n).add(2.0f).add(dx).add(dy);
  rt.launch(k, Dim3{(n + 127) / 128, 1, 1}, Dim3{128, 1, 1}, args);
  std::vector<float> out(n);
  rt.memcpy_d2h(out.data(), dy, n * 4);
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(out[i], 2.0f * x[i] + y[i]) << i;
  ASSERT_EQ(target.results().size(), 1u);
  // 8 CTAs x 4 warps; the last CTA has 1000-896 = 104 active threads (3 full warps + 8 lanes).
  EXPECT_GT(target.results()[0].warp_insts, 0u);
}

}  // namespace
}  // namespace warpsim

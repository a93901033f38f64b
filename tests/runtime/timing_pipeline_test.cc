// The same kernels through the full pipeline: functional execution feeding the timing model.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_helpers.h"
#include "runtime/runtime.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

TEST(TimingPipeline, MatmulAndDivergenceOnTheTimingModel) {
  GpuConfig cfg;
  Gpu gpu(cfg, "gto");
  Runtime rt(&gpu);
  auto mm = rt.load_module(test::read_kernel_ptx("matmul"), "matmul.ptx");
  const int M = 32, N = 32, K = 48;
  std::vector<float> A(M * K), B(K * N);
  for (int i = 0; i < M * K; ++i) A[i] = float(i % 5) - 2.0f;
  for (int i = 0; i < K * N; ++i) B[i] = float(i % 3) * 0.5f;
  DevPtr dA = rt.malloc(A.size() * 4), dB = rt.malloc(B.size() * 4), dC = rt.malloc(M * N * 4);
  rt.memcpy_h2d(dA, A.data(), A.size() * 4);
  rt.memcpy_h2d(dB, B.data(), B.size() * 4);
  rt.launch(rt.get_kernel(mm, "matmul"), Dim3{2, 2, 1}, Dim3{16, 16, 1}, KernelArgs().add(dA).add(dB).add(dC).add(M).add(N).add(K));

  auto dv = rt.load_module(test::read_kernel_ptx("divergence"), "divergence.ptx");
  const int n = 128;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 13 % 29 - 7;
  DevPtr din = rt.malloc(n * 4), dout = rt.malloc(n * 4);
  rt.memcpy_h2d(din, in.data(), n * 4);
  rt.launch(rt.get_kernel(dv, "nested_branches"), Dim3{2, 1, 1}, Dim3{64, 1, 1}, KernelArgs().add(din).add(dout).add(n));
  rt.synchronize();

  std::vector<float> C(M * N);
  rt.memcpy_d2h(C.data(), dC, C.size() * 4);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float acc = 0;
      for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
      ASSERT_FLOAT_EQ(C[r * N + c], acc);
    }
  std::vector<int> out(n);
  rt.memcpy_d2h(out.data(), dout, n * 4);
  for (int i = 0; i < n; ++i) {
    int v = in[i], acc = 0;
    for (int k = 0; k < (v & 7); ++k) acc += (k & 1) ? ((v % 3 == 0) ? k * 2 : -k) : ((v >> 1) ^ k);
    ASSERT_EQ(out[i], (i % 64) % 4 == 1 ? -acc : acc + (v < 0 ? 100 : 0)) << i;
  }
  ASSERT_EQ(gpu.results().size(), 2u);
  for (const auto& r : gpu.results()) {
    EXPECT_GT(r.warp_insts, 0u);
    EXPECT_GT(r.end_cycle, r.start_cycle);
  }
}

}  // namespace
}  // namespace warpsim

// The same kernels through the full pipeline: functional execution feeding the timing model.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_loader.h"
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
  rt.launch(rt.get_kernel(mm, "matmul"), Dim3{2, 2, 1}, Dim3{16, 16, 1},
            KernelArgs().add(dA).add(dB).add(dC).add(M).add(N).add(K));

  auto dv = rt.load_module(test::read_kernel_ptx("divergence"), "divergence.ptx");
  const int n = 128;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 13 % 29 - 7;
  DevPtr din = rt.malloc(n * 4), dout = rt.malloc(n * 4);
  rt.memcpy_h2d(din, in.data(), n * 4);
  rt.launch(rt.get_kernel(dv, "nested_branches"), Dim3{2, 1, 1}, Dim3{64, 1, 1},
            KernelArgs().add(din).add(dout).add(n));
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

// A local array read back by every thread: the lanes of a warp touching the same word share one
// L1 line (the executor hands the timing model offsets in the thread's window, and the timing
// model lays word k of all threads side by side), so each ld.local of a warp is one L1 access.
TEST(TimingPipeline, LocalWordsOfAWarpShareOneLine) {
  const char* ptx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry locals(.param .u64 out) {
  .local .align 4 .b8 depot[64];
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  mov.u64 %rd1, depot;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
STORE:
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  add.u32 %r3, %r1, %r2;
  st.local.u32 [%rd3], %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra STORE;
  mov.u32 %r2, 0;
  mov.u32 %r4, 0;
LOAD:
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.local.u32 %r3, [%rd3];
  add.u32 %r4, %r4, %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra LOAD;
  ld.param.u64 %rd4, [out];
  cvta.to.global.u64 %rd5, %rd4;
  mul.wide.u32 %rd6, %r1, 4;
  add.u64 %rd7, %rd5, %rd6;
  st.global.u32 [%rd7], %r4;
  ret;
}
)";
  GpuConfig cfg = load_preset("gtx480");
  Gpu gpu(cfg, "gto");
  Runtime rt(&gpu);
  auto m = rt.load_module(ptx, "locals.ptx");
  DevPtr out = rt.malloc(64 * 4);
  rt.launch(rt.get_kernel(m, "locals"), Dim3{1, 1, 1}, Dim3{64, 1, 1}, KernelArgs().add(out));
  rt.synchronize();
  std::vector<uint32_t> v(64);
  rt.memcpy_d2h(v.data(), out, v.size() * 4);
  for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(v[t], 16 * t + 120) << t;
  const StatsSnapshot s = gpu.snapshot();
  // 2 warps x 16 loads, one line each; the L1 is large enough to keep all 32 lines, and a
  // local store that misses does not allocate (GPGPU-Sim 'L', no write-allocate): every load
  // misses once.
  EXPECT_EQ(s.core.l1d_hits + s.core.l1d_misses, 2u * 16);
  EXPECT_EQ(s.core.l1d_misses, 2u * 16);
}

// core.cache_global_bypasses_l1: a warp loads the same line 16 times with ld.global.cg. With
// the key (GPGPU-Sim's CACHE_GLOBAL) no load looks at the L1: 16 line reads (4 sectors each)
// reach the L2. Without it the first load misses and the other 15 hit in the L1.
TEST(TimingPipeline, CacheGlobalLoadsGoPastTheL1) {
  const char* ptx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry cg(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd2, %rd3;
  mov.u32 %r2, 0;
  mov.u32 %r4, 0;
LOOP:
  ld.global.cg.u32 %r3, [%rd4];
  add.u32 %r4, %r4, %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra LOOP;
  ld.param.u64 %rd5, [out];
  cvta.to.global.u64 %rd6, %rd5;
  add.u64 %rd7, %rd6, %rd3;
  st.global.u32 [%rd7], %r4;
  ret;
}
)";
  auto run = [&](bool bypass) {
    GpuConfig cfg = load_preset("gtx480");
    cfg.core.cache_global_bypasses_l1 = bypass;
    cfg.l2.fill_on_copy = false;
    Gpu gpu(cfg, "gto");
    Runtime rt(&gpu);
    auto m = rt.load_module(ptx, "cg.ptx");
    DevPtr in = rt.malloc(32 * 4), out = rt.malloc(32 * 4);
    std::vector<uint32_t> v(32);
    for (uint32_t t = 0; t < 32; ++t) v[t] = t;
    rt.memcpy_h2d(in, v.data(), v.size() * 4);
    rt.launch(rt.get_kernel(m, "cg"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(in).add(out));
    rt.synchronize();
    rt.memcpy_d2h(v.data(), out, v.size() * 4);
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], 16 * t) << t;
    return gpu.snapshot();
  };
  const StatsSnapshot past = run(true), through = run(false);
  EXPECT_EQ(past.core.l1d_hits + past.core.l1d_misses, 0u);
  EXPECT_EQ(through.core.l1d_hits, 15u);
  EXPECT_EQ(through.core.l1d_misses, 1u);
  // Global data reads at the L2 (the sector count of 16 line reads against one).
  EXPECT_EQ(past.mem.l2_reads - through.mem.l2_reads, 15u * 4);
}

// Every element of a vector load is a dependence: a chain of dependent FMAs that starts from the
// fourth element of ld.global.v4 waits for the load as one that starts from the first does
// (GPGPU-Sim's scoreboard tracks all of a vector's registers). Tracking only some elements would
// let the chain on the fourth run under the load's latency.
uint64_t vector_load_chain_cycles(int element) {
  std::string ptx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry chain(.param .u64 in, .param .u64 out) {
  .reg .f32 %f<8>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
  mov.f32 %f5, %fE;
  mov.u32 %r1, 0;
LOOP:
  fma.rn.f32 %f5, %f5, 0f3F000000, 0f3F800000;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra LOOP;
  st.global.f32 [%rd2], %f5;
  ret;
}
)";
  ptx.replace(ptx.find("%fE"), 3, "%f" + std::to_string(element));
  GpuConfig cfg = load_preset("gtx480");
  Gpu gpu(cfg, "gto");
  Runtime rt(&gpu);
  auto m = rt.load_module(ptx, "chain.ptx");
  DevPtr in = rt.malloc(16), out = rt.malloc(4);
  const float v[4] = {1, 2, 3, 4};
  rt.memcpy_h2d(in, v, 16);
  rt.launch(rt.get_kernel(m, "chain"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(in).add(out));
  rt.synchronize();
  EXPECT_EQ(gpu.results().size(), 1u);
  const auto& r = gpu.results().front();
  return r.end_cycle - r.start_cycle;
}

TEST(TimingPipeline, EveryElementOfAVectorLoadIsWaitedFor) {
  const uint64_t first = vector_load_chain_cycles(1), fourth = vector_load_chain_cycles(4);
  // The chain's 64 dependent steps take far longer than any difference in when an element
  // arrives: both kernels take the load's latency plus the chain.
  EXPECT_EQ(fourth, first);
  // The load's latency is really in both: a chain from a register no load writes is faster.
  EXPECT_GT(first, vector_load_chain_cycles(7) + 100);
}

}  // namespace
}  // namespace warpsim

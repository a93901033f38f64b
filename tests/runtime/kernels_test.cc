// End-to-end: CUDA kernels compiled to PTX (tests/data/kernels), run through the runtime and
// compared with CPU references, twice: on the functional target and through the full pipeline
// (functional execution feeding the Gpu timing model).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "kernel_helpers.h"
#include "runtime/runtime.h"

namespace warpsim {
namespace {

class KernelTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<LaunchTarget> inner = test::make_target(GetParam());
  test::ObservingTarget target{*inner};
  Runtime rt{&target};
  ModuleHandle load(const char* name) {
    return rt.load_module(test::read_kernel_ptx(name), std::string(name) + ".ptx");
  }
  template <class T>
  DevPtr upload(const std::vector<T>& v) {
    DevPtr p = rt.malloc(v.size() * sizeof(T));
    rt.memcpy_h2d(p, v.data(), v.size() * sizeof(T));
    return p;
  }
  template <class T>
  std::vector<T> download(DevPtr p, size_t n) {
    std::vector<T> v(n);
    rt.memcpy_d2h(v.data(), p, n * sizeof(T));
    return v;
  }
  // Every launch finished, and the target accounted for exactly the warp instructions the
  // front end produced (on the timing model: every one of them was issued), in elapsed cycles.
  void TearDown() override {
    rt.synchronize();
    ASSERT_FALSE(target.results().empty());
    uint64_t counted = 0;
    for (const auto& r : target.results()) {
      EXPECT_GT(r.warp_insts, 0u) << r.name;
      EXPECT_GT(r.thread_insts, 0u) << r.name;
      if (GetParam() == "timing") {
        EXPECT_GT(r.end_cycle, r.start_cycle) << r.name;
      }
      counted += r.warp_insts;
    }
    EXPECT_EQ(counted, target.produced_warp_insts());
  }
};

INSTANTIATE_TEST_SUITE_P(Targets, KernelTest, ::testing::Values("functional", "timing"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST_P(KernelTest, NestedDivergence) {
  auto m = load("divergence");
  const int n = 200;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37 % 101) - 20;
  DevPtr din = upload(in), dout = rt.malloc(n * 4);
  uint64_t diverged = 0, total = 0;
  target.set_observer([&](const KernelInfo&, const CtaStreams& t) {
    for (const auto& w : t.warps)
      for (const auto& i : w.insts) {
        ++total;
        diverged += (i.flags & kFlagDiverged) != 0;
      }
  });
  rt.launch(rt.get_kernel(m, "nested_branches"), Dim3{4, 1, 1}, Dim3{64, 1, 1}, KernelArgs().add(din).add(dout).add(n));
  auto out = download<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int v = in[i], acc = 0;
    for (int k = 0; k < (v & 7); ++k) {
      if (k & 1)
        acc += (v % 3 == 0) ? k * 2 : -k;
      else
        acc += (v >> 1) ^ k;
    }
    int expect = (i % 64) % 4 == 1 ? -acc : acc + (v < 0 ? 100 : 0);
    ASSERT_EQ(out[i], expect) << "i=" << i;
  }
  EXPECT_GT(diverged, 0u);
  EXPECT_LT(diverged, total);
}

TEST_P(KernelTest, SharedReductionWithBarriers) {
  auto m = load("reduce_shared");
  const int n = 3000, block = 128;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 17) * 0.25f;
  int blocks = (n + 2 * block - 1) / (2 * block);
  DevPtr din = upload(in), dout = rt.malloc(blocks * 4);
  rt.launch(rt.get_kernel(m, "block_sum"), Dim3{uint32_t(blocks), 1, 1}, Dim3{block, 1, 1},
            KernelArgs().add(din).add(dout).add(n), block * 4);
  auto out = download<float>(dout, blocks);
  for (int b = 0; b < blocks; ++b) {
    double s = 0;
    for (int i = b * 2 * block; i < std::min(n, (b + 1) * 2 * block); ++i) s += in[i];
    ASSERT_NEAR(out[b], s, 1e-3) << b;
  }
}

TEST_P(KernelTest, HistogramSharedAndGlobalAtomics) {
  auto m = load("atomics");
  const int n = 5000, bins = 37;
  std::vector<unsigned> in(n);
  for (int i = 0; i < n; ++i) in[i] = unsigned(i * 2654435761u >> 7);
  DevPtr din = upload(in), dh = rt.malloc(bins * 4);
  rt.memset(dh, 0, bins * 4);
  rt.launch(rt.get_kernel(m, "histogram"), Dim3{6, 1, 1}, Dim3{96, 1, 1},
            KernelArgs().add(din).add(dh).add(n).add(bins), bins * 4);
  auto h = download<unsigned>(dh, bins);
  std::vector<unsigned> ref(bins, 0);
  for (unsigned v : in) ref[v % bins]++;
  EXPECT_EQ(h, ref);
}

TEST_P(KernelTest, EveryAtomicOperation) {
  auto m = load("atomics");
  const int threads = 64;
  std::vector<int> slots(13, 0);
  slots[1] = 5000;  // min
  slots[3] = -1;    // and
  slots[6] = -7;    // exch
  slots[9] = 3;     // dec
  DevPtr ds = upload(slots), df = rt.malloc(4), dold = rt.malloc(threads * 4);
  rt.memset(df, 0, 4);
  rt.launch(rt.get_kernel(m, "atomic_mix"), Dim3{2, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(ds).add(df).add(dold));
  auto s = download<int>(ds, 13);
  auto old = download<int>(dold, threads);
  float fsum;
  rt.memcpy_d2h(&fsum, df, 4);
  int add = 0, xr = 0, an = -1, orv = 0;
  unsigned umin = 5000, umax = 0, inc = 0, dec = 3;
  int smin = 0, smax = 0;
  for (int t = 0; t < threads; ++t) {  // lanes/CTAs in order, as the executor applies them
    add += t;
    umin = std::min(umin, unsigned(1000 - t));
    umax = std::max(umax, unsigned(t * 3));
    an &= ~(1 << (t % 31));
    orv |= 1 << (t % 29);
    xr ^= t;
    inc = inc >= 16 ? 0 : inc + 1;
    dec = (dec == 0 || dec > 5) ? 5 : dec - 1;
    smin = std::min(smin, 50 - t);
    smax = std::max(smax, t - 50);
  }
  EXPECT_EQ(s[0], add);
  EXPECT_EQ(unsigned(s[1]), umin);
  EXPECT_EQ(unsigned(s[2]), umax);
  EXPECT_EQ(s[3], an);
  EXPECT_EQ(s[4], orv);
  EXPECT_EQ(s[5], xr);
  EXPECT_EQ(s[6], threads - 1);  // last writer
  EXPECT_EQ(old[0], -7);         // first exchange sees the initial value
  for (int t = 1; t < threads; ++t) EXPECT_EQ(old[t], t - 1);
  EXPECT_EQ(s[7], 2 * threads);
  EXPECT_EQ(unsigned(s[8]), inc);
  EXPECT_EQ(unsigned(s[9]), dec);
  EXPECT_FLOAT_EQ(fsum, 0.5f * threads);
  EXPECT_EQ(s[11], smin);
  EXPECT_EQ(s[12], smax);
}

TEST_P(KernelTest, WarpShufflesAndVotes) {
  auto m = load("warp_ops");
  const int n = 64;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 29) % 97;
  DevPtr din = upload(in), dout = rt.malloc(n * 8 * 4);
  rt.launch(rt.get_kernel(m, "warp_ops"), Dim3{1, 1, 1}, Dim3{64, 1, 1}, KernelArgs().add(din).add(dout));
  auto out = download<int>(dout, n * 8);
  for (int w = 0; w < 2; ++w) {
    const int* v = in.data() + w * 32;
    int total = std::accumulate(v, v + 32, 0);
    unsigned ballot = 0;
    bool any = false, all = true;
    for (int l = 0; l < 32; ++l) {
      ballot |= unsigned(v[l] & 1) << l;
      any |= v[l] > 90;
      all &= v[l] >= 0;
    }
    for (int l = 0; l < 32; ++l) {
      const int* o = out.data() + (w * 32 + l) * 8;
      if (l == 0) {
        EXPECT_EQ(o[0], total);
      }
      int scan = 0;
      for (int k = 0; k <= l; ++k) scan += v[k];
      EXPECT_EQ(o[1], scan) << l;
      EXPECT_EQ(o[2], v[l ^ 5]);
      EXPECT_EQ(o[3], v[7]);
      int src = (l % 8) + 3 < 8 ? l + 3 : l;  // down by 3 within 8-lane segments, clamped
      EXPECT_EQ(o[4], v[src]) << l;
      EXPECT_EQ(unsigned(o[5]), ballot);
      EXPECT_EQ(o[6], any ? 1 : 0);
      EXPECT_EQ(o[7], all ? 1 : 0);
    }
  }
}

TEST_P(KernelTest, NoinlineDeviceFunctionCall) {
  auto m = load("device_call");
  const int n = 100;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = 0.1f * float(i % 13) - 0.5f;
  DevPtr din = upload(in), dout = rt.malloc(n * 4), dscr = rt.malloc(n * 4);
  rt.memset(dscr, 0, n * 4);
  uint64_t branches = 0;
  target.set_observer([&](const KernelInfo&, const CtaStreams& t) {
    for (const auto& w : t.warps)
      for (const auto& i : w.insts) branches += i.op == OpClass::BRANCH;
  });
  rt.launch(rt.get_kernel(m, "call_kernel"), Dim3{2, 1, 1}, Dim3{64, 1, 1},
            KernelArgs().add(din).add(dout).add(dscr).add(n));
  auto out = download<float>(dout, n);
  auto scr = download<float>(dscr, n);
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0) {
      float r = 0.0f;
      for (int j = 0; j <= i % 5; ++j) r = r * in[i] + float(j + 1);
      EXPECT_FLOAT_EQ(out[i], r * 0.5f) << i;
      EXPECT_FLOAT_EQ(scr[i], r) << i;
    } else {
      EXPECT_FLOAT_EQ(out[i], -in[i]);
      EXPECT_EQ(scr[i], 0.0f);
    }
  }
  EXPECT_GT(branches, 0u);
}

// Virtual functions of objects built on the device, a table of device function pointers and
// recursive device functions (one keeping a local array across its recursive call), with the
// lanes of each warp reaching different functions and recursing to different depths.
int host_fib(int n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }
int host_digit_sum(unsigned v) { return int(v % 10) + (v >= 10 ? host_digit_sum(v / 10) : 0); }

TEST_P(KernelTest, IndirectCallsAndRecursion) {
  auto m = load("indirect_calls");
  const int n = 150;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 100000;
  DevPtr din = upload(in), dout = rt.malloc(n * 4), storage = rt.malloc(n * 16), objs = rt.malloc(n * 8);
  uint64_t diverged_branches = 0;
  target.set_observer([&](const KernelInfo&, const CtaStreams& t) {
    for (const auto& w : t.warps)
      for (const auto& i : w.insts) diverged_branches += i.op == OpClass::BRANCH && (i.flags & kFlagDiverged);
  });
  const Dim3 grid{3, 1, 1}, block{64, 1, 1};
  rt.launch(rt.get_kernel(m, "build_objects"), grid, block, KernelArgs().add(storage).add(objs).add(n));
  rt.launch(rt.get_kernel(m, "virtual_calls"), grid, block, KernelArgs().add(objs).add(din).add(dout).add(n));
  auto out = download<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int want = i % 3 == 0 ? in[i] + i : i % 3 == 1 ? in[i] * (i % 5) : in[i];
    EXPECT_EQ(out[i], want) << i;
  }
  rt.launch(rt.get_kernel(m, "pointer_calls"), grid, block, KernelArgs().add(din).add(dout).add(n));
  out = download<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int x = in[i];
    int want = i % 4 == 0 ? host_fib(x % 18) : i % 4 == 1 ? 3 * x : i % 4 == 2 ? -x : host_digit_sum(unsigned(x));
    EXPECT_EQ(out[i], want) << i;
  }
  rt.launch(rt.get_kernel(m, "recursion"), grid, block, KernelArgs().add(din).add(dout).add(n));
  out = download<int>(dout, n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], host_fib(in[i] % 16) + 1000 * host_digit_sum(unsigned(in[i]))) << i;
  EXPECT_GT(diverged_branches, 0u);
}

TEST_P(KernelTest, LocalMemoryArrays) {
  auto m = load("local_array");
  const int n = 150;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 300;
  DevPtr din = upload(in), dout = rt.malloc(n * 4);
  rt.launch(rt.get_kernel(m, "local_sort"), Dim3{3, 1, 1}, Dim3{64, 1, 1}, KernelArgs().add(din).add(dout).add(n));
  auto out = download<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int a[16];
    for (int k = 0; k < 16; ++k) a[k] = in[(i * 7 + k * 13) % n];
    std::sort(a, a + 16);
    int idx = in[i] & 15;
    ASSERT_EQ(out[i], a[idx] * 100 + a[15 - idx]) << i;
  }
}

TEST_P(KernelTest, DoublePrecision) {
  auto m = load("doubles");
  const int n = 90;
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = (i - 45) * 0.37, b[i] = (i % 11) * 1.5 - 4.0;
  DevPtr da = upload(a), db = upload(b), dout = rt.malloc(n * 4 * 8);
  rt.launch(rt.get_kernel(m, "double_math"), Dim3{2, 1, 1}, Dim3{64, 1, 1},
            KernelArgs().add(da).add(db).add(dout).add(n));
  auto out = download<double>(dout, n * 4);
  for (int i = 0; i < n; ++i) {
    double x = a[i], y = b[i];
    double r = std::fma(x, y, 1.0) / (y + 3.0);
    r += std::sqrt(std::fabs(x)) - std::fmin(x, y) + std::fmax(x, y);
    EXPECT_DOUBLE_EQ(out[i * 4 + 0], r) << i;
    EXPECT_EQ(out[i * 4 + 1], double((long long)(x * 1000.0)));
    EXPECT_EQ(out[i * 4 + 2], double(float(r * 0.25)));
    EXPECT_DOUBLE_EQ(out[i * 4 + 3], x < y ? 1.0 / x : -y);
  }
}

TEST_P(KernelTest, TextureObjects) {
  auto m = load("texture");
  const int n = 96, w = 12, h = n / w;
  std::vector<float> lin(n), img(n);
  for (int i = 0; i < n; ++i) lin[i] = float(i) * 0.5f, img[i] = float(1000 + i);
  DevPtr dl = upload(lin), di = upload(img), dout = rt.malloc(n * 4);
  TextureDesc t1;
  t1.data = dl;
  t1.width = n;
  TextureDesc t2;
  t2.data = di;
  t2.width = w;
  t2.height = h;
  uint64_t h1 = rt.create_texture(t1), h2 = rt.create_texture(t2);
  rt.launch(rt.get_kernel(m, "tex_fetch"), Dim3{1, 1, 1}, Dim3{128, 1, 1},
            KernelArgs().add(h1).add(h2).add(dout).add(n).add(w));
  auto out = download<float>(dout, n);
  for (int i = 0; i < n; ++i) EXPECT_FLOAT_EQ(out[i], lin[i] * 10.0f + img[i]) << i;
}

TEST_P(KernelTest, TiledMatmul2DBlocks) {
  auto m = load("matmul");
  const int M = 40, N = 24, K = 36;
  std::vector<float> A(M * K), B(K * N);
  for (int i = 0; i < M * K; ++i) A[i] = float((i * 3) % 7) - 3.0f;
  for (int i = 0; i < K * N; ++i) B[i] = float((i * 5) % 9) * 0.5f;
  DevPtr dA = upload(A), dB = upload(B), dC = rt.malloc(M * N * 4);
  uint32_t regs = 0, shared = 0;
  target.set_observer([&](const KernelInfo& info, const CtaStreams&) {
    regs = info.regs_per_thread;
    shared = info.shared_bytes_per_cta;
  });
  rt.launch(rt.get_kernel(m, "matmul"), Dim3{(N + 15) / 16, (M + 15) / 16, 1}, Dim3{16, 16, 1},
            KernelArgs().add(dA).add(dB).add(dC).add(M).add(N).add(K));
  auto C = download<float>(dC, M * N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float acc = 0;
      for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
      ASSERT_FLOAT_EQ(C[r * N + c], acc) << r << "," << c;
    }
  EXPECT_EQ(shared, 2u * 16 * 16 * 4);  // two float tiles
  EXPECT_GE(regs, 16u);                 // live-value estimate, far below the PTX register count
  EXPECT_LE(regs, 64u);
}

TEST_P(KernelTest, MathLibraryAndIntegerBits) {
  auto m = load("math_funcs");
  const int n = 64;
  std::vector<float> x(n);
  std::vector<int> k(n);
  for (int i = 0; i < n; ++i) x[i] = (i - 32) * 0.37f, k[i] = (i * 123457) % 2001 - 1000 + (i == 5 ? 0 : 0);
  k[10] = 0;
  DevPtr dx = upload(x), dk = upload(k), dfo = rt.malloc(n * 6 * 4), dio = rt.malloc(n * 6 * 4);
  rt.launch(rt.get_kernel(m, "math_funcs"), Dim3{1, 1, 1}, Dim3{64, 1, 1},
            KernelArgs().add(dx).add(dk).add(dfo).add(dio).add(n));
  auto fo = download<float>(dfo, n * 6);
  auto io = download<int>(dio, n * 6);
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    EXPECT_NEAR(fo[i * 6 + 0], std::sin(v), 2e-6) << i;
    EXPECT_NEAR(fo[i * 6 + 1], std::exp(v * 0.1f), 1e-5 * std::exp(v * 0.1f)) << i;
    EXPECT_NEAR(fo[i * 6 + 2], std::log(std::fabs(v) + 1.0f), 2e-6) << i;
    EXPECT_NEAR(fo[i * 6 + 3], 1.0f / std::sqrt(std::fabs(v) + 0.5f), 1e-5) << i;
    EXPECT_NEAR(fo[i * 6 + 4], v / 3.0f, 1e-5) << i;
    EXPECT_NEAR(fo[i * 6 + 5], std::pow(std::fabs(v) + 1.0f, 1.5f), 1e-4 * std::pow(std::fabs(v) + 1.0f, 1.5f)) << i;
    int a = k[i], d = k[(i + 1) % n];
    EXPECT_EQ(io[i * 6 + 0], d != 0 ? a / d : 0) << i;
    EXPECT_EQ(io[i * 6 + 1], d != 0 ? a % d : 0) << i;
    EXPECT_EQ(io[i * 6 + 2], std::countl_zero(unsigned(a)));
    EXPECT_EQ(io[i * 6 + 3], std::popcount(unsigned(a)));
    unsigned rev = 0;
    for (int b = 0; b < 32; ++b) rev |= ((unsigned(a) >> b) & 1) << (31 - b);
    EXPECT_EQ(unsigned(io[i * 6 + 4]), rev);
    EXPECT_EQ(io[i * 6 + 5], std::min(a, d) ^ std::max(a, d));
  }
}

TEST_P(KernelTest, ConstantMemoryAndDeviceGlobals) {
  auto m = load("const_mem");
  float c[8];
  for (int i = 0; i < 8; ++i) c[i] = 0.5f * float(i) - 1.0f;
  rt.memcpy_to_symbol(m, "coeffs", c, sizeof c);
  int zero = 0;
  rt.memcpy_to_symbol(m, "calls", &zero, 4);
  const int n = 300;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = 0.01f * float(i) - 1.0f;
  DevPtr dx = upload(x), dy = rt.malloc(n * 4);
  rt.launch(rt.get_kernel(m, "poly_eval"), Dim3{3, 1, 1}, Dim3{128, 1, 1}, KernelArgs().add(dx).add(dy).add(n));
  auto y = download<float>(dy, n);
  for (int i = 0; i < n; ++i) {
    float r = 0.0f;
    for (int k = 7; k >= 0; --k) r = std::fma(r, x[i], c[k]);
    EXPECT_FLOAT_EQ(y[i], r) << i;
  }
  int calls = 0;
  rt.memcpy_from_symbol(&calls, m, "calls", 4);
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace warpsim

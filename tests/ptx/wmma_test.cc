// Warp matrix instructions: 16x16x16 products through wmma.load / wmma.mma / wmma.store
// checked against a product computed here, for f16 inputs with f32 and f16 accumulators and
// for s8 and u8 inputs with s32 accumulators, row- and column-major memory, strides, generic
// and shared addresses, the m32n8k16 and m8n32k16 shapes, and the decoder's checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"
#include "ptx/ops.h"

namespace warpsim::test {
namespace {

// "{%r<first>, ..., %r<first + n - 1>}"
std::string regs(const char* prefix, int first, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::string(prefix) + std::to_string(first + i);
  return s + "}";
}

// A kernel of one warp with pointer parameters a, b, c, d in %rd1..%rd4 (global addresses).
std::string gemm_kernel(const std::string& body) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry g(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
         ".reg .b32 %r<64>;\n.reg .f32 %f<64>;\n.reg .b64 %rd<16>;\n.shared .align 16 .b8 sm[2048];\n"
         "ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pc]; ld.param.u64 %rd4, [pd];\n"
         "cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2; cvta.to.global.u64 %rd3, %rd3;\n"
         "cvta.to.global.u64 %rd4, %rd4;\n" +
         body + "ret;\n}\n";
}

template <class T>
DevPtr upload(Runtime& rt, const std::vector<T>& v) {
  DevPtr p = rt.malloc(v.size() * sizeof(T));
  rt.memcpy_h2d(p, v.data(), v.size() * sizeof(T));
  return p;
}

// Runs the kernel on one warp with A, B, C and a D of `d_elems` elements of DT; returns D.
template <class AT, class BT, class CT, class DT>
std::vector<DT> run_gemm(const std::string& body, const std::vector<AT>& a, const std::vector<BT>& b,
                         const std::vector<CT>& c, size_t d_elems) {
  FunctionalTarget target;
  Runtime rt(&target);
  auto m = rt.load_module(gemm_kernel(body), "wmma.ptx");
  DevPtr pa = upload(rt, a), pb = upload(rt, b), pc = upload(rt, c);
  DevPtr pd = rt.malloc(d_elems * sizeof(DT));
  rt.memset(pd, 0, d_elems * sizeof(DT));
  rt.launch(rt.get_kernel(m, "g"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(pa).add(pb).add(pc).add(pd));
  std::vector<DT> d(d_elems);
  rt.memcpy_d2h(d.data(), pd, d_elems * sizeof(DT));
  return d;
}

TEST(Wmma, F16ProductWithF32AccumulatorMatchesTheCpu) {
  // A: 16x16 row-major inside rows of 24 halves (stride 24); B: column-major; C: row-major f32.
  // D = 2 * (A B + C) (the doubling is element-wise on the fragment), stored column-major.
  // Every value is a small multiple of 1/4: the sums are exact.
  const int M = 16, N = 16, K = 16, lda = 24;
  std::vector<uint16_t> a(M * lda, 0), b(K * N);
  std::vector<float> c(M * N);
  auto av = [](int i, int k) { return float((i * 3 + k) % 7 - 3) * 0.5f; };
  auto bv = [](int k, int j) { return float((k + 2 * j) % 5 - 2); };
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) a[i * lda + k] = ptx::f32_to_f16(av(i, k));
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) b[j * K + k] = ptx::f32_to_f16(bv(k, j));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) c[i * N + j] = float(i - j) * 0.25f;
  std::string body =
      "mov.u32 %r60, 24;\n"
      "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 " +
      regs("%r", 0, 8) +
      ", [%rd1], %r60;\n"
      "wmma.load.b.sync.aligned.col.m16n16k16.global.f16 " +
      regs("%r", 8, 8) +
      ", [%rd2];\n"
      "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 " +
      regs("%f", 0, 8) +
      ", [%rd3], 16;\n"
      "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 " +
      regs("%f", 8, 8) + ", " + regs("%r", 0, 8) + ", " + regs("%r", 8, 8) + ", " + regs("%f", 0, 8) + ";\n";
  for (int i = 8; i < 16; ++i)
    body += "add.f32 %f" + std::to_string(i) + ", %f" + std::to_string(i) + ", %f" + std::to_string(i) + ";\n";
  body += "wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd4], " + regs("%f", 8, 8) + ", 16;\n";
  auto d = run_gemm<uint16_t, uint16_t, float, float>(body, a, b, c, M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = c[i * N + j];
      for (int k = 0; k < K; ++k) want += av(i, k) * bv(k, j);
      EXPECT_EQ(d[j * M + i], 2 * want) << "D[" << i << "][" << j << "]";
    }
}

TEST(Wmma, F16ProductWithF16AccumulatorThroughSharedMemory) {
  // A and B are copied to shared memory by the warp (16 bytes per lane each), loaded from
  // there with .shared and a 32-bit address; C and D are f16, row-major.
  const int M = 16, N = 16, K = 16;
  std::vector<uint16_t> a(M * K), b(K * N), c(M * N);
  auto av = [](int i, int k) { return float((i + k) % 4 - 1); };
  auto bv = [](int k, int j) { return float((k * j) % 3) * 0.5f; };
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) a[i * K + k] = ptx::f32_to_f16(av(i, k));
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) b[k * N + j] = ptx::f32_to_f16(bv(k, j));  // row-major B
  for (int i = 0; i < M * N; ++i) c[i] = ptx::f32_to_f16(float(i % 9) - 4.0f);
  std::string body =
      "mov.u32 %r60, %tid.x; mul.wide.u32 %rd5, %r60, 16; add.u64 %rd6, %rd1, %rd5; add.u64 %rd7, %rd2, %rd5;\n"
      "ld.global.v4.u32 {%r40, %r41, %r42, %r43}, [%rd6]; ld.global.v4.u32 {%r44, %r45, %r46, %r47}, [%rd7];\n"
      "mov.u32 %r61, sm; mul.lo.u32 %r62, %r60, 16; add.u32 %r63, %r61, %r62;\n"
      "st.shared.v4.u32 [%r63], {%r40, %r41, %r42, %r43}; st.shared.v4.u32 [%r63+512], {%r44, %r45, %r46, %r47};\n"
      "bar.sync 0;\n"
      "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 " +
      regs("%r", 0, 8) +
      ", [%r61], 16;\n"
      "wmma.load.b.sync.aligned.row.m16n16k16.shared.f16 " +
      regs("%r", 8, 8) +
      ", [%r61+512], 16;\n"
      "wmma.load.c.sync.aligned.row.m16n16k16.global.f16 " +
      regs("%r", 16, 4) +
      ", [%rd3], 16;\n"
      "wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16 " +
      regs("%r", 20, 4) + ", " + regs("%r", 0, 8) + ", " + regs("%r", 8, 8) + ", " + regs("%r", 16, 4) +
      ";\n"
      "wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd4], " +
      regs("%r", 20, 4) + ", 16;\n";
  auto d = run_gemm<uint16_t, uint16_t, uint16_t, uint16_t>(body, a, b, c, M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = ptx::f16_to_f32(c[i * N + j]);
      for (int k = 0; k < K; ++k) want += av(i, k) * bv(k, j);
      EXPECT_EQ(ptx::f16_to_f32(d[i * N + j]), want) << "D[" << i << "][" << j << "]";
    }
}

// An integer product D = A B + C of shape m x n x 16 with 8-bit inputs, generic addresses.
template <class T>
void integer_gemm(int M, int N, const char* itype) {
  const int K = 16;
  std::vector<T> a(M * K), b(K * N);
  std::vector<int32_t> c(M * N);
  for (int i = 0; i < M * K; ++i) a[i] = T(i * 37 + 11);
  for (int i = 0; i < K * N; ++i) b[i] = T(i * 53 + 7);  // column-major
  for (int i = 0; i < M * N; ++i) c[i] = i * 1000 - 70000;
  const std::string shape = "m" + std::to_string(M) + "n" + std::to_string(N) + "k16";
  const int ra = M * K / 32 / 4, rb = K * N / 32 / 4;
  std::string body =
      "cvta.global.u64 %rd1, %rd1; cvta.global.u64 %rd2, %rd2; cvta.global.u64 %rd3, %rd3;\n"
      "cvta.global.u64 %rd4, %rd4;\n"
      "wmma.load.a.sync.aligned.row." +
      shape + "." + itype + " " + regs("%r", 0, ra) +
      ", [%rd1];\n"
      "wmma.load.b.sync.aligned.col." +
      shape + "." + itype + " " + regs("%r", 4, rb) +
      ", [%rd2];\n"
      "wmma.load.c.sync.aligned.row." +
      shape + ".s32 " + regs("%r", 10, 8) + ", [%rd3], " + std::to_string(N) +
      ";\n"
      "wmma.mma.sync.aligned.row.col." +
      shape + ".s32." + itype + "." + itype + ".s32 " + regs("%r", 20, 8) + ", " + regs("%r", 0, ra) + ", " +
      regs("%r", 4, rb) + ", " + regs("%r", 10, 8) +
      ";\n"
      "wmma.store.d.sync.aligned.row." +
      shape + ".s32 [%rd4], " + regs("%r", 20, 8) + ", " + std::to_string(N) + ";\n";
  auto d = run_gemm<T, T, int32_t, int32_t>(body, a, b, c, M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t want = c[i * N + j];
      for (int k = 0; k < K; ++k) want += int32_t(a[i * K + k]) * int32_t(b[j * K + k]);
      EXPECT_EQ(d[i * N + j], want) << itype << " " << shape << " D[" << i << "][" << j << "]";
    }
}

TEST(Wmma, S8AndU8ProductsWithS32AccumulatorMatchTheCpu) {
  integer_gemm<int8_t>(16, 16, "s8");
  integer_gemm<uint8_t>(16, 16, "u8");
}

TEST(Wmma, IntegerProductsOfShapesM32N8K16AndM8N32K16) {
  integer_gemm<int8_t>(32, 8, "s8");
  integer_gemm<uint8_t>(8, 32, "u8");
}

// f16 A (row-major) and B (column-major), f32 C and D (row-major) of shape m x n x 16.
void f16_gemm(int M, int N) {
  const int K = 16;
  std::vector<uint16_t> a(M * K), b(K * N);
  std::vector<float> c(M * N);
  auto av = [](int i, int k) { return float((i * 5 + k) % 9 - 4) * 0.25f; };
  auto bv = [](int k, int j) { return float((k * 3 + j) % 7 - 3); };
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) a[i * K + k] = ptx::f32_to_f16(av(i, k));
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) b[j * K + k] = ptx::f32_to_f16(bv(k, j));
  for (int i = 0; i < M * N; ++i) c[i] = float(i % 11) - 5.0f;
  const std::string shape = "m" + std::to_string(M) + "n" + std::to_string(N) + "k16";
  const std::string body = "wmma.load.a.sync.aligned.row." + shape + ".global.f16 " + regs("%r", 0, 8) +
                           ", [%rd1];\n"
                           "wmma.load.b.sync.aligned.col." +
                           shape + ".global.f16 " + regs("%r", 8, 8) +
                           ", [%rd2];\n"
                           "wmma.load.c.sync.aligned.row." +
                           shape + ".global.f32 " + regs("%f", 0, 8) +
                           ", [%rd3];\n"
                           "wmma.mma.sync.aligned.row.col." +
                           shape + ".f32.f32 " + regs("%f", 8, 8) + ", " + regs("%r", 0, 8) + ", " + regs("%r", 8, 8) +
                           ", " + regs("%f", 0, 8) +
                           ";\n"
                           "wmma.store.d.sync.aligned.row." +
                           shape + ".global.f32 [%rd4], " + regs("%f", 8, 8) + ";\n";
  auto d = run_gemm<uint16_t, uint16_t, float, float>(body, a, b, c, M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = c[i * N + j];
      for (int k = 0; k < K; ++k) want += av(i, k) * bv(k, j);
      EXPECT_EQ(d[i * N + j], want) << shape << " D[" << i << "][" << j << "]";
    }
}

TEST(Wmma, F16ProductsOfShapesM32N8K16AndM8N32K16) {
  f16_gemm(32, 8);
  f16_gemm(8, 32);
}

TEST(Wmma, DecoderChecksFragmentsShapesAndTypes) {
  auto err = [](const std::string& inst) { return load_error(gemm_kernel(inst + "\n"), "wmma.ptx"); };
  EXPECT_NE(err("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 " + regs("%r", 0, 4) + ", [%rd1];")
                .find("the fragment takes 8 registers, found 4"),
            std::string::npos);
  EXPECT_NE(err("wmma.load.a.sync.aligned.row.m16n8k8.global.f16 " + regs("%r", 0, 8) + ", [%rd1];")
                .find("unsupported modifier '.m16n8k8'"),
            std::string::npos);
  EXPECT_NE(err("wmma.load.c.sync.aligned.row.m16n16k16.global.s8 " + regs("%r", 0, 2) + ", [%rd1];")
                .find("unsupported element type"),
            std::string::npos);
  EXPECT_NE(err("wmma.load.a.sync.aligned.m16n16k16.global.f16 " + regs("%r", 0, 8) + ", [%rd1];")
                .find("expected the layout .row or .col"),
            std::string::npos);
  EXPECT_EQ(err("wmma.load.a.sync.aligned.col.m16n16k16.f16 " + regs("%r", 0, 8) + ", [%rd1], 16;"), "");
}

}  // namespace
}  // namespace warpsim::test

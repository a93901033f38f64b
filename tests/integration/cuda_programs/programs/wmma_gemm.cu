// nvcuda::wmma: a 32x32x48 product of half matrices with a float accumulator (C scaled by
// beta, the product by alpha, element-wise on the fragments), one warp per 16x16 tile of the
// result, checked against a product computed on the host.
#include <cuda_fp16.h>
#include <mma.h>

#include <cmath>
#include <vector>

#include "common.h"

using namespace nvcuda;

constexpr int M = 32, N = 32, K = 48;

// A row-major M x K, B column-major K x N, C and D row-major M x N.
__global__ void gemm(const half* a, const half* b, const float* c, float* d, float alpha, float beta) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tm = warp / (N / 16), tn = warp % (N / 16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
    wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::load_matrix_sync(fc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
  for (int i = 0; i < fc.num_elements; ++i) fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, fc, N, wmma::mem_row_major);
}

int main() {
  std::vector<half> a(M * K), b(K * N);
  std::vector<float> af(M * K), bf(K * N), c(M * N), d(M * N);
  for (int i = 0; i < M * K; ++i) af[i] = float((i * 7) % 11 - 5) * 0.25f;
  for (int i = 0; i < K * N; ++i) bf[i] = float((i * 5) % 9 - 4) * 0.5f;
  for (int i = 0; i < M * N; ++i) c[i] = float(i % 13) - 6.0f;
  for (int i = 0; i < M * K; ++i) a[i] = __float2half(af[i]);
  for (int i = 0; i < K * N; ++i) b[i] = __float2half(bf[i]);
  half *da, *db;
  float *dc, *dd;
  CHECK(cudaMalloc(&da, a.size() * sizeof(half)));
  CHECK(cudaMalloc(&db, b.size() * sizeof(half)));
  CHECK(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK(cudaMalloc(&dd, d.size() * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
  const float alpha = 2.0f, beta = -0.5f;
  gemm<<<2, 64>>>(da, db, dc, dd, alpha, beta);  // 4 warps, one per 16x16 tile
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d.data(), dd, d.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float p = 0;
      for (int k = 0; k < K; ++k) p += af[i * K + k] * bf[j * K + k];
      float want = alpha * p + beta * c[i * N + j];
      if (std::fabs(d[i * N + j] - want) > 1e-3f) {
        std::printf("D[%d][%d] = %f, expected %f\n", i, j, d[i * N + j], want);
        return 1;
      }
    }
  std::printf("wmma_gemm: ok\n");
  return 0;
}

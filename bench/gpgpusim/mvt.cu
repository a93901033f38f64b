// PolyBench MVT: x1 += A y1 (row per thread), x2 += A^T y2 (column per thread).
#include "common.h"
__global__ void mvt1(const float* A, float* x1, const float* y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float s = x1[i]; for (int j = 0; j < n; ++j) s += A[i * n + j] * y1[j]; x1[i] = s; }
}
__global__ void mvt2(const float* A, float* x2, const float* y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float s = x2[i]; for (int j = 0; j < n; ++j) s += A[j * n + i] * y2[j]; x2[i] = s; }
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float *A = (float*)malloc(sizeof(float) * n * n), *v = (float*)malloc(sizeof(float) * 4 * n);
  float *x1 = v, *x2 = v + n, *y1 = v + 2 * n, *y2 = v + 3 * n;
  for (int i = 0; i < n; ++i) x1[i] = float(i % 7), x2[i] = float(i % 5), y1[i] = float(i % 3) / 3.f, y2[i] = float(i % 11) / 11.f;
  for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) A[i * n + j] = float((i + j) % 9) / 9.f;
  float *dA, *dv;
  CHECK(cudaMalloc(&dA, sizeof(float) * n * n)); CHECK(cudaMalloc(&dv, sizeof(float) * 4 * n));
  CHECK(cudaMemcpy(dA, A, sizeof(float) * n * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v, sizeof(float) * 4 * n, cudaMemcpyHostToDevice));
  mvt1<<<(n + 255) / 256, 256>>>(dA, dv, dv + 2 * n, n);
  mvt2<<<(n + 255) / 256, 256>>>(dA, dv + n, dv + 3 * n, n);
  CHECK(cudaGetLastError());
  float* g = (float*)malloc(sizeof(float) * 2 * n);
  CHECK(cudaMemcpy(g, dv, sizeof(float) * 2 * n, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float s1 = x1[i], s2 = x2[i];
    for (int j = 0; j < n; ++j) s1 += A[i * n + j] * y1[j], s2 += A[j * n + i] * y2[j];
    bad += fabsf(g[i] - s1) > 1e-3f * fmaxf(1.f, fabsf(s1)) || fabsf(g[n + i] - s2) > 1e-3f * fmaxf(1.f, fabsf(s2));
  }
  return finish(bad, "mvt");
}

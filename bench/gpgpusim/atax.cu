// PolyBench ATAX: tmp = A x (one row per thread: uncoalesced), y = A^T tmp (one column per thread: coalesced).
#include "common.h"
__global__ void atax1(const float* A, const float* x, float* tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float s = 0;
    for (int j = 0; j < ny; ++j) s += A[i * ny + j] * x[j];
    tmp[i] = s;
  }
}
__global__ void atax2(const float* A, const float* tmp, float* y, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float s = 0;
    for (int i = 0; i < nx; ++i) s += A[i * ny + j] * tmp[i];
    y[j] = s;
  }
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  int nx = n, ny = n;
  float *A = (float*)malloc(sizeof(float) * nx * ny), *x = (float*)malloc(sizeof(float) * ny);
  float *tmp = (float*)malloc(sizeof(float) * nx), *y = (float*)malloc(sizeof(float) * ny);
  for (int j = 0; j < ny; ++j) x[j] = float(j % 17) / 17.f;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) A[i * ny + j] = float((i * (j + 1)) % 13) / 13.f;
  float *dA, *dx, *dtmp, *dy;
  CHECK(cudaMalloc(&dA, sizeof(float) * nx * ny)); CHECK(cudaMalloc(&dx, sizeof(float) * ny));
  CHECK(cudaMalloc(&dtmp, sizeof(float) * nx)); CHECK(cudaMalloc(&dy, sizeof(float) * ny));
  CHECK(cudaMemcpy(dA, A, sizeof(float) * nx * ny, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x, sizeof(float) * ny, cudaMemcpyHostToDevice));
  atax1<<<(nx + 255) / 256, 256>>>(dA, dx, dtmp, nx, ny);
  atax2<<<(ny + 255) / 256, 256>>>(dA, dtmp, dy, nx, ny);
  CHECK(cudaGetLastError());
  float* gy = (float*)malloc(sizeof(float) * ny);
  CHECK(cudaMemcpy(gy, dy, sizeof(float) * ny, cudaMemcpyDeviceToHost));
  for (int i = 0; i < nx; ++i) { float s = 0; for (int j = 0; j < ny; ++j) s += A[i * ny + j] * x[j]; tmp[i] = s; }
  int bad = 0;
  for (int j = 0; j < ny; ++j) {
    float s = 0;
    for (int i = 0; i < nx; ++i) s += A[i * ny + j] * tmp[i];
    bad += fabsf(gy[j] - s) > 1e-3f * fmaxf(1.f, fabsf(s));
  }
  return finish(bad, "atax");
}

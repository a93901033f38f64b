// A dependent chain of FMAs per thread (compute-bound, latency-bound per warp).
#include "common.h"
__global__ void fmaloop(float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = float(i) * 1e-6f, a = 0.999f, b = 0.001f;
  for (int k = 0; k < iters; ++k) x = fmaf(x, a, b);
  out[i] = x;
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 65536, iters = argc > 2 ? atoi(argv[2]) : 256;
  float* d; CHECK(cudaMalloc(&d, n * sizeof(float)));
  fmaloop<<<n / 256, 256>>>(d, iters);
  CHECK(cudaGetLastError());
  float* h = (float*)malloc(n * sizeof(float));
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float x = float(i) * 1e-6f;
    for (int k = 0; k < iters; ++k) x = fmaf(x, 0.999f, 0.001f);
    bad += fabsf(h[i] - x) > 1e-5f * fmaxf(1.f, fabsf(x));
  }
  return finish(bad, "fmaloop");
}

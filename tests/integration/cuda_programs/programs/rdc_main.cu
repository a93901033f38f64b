// Separate compilation (built with -rdc=true together with rdc_lib.cu): the kernel calls device
// functions and adds to a counter that the other object defines. Both objects keep a private
// helper named `twice` and the math library's private sine table, under the same names.
#include <cmath>

#include "common.h"

extern __device__ float scale(float x);
extern __device__ float wave(float x);
extern __device__ int counter;

__device__ __noinline__ static float twice(float x) { return x + x + 1.0f; }  // not rdc_lib's

__global__ void combine(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = scale(twice(in[i])) + sinf(in[i]) + wave(in[i]);
    atomicAdd(&counter, 1);
  }
}

int main() {
  const int n = 1000;
  static float h[n], o[n];
  for (int i = 0; i < n; ++i) h[i] = float(i) * 0.37f;
  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof h));
  CHECK(cudaMalloc(&out, sizeof o));
  CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  combine<<<(n + 127) / 128, 128>>>(out, in, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost));
  int c = 0;
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = 3.0f * (2.0f * h[i] + 1.0f + 2.0f) + sinf(h[i]) + 2.0f * sinf(h[i]);
    if (std::fabs(o[i] - want) > 1e-3f * std::fabs(want) + 1e-3f) ++bad;
  }
  std::printf("%s: counter %d, %d wrong values\n", c == n && !bad ? "PASSED" : "FAILED", c, bad);
  return c == n && !bad ? 0 : 1;
}

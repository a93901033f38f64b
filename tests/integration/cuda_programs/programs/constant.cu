// __constant__ coefficients set with cudaMemcpyToSymbol (whole and at an offset), a __device__
// counter read back with cudaMemcpyFromSymbol, and cudaGetSymbolAddress/Size.
#include <vector>

#include "common.h"

__constant__ float coeff[4];
__constant__ int scale;
__device__ unsigned int counter;

__global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = scale * (((coeff[3] * v + coeff[2]) * v + coeff[1]) * v + coeff[0]);
    atomicAdd(&counter, 1u);
  }
}

int main() {
  const int n = 700;
  float c[4] = {1.0f, -2.0f, 0.5f, 0.0f};
  float c3 = 0.25f;
  int sc = 3;
  CHECK(cudaMemcpyToSymbol(coeff, c, sizeof(c)));
  CHECK(cudaMemcpyToSymbol(coeff, &c3, sizeof(float), 3 * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(scale, &sc, sizeof(int)));
  unsigned zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof(zero)));
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, coeff));
  if (size != sizeof(c)) {
    std::printf("symbol size %zu\n", size);
    return 1;
  }
  void* addr = nullptr;
  CHECK(cudaGetSymbolAddress(&addr, counter));
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i % 13) - 6.0f;
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  poly<<<(n + 127) / 128, 128>>>(dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    float want = 3 * (((0.25f * v + 0.5f) * v - 2.0f) * v + 1.0f);
    if (y[i] != want) {
      std::printf("mismatch at %d: %f != %f\n", i, y[i], want);
      return 1;
    }
  }
  unsigned got = 0, via_addr = 0;
  CHECK(cudaMemcpyFromSymbol(&got, counter, sizeof(got)));
  CHECK(cudaMemcpy(&via_addr, addr, sizeof(via_addr), cudaMemcpyDeviceToHost));
  if (got != unsigned(n) || via_addr != unsigned(n)) {
    std::printf("counter %u / %u != %d\n", got, via_addr, n);
    return 1;
  }
  std::printf("constant: ok\n");
  return 0;
}

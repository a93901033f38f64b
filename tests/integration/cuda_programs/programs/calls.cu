// Virtual functions, a device function pointer and a recursive device function: indirect calls
// whose targets differ between the lanes of a warp, and recursion to a different depth per lane.
#include <new>
#include <vector>

#include "common.h"

struct Shape {
  __device__ virtual float area(float s) const { return 0.0f; }
};
struct Square : Shape {
  __device__ float area(float s) const override { return s * s; }
};
struct Triangle : Shape {
  __device__ float area(float s) const override { return 0.5f * s * s; }
};

__device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ int plus_seven(int x) { return x + 7; }
__device__ int (*step)(int) = plus_seven;

__global__ void shapes(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  alignas(8) char buf[16];
  Shape* s;
  if (i % 3 == 0) s = new (buf) Square();
  else if (i % 3 == 1) s = new (buf) Triangle();
  else s = new (buf) Shape();
  out[i] = s->area(float(i));
}

__global__ void recursion(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = step(ackermann(i % 3, i % 5));
}

int host_ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return host_ackermann(m - 1, 1);
  return host_ackermann(m - 1, host_ackermann(m, n - 1));
}

int main() {
  const int n = 100;
  float* d_area;
  int* d_rec;
  CHECK(cudaMalloc(&d_area, n * sizeof(float)));
  CHECK(cudaMalloc(&d_rec, n * sizeof(int)));
  shapes<<<(n + 63) / 64, 64>>>(d_area, n);
  CHECK(cudaGetLastError());
  recursion<<<(n + 63) / 64, 64>>>(d_rec, n);
  CHECK(cudaGetLastError());
  std::vector<float> area(n);
  std::vector<int> rec(n);
  CHECK(cudaMemcpy(area.data(), d_area, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rec.data(), d_rec, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float s = float(i);
    float want = i % 3 == 0 ? s * s : i % 3 == 1 ? 0.5f * s * s : 0.0f;
    if (area[i] != want) {
      std::printf("area mismatch at %d: %g != %g\n", i, area[i], want);
      return 1;
    }
    if (rec[i] != host_ackermann(i % 3, i % 5) + 7) {
      std::printf("recursion mismatch at %d: %d != %d\n", i, rec[i], host_ackermann(i % 3, i % 5) + 7);
      return 1;
    }
  }
  std::printf("calls: ok\n");
  return 0;
}

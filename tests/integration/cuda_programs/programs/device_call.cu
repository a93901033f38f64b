// A __noinline__ device function called from a kernel (a real call in the PTX), plus
// cudaFuncGetAttributes and the occupancy query on that kernel.
#include <vector>

#include "common.h"

__device__ __noinline__ int collatz_steps(int v) {
  int steps = 0;
  while (v != 1 && steps < 1000) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  return steps;
}

__global__ void steps_kernel(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = collatz_steps(i + 1);
}

int host_steps(int v) {
  int steps = 0;
  while (v != 1 && steps < 1000) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  return steps;
}

int main() {
  const int n = 300;
  int* d;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  steps_kernel<<<(n + 63) / 64, 64>>>(d, n);
  CHECK(cudaGetLastError());
  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != host_steps(i + 1)) {
      std::printf("mismatch at %d: %d != %d\n", i, out[i], host_steps(i + 1));
      return 1;
    }
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, steps_kernel));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, steps_kernel, 64, 0));
  if (attr.numRegs <= 0 || attr.maxThreadsPerBlock <= 0 || blocks <= 0) {
    std::printf("attributes: regs %d, max threads %d, blocks/SM %d\n", attr.numRegs, attr.maxThreadsPerBlock, blocks);
    return 1;
  }
  std::printf("device_call: ok (regs %d, %d blocks/SM)\n", attr.numRegs, blocks);
  return 0;
}

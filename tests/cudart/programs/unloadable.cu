// A kernel calling through a device function pointer (an indirect call with a .callprototype,
// which warpsim's PTX front end does not support). The program ignores every error, as many do:
// it must not end as if it had succeeded.
#include "common.h"

__device__ int twice(int x) { return 2 * x; }
__device__ int (*op)(int) = twice;

__global__ void apply(int* out) { out[threadIdx.x] = op(int(threadIdx.x)); }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  apply<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  int h[32] = {0};
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("unloadable: done, h[3] = %d\n", h[3]);
  return 0;
}

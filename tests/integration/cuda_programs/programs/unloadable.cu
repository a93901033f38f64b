// A kernel using __syncthreads_count (bar.red.popc in the PTX, which warpsim's PTX front end
// does not support). The program ignores every error, as many do: it must not end as if it had
// succeeded.
#include "common.h"

__global__ void count_odd(int* out) { out[threadIdx.x] = __syncthreads_count(threadIdx.x & 1); }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  count_odd<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  int h[32] = {0};
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("unloadable: done, h[3] = %d\n", h[3]);
  return 0;
}

// A kernel that writes far outside its allocation. The program ignores every error code;
// warpsim must still report the fault and make the run fail.
#include "common.h"

__global__ void oob(int* p) { p[threadIdx.x + (1 << 24)] = 1; }

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  oob<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  int h = 0;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("fault: finished (%d)\n", h);
  return 0;
}

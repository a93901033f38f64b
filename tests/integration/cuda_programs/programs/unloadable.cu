// A kernel using device-side malloc (a call to the external function malloc in the PTX, which
// warpsim's PTX front end does not provide). The program ignores every error, as many do: it
// must not end as if it had succeeded.
#include "common.h"

__global__ void scratch(int* out) {
  int* p = static_cast<int*>(malloc(sizeof(int)));
  *p = int(threadIdx.x) * 2;
  out[threadIdx.x] = *p;
  free(p);
}

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  scratch<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  int h[32] = {0};
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("unloadable: done, h[3] = %d\n", h[3]);
  return 0;
}

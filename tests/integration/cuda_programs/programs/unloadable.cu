// A kernel with an instruction warpsim's PTX front end does not provide (the scalar video
// instruction vabsdiff, in inline assembly). The program ignores every error, as many do: it
// must not end as if it had succeeded.
#include "common.h"

__global__ void scratch(int* out) {
  int a = int(threadIdx.x) * 2, b = 7, d;
  asm volatile("vabsdiff.s32.s32.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  out[threadIdx.x] = d;
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

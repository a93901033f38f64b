// A kernel that reads 512 bytes before its input buffer, as Rodinia's srad_v2 does: harmless on
// a GPU (the bytes are mapped device memory), an error for memcheck.
#include "common.h"

__global__ void before(const int* in, int* out) {
  int i = int(threadIdx.x) - 128;
  out[threadIdx.x] = in[i] + 1;
}

int main() {
  int *in, *out;
  CHECK(cudaMalloc(&in, 64 * sizeof(int)));
  CHECK(cudaMalloc(&out, 32 * sizeof(int)));
  CHECK(cudaMemset(in, 0, 64 * sizeof(int)));
  before<<<1, 32>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  int h[32] = {};
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("oob_read: %s, out[0] = %d\n", cudaGetErrorName(e), h[0]);
  return 0;
}

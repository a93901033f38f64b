// Sum reduction: each block sums 2*256 ints in shared memory (tree), then the host adds the partial sums.
#include "common.h"
#define BLOCK 256
__global__ void reduce(const int* in, int* out, int n) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * BLOCK * 2 + t;
  int v = 0;
  if (i < n) v = in[i];
  if (i + BLOCK < n) v += in[i + BLOCK];
  s[t] = v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 19);
  int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  int* h = (int*)malloc(n * sizeof(int));
  long long ref = 0;
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 101 - 50, ref += h[i];
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int))); CHECK(cudaMalloc(&dout, blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
  reduce<<<blocks, BLOCK>>>(din, dout, n);
  CHECK(cudaGetLastError());
  int* part = (int*)malloc(blocks * sizeof(int));
  CHECK(cudaMemcpy(part, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int b = 0; b < blocks; ++b) sum += part[b];
  return finish(sum != ref, "reduce");
}

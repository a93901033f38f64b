// Tree reduction in shared memory with __syncthreads between levels, one partial sum per
// block (static and dynamic shared memory), checked against the host sum.
#include <vector>

#include "common.h"

template <int BLOCK>
__global__ void reduce_static(const int* in, int* out, int n) {
  __shared__ int buf[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  buf[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

__global__ void reduce_dynamic(const int* in, int* out, int n) {
  extern __shared__ int dbuf[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  dbuf[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) dbuf[t] += dbuf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = dbuf[0];
}

int main() {
  const int n = 5000, block = 128, blocks = (n + block - 1) / block;
  std::vector<int> in(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 37) % 101 - 50;
    want += in[i];
  }
  int *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> part(blocks);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) reduce_static<block><<<blocks, block>>>(din, dout, n);
    else reduce_dynamic<<<blocks, block, block * sizeof(int)>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(part.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long got = 0;
    for (int p : part) got += p;
    if (got != want) {
      std::printf("pass %d: sum %lld != %lld\n", pass, got, want);
      return 1;
    }
  }
  std::printf("reduction: ok (%lld)\n", want);
  return 0;
}

// out[i] = in[idx[i]] with random indices over a 16 MiB table (memory-bound, uncoalesced), 4 gathers per thread.
#include "common.h"
__global__ void gather(const float* in, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0;
    for (int k = 0; k < 4; ++k) s += in[idx[k * n + i]];
    out[i] = s;
  }
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 16), table = 1 << 22;
  float* in = (float*)malloc(sizeof(float) * table);
  int* idx = (int*)malloc(sizeof(int) * 4 * n);
  for (int i = 0; i < table; ++i) in[i] = float(i % 1013);
  unsigned s = 12345;
  for (int i = 0; i < 4 * n; ++i) { s = s * 1664525u + 1013904223u; idx[i] = (s >> 8) % table; }
  float *din, *dout; int* didx;
  CHECK(cudaMalloc(&din, sizeof(float) * table)); CHECK(cudaMalloc(&didx, sizeof(int) * 4 * n));
  CHECK(cudaMalloc(&dout, sizeof(float) * n));
  CHECK(cudaMemcpy(din, in, sizeof(float) * table, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(didx, idx, sizeof(int) * 4 * n, cudaMemcpyHostToDevice));
  gather<<<(n + 255) / 256, 256>>>(din, didx, dout, n);
  CHECK(cudaGetLastError());
  float* out = (float*)malloc(sizeof(float) * n);
  CHECK(cudaMemcpy(out, dout, sizeof(float) * n, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float r = 0;
    for (int k = 0; k < 4; ++k) r += in[idx[k * n + i]];
    bad += out[i] != r;
  }
  return finish(bad, "gather");
}

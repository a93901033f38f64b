// c = a + b, one element per thread.
#include "common.h"
__global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 20);
  size_t bytes = n * sizeof(float);
  float *a = (float*)malloc(bytes), *b = (float*)malloc(bytes), *c = (float*)malloc(bytes);
  for (int i = 0; i < n; ++i) a[i] = float(i % 1000) * 0.5f, b[i] = float(i % 777);
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes)); CHECK(cudaMalloc(&db, bytes)); CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
  return finish(bad, "vecadd");
}

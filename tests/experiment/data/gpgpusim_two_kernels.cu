// Two kernels, one launched twice: a fixture for warpsim correlate's GPGPU-Sim log import.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void scale(float* c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] *= s;
}
int main() {
  const int n = 2048;
  float *a, *b, *c;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4);
  cudaMemset(a, 0, n * 4); cudaMemset(b, 0, n * 4);
  add<<<n / 256, 256>>>(a, b, c, n);
  scale<<<n / 256, 256>>>(c, 2.0f, n);
  add<<<n / 256, 256>>>(c, b, a, n);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}

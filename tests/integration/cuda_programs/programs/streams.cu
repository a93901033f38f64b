// Two streams, each with its own buffers: async copies, a kernel per stream, events around
// the work. Checks results, that the elapsed times are positive, and ordering of events.
#include <vector>

#include "common.h"

__global__ void scale_add(float* x, float s, float a, int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int r = 0; r < reps; ++r) v = v * s + a;
    x[i] = v;
  }
}

int main() {
  const int n = 2048;
  cudaStream_t st[2];
  CHECK(cudaStreamCreate(&st[0]));
  CHECK(cudaStreamCreateWithFlags(&st[1], cudaStreamNonBlocking));
  cudaEvent_t start, mid, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&mid));
  CHECK(cudaEventCreate(&stop));
  float* host[2];
  float* dev[2];
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMallocHost(&host[k], n * sizeof(float)));
    CHECK(cudaMalloc(&dev[k], n * sizeof(float)));
    for (int i = 0; i < n; ++i) host[k][i] = float(i % 7 + k);
  }
  CHECK(cudaEventRecord(start, 0));
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemcpyAsync(dev[k], host[k], n * sizeof(float), cudaMemcpyHostToDevice, st[k]));
    scale_add<<<n / 128, 128, 0, st[k]>>>(dev[k], 1.0f, float(k + 1), n, 8);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(mid, st[0]));
  for (int k = 0; k < 2; ++k)
    CHECK(cudaMemcpyAsync(host[k], dev[k], n * sizeof(float), cudaMemcpyDeviceToHost, st[k]));
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaStreamSynchronize(st[0]));
  CHECK(cudaStreamSynchronize(st[1]));
  CHECK(cudaEventSynchronize(stop));
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < n; ++i) {
      float want = float(i % 7 + k) + 8.0f * float(k + 1);
      if (host[k][i] != want) {
        std::printf("stream %d: mismatch at %d: %f != %f\n", k, i, host[k][i], want);
        return 1;
      }
    }
  float t_mid = 0, t_all = 0;
  CHECK(cudaEventElapsedTime(&t_mid, start, mid));
  CHECK(cudaEventElapsedTime(&t_all, start, stop));
  if (!(t_mid > 0.0f) || t_all < t_mid) {
    std::printf("elapsed times: %f ms to mid, %f ms overall\n", t_mid, t_all);
    return 1;
  }
  std::printf("streams: ok (%.6f ms, %.6f ms)\n", t_mid, t_all);
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaFreeHost(host[k]));
    CHECK(cudaFree(dev[k]));
    CHECK(cudaStreamDestroy(st[k]));
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(mid));
  CHECK(cudaEventDestroy(stop));
  return 0;
}

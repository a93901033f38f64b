// Device-side printf (three threads, several conversions) and assert (with any argument, the
// assertion fails in thread 7: the run must fail although the program ignores the error).
#include <cassert>
#include "common.h"

__global__ void hello(int n, double x, const char* tag) {
  int t = threadIdx.x;
  if (t < n) printf("thread %d of %d: x=%.3f tag=%s %c %5.1f %lld|%-4d|%x\n", t, n, x * t, "hi", 'A' + t, 2.5f * t, -1234567890123ll, t, 255 + t);
}

__global__ void check(int limit) { assert(threadIdx.x < limit); }

int main(int argc, char** argv) {
  hello<<<1, 32>>>(3, 1.5, nullptr);
  cudaDeviceSynchronize();
  bool fail = argc > 1;
  check<<<1, 32>>>(fail ? 7 : 32);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("after assert kernel: %s\n", cudaGetErrorName(e));
  return 0;
}

// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on the default pool across two
// streams, a release threshold that keeps freed memory for reuse, the pool's byte counters,
// cudaMemPoolTrimTo, a pool of the program's own as the device's current pool, and a pool's
// maximum size. Prints "mem_pool: ok" when every check passes.
#include <cstdint>
#include <vector>

#include "common.h"

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void add(const int* a, const int* b, int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

#define EXPECT(cond)                                              \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("mem_pool: %s failed (line %d)\n", #cond, __LINE__); \
      return 1;                                                   \
    }                                                             \
  } while (0)

uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  EXPECT(supported == 1);
  const int n = 4096;
  const size_t bytes = n * sizeof(int);
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t ready;
  CHECK(cudaEventCreate(&ready));
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  cudaMemPool_t current;
  CHECK(cudaDeviceGetMemPool(&current, 0));
  EXPECT(current == pool);

  // Threshold 0 (the default): freed memory goes back to the device.
  int *a, *b, *c;
  CHECK(cudaMallocAsync(&a, bytes, s1));
  CHECK(cudaMallocAsync(&b, bytes, s2));
  fill<<<n / 256, 256, 0, s1>>>(a, 1, n);
  fill<<<n / 256, 256, 0, s2>>>(b, 1000, n);
  CHECK(cudaEventRecord(ready, s2));
  CHECK(cudaStreamWaitEvent(s1, ready, 0));
  CHECK(cudaMallocAsync(&c, bytes, s1));
  add<<<n / 256, 256, 0, s1>>>(a, b, c, n);
  std::vector<int> h(n);
  CHECK(cudaMemcpyAsync(h.data(), c, bytes, cudaMemcpyDeviceToHost, s1));
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= 3 * bytes);
  CHECK(cudaFreeAsync(a, s1));
  CHECK(cudaFreeAsync(b, s1));
  CHECK(cudaFreeAsync(c, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; ++i) EXPECT(h[i] == 1001 + 2 * i);
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) >= 3 * bytes);

  // A high threshold keeps freed blocks: the next allocation of that size reuses one.
  uint64_t keep = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  EXPECT(attr(pool, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX);
  CHECK(cudaMallocAsync(&a, bytes, s1));
  fill<<<n / 256, 256, 0, s1>>>(a, 5, n);
  CHECK(cudaFreeAsync(a, s1));
  int* again = nullptr;
  CHECK(cudaMallocAsync(&again, bytes, s1));
  EXPECT(again == a);
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= bytes);
  CHECK(cudaFreeAsync(again, s1));
  CHECK(cudaStreamSynchronize(s1));
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) >= bytes);
  CHECK(cudaMemPoolTrimTo(pool, 0));
  EXPECT(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  uint64_t zero = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemHigh) == 0);

  // A pool of the program's own with a maximum size, made the device's current pool.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  props.maxSize = 1 << 20;
  cudaMemPool_t mine;
  CHECK(cudaMemPoolCreate(&mine, &props));
  CHECK(cudaDeviceSetMemPool(0, mine));
  CHECK(cudaMallocAsync(&a, bytes, s2));
  EXPECT(attr(mine, cudaMemPoolAttrUsedMemCurrent) >= bytes);
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  CHECK(cudaMallocFromPoolAsync(&b, bytes, pool, s2));
  EXPECT(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= bytes);
  void* big = nullptr;
  EXPECT(cudaMallocAsync(&big, 2 << 20, s2) == cudaErrorMemoryAllocation);
  cudaGetLastError();
  fill<<<n / 256, 256, 0, s2>>>(a, 7, n);
  CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s2));
  CHECK(cudaMemcpyAsync(h.data(), b, bytes, cudaMemcpyDeviceToHost, s2));
  CHECK(cudaFreeAsync(a, s2));
  CHECK(cudaFree(b));  // cudaFree takes pool memory too
  CHECK(cudaStreamSynchronize(s2));
  for (int i = 0; i < n; ++i) EXPECT(h[i] == 7 + i);
  CHECK(cudaDeviceSetMemPool(0, pool));
  CHECK(cudaMemPoolDestroy(mine));
  EXPECT(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue);  // the default pool stays
  cudaGetLastError();
  std::printf("mem_pool: ok\n");
  return 0;
}

// Stream-ordered allocation in the shim, driven as nvcc's code drives it (no CUDA toolkit
// needed): cudaMallocAsync/cudaFreeAsync around a kernel, the pools' counters, the release
// threshold and trimming, pools of the program's own, and the device attribute.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cudart/cuda_abi.h"
#include "support/cudart_shim.h"

using namespace warpsim::cudart;

namespace {
using LaunchFn = int (*)(const void*, dim3, dim3, void**, size_t, void*);

uint64_t attribute(warpsim::testsupport::Shim& shim, void* pool, int attr) {
  uint64_t v = ~0ull;
  EXPECT_EQ(shim.fn<int (*)(void*, int, void*)>("cudaMemPoolGetAttribute")(pool, attr, &v), 0);
  return v;
}
}  // namespace

TEST(MemoryPools, AllocationsFollowTheirStreamAndReturnToThePool) {
  SHIM_OR_SKIP();
  auto device_attr = shim.fn<int (*)(int*, int, int)>("cudaDeviceGetAttribute");
  auto default_pool = shim.fn<int (*)(void**, int)>("cudaDeviceGetDefaultMemPool");
  auto malloc_async = shim.fn<int (*)(void**, size_t, void*)>("cudaMallocAsync");
  auto free_async = shim.fn<int (*)(void*, void*)>("cudaFreeAsync");
  auto set_attr = shim.fn<int (*)(void*, int, void*)>("cudaMemPoolSetAttribute");
  auto trim = shim.fn<int (*)(void*, size_t)>("cudaMemPoolTrimTo");
  auto memcpy_async = shim.fn<int (*)(void*, const void*, size_t, int, void*)>("cudaMemcpyAsync");
  auto launch = shim.fn<LaunchFn>("cudaLaunchKernel");
  auto stream_create = shim.fn<int (*)(void**)>("cudaStreamCreate");
  auto sync = shim.fn<int (*)(void*)>("cudaStreamSynchronize");
  auto mem_info = shim.fn<int (*)(size_t*, size_t*)>("cudaMemGetInfo");
  int supported = 0;
  ASSERT_EQ(device_attr(&supported, cudaDevAttrMemoryPoolsSupported, 0), 0);
  EXPECT_EQ(supported, 1);
  cudaDeviceProp prop;
  ASSERT_EQ(shim.fn<int (*)(cudaDeviceProp*, int)>("cudaGetDeviceProperties")(&prop, 0), 0);
  EXPECT_EQ(prop.memoryPoolsSupported, 1);

  void* pool = nullptr;
  ASSERT_EQ(default_pool(&pool, 0), 0);
  void* s = nullptr;
  ASSERT_EQ(stream_create(&s), 0);
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n, 0.0f);
  for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f;
  size_t free_before = 0, total = 0;
  ASSERT_EQ(mem_info(&free_before, &total), 0);
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(malloc_async(&da, n * 4, s), 0);
  ASSERT_EQ(malloc_async(&db, n * 4, s), 0);
  ASSERT_EQ(malloc_async(&dc, n * 4, s), 0);
  EXPECT_EQ(attribute(shim, pool, cudaMemPoolAttrUsedMemCurrent), 3u * 4096);  // 4000 bytes in 512-byte granules
  size_t free_during = 0;
  ASSERT_EQ(mem_info(&free_during, &total), 0);
  EXPECT_LT(free_during, free_before);
  ASSERT_EQ(memcpy_async(da, a.data(), n * 4, cudaMemcpyHostToDevice, s), 0);
  ASSERT_EQ(memcpy_async(db, b.data(), n * 4, cudaMemcpyHostToDevice, s), 0);
  int count = n;
  void* args[] = {&da, &db, &dc, &count};
  ASSERT_EQ(launch(shim.kernel(), dim3{16, 1, 1}, dim3{64, 1, 1}, args, 0, s), 0);
  ASSERT_EQ(free_async(da, s), 0);  // after the kernel that reads it
  ASSERT_EQ(free_async(db, s), 0);
  ASSERT_EQ(memcpy_async(c.data(), dc, n * 4, cudaMemcpyDeviceToHost, s), 0);
  ASSERT_EQ(free_async(dc, s), 0);
  ASSERT_EQ(sync(s), 0);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], float(i) + 0.5f) << i;
  EXPECT_EQ(attribute(shim, pool, cudaMemPoolAttrUsedMemCurrent), 0u);
  EXPECT_EQ(attribute(shim, pool, cudaMemPoolAttrReservedMemCurrent), 0u);  // threshold 0: all released
  EXPECT_EQ(attribute(shim, pool, cudaMemPoolAttrUsedMemHigh), 3u * 4096);

  // With a threshold the pool keeps freed blocks and hands them out again.
  uint64_t threshold = 1 << 20;
  ASSERT_EQ(set_attr(pool, cudaMemPoolAttrReleaseThreshold, &threshold), 0);
  ASSERT_EQ(malloc_async(&da, n * 4, s), 0);
  ASSERT_EQ(free_async(da, s), 0);
  void* again = nullptr;
  ASSERT_EQ(malloc_async(&again, n * 4, s), 0);
  EXPECT_EQ(again, da);
  ASSERT_EQ(free_async(again, s), 0);
  EXPECT_EQ(attribute(shim, pool, cudaMemPoolAttrReservedMemCurrent), 4096u);
  ASSERT_EQ(trim(pool, 0), 0);
  EXPECT_EQ(attribute(shim, pool, cudaMemPoolAttrReservedMemCurrent), 0u);
  uint64_t one = 1;
  EXPECT_EQ(set_attr(pool, cudaMemPoolAttrUsedMemHigh, &one), cudaErrorInvalidValue);  // only resets
  EXPECT_EQ(set_attr(pool, cudaMemPoolAttrUsedMemCurrent, &one), cudaErrorInvalidValue);
  shim.fn<int (*)()>("cudaGetLastError")();
}

TEST(MemoryPools, ProgramPoolsAndTheCurrentPool) {
  SHIM_OR_SKIP();
  auto create = shim.fn<int (*)(void**, const cudaMemPoolProps*)>("cudaMemPoolCreate");
  auto destroy = shim.fn<int (*)(void*)>("cudaMemPoolDestroy");
  auto default_pool = shim.fn<int (*)(void**, int)>("cudaDeviceGetDefaultMemPool");
  auto set_pool = shim.fn<int (*)(int, void*)>("cudaDeviceSetMemPool");
  auto get_pool = shim.fn<int (*)(void**, int)>("cudaDeviceGetMemPool");
  auto malloc_async = shim.fn<int (*)(void**, size_t, void*)>("cudaMallocAsync");
  auto from_pool = shim.fn<int (*)(void**, size_t, void*, void*)>("cudaMallocFromPoolAsync");
  auto free_async = shim.fn<int (*)(void*, void*)>("cudaFreeAsync");
  auto cfree = shim.fn<int (*)(void*)>("cudaFree");
  auto get_access = shim.fn<int (*)(int*, void*, cudaMemLocation*)>("cudaMemPoolGetAccess");
  auto last = shim.fn<int (*)()>("cudaGetLastError");
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
  props.maxSize = 8192;
  void *mine = nullptr, *dflt = nullptr, *cur = nullptr;
  ASSERT_EQ(create(&mine, &props), 0);
  ASSERT_EQ(default_pool(&dflt, 0), 0);
  ASSERT_EQ(get_pool(&cur, 0), 0);
  EXPECT_EQ(cur, dflt);
  ASSERT_EQ(set_pool(0, mine), 0);
  void *p = nullptr, *q = nullptr, *r = nullptr;
  ASSERT_EQ(malloc_async(&p, 4000, nullptr), 0);
  EXPECT_EQ(attribute(shim, mine, cudaMemPoolAttrUsedMemCurrent), 4096u);
  EXPECT_EQ(attribute(shim, dflt, cudaMemPoolAttrUsedMemCurrent), 0u);
  ASSERT_EQ(from_pool(&q, 100, dflt, nullptr), 0);
  EXPECT_EQ(attribute(shim, dflt, cudaMemPoolAttrUsedMemCurrent), 512u);
  EXPECT_EQ(malloc_async(&r, 8000, nullptr), cudaErrorMemoryAllocation);  // past maxSize
  int flags = 0;
  cudaMemLocation dev0{cudaMemLocationTypeDevice, 0};
  ASSERT_EQ(get_access(&flags, mine, &dev0), 0);
  EXPECT_EQ(flags, cudaMemAccessFlagsProtReadWrite);
  ASSERT_EQ(cfree(q), 0);  // cudaFree returns a pool block to its pool
  EXPECT_EQ(attribute(shim, dflt, cudaMemPoolAttrUsedMemCurrent), 0u);
  // A destroyed pool's outstanding block can still be freed; the handle is gone at once.
  ASSERT_EQ(destroy(mine), 0);
  ASSERT_EQ(get_pool(&cur, 0), 0);
  EXPECT_EQ(cur, dflt);
  EXPECT_EQ(set_pool(0, mine), cudaErrorInvalidValue);
  ASSERT_EQ(free_async(p, nullptr), 0);
  EXPECT_EQ(destroy(dflt), cudaErrorInvalidValue);
  props.location.id = 1;
  EXPECT_EQ(create(&mine, &props), cudaErrorInvalidValue);
  last();
}

// CUDA 13's pool calls by memory location: device 0's pinned memory is the default pool, and a
// pool set as current is returned; another location or allocation type is refused.
TEST(MemoryPools, PoolsByMemoryLocation) {
  SHIM_OR_SKIP();
  auto default_pool = shim.fn<int (*)(void**, int)>("cudaDeviceGetDefaultMemPool");
  auto get_default = shim.fn<int (*)(void**, const cudaMemLocation*, int)>("cudaMemGetDefaultMemPool");
  auto get_current = shim.fn<int (*)(void**, const cudaMemLocation*, int)>("cudaMemGetMemPool");
  auto set_current = shim.fn<int (*)(const cudaMemLocation*, int, void*)>("cudaMemSetMemPool");
  void* dev_default = nullptr;
  ASSERT_EQ(default_pool(&dev_default, 0), 0);
  const cudaMemLocation dev0{cudaMemLocationTypeDevice, 0};
  void* p = nullptr;
  ASSERT_EQ(get_default(&p, &dev0, cudaMemAllocationTypePinned), 0);
  EXPECT_EQ(p, dev_default);
  ASSERT_EQ(set_current(&dev0, cudaMemAllocationTypePinned, dev_default), 0);
  ASSERT_EQ(get_current(&p, &dev0, cudaMemAllocationTypePinned), 0);
  EXPECT_EQ(p, dev_default);
  const cudaMemLocation dev1{cudaMemLocationTypeDevice, 1};
  EXPECT_EQ(get_default(&p, &dev1, cudaMemAllocationTypePinned), cudaErrorInvalidValue);
  EXPECT_EQ(get_current(&p, &dev0, cudaMemAllocationTypePinned + 1), cudaErrorInvalidValue);
  EXPECT_EQ(set_current(&dev0, cudaMemAllocationTypePinned + 1, dev_default), cudaErrorInvalidValue);
}

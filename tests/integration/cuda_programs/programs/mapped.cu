// Mapped (zero-copy) host memory: cudaHostAlloc(cudaHostAllocMapped) and
// cudaHostRegister(cudaHostRegisterMapped) buffers that kernels read and write through
// cudaHostGetDevicePointer. Prints PASSED when every check holds. With the argument "bad" it
// makes invalid calls instead and prints the errors they return.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common.h"

__global__ void twice(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

#define EXPECT(cond)                                                  \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                       \
    }                                                                 \
  } while (0)

static int bad_uses() {
  std::vector<int> plain(64, 1);
  void* d = nullptr;
  cudaError_t e = cudaHostGetDevicePointer(&d, plain.data(), 0);
  std::printf("cudaHostGetDevicePointer on unmapped memory: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorInvalidValue && cudaGetLastError() == cudaErrorInvalidValue);
  e = cudaHostUnregister(plain.data());
  std::printf("cudaHostUnregister of unregistered memory: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorHostMemoryNotRegistered);
  CHECK(cudaHostRegister(plain.data(), 64 * sizeof(int), cudaHostRegisterMapped));
  e = cudaHostRegister(plain.data() + 8, 8 * sizeof(int), cudaHostRegisterMapped);
  std::printf("cudaHostRegister twice: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorHostMemoryAlreadyRegistered);
  CHECK(cudaHostUnregister(plain.data()));
  e = cudaHostRegister(reinterpret_cast<void*>(uintptr_t(4096)), 4096, cudaHostRegisterMapped);
  std::printf("cudaHostRegister of unmapped memory: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorInvalidValue);
  int* dev = nullptr;
  CHECK(cudaMalloc(&dev, 64));
  e = cudaMemPrefetchAsync(dev, 64, cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, 0);
  std::printf("cudaMemPrefetchAsync on device memory: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorInvalidValue);
  void* m = nullptr;
  e = cudaMallocManaged(&m, 0);
  std::printf("cudaMallocManaged of 0 bytes: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorInvalidValue);
  e = cudaFreeHost(plain.data());
  std::printf("cudaFreeHost of malloc memory: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaErrorInvalidValue);
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue);  // the last error, now cleared
  CHECK(cudaGetLastError());
  CHECK(cudaFree(dev));
  std::printf("bad uses: PASSED\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "bad") == 0) return bad_uses();
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(prop.canMapHostMemory == 1);

  const int n = 1000;
  int *in, *out;
  CHECK(cudaHostAlloc(&in, n * sizeof(int), cudaHostAllocMapped));
  CHECK(cudaHostAlloc(&out, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < n; ++i) {
    in[i] = i - 7;
    out[i] = 0;
  }
  int *d_in, *d_out;
  CHECK(cudaHostGetDevicePointer(&d_in, in, 0));
  CHECK(cudaHostGetDevicePointer(&d_out, out, 0));
  twice<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) EXPECT(out[i] == 2 * (i - 7));

  unsigned flags = 0;
  CHECK(cudaHostGetFlags(&flags, out));
  EXPECT(flags & cudaHostAllocMapped);
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, in));
  EXPECT(attr.type == cudaMemoryTypeHost && attr.devicePointer == d_in);

  // Registered memory the program allocated itself; the host changes it between kernels.
  std::vector<int> v(3000);
  for (int i = 0; i < 3000; ++i) v[i] = 3 * i;
  CHECK(cudaHostRegister(v.data(), v.size() * sizeof(int), cudaHostRegisterMapped));
  int* d_v;
  CHECK(cudaHostGetDevicePointer(&d_v, v.data(), 0));
  add_one<<<(3000 + 255) / 256, 256>>>(d_v, 3000);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 3000; ++i) EXPECT(v[i] == 3 * i + 1);
  v[5] = -100;
  add_one<<<(3000 + 255) / 256, 256>>>(d_v, 3000);
  CHECK(cudaDeviceSynchronize());
  EXPECT(v[5] == -99 && v[2999] == 3 * 2999 + 2);
  CHECK(cudaHostUnregister(v.data()));

  CHECK(cudaFreeHost(in));
  CHECK(cudaFreeHost(out));
  std::printf("PASSED\n");
  return 0;
}

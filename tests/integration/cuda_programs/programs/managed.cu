// Managed memory: cudaMallocManaged buffers and a __managed__ variable that the host and the
// kernels use without explicit copies. Prints PASSED when every check holds.
#include <cstdio>

#include "common.h"

__managed__ int counters[4];

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(float* c, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] *= f;
}

// Uses the __managed__ variable by name and through a pointer the host took.
__global__ void count(int* via_pointer, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&counters[i % 4], 1);
    atomicAdd(&via_pointer[1], 2);
  }
}

#define EXPECT(cond)                                                  \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                       \
    }                                                                 \
  } while (0)

int main() {
  int managed = 0;
  CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
  EXPECT(managed == 1);

  const int n = 3000;
  float *a, *b, *c;
  CHECK(cudaMallocManaged(&a, n * sizeof(float)));
  CHECK(cudaMallocManaged(&b, n * sizeof(float)));
  CHECK(cudaMallocManaged(&c, n * sizeof(float), cudaMemAttachGlobal));
  for (int i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = float(n - i);
    c[i] = -1.0f;
  }

  // A kernel writes, the host reads after synchronising: no copies.
  vector_add<<<(n + 255) / 256, 256>>>(a, b, c, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) EXPECT(c[i] == a[i] + b[i]);

  // The host writes, the next kernel (on a stream, with the hints programs give) reads.
  for (int i = 0; i < n; ++i) c[i] = float(i);
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  CHECK(cudaStreamAttachMemAsync(st, c, 0, cudaMemAttachSingle));
  cudaMemLocation loc{};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  CHECK(cudaMemAdvise(c, n * sizeof(float), cudaMemAdviseSetPreferredLocation, loc));
  CHECK(cudaMemPrefetchAsync(c, n * sizeof(float), loc, 0, st));
  scale<<<(n + 255) / 256, 256, 0, st>>>(c, 3.0f, n);
  CHECK(cudaStreamSynchronize(st));
  for (int i = 0; i < n; ++i) EXPECT(c[i] == 3.0f * float(i));

  // Copies and memsets treat managed memory like device memory.
  float host[8];
  CHECK(cudaMemcpy(host, c + 10, sizeof host, cudaMemcpyDefault));
  for (int i = 0; i < 8; ++i) EXPECT(host[i] == 3.0f * float(10 + i));
  CHECK(cudaMemset(b, 0, n * sizeof(float)));
  EXPECT(b[0] == 0.0f && b[n - 1] == 0.0f);
  CHECK(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice));
  EXPECT(b[7] == a[7]);

  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, a + 5));
  EXPECT(attr.type == cudaMemoryTypeManaged);
  EXPECT(attr.devicePointer == a + 5 && attr.hostPointer == a + 5);

  // A __managed__ variable: the host sets it, kernels update it by name and by pointer.
  for (int i = 0; i < 4; ++i) counters[i] = 100 * i;
  count<<<2, 128>>>(counters, 256);
  CHECK(cudaDeviceSynchronize());
  EXPECT(counters[0] == 64);
  EXPECT(counters[1] == 100 + 64 + 2 * 256);
  EXPECT(counters[2] == 200 + 64);
  EXPECT(counters[3] == 300 + 64);
  CHECK(cudaPointerGetAttributes(&attr, counters));
  EXPECT(attr.type == cudaMemoryTypeManaged);

  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  std::printf("PASSED\n");
  return 0;
}

// Device-side new/delete and malloc/free: objects created by one kernel, used by a second and
// deleted by a third (the heap outlives kernels), cudaLimitMallocHeapSize, and malloc returning
// null when the heap is exhausted.
#include <cstdint>
#include <vector>

#include "common.h"

struct Node {
  int value;
  int squares[7];
};

__global__ void create(Node** slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Node* p = new Node;
  p->value = i;
  for (int k = 0; k < 7; ++k) p->squares[k] = (i + k) * (i + k);
  slots[i] = p;
}

__global__ void sum(Node* const* slots, int n, long long* out, int* misaligned) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Node* p = slots[i];
  if (reinterpret_cast<uintptr_t>(p) % 16 != 0) atomicAdd(misaligned, 1);
  long long s = p->value;
  for (int k = 0; k < 7; ++k) s += p->squares[k];
  out[i] = s;
}

__global__ void destroy(Node** slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) delete slots[i];
}

// Every thread asks for `bytes`; counts the null results, frees the rest.
__global__ void exhaust(size_t bytes, int* nulls) {
  void* p = malloc(bytes);
  if (!p) atomicAdd(nulls, 1);
  free(p);
}

int main() {
  size_t heap = 0;
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  if (heap != (8u << 20)) {
    std::printf("default heap size %zu, expected 8 MiB\n", heap);
    return 1;
  }
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  if (heap != (1u << 20)) {
    std::printf("heap size %zu after setting 1 MiB\n", heap);
    return 1;
  }
  const int n = 300;
  Node** slots;
  long long* out;
  int* counters;
  CHECK(cudaMalloc(&slots, n * sizeof(Node*)));
  CHECK(cudaMalloc(&out, n * sizeof(long long)));
  CHECK(cudaMalloc(&counters, 2 * sizeof(int)));
  CHECK(cudaMemset(counters, 0, 2 * sizeof(int)));
  create<<<(n + 127) / 128, 128>>>(slots, n);
  sum<<<(n + 127) / 128, 128>>>(slots, n, out, counters);
  destroy<<<(n + 127) / 128, 128>>>(slots, n);
  // 64 threads x 48 KiB exceed the 1 MiB heap: some of them get null.
  exhaust<<<1, 64>>>(48 << 10, counters + 1);
  CHECK(cudaGetLastError());
  std::vector<long long> h(n);
  int c[2];
  CHECK(cudaMemcpy(h.data(), out, n * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(c, counters, sizeof c, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    long long want = i;
    for (int k = 0; k < 7; ++k) want += (long long)(i + k) * (i + k);
    if (h[i] != want) {
      std::printf("object %d: %lld, expected %lld\n", i, h[i], want);
      return 1;
    }
  }
  if (c[0] != 0) {
    std::printf("%d objects not 16-byte aligned\n", c[0]);
    return 1;
  }
  if (c[1] == 0 || c[1] == 64) {
    std::printf("%d of 64 allocations of 48 KiB failed in a 1 MiB heap\n", c[1]);
    return 1;
  }
  std::printf("device_new: ok (%d of 64 allocations failed)\n", c[1]);
  return 0;
}

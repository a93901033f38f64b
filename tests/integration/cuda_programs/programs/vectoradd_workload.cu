// The bundled vectoradd workload's kernel behind a plain CUDA host program: its statistics
// under `warpsim exec` must equal `warpsim run vectoradd` with the same n and block.
// Usage: vectoradd_workload N BLOCK
#include <cstdlib>
#include <vector>

#include "common.h"
#include "../../../../suite/vectoradd/kernel.cu"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s N BLOCK\n", argv[0]);
    return 2;
  }
  int n = std::atoi(argv[1]), block = std::atoi(argv[2]);
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 1000) * 0.001f;
    b[i] = float(i % 77);
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, n * 4));
  CHECK(cudaMalloc(&db, n * 4));
  CHECK(cudaMalloc(&dc, n * 4));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  vector_add<<<(n + block - 1) / block, block>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      std::printf("mismatch at %d\n", i);
      return 1;
    }
  std::printf("vectoradd_workload: ok\n");
  return 0;
}

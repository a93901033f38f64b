// A __launch_bounds__(512, 1) kernel that keeps 40 doubles live per thread: its PTX holds more
// values than a Fermi thread may have registers (63), which ptxas would spill. The register
// count the runtime reports fits 512 threads on an SM, the kernel launches and its results are
// checked against the host; prints "numRegs N" for the test to compare with the device's limit.
#include <cmath>
#include <vector>

#include "common.h"

constexpr int kLive = 40, kBlock = 512;

__global__ void __launch_bounds__(kBlock, 1) scale_by_total(const double* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v[kLive];
#pragma unroll
  for (int k = 0; k < kLive; ++k) v[k] = in[k * n + i];
  double total = 0;
#pragma unroll
  for (int k = 0; k < kLive; ++k) total += v[k] * v[(k + 1) % kLive];
#pragma unroll
  for (int k = 0; k < kLive; ++k) out[k * n + i] = v[k] * total;
}

int main() {
  const int n = 2 * kBlock, blocks = (n + kBlock - 1) / kBlock;
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, scale_by_total));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale_by_total, kBlock, 0));
  std::printf("numRegs %d maxThreadsPerBlock %d blocksPerSM %d\n", attr.numRegs, attr.maxThreadsPerBlock, per_sm);
  if (attr.maxThreadsPerBlock < kBlock || per_sm < 1) {
    std::printf("launch_bounds: a %d-thread block does not fit\n", kBlock);
    return 1;
  }
  std::vector<double> in(size_t(kLive) * n), out(in.size());
  for (size_t j = 0; j < in.size(); ++j) in[j] = double(j % 17) / 8 - 1;
  double *din, *dout;
  CHECK(cudaMalloc(&din, in.size() * sizeof(double)));
  CHECK(cudaMalloc(&dout, out.size() * sizeof(double)));
  CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(double), cudaMemcpyHostToDevice));
  scale_by_total<<<blocks, kBlock>>>(din, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double total = 0;
    for (int k = 0; k < kLive; ++k) total += in[size_t(k) * n + i] * in[size_t((k + 1) % kLive) * n + i];
    for (int k = 0; k < kLive; ++k) {
      double want = in[size_t(k) * n + i] * total, got = out[size_t(k) * n + i];
      if (std::fabs(got - want) > 1e-9 * (1 + std::fabs(want))) {
        std::printf("out[%d][%d] = %g, want %g\n", k, i, got, want);
        return 1;
      }
    }
  }
  std::printf("launch_bounds: ok\n");
  return 0;
}

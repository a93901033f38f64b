// Cooperative launches and grid-wide barriers (cooperative_groups::this_grid().sync()).
//   coop_grid_sync        the largest co-resident grid runs phases in which every thread reads what
//                         a thread of another CTA wrote in the phase before, and a grid-wide sum;
//                         the same through cudaLaunchKernelEx's cooperative attribute; a grid one
//                         CTA too large is refused with cudaErrorCooperativeLaunchTooLarge
//   coop_grid_sync plain     grid.sync() in an ordinary launch: the kernel traps (exits 1)
//   coop_grid_sync deadlock  a grid.sync() that CTA 0 never reaches: the launch fails (exits 1)
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "common.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 128;
constexpr int kPhases = 6;

// What the grid tells about itself, as seen by one thread of the last CTA.
struct GridInfo {
  unsigned valid, size, blocks, last_block_rank, rank_errors;
  unsigned long long sum;
};

// buf[0] = i; phase p reads buf[p % 2] at the thread `shift` ranks further (another CTA) and
// writes that plus 1 to buf[(p + 1) % 2]: after P phases thread i holds (i + P * shift) % n + P.
__global__ void phases(int* buf, int shift, GridInfo* info) {
  cg::grid_group g = cg::this_grid();
  const unsigned n = unsigned(g.size());
  const unsigned i = unsigned(g.thread_rank());
  const unsigned linear_block = blockIdx.y * gridDim.x + blockIdx.x;
  if (i != linear_block * blockDim.x + threadIdx.x) atomicAdd(&info->rank_errors, 1u);
  buf[i] = int(i);
  for (int p = 0; p < kPhases; ++p) {
    g.sync();
    const int* from = buf + (p % 2) * n;
    int* to = buf + ((p + 1) % 2) * n;
    to[i] = from[(i + unsigned(shift)) % n] + 1;
  }
  // A grid-wide sum that every thread reads after the barrier.
  atomicAdd(&info->sum, (unsigned long long)buf[(kPhases % 2) * n + i]);
  g.sync();
  if (i == n - 1) {
    info->valid = g.is_valid();
    info->size = unsigned(g.size());
    info->blocks = unsigned(g.num_blocks());
    info->last_block_rank = unsigned(g.block_rank());
  }
  if (info->sum == 0) atomicAdd(&info->rank_errors, 1u);
}

__global__ void validity(unsigned* valid) { *valid = cg::this_grid().is_valid(); }

__global__ void partial_sync(int* flags) {
  cg::grid_group g = cg::this_grid();
  if (blockIdx.x != 0) g.sync();
  flags[blockIdx.x] = 1;
}

int check(const char* what, const std::vector<int>& out, const GridInfo& info, unsigned n, unsigned blocks, int shift) {
  int bad = 0;
  unsigned long long sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    const int want = int((i + unsigned(kPhases) * unsigned(shift)) % n) + kPhases;
    sum += (unsigned long long)want;
    if (out[i] != want && bad++ < 5) std::printf("%s: thread %u holds %d, expected %d\n", what, i, out[i], want);
  }
  if (info.valid != 1 || info.size != n || info.blocks != blocks || info.last_block_rank != blocks - 1 ||
      info.rank_errors != 0 || info.sum != sum) {
    std::printf("%s: grid info valid %u size %u blocks %u last rank %u rank errors %u sum %llu (expected 1 %u %u %u 0 %llu)\n",
                what, info.valid, info.size, info.blocks, info.last_block_rank, info.rank_errors, info.sum, n, blocks,
                blocks - 1, sum);
    ++bad;
  }
  std::printf("%s: %u CTAs of %d threads, %d phases: %s\n", what, blocks, kBlock, kPhases, bad ? "FAILED" : "ok");
  return bad;
}

int main(int argc, char** argv) {
  const bool plain = argc > 1 && std::strcmp(argv[1], "plain") == 0;
  const bool deadlock = argc > 1 && std::strcmp(argv[1], "deadlock") == 0;
  int coop = 0, sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, kBlock, 0));
  std::printf("cooperative launch: %d, %d SMs x %d CTAs\n", coop, sms, per_sm);
  if (!coop) return 1;

  // Two rows of CTAs (a 2D grid), as many as fit at once.
  const unsigned blocks = unsigned(sms * per_sm) & ~1u;
  const dim3 grid(blocks / 2, 2);
  const unsigned n = blocks * kBlock;
  int shift = kBlock + 3;  // the thread 3 lanes into the next CTA
  int* buf;
  GridInfo* info;
  CHECK(cudaMalloc(&buf, 2 * n * sizeof(int)));
  CHECK(cudaMalloc(&info, sizeof(GridInfo)));
  void* args[] = {&buf, &shift, &info};

  if (plain) {
    unsigned* valid;
    CHECK(cudaMalloc(&valid, sizeof(unsigned)));
    validity<<<2, 32>>>(valid);
    unsigned v = 7;
    CHECK(cudaMemcpy(&v, valid, sizeof v, cudaMemcpyDeviceToHost));
    std::printf("is_valid() in an ordinary launch: %u\n", v);
    phases<<<grid, kBlock>>>(buf, shift, info);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("grid.sync() in an ordinary launch: %s\n", cudaGetErrorName(e));
    return v == 0 && e != cudaSuccess ? 1 : 4;
  }

  if (deadlock) {
    void* flag_args[] = {&buf};
    CHECK(cudaLaunchCooperativeKernel((void*)partial_sync, dim3(4), dim3(32), flag_args, 0, 0));
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("grid.sync() not reached by CTA 0: %s\n", cudaGetErrorName(e));
    return e != cudaSuccess ? 1 : 4;
  }

  int bad = 0;
  std::vector<int> out(n);
  GridInfo got;
  CHECK(cudaMemset(info, 0, sizeof(GridInfo)));
  CHECK(cudaLaunchCooperativeKernel((void*)phases, grid, dim3(kBlock), args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), buf + (kPhases % 2) * n, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got, info, sizeof got, cudaMemcpyDeviceToHost));
  bad += check("cudaLaunchCooperativeKernel", out, got, n, blocks, shift);

  // The same kernel through cudaLaunchKernelEx, shifted by one CTA less three lanes.
  shift = kBlock - 3;
  CHECK(cudaMemset(info, 0, sizeof(GridInfo)));
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  config.gridDim = grid;
  config.blockDim = dim3(kBlock);
  config.attrs = attr;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, phases, buf, shift, info));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), buf + (kPhases % 2) * n, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got, info, sizeof got, cudaMemcpyDeviceToHost));
  bad += check("cudaLaunchKernelEx", out, got, n, blocks, shift);

  // One CTA more than fits at once: refused, and the error does not stick.
  cudaError_t e = cudaLaunchCooperativeKernel((void*)phases, dim3(sms * per_sm + 1), dim3(kBlock), args, 0, 0);
  std::printf("too large: %s\n", cudaGetErrorName(e));
  if (e != cudaErrorCooperativeLaunchTooLarge || cudaGetLastError() != cudaErrorCooperativeLaunchTooLarge ||
      cudaGetLastError() != cudaSuccess)
    ++bad;
  CHECK(cudaFree(buf));
  CHECK(cudaFree(info));
  std::printf("coop_grid_sync: %s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}

// Warp-shuffle reduction (CUDA samples reduction, the shuffle variant; also the warp-level
// primitives post): each thread sums a grid-stride slice, warps reduce in registers with
// __shfl_down_sync, warp totals meet in shared memory and the first warp finishes them with
// __shfl_xor_sync. One partial sum per CTA.
extern "C" __global__ void shfl_reduce(unsigned* block_sums, const unsigned* in, int n) {
  __shared__ unsigned warp_sums[32];
  unsigned sum = 0;
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    int warps = blockDim.x >> 5;
    unsigned v = lane < warps ? warp_sums[lane] : 0u;
    for (int mask = 16; mask > 0; mask /= 2) v += __shfl_xor_sync(0xffffffffu, v, mask);
    if (lane == 0) block_sums[blockIdx.x] = v;
  }
}

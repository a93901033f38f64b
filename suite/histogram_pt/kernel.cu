// Persistent-thread 256-bin byte histogram (CUDA samples histogram256) for multikernel (QoS)
// experiments, in one kernel: every warp counts into its own shared-memory sub-histogram with
// shared atomics while the threads stride over the words; each CTA then adds its warps' counts
// into the global histogram with global atomics.
#define BIN_COUNT 256
#define WARP_COUNT 8
#define BLOCK_SIZE (WARP_COUNT * 32)

extern "C" __global__ void histogram256(unsigned int* histogram, const unsigned int* data, int words) {
  __shared__ unsigned int hist[WARP_COUNT * BIN_COUNT];
  for (int i = threadIdx.x; i < WARP_COUNT * BIN_COUNT; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  unsigned int* warp_hist = hist + (threadIdx.x / 32) * BIN_COUNT;
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < words; pos += blockDim.x * gridDim.x) {
    unsigned int w = data[pos];
    atomicAdd(warp_hist + (w & 0xffu), 1u);
    atomicAdd(warp_hist + ((w >> 8) & 0xffu), 1u);
    atomicAdd(warp_hist + ((w >> 16) & 0xffu), 1u);
    atomicAdd(warp_hist + (w >> 24), 1u);
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < BIN_COUNT; bin += blockDim.x) {
    unsigned int sum = 0;
    for (int w = 0; w < WARP_COUNT; ++w) sum += hist[w * BIN_COUNT + bin];
    if (sum) atomicAdd(histogram + bin, sum);
  }
}

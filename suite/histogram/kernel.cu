// 256-bin byte histogram (CUDA samples histogram256): every warp counts into its own
// shared-memory sub-histogram with shared atomics, each block merges its warps' counts into one
// partial histogram in global memory, and a second kernel (one block per bin) sums the partial
// histograms with a shared-memory reduction.
#define BIN_COUNT 256
#define WARP_COUNT 6
#define BLOCK_SIZE (WARP_COUNT * 32)
#define MERGE_THREADS 256

extern "C" __global__ void histogram256(unsigned int* partial, const unsigned int* data, int words) {
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
    partial[blockIdx.x * BIN_COUNT + bin] = sum;
  }
}

extern "C" __global__ void merge_histogram256(unsigned int* histogram, const unsigned int* partial,
                                              int partial_count) {
  __shared__ unsigned int data[MERGE_THREADS];
  unsigned int sum = 0;
  for (int i = threadIdx.x; i < partial_count; i += MERGE_THREADS)
    sum += partial[blockIdx.x + i * BIN_COUNT];
  data[threadIdx.x] = sum;
  for (int stride = MERGE_THREADS / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) histogram[blockIdx.x] = data[0];
}

// Parallel sum reduction (CUDA samples reduction, "first add during load" variant): each thread
// adds two inputs while loading, then the block halves the active range in shared memory with a
// barrier per level; thread 0 writes the block's partial sum. The host relaunches the kernel on
// the partial sums until one value is left.
#define BLOCK 256

extern "C" __global__ void reduce_sum(const int* in, int* out, unsigned n) {
  __shared__ int sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + tid;
  int sum = (i < n) ? in[i] : 0;
  if (i + BLOCK < n) sum += in[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sum;
}

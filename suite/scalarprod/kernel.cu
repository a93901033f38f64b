// Scalar products of many vector pairs (CUDA samples scalarProd): each block takes whole vector
// pairs in turn; its threads fold the pair into ACCUM_N partial sums with stride-ACCUM_N
// coalesced loads, then a shared-memory tree reduces the partial sums.
#define ACCUM_N 1024

extern "C" __global__ void scalar_prod(float* c, const float* a, const float* b, int vector_n,
                                       int element_n) {
  __shared__ float accum[ACCUM_N];
  for (int vec = blockIdx.x; vec < vector_n; vec += gridDim.x) {
    int base = vec * element_n;
    for (int slot = threadIdx.x; slot < ACCUM_N; slot += blockDim.x) {
      float sum = 0.0f;
      for (int pos = slot; pos < element_n; pos += ACCUM_N) sum += a[base + pos] * b[base + pos];
      accum[slot] = sum;
    }
    for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      for (int i = threadIdx.x; i < stride; i += blockDim.x) accum[i] += accum[stride + i];
    }
    __syncthreads();
    if (threadIdx.x == 0) c[vec] = accum[0];
    __syncthreads();
  }
}

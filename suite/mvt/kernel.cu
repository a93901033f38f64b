// MVT (Polybench): x1 += A y1 and x2 += A^T y2 with one thread per output element. The first
// kernel traverses A by rows (each thread streams its own row: uncoalesced, reuse through the
// L1 line), the second by columns (a warp reads one contiguous row segment per step).
extern "C" __global__ void mvt_kernel1(const float* a, float* x1, const float* y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = x1[i];
    for (int j = 0; j < n; ++j) sum += a[i * n + j] * y1[j];
    x1[i] = sum;
  }
}

extern "C" __global__ void mvt_kernel2(const float* a, float* x2, const float* y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = x2[i];
    for (int j = 0; j < n; ++j) sum += a[j * n + i] * y2[j];
    x2[i] = sum;
  }
}

// Persistent-thread ATAX (Polybench) for multikernel (QoS) experiments: y = A^T (A x) for a
// batch of independent nx x ny problems stored one after another. The first kernel strides over
// the (problem, row) pairs, each thread walking one row (uncoalesced); the second strides over
// the (problem, column) pairs, each thread walking one column (coalesced).
extern "C" __global__ void atax_kernel1(const float* a, const float* x, float* tmp, int nx, int ny, int batch) {
  int total = nx * batch;
  int stride = blockDim.x * gridDim.x;
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < total; r += stride) {
    int m = r / nx;
    const float* row = a + (long long)r * ny;
    const float* xm = x + m * ny;
    float sum = 0.0f;
    for (int j = 0; j < ny; ++j) sum += row[j] * xm[j];
    tmp[r] = sum;
  }
}

extern "C" __global__ void atax_kernel2(const float* a, const float* tmp, float* y, int nx, int ny, int batch) {
  int total = ny * batch;
  int stride = blockDim.x * gridDim.x;
  for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < total; c += stride) {
    int m = c / ny, j = c - m * ny;
    const float* am = a + (long long)m * nx * ny;
    const float* tm = tmp + m * nx;
    float sum = 0.0f;
    for (int i = 0; i < nx; ++i) sum += am[i * ny + j] * tm[i];
    y[c] = sum;
  }
}

// Sparse matrix-vector product y = A x with A in CSR. The scalar kernel gives each row one
// thread (divergent trip counts, scattered loads); the vector kernel gives each row one warp
// (coalesced row segments, then a shuffle reduction).
extern "C" __global__ void spmv_csr_scalar(const int* row_ptr, const int* cols, const float* vals,
                                           const float* x, float* y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) sum += vals[k] * x[cols[k]];
    y[row] = sum;
  }
}

extern "C" __global__ void spmv_csr_vector(const int* row_ptr, const int* cols, const float* vals,
                                           const float* x, float* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp < rows) {
    float sum = 0.0f;
    for (int k = row_ptr[warp] + lane; k < row_ptr[warp + 1]; k += 32) sum += vals[k] * x[cols[k]];
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[warp] = sum;
  }
}

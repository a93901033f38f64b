// 2D convolution with a fixed 3 x 3 filter (Polybench/GPU 2DCONV). One thread per interior
// output point, reading its nine neighbours straight from global memory: neighbouring threads
// and rows share inputs through the caches.
extern "C" __global__ void conv2d(const float* A, float* B, int ni, int nj) {
  const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
  const float c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1) {
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[i * nj + (j - 1)] +
                    c13 * A[(i + 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + j] +
                    c22 * A[i * nj + j] + c23 * A[(i + 1) * nj + j] +
                    c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[i * nj + (j + 1)] +
                    c33 * A[(i + 1) * nj + (j + 1)];
  }
}

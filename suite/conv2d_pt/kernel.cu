// Persistent-thread 3x3 2D convolution (Polybench 2DCONV) for multikernel (QoS) experiments:
// the grid fills a fixed share of every SM and each thread strides over the output points in
// row-major order, reading the nine neighbours from global memory.
extern "C" __global__ void conv2d(const float* A, float* B, int ni, int nj) {
  const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
  const float c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;
  int total = ni * nj;
  int stride = blockDim.x * gridDim.x;
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < total; p += stride) {
    int i = p / nj, j = p - i * nj;
    if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1) {
      B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[i * nj + (j - 1)] +
                      c13 * A[(i + 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + j] +
                      c22 * A[i * nj + j] + c23 * A[(i + 1) * nj + j] +
                      c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[i * nj + (j + 1)] +
                      c33 * A[(i + 1) * nj + (j + 1)];
    }
  }
}

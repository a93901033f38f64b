// Register-blocked SGEMM, C = alpha * A * B^T + beta * C (Parboil sgemm, NT variant). All
// matrices are column-major: A is m x k, B is n x k, C is m x n. A block of 16 x 8 threads owns
// a 128 x 16 tile of C: each thread keeps one row of that tile (16 accumulators) in registers,
// streams its column of A from global memory, and reads an 8 x 16 slice of B from shared memory.
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

extern "C" __global__ void sgemm_nt(const float* A, int lda, const float* B, int ldb, float* C,
                                    int ldc, int k, float alpha, float beta) {
  __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
  float c[TILE_N];
#pragma unroll
  for (int i = 0; i < TILE_N; ++i) c[i] = 0.0f;
  int mid = threadIdx.y * blockDim.x + threadIdx.x;
  int m = blockIdx.x * TILE_M + mid;
  int n = blockIdx.y * TILE_N + threadIdx.x;
  for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
    b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE_TB_HEIGHT; ++j) {
      float a = A[m + (i + j) * lda];
#pragma unroll
      for (int kk = 0; kk < TILE_N; ++kk) c[kk] += a * b_s[j][kk];
    }
    __syncthreads();
  }
  int t = ldc * blockIdx.y * TILE_N + m;
#pragma unroll
  for (int i = 0; i < TILE_N; ++i) C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}

// Tiled matrix multiply C = A * B with 16 x 16 shared-memory tiles (CUDA samples matrixMul).
// Row-major: A is hA x wA, B is wA x wB. One thread per element of C; each block walks the
// shared dimension one tile at a time, staging a tile of A and a tile of B between barriers.
#define BLOCK_SIZE 16

extern "C" __global__ void matrix_mul(float* C, const float* A, const float* B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int a_begin = wA * BLOCK_SIZE * by;
  int a_end = a_begin + wA - 1;
  int a_step = BLOCK_SIZE;
  int b_begin = BLOCK_SIZE * bx;
  int b_step = BLOCK_SIZE * wB;
  float sum = 0.0f;
  for (int a = a_begin, b = b_begin; a <= a_end; a += a_step, b += b_step) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = sum;
}

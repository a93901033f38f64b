// Persistent-thread tiled matrix multiply C = A * B (CUDA samples matrixMul) for multikernel
// (QoS) experiments: a CTA of 16 x 16 threads loops over the 16 x 16 tiles of C with a stride
// of the grid size, staging tiles of A and B in shared memory between barriers.
#define BLOCK_SIZE 16

extern "C" __global__ void matrix_mul(float* C, const float* A, const float* B, int wA, int wB,
                                      int tiles_x, int tiles) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int bx = tile % tiles_x, by = tile / tiles_x;
    int a_begin = wA * BLOCK_SIZE * by;
    int a_end = a_begin + wA - 1;
    int b_begin = BLOCK_SIZE * bx;
    int b_step = BLOCK_SIZE * wB;
    float sum = 0.0f;
    for (int a = a_begin, b = b_begin; a <= a_end; a += BLOCK_SIZE, b += b_step) {
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
}

// Separable convolution (CUDA samples convolutionSeparable): a row pass then a column pass with
// a 17-tap filter held in constant memory. Each block stages its result tile plus one halo tile
// on each side in shared memory (zero outside the image), synchronises, then every thread
// computes several outputs from shared memory.
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__constant__ float c_kernel[KERNEL_LENGTH];

extern "C" __global__ void convolution_rows(float* dst, const float* src, int width, int height,
                                            int pitch) {
  __shared__ float s[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
  int base_x = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
  int base_y = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
  src += base_y * pitch + base_x;
  dst += base_y * pitch + base_x;
  int ty = threadIdx.y, tx = threadIdx.x;
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; ++i)
    s[ty][tx + i * ROWS_BLOCKDIM_X] = src[i * ROWS_BLOCKDIM_X];
#pragma unroll
  for (int i = 0; i < ROWS_HALO_STEPS; ++i)
    s[ty][tx + i * ROWS_BLOCKDIM_X] = (base_x >= -i * ROWS_BLOCKDIM_X) ? src[i * ROWS_BLOCKDIM_X] : 0.0f;
#pragma unroll
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS;
       i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; ++i)
    s[ty][tx + i * ROWS_BLOCKDIM_X] =
        (width - base_x > i * ROWS_BLOCKDIM_X) ? src[i * ROWS_BLOCKDIM_X] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; ++i) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      sum += c_kernel[KERNEL_RADIUS - j] * s[ty][tx + i * ROWS_BLOCKDIM_X + j];
    dst[i * ROWS_BLOCKDIM_X] = sum;
  }
}

extern "C" __global__ void convolution_columns(float* dst, const float* src, int width,
                                               int height, int pitch) {
  __shared__ float s[COLUMNS_BLOCKDIM_X]
                    [(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];
  int base_x = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
  int base_y = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
  src += base_y * pitch + base_x;
  dst += base_y * pitch + base_x;
  int ty = threadIdx.y, tx = threadIdx.x;
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; ++i)
    s[tx][ty + i * COLUMNS_BLOCKDIM_Y] = src[i * COLUMNS_BLOCKDIM_Y * pitch];
#pragma unroll
  for (int i = 0; i < COLUMNS_HALO_STEPS; ++i)
    s[tx][ty + i * COLUMNS_BLOCKDIM_Y] =
        (base_y >= -i * COLUMNS_BLOCKDIM_Y) ? src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0.0f;
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; ++i)
    s[tx][ty + i * COLUMNS_BLOCKDIM_Y] =
        (height - base_y > i * COLUMNS_BLOCKDIM_Y) ? src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; ++i) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      sum += c_kernel[KERNEL_RADIUS - j] * s[tx][ty + i * COLUMNS_BLOCKDIM_Y + j];
    dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
  }
}

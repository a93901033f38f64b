// Thermal simulation of a chip (Rodinia hotspot). Each 16 x 16 block loads a tile of the
// temperature and power grids into shared memory and advances it `iteration` time steps in
// place (the "pyramid": the valid region shrinks by one cell per side each step, so blocks
// overlap by the border and only the inner part is written back).
#define BLOCK_SIZE 16
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

extern "C" __global__ void calculate_temp(int iteration, const float* power, const float* temp_src,
                                          float* temp_dst, int grid_cols, int grid_rows,
                                          int border_cols, int border_rows, float cap, float rx,
                                          float ry, float rz, float step) {
  __shared__ float temp_on[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float power_on[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];
  const float amb_temp = 80.0f;
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  float step_div_cap = step / cap;
  float rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
  int small_rows = BLOCK_SIZE - iteration * 2;
  int small_cols = BLOCK_SIZE - iteration * 2;
  int blk_y = small_rows * by - border_rows;
  int blk_x = small_cols * bx - border_cols;
  int blk_ymax = blk_y + BLOCK_SIZE - 1;
  int blk_xmax = blk_x + BLOCK_SIZE - 1;
  int yidx = blk_y + ty, xidx = blk_x + tx;
  int index = grid_cols * yidx + xidx;
  if (IN_RANGE(yidx, 0, grid_rows - 1) && IN_RANGE(xidx, 0, grid_cols - 1)) {
    temp_on[ty][tx] = temp_src[index];
    power_on[ty][tx] = power[index];
  }
  __syncthreads();
  int valid_ymin = (blk_y < 0) ? -blk_y : 0;
  int valid_ymax = (blk_ymax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blk_ymax - grid_rows + 1) : BLOCK_SIZE - 1;
  int valid_xmin = (blk_x < 0) ? -blk_x : 0;
  int valid_xmax = (blk_xmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blk_xmax - grid_cols + 1) : BLOCK_SIZE - 1;
  int n = ty - 1, s = ty + 1, w = tx - 1, e = tx + 1;
  n = (n < valid_ymin) ? valid_ymin : n;
  s = (s > valid_ymax) ? valid_ymax : s;
  w = (w < valid_xmin) ? valid_xmin : w;
  e = (e > valid_xmax) ? valid_xmax : e;
  bool computed = false;
  for (int i = 0; i < iteration; ++i) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(tx, valid_xmin, valid_xmax) && IN_RANGE(ty, valid_ymin, valid_ymax)) {
      computed = true;
      float c = temp_on[ty][tx];
      temp_t[ty][tx] = c + step_div_cap * (power_on[ty][tx] +
                                           (temp_on[s][tx] + temp_on[n][tx] - 2.0f * c) * ry_1 +
                                           (temp_on[ty][e] + temp_on[ty][w] - 2.0f * c) * rx_1 +
                                           (amb_temp - c) * rz_1);
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed) temp_on[ty][tx] = temp_t[ty][tx];
    __syncthreads();
  }
  if (computed) temp_dst[index] = temp_t[ty][tx];
}

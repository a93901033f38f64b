// Minimum-cost path through a grid, row by row (Rodinia pathfinder): cost[r][c] = wall[r][c] +
// min of the three costs above. A block of 256 threads keeps a row segment in shared memory
// and advances `iteration` rows between global writes (pyramid: the valid part shrinks by one
// column per side per row, so neighbouring blocks overlap by the halo).
#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

extern "C" __global__ void dynproc_kernel(int iteration, const int* wall, const int* src,
                                          int* results, int cols, int rows, int start_step,
                                          int border) {
  __shared__ int prev[BLOCK_SIZE];
  __shared__ int result[BLOCK_SIZE];
  int bx = blockIdx.x, tx = threadIdx.x;
  int small_cols = BLOCK_SIZE - iteration * HALO * 2;
  int blk_x = small_cols * bx - border;
  int blk_xmax = blk_x + BLOCK_SIZE - 1;
  int xidx = blk_x + tx;
  int valid_xmin = (blk_x < 0) ? -blk_x : 0;
  int valid_xmax = (blk_xmax > cols - 1) ? BLOCK_SIZE - 1 - (blk_xmax - cols + 1) : BLOCK_SIZE - 1;
  int w = tx - 1, e = tx + 1;
  w = (w < valid_xmin) ? valid_xmin : w;
  e = (e > valid_xmax) ? valid_xmax : e;
  bool is_valid = IN_RANGE(tx, valid_xmin, valid_xmax);
  if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = src[xidx];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < iteration; ++i) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && is_valid) {
      computed = true;
      int shortest = MIN(prev[w], prev[tx]);
      shortest = MIN(shortest, prev[e]);
      result[tx] = shortest + wall[cols * (start_step + i) + xidx];
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed) results[xidx] = result[tx];
}

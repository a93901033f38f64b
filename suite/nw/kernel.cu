// Needleman-Wunsch global sequence alignment (Rodinia nw). The score matrix is processed in
// 16 x 16 tiles along anti-diagonals of tiles: needle_1 sweeps the upper-left triangle of tiles,
// needle_2 the lower-right one, one launch per tile diagonal. Inside a tile, one warp of 16
// threads fills the cells along anti-diagonals in shared memory, a barrier per diagonal.
#define BS 16

__device__ __forceinline__ int max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

// Both tiles are kept column-major in shared memory (tile[x][y], x the column), padded to
// 17 words per column.
__device__ __forceinline__ void nw_tile(const int* reference, int* matrix, int cols, int penalty,
                                        int bxi, int byi) {
  __shared__ int temp[BS + 1][BS + 1];
  __shared__ int ref[BS][BS + 1];
  int tx = threadIdx.x;
  int index = cols * BS * byi + BS * bxi + tx + (cols + 1);
  int index_n = cols * BS * byi + BS * bxi + tx + 1;
  int index_w = cols * BS * byi + BS * bxi + cols;
  int index_nw = cols * BS * byi + BS * bxi;
  if (tx == 0) temp[0][0] = matrix[index_nw];
  for (int ty = 0; ty < BS; ++ty) ref[tx][ty] = reference[index + cols * ty];
  __syncthreads();
  temp[0][tx + 1] = matrix[index_w + cols * tx];
  __syncthreads();
  temp[tx + 1][0] = matrix[index_n];
  __syncthreads();
  for (int m = 0; m < BS; ++m) {
    if (tx <= m) {
      int x = tx + 1, y = m - tx + 1;
      temp[x][y] = max3(temp[x - 1][y - 1] + ref[x - 1][y - 1], temp[x - 1][y] - penalty,
                        temp[x][y - 1] - penalty);
    }
    __syncthreads();
  }
  for (int m = BS - 2; m >= 0; --m) {
    if (tx <= m) {
      int x = tx + BS - m, y = BS - tx;
      temp[x][y] = max3(temp[x - 1][y - 1] + ref[x - 1][y - 1], temp[x - 1][y] - penalty,
                        temp[x][y - 1] - penalty);
    }
    __syncthreads();
  }
  for (int ty = 0; ty < BS; ++ty) matrix[index + ty * cols] = temp[tx + 1][ty + 1];
}

extern "C" __global__ void needle_1(const int* reference, int* matrix, int cols, int penalty,
                                    int i, int block_width) {
  nw_tile(reference, matrix, cols, penalty, blockIdx.x, i - 1 - blockIdx.x);
}

extern "C" __global__ void needle_2(const int* reference, int* matrix, int cols, int penalty,
                                    int i, int block_width) {
  nw_tile(reference, matrix, cols, penalty, blockIdx.x + block_width - i, block_width - blockIdx.x - 1);
}

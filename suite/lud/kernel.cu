// Blocked LU decomposition without pivoting, in place (Rodinia lud). For each 16-wide step:
// lud_diagonal factors the diagonal block with one block of 16 threads, lud_perimeter solves
// the blocks to the right (U) and below (L) of it, and lud_internal updates the trailing
// submatrix with a 16 x 16 tile product. Row-major, dim a multiple of 16.
#define BS 16

extern "C" __global__ void lud_diagonal(float* m, int dim, int offset) {
  __shared__ float shadow[BS][BS];
  int tx = threadIdx.x;
  int base = offset * dim + offset;
  for (int i = 0; i < BS; ++i) shadow[i][tx] = m[base + i * dim + tx];
  __syncthreads();
  for (int i = 0; i < BS - 1; ++i) {
    if (tx > i) {
      for (int j = 0; j < i; ++j) shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
      shadow[tx][i] /= shadow[i][i];
    }
    __syncthreads();
    if (tx > i) {
      for (int j = 0; j < i + 1; ++j) shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
    }
    __syncthreads();
  }
  for (int i = 1; i < BS; ++i) m[base + i * dim + tx] = shadow[i][tx];
}

extern "C" __global__ void lud_perimeter(float* m, int dim, int offset) {
  __shared__ float dia[BS][BS];
  __shared__ float peri_row[BS][BS];
  __shared__ float peri_col[BS][BS];
  int bx = blockIdx.x, tx = threadIdx.x;
  int diag = offset * dim + offset;
  int row_blk = diag + (bx + 1) * BS;          // block to the right of the diagonal
  int col_blk = diag + (bx + 1) * BS * dim;    // block below the diagonal
  if (tx < BS) {
    int idx = tx;
    for (int i = 0; i < BS / 2; ++i) dia[i][idx] = m[diag + i * dim + idx];
    for (int i = 0; i < BS; ++i) peri_row[i][idx] = m[row_blk + i * dim + idx];
  } else {
    int idx = tx - BS;
    for (int i = BS / 2; i < BS; ++i) dia[i][idx] = m[diag + i * dim + idx];
    for (int i = 0; i < BS; ++i) peri_col[i][idx] = m[col_blk + i * dim + idx];
  }
  __syncthreads();
  if (tx < BS) {
    int idx = tx;
    for (int i = 1; i < BS; ++i)
      for (int j = 0; j < i; ++j) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
  } else {
    int idx = tx - BS;
    for (int i = 0; i < BS; ++i) {
      for (int j = 0; j < i; ++j) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
      peri_col[idx][i] /= dia[i][i];
    }
  }
  __syncthreads();
  if (tx < BS) {
    int idx = tx;
    for (int i = 1; i < BS; ++i) m[row_blk + i * dim + idx] = peri_row[i][idx];
  } else {
    int idx = tx - BS;
    for (int i = 0; i < BS; ++i) m[col_blk + i * dim + idx] = peri_col[i][idx];
  }
}

extern "C" __global__ void lud_internal(float* m, int dim, int offset) {
  __shared__ float peri_row[BS][BS];
  __shared__ float peri_col[BS][BS];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int row = offset + (by + 1) * BS;
  int col = offset + (bx + 1) * BS;
  peri_row[ty][tx] = m[(offset + ty) * dim + col + tx];
  peri_col[ty][tx] = m[(row + ty) * dim + offset + tx];
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < BS; ++i) sum += peri_col[ty][i] * peri_row[i][tx];
  m[(row + ty) * dim + col + tx] -= sum;
}

// Speckle-reducing anisotropic diffusion (Rodinia SRAD v2). Per iteration the host derives
// q0^2 from a region of interest, then srad_1 computes the four directional derivatives and the
// diffusion coefficient of every pixel from a 16 x 16 tile plus a one-pixel halo in shared
// memory, and srad_2 applies the divergence update using the coefficients of the south and
// east neighbours. Borders are clamped (a border pixel is its own neighbour).
#define BLOCK_SIZE 16

extern "C" __global__ void srad_1(float* dN, float* dS, float* dW, float* dE, const float* J,
                                  float* C, int cols, int rows, float q0sqr) {
  __shared__ float tile[BLOCK_SIZE + 2][BLOCK_SIZE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * BLOCK_SIZE + ty, c = blockIdx.x * BLOCK_SIZE + tx;
  int idx = r * cols + c;
  tile[ty + 1][tx + 1] = J[idx];
  if (ty == 0) tile[0][tx + 1] = J[(r > 0 ? r - 1 : 0) * cols + c];
  if (ty == BLOCK_SIZE - 1) tile[BLOCK_SIZE + 1][tx + 1] = J[(r < rows - 1 ? r + 1 : rows - 1) * cols + c];
  if (tx == 0) tile[ty + 1][0] = J[r * cols + (c > 0 ? c - 1 : 0)];
  if (tx == BLOCK_SIZE - 1) tile[ty + 1][BLOCK_SIZE + 1] = J[r * cols + (c < cols - 1 ? c + 1 : cols - 1)];
  __syncthreads();
  float jc = tile[ty + 1][tx + 1];
  float n = tile[ty][tx + 1] - jc;
  float s = tile[ty + 2][tx + 1] - jc;
  float w = tile[ty + 1][tx] - jc;
  float e = tile[ty + 1][tx + 2] - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1.0f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coef = 1.0f / (1.0f + den);
  if (coef < 0.0f) coef = 0.0f;
  else if (coef > 1.0f) coef = 1.0f;
  dN[idx] = n;
  dS[idx] = s;
  dW[idx] = w;
  dE[idx] = e;
  C[idx] = coef;
}

extern "C" __global__ void srad_2(const float* dN, const float* dS, const float* dW,
                                  const float* dE, float* J, const float* C, int cols, int rows,
                                  float lambda) {
  __shared__ float ct[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * BLOCK_SIZE + ty, c = blockIdx.x * BLOCK_SIZE + tx;
  int idx = r * cols + c;
  ct[ty][tx] = C[idx];
  if (ty == BLOCK_SIZE - 1) ct[BLOCK_SIZE][tx] = C[(r < rows - 1 ? r + 1 : rows - 1) * cols + c];
  if (tx == BLOCK_SIZE - 1) ct[ty][BLOCK_SIZE] = C[r * cols + (c < cols - 1 ? c + 1 : cols - 1)];
  __syncthreads();
  float cn = ct[ty][tx], cs = ct[ty + 1][tx], cw = ct[ty][tx], ce = ct[ty][tx + 1];
  float d = cn * dN[idx] + cs * dS[idx] + cw * dW[idx] + ce * dE[idx];
  J[idx] = J[idx] + 0.25f * lambda * d;
}

// 7-point 3D stencil (Parboil stencil): next = c1 * (sum of 6 neighbours) - c0 * centre inside
// the grid, boundary copied. Each thread owns one (x, y) column and marches along z keeping the
// planes below, at and above in registers; the x/y neighbours come from memory (cache reuse
// between neighbouring threads and columns).
extern "C" __global__ void stencil7(float c0, float c1, const float* a0, float* anext, int nx,
                                   int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  int plane = nx * ny;
  int idx = j * nx + i;
  bool edge = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
  if (edge) {
    for (int k = 0; k < nz; ++k) anext[idx + k * plane] = a0[idx + k * plane];
    return;
  }
  float below = a0[idx];
  float centre = a0[idx + plane];
  anext[idx] = below;
  for (int k = 1; k < nz - 1; ++k) {
    int c = idx + k * plane;
    float above = a0[c + plane];
    float sum = below + above + a0[c - 1] + a0[c + 1] + a0[c - nx] + a0[c + nx];
    anext[c] = c1 * sum - c0 * centre;
    below = centre;
    centre = above;
  }
  anext[idx + (nz - 1) * plane] = centre;
}

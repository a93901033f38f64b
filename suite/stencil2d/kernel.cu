// 2D 5-point Jacobi relaxation: out = 0.2 * (centre + 4 neighbours) inside, boundary copied.
// The host ping-pongs two grids for several iterations, one launch per sweep.
extern "C" __global__ void jacobi2d(const float* in, float* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
  } else {
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
  }
}

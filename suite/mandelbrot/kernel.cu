// Mandelbrot set escape-time iteration (CUDA samples Mandelbrot): one pixel per thread; pixels
// near the set's boundary iterate far longer than their neighbours (divergence). The rounding
// of each step is pinned down (fmaf / __fmul_rn) so the host reproduces every count exactly.
extern "C" __global__ void mandelbrot(int* iterations, int width, int height, float x0, float y0,
                                      float step, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cx = __fadd_rn(x0, __fmul_rn(step, float(px)));
  float cy = __fadd_rn(y0, __fmul_rn(step, float(py)));
  float x = 0.0f, y = 0.0f;
  int it = 0;
  while (it < max_iter) {
    float x2 = __fmul_rn(x, x), y2 = __fmul_rn(y, y);
    if (__fadd_rn(x2, y2) > 4.0f) break;
    float xy = __fmul_rn(x, y);
    x = __fadd_rn(__fsub_rn(x2, y2), cx);
    y = __fadd_rn(__fadd_rn(xy, xy), cy);
    ++it;
  }
  iterations[py * width + px] = it;
}

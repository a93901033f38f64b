// Double precision arithmetic and conversions.
extern "C" __global__ void double_math(const double* a, const double* b, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i];
  double r = fma(x, y, 1.0) / (y + 3.0);
  r += sqrt(fabs(x)) - fmin(x, y) + fmax(x, y);
  long long q = (long long)(x * 1000.0);
  float f = (float)(r * 0.25);
  out[i * 4 + 0] = r;
  out[i * 4 + 1] = (double)q;
  out[i * 4 + 2] = (double)f;
  out[i * 4 + 3] = x < y ? 1.0 / x : -y;
}

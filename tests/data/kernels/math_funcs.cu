// Single-precision library functions and integer bit operations.
extern "C" __global__ void math_funcs(const float* x, const int* k, float* fo, int* io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  int a = k[i];
  int d = k[(i + 1) % n];
  fo[i * 6 + 0] = sinf(v);
  fo[i * 6 + 1] = expf(v * 0.1f);
  fo[i * 6 + 2] = logf(fabsf(v) + 1.0f);
  fo[i * 6 + 3] = rsqrtf(fabsf(v) + 0.5f);
  fo[i * 6 + 4] = __fdividef(v, 3.0f);
  fo[i * 6 + 5] = powf(fabsf(v) + 1.0f, 1.5f);
  io[i * 6 + 0] = d != 0 ? a / d : 0;
  io[i * 6 + 1] = d != 0 ? a % d : 0;
  io[i * 6 + 2] = __clz(a);
  io[i * 6 + 3] = __popc(a);
  io[i * 6 + 4] = (int)__brev((unsigned)a);
  io[i * 6 + 5] = min(a, d) ^ max(a, d);
}

// A device function the compiler must not inline, called from divergent code.
__device__ __noinline__ float poly(float x, int k, float* scratch) {
  float r = 0.0f;
  for (int j = 0; j <= k; ++j) r = r * x + float(j + 1);
  scratch[0] = r;
  return r * 0.5f;
}

extern "C" __global__ void call_kernel(const float* in, float* out, float* scratch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float r;
  if (i % 3 == 0) r = poly(x, i % 5, scratch + i);
  else r = -x;
  out[i] = r;
}

// FMA chains: every thread runs four independent multiply-add recurrences for `iters` rounds
// (the arithmetic-throughput loop of the CUDA samples / ISPASS compute microbenchmarks). One
// load and one store per thread; everything else is fused multiply-adds on registers.
extern "C" __global__ void fma_chain(const float* in, float* out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float a = x, b = x + 1.0f, c = x - 1.0f, d = 0.5f * x;
  for (int k = 0; k < iters; ++k) {
    a = fmaf(a, 0.999f, 0.001f);
    b = fmaf(b, 0.998f, 0.002f);
    c = fmaf(c, 0.997f, 0.003f);
    d = fmaf(d, 0.996f, 0.004f);
  }
  out[i] = (a + b) + (c + d);
}

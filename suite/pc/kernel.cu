// A purely compute-bound persistent kernel (the "pc" kernel of the QAWS evaluation): the grid
// is sized to the machine and loops over the elements; per element one load, a long chain of
// dependent integer and floating-point work, one store.
extern "C" __global__ void pc_kernel(const unsigned* in, float* out, int n, int rounds) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    unsigned h = in[i];
    float acc = 0.0f;
    for (int r = 0; r < rounds; ++r) {
      h ^= h << 13;
      h ^= h >> 17;
      h ^= h << 5;
      acc = fmaf(acc, 0.5f, float(h & 0xffffu) * (1.0f / 65536.0f));
    }
    out[i] = acc + float(h >> 24);
  }
}

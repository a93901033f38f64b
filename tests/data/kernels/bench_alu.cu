// ALU-heavy kernel for the functional benchmark: a long dependent arithmetic loop.
extern "C" __global__ void alu_loop(float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = float(i) * 0.001f, b = 1.0f;
  unsigned h = unsigned(i) * 2654435761u;
  for (int k = 0; k < iters; ++k) {
    a = fmaf(a, 0.999f, b);
    b = b * 1.0001f - 0.0001f;
    h = (h ^ (h >> 13)) * 5u + unsigned(k);
  }
  out[i] = a + b + float(h & 0xff);
}

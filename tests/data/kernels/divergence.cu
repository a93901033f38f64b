// Nested divergence: per-lane branches inside a data-dependent loop, and an early exit.
extern "C" __global__ void nested_branches(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  int acc = 0;
  for (int k = 0; k < (v & 7); ++k) {   // trip count differs per lane
    if (k & 1) {
      if (v % 3 == 0) acc += k * 2;
      else acc -= k;
    } else {
      acc += (v >> 1) ^ k;
    }
  }
  if (threadIdx.x % 4 == 1) {
    out[i] = -acc;
    return;
  }
  out[i] = acc + (v < 0 ? 100 : 0);
}

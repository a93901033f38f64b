// Memory-heavy kernel for the functional benchmark: grid-stride streaming triad.
extern "C" __global__ void triad(const float* a, const float* b, float* c, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c[i] = a[i] + s * b[i];
}

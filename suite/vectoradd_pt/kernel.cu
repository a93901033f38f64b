// Persistent-thread vector addition c = a + b for multikernel (QoS) experiments: the grid fills
// a fixed share of every SM and each thread strides over the elements.
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

// Texture object fetches: 1D integer-indexed and 2D float coordinates.
extern "C" __global__ void tex_fetch(cudaTextureObject_t t1, cudaTextureObject_t t2, float* out, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = tex1Dfetch<float>(t1, i);
  float b = tex2D<float>(t2, float(i % w) + 0.5f, float(i / w) + 0.5f);
  out[i] = a * 10.0f + b;
}

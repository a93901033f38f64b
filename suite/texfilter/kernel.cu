// Box filter through the texture path (CUDA samples boxFilter / simpleTexture): every output
// pixel averages a (2r+1)^2 window fetched with tex2D from a point-sampled, clamp-addressed 2D
// texture object, so the borders need no special cases and reuse goes through the texture cache.
extern "C" __global__ void box_filter_tex(float* out, cudaTextureObject_t image, int width, int height,
                                          int radius) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx)
      sum += tex2D<float>(image, float(x + dx) + 0.5f, float(y + dy) + 0.5f);
  int side = 2 * radius + 1;
  out[y * width + x] = sum / float(side * side);
}

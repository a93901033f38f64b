// DXT1 (BC1) colour block compression in the style of the CUDA samples dxtc and real-time DXT
// encoders. A block of 64 threads compresses four 4 x 4 pixel blocks, one thread per pixel:
// shared-memory tree reductions (a barrier per level) give each pixel block its colour bounds,
// mean and the signs of the red-green and blue-green covariances; the bounding-box diagonal
// that follows the colour trend, inset by 1/16, gives the two RGB565 end points; every pixel
// picks the nearest of the four palette colours, and a final reduction packs the 2-bit indices
// and sums the squared error.
#define THREADS 64
#define PIXELS 16

__device__ __forceinline__ int expand5(int v) { return (v << 3) | (v >> 2); }
__device__ __forceinline__ int expand6(int v) { return (v << 2) | (v >> 4); }

extern "C" __global__ void dxt1_compress(const unsigned* image, unsigned* blocks, int* errors,
                                         int width, int height) {
  __shared__ int s[9][THREADS];
  int t = threadIdx.x;
  int p = t % PIXELS;
  int group = t - p;
  int block = blockIdx.x * (THREADS / PIXELS) + t / PIXELS;
  int blocks_x = width / 4;
  int px = (block % blocks_x) * 4 + (p & 3);
  int py = (block / blocks_x) * 4 + (p >> 2);
  unsigned rgba = image[py * width + px];
  int r = rgba & 0xff, g = (rgba >> 8) & 0xff, b = (rgba >> 16) & 0xff;

  // Bounds and sums of the 16 pixels.
  s[0][t] = r; s[1][t] = g; s[2][t] = b;
  s[3][t] = r; s[4][t] = g; s[5][t] = b;
  s[6][t] = r; s[7][t] = g; s[8][t] = b;
  __syncthreads();
  for (int stride = PIXELS / 2; stride > 0; stride >>= 1) {
    if (p < stride) {
      int o = t + stride;
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        s[c][t] = min(s[c][t], s[c][o]);
        s[3 + c][t] = max(s[3 + c][t], s[3 + c][o]);
        s[6 + c][t] += s[6 + c][o];
      }
    }
    __syncthreads();
  }
  int min_r = s[0][group], min_g = s[1][group], min_b = s[2][group];
  int max_r = s[3][group], max_g = s[4][group], max_b = s[5][group];
  int dr = 16 * r - s[6][group], dg = 16 * g - s[7][group], db = 16 * b - s[8][group];
  __syncthreads();

  // Covariance signs of red and blue against green.
  s[0][t] = dr * dg;
  s[1][t] = db * dg;
  __syncthreads();
  for (int stride = PIXELS / 2; stride > 0; stride >>= 1) {
    if (p < stride) {
      s[0][t] += s[0][t + stride];
      s[1][t] += s[1][t + stride];
    }
    __syncthreads();
  }
  int cov_rg = s[0][group], cov_bg = s[1][group];
  __syncthreads();

  // End points: inset bounding box, diagonal chosen by the covariance signs.
  int ir = (max_r - min_r) >> 4, ig = (max_g - min_g) >> 4, ib = (max_b - min_b) >> 4;
  max_r -= ir; max_g -= ig; max_b -= ib;
  min_r += ir; min_g += ig; min_b += ib;
  if (cov_rg < 0) { int x = max_r; max_r = min_r; min_r = x; }
  if (cov_bg < 0) { int x = max_b; max_b = min_b; min_b = x; }
  int c0 = ((max_r >> 3) << 11) | ((max_g >> 2) << 5) | (max_b >> 3);
  int c1 = ((min_r >> 3) << 11) | ((min_g >> 2) << 5) | (min_b >> 3);
  if (c0 < c1) { int x = c0; c0 = c1; c1 = x; }

  int index = 0, err;
  int e0r = expand5(c0 >> 11), e0g = expand6((c0 >> 5) & 63), e0b = expand5(c0 & 31);
  if (c0 == c1) {
    err = (r - e0r) * (r - e0r) + (g - e0g) * (g - e0g) + (b - e0b) * (b - e0b);
  } else {
    int e1r = expand5(c1 >> 11), e1g = expand6((c1 >> 5) & 63), e1b = expand5(c1 & 31);
    int pr[4] = {e0r, e1r, (2 * e0r + e1r) / 3, (e0r + 2 * e1r) / 3};
    int pg[4] = {e0g, e1g, (2 * e0g + e1g) / 3, (e0g + 2 * e1g) / 3};
    int pb[4] = {e0b, e1b, (2 * e0b + e1b) / 3, (e0b + 2 * e1b) / 3};
    err = 0x7fffffff;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      int d = (r - pr[k]) * (r - pr[k]) + (g - pg[k]) * (g - pg[k]) + (b - pb[k]) * (b - pb[k]);
      if (d < err) { err = d; index = k; }
    }
  }

  // Pack the indices and total the error.
  s[0][t] = index << (2 * p);
  s[1][t] = err;
  __syncthreads();
  for (int stride = PIXELS / 2; stride > 0; stride >>= 1) {
    if (p < stride) {
      s[0][t] |= s[0][t + stride];
      s[1][t] += s[1][t + stride];
    }
    __syncthreads();
  }
  if (p == 0) {
    blocks[2 * block] = unsigned(c0) | (unsigned(c1) << 16);
    blocks[2 * block + 1] = unsigned(s[0][t]);
    errors[block] = s[1][t];
  }
}

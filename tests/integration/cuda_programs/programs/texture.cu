// Texture objects over linear memory (point reads by index) and over a CUDA array (2D reads
// with clamping at the edges).
#include <vector>

#include "common.h"

__global__ void read_linear(cudaTextureObject_t tex, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, i) * 2.0f;
}

__global__ void read_2d(cudaTextureObject_t tex, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w + 2 && y < h) out[y * (w + 2) + x] = tex2D<float>(tex, float(x - 1) + 0.5f, float(y) + 0.5f);
}

int main() {
  const int n = 500;
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = float(i) * 0.25f;
  float *dv, *dout;
  CHECK(cudaMalloc(&dv, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dv, v.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = dv;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td{};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  read_linear<<<(n + 127) / 128, 128>>>(tex, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != v[i] * 2.0f) {
      std::printf("linear: mismatch at %d: %f\n", i, out[i]);
      return 1;
    }
  CHECK(cudaDestroyTextureObject(tex));

  const int w = 20, h = 6;
  std::vector<float> img(w * h);
  for (int i = 0; i < w * h; ++i) img[i] = float(i);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &cd, w, h));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  cudaResourceDesc ares{};
  ares.resType = cudaResourceTypeArray;
  ares.res.array.array = arr;
  cudaTextureDesc atd{};
  atd.addressMode[0] = cudaAddressModeClamp;
  atd.addressMode[1] = cudaAddressModeClamp;
  atd.filterMode = cudaFilterModePoint;
  atd.readMode = cudaReadModeElementType;
  CHECK(cudaCreateTextureObject(&tex, &ares, &atd, nullptr));
  float* d2;
  CHECK(cudaMalloc(&d2, (w + 2) * h * sizeof(float)));
  read_2d<<<dim3(1, h), 32>>>(tex, d2, w, h);
  CHECK(cudaGetLastError());
  std::vector<float> o2((w + 2) * h);
  CHECK(cudaMemcpy(o2.data(), d2, o2.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w + 2; ++x) {
      int sx = x - 1 < 0 ? 0 : (x - 1 >= w ? w - 1 : x - 1);
      if (o2[y * (w + 2) + x] != img[y * w + sx]) {
        std::printf("2d: mismatch at (%d, %d): %f != %f\n", x, y, o2[y * (w + 2) + x], img[y * w + sx]);
        return 1;
      }
    }
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(arr));
  std::printf("texture: ok\n");
  return 0;
}

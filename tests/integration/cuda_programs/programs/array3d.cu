// 3D arrays and 3D copies: host data into a cudaMalloc3DArray array, from the array into a
// cudaMalloc3D pitched volume, a kernel over the volume, a sub-box copied back to the host and
// cudaMemcpy3DAsync from the array to the host. Prints "array3d: ok" when every value is right.
#include <vector>

#include "common.h"

__global__ void negate(cudaPitchedPtr v, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= w || y >= h || z >= d) return;
  float* row = reinterpret_cast<float*>(static_cast<char*>(v.ptr) + (size_t(z) * h + y) * v.pitch);
  row[x] = -row[x];
}

int main() {
  const int w = 37, h = 5, d = 4;
  std::vector<float> in(w * h * d);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) + 0.5f;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(w, h, d)));
  cudaExtent got;
  cudaChannelFormatDesc got_desc;
  unsigned flags = 1;
  CHECK(cudaArrayGetInfo(&got_desc, &got, &flags, arr));
  if (got.width != w || got.height != h || got.depth != d || got_desc.x != 32 || flags != 0) {
    std::printf("cudaArrayGetInfo: %zu x %zu x %zu, %d bits\n", got.width, got.height, got.depth, got_desc.x);
    return 1;
  }
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(in.data(), w * sizeof(float), w, h);
  p.dstArray = arr;
  p.extent = make_cudaExtent(w, h, d);  // elements: one side is an array
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaPitchedPtr vol;
  CHECK(cudaMalloc3D(&vol, make_cudaExtent(w * sizeof(float), h, d)));
  p = {};
  p.srcArray = arr;
  p.dstPtr = vol;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3D(&p));
  negate<<<dim3((w + 31) / 32, h, d), 32>>>(vol, w, h, d);
  CHECK(cudaGetLastError());
  // The box x 3..12, y 1..3, z 1..2 back to a packed host buffer.
  const int bw = 10, bh = 3, bd = 2;
  std::vector<float> box(bw * bh * bd, 0.0f);
  p = {};
  p.srcPtr = vol;
  p.srcPos = make_cudaPos(3 * sizeof(float), 1, 1);
  p.dstPtr = make_cudaPitchedPtr(box.data(), bw * sizeof(float), bw, bh);
  p.extent = make_cudaExtent(bw * sizeof(float), bh, bd);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  for (int z = 0; z < bd; ++z)
    for (int y = 0; y < bh; ++y)
      for (int x = 0; x < bw; ++x) {
        float want = -in[((z + 1) * h + (y + 1)) * w + (x + 3)];
        if (box[(z * bh + y) * bw + x] != want) {
          std::printf("box (%d, %d, %d): %f != %f\n", x, y, z, box[(z * bh + y) * bw + x], want);
          return 1;
        }
      }
  // The array is unchanged by the kernel; read its last slice back asynchronously.
  std::vector<float> slice(w * h);
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  p = {};
  p.srcArray = arr;
  p.srcPos = make_cudaPos(0, 0, d - 1);
  p.dstPtr = make_cudaPitchedPtr(slice.data(), w * sizeof(float), w, h);
  p.extent = make_cudaExtent(w, h, 1);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&p, st));
  CHECK(cudaStreamSynchronize(st));
  for (int i = 0; i < w * h; ++i)
    if (slice[i] != in[(d - 1) * w * h + i]) {
      std::printf("slice %d: %f != %f\n", i, slice[i], in[(d - 1) * w * h + i]);
      return 1;
    }
  // A copy past the array's end is refused.
  p.srcPos = make_cudaPos(0, 0, d);
  if (cudaMemcpy3D(&p) != cudaErrorInvalidValue) return 1;
  cudaGetLastError();
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFree(vol.ptr));
  std::printf("array3d: ok\n");
  return 0;
}

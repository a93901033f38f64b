// 3D CUDA arrays and 3D copies in the shim, driven as nvcc's code drives it (no CUDA toolkit
// needed): cudaMalloc3DArray, cudaMemcpy3D between host memory, arrays and pitched device
// memory with offsets, cudaArrayGetInfo, and what stops the program.
#include <gtest/gtest.h>

#include <vector>

#include "cudart/cuda_abi.h"
#include "support/cudart_shim.h"

using namespace warpsim::cudart;

TEST(Arrays3D, CopiesInAndOutWithOffsets) {
  SHIM_OR_SKIP();
  auto malloc3d_array =
      shim.fn<int (*)(CudaArray**, const cudaChannelFormatDesc*, cudaExtent, unsigned)>("cudaMalloc3DArray");
  auto malloc3d = shim.fn<int (*)(cudaPitchedPtr*, cudaExtent)>("cudaMalloc3D");
  auto copy3d = shim.fn<int (*)(const cudaMemcpy3DParms*)>("cudaMemcpy3D");
  auto info = shim.fn<int (*)(cudaChannelFormatDesc*, cudaExtent*, unsigned*, CudaArray*)>("cudaArrayGetInfo");
  auto free_array = shim.fn<int (*)(CudaArray*)>("cudaFreeArray");
  const size_t w = 9, h = 4, d = 3;
  std::vector<uint16_t> in(w * h * d);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint16_t(i * 3 + 1);
  cudaChannelFormatDesc desc{16, 0, 0, 0, cudaChannelFormatKindUnsigned};
  CudaArray* arr = nullptr;
  ASSERT_EQ(malloc3d_array(&arr, &desc, cudaExtent{w, h, d}, 0), 0);
  cudaExtent e{};
  ASSERT_EQ(info(nullptr, &e, nullptr, arr), 0);
  EXPECT_EQ(e.width, w);
  EXPECT_EQ(e.height, h);
  EXPECT_EQ(e.depth, d);
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{in.data(), w * 2, w, h};
  p.dstArray = arr;
  p.extent = cudaExtent{w, h, d};
  p.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(copy3d(&p), 0);
  // Array box (x 2..6, y 1..2, z 1..2) into a pitched volume at (1 element, 0, 0).
  cudaPitchedPtr vol{};
  ASSERT_EQ(malloc3d(&vol, cudaExtent{w * 2, h, d}), 0);
  EXPECT_GE(vol.pitch, w * 2);
  p = {};
  p.srcArray = arr;
  p.srcPos = cudaPos{2, 1, 1};
  p.dstPtr = vol;
  p.dstPos = cudaPos{2, 0, 0};  // bytes: one 16-bit element
  p.extent = cudaExtent{5, 2, 2};
  p.kind = cudaMemcpyDeviceToDevice;
  ASSERT_EQ(copy3d(&p), 0);
  std::vector<uint16_t> out(w * h * d, 0);
  p = {};
  p.srcPtr = vol;
  p.dstPtr = cudaPitchedPtr{out.data(), w * 2, w, h};
  p.extent = cudaExtent{w * 2, h, d};
  p.kind = cudaMemcpyDeviceToHost;
  ASSERT_EQ(copy3d(&p), 0);
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 2; ++y)
      for (size_t x = 0; x < 5; ++x)
        ASSERT_EQ(out[(z * h + y) * w + x + 1], in[((z + 1) * h + y + 1) * w + x + 2]) << x << "," << y << "," << z;
  // Past the array's end: an error, nothing copied.
  p = {};
  p.srcArray = arr;
  p.srcPos = cudaPos{5, 0, 0};
  p.dstPtr = cudaPitchedPtr{out.data(), w * 2, w, h};
  p.extent = cudaExtent{5, 1, 1};
  p.kind = cudaMemcpyDeviceToHost;
  EXPECT_EQ(copy3d(&p), cudaErrorInvalidValue);
  p.srcPos = cudaPos{};
  p.srcPtr = vol;  // both an array and a pointer
  EXPECT_EQ(copy3d(&p), cudaErrorInvalidValue);
  shim.fn<int (*)()>("cudaGetLastError")();
  EXPECT_EQ(free_array(arr), 0);
}

TEST(Arrays3D, LayeredArraysAndTexturesOver3DArraysStop) {
  SHIM_OR_SKIP();
  auto malloc3d_array =
      shim.fn<int (*)(CudaArray**, const cudaChannelFormatDesc*, cudaExtent, unsigned)>("cudaMalloc3DArray");
  auto create_tex = shim.fn<int (*)(unsigned long long*, const cudaResourceDesc*, const cudaTextureDesc*, const void*)>(
      "cudaCreateTextureObject");
  cudaChannelFormatDesc desc{32, 0, 0, 0, cudaChannelFormatKindFloat};
  CudaArray* arr = nullptr;
  EXPECT_EXIT(malloc3d_array(&arr, &desc, cudaExtent{8, 8, 4}, 0x01), ::testing::ExitedWithCode(3),
              "cudaMalloc3DArray: layered");
  ASSERT_EQ(malloc3d_array(&arr, &desc, cudaExtent{8, 8, 4}, 0), 0);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc tex{};
  unsigned long long t = 0;
  EXPECT_EXIT(create_tex(&t, &res, &tex, nullptr), ::testing::ExitedWithCode(3),
              "cudaCreateTextureObject: textures over 3D");
  // A 2D array from cudaMalloc3DArray (depth 0) still makes a texture.
  CudaArray* flat = nullptr;
  ASSERT_EQ(malloc3d_array(&flat, &desc, cudaExtent{8, 8, 0}, 0), 0);
  res.res.array.array = flat;
  EXPECT_EQ(create_tex(&t, &res, &tex, nullptr), 0);
}

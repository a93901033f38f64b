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

// Layered and cubemap arrays, their extents and flags, textures over them and over 3D arrays,
// and surface objects (which need cudaArraySurfaceLoadStore).
TEST(Arrays3D, LayeredCubemapArraysTexturesAndSurfaces) {
  SHIM_OR_SKIP();
  auto malloc3d_array =
      shim.fn<int (*)(CudaArray**, const cudaChannelFormatDesc*, cudaExtent, unsigned)>("cudaMalloc3DArray");
  auto create_tex = shim.fn<int (*)(unsigned long long*, const cudaResourceDesc*, const cudaTextureDesc*, const void*)>(
      "cudaCreateTextureObject");
  auto create_surf = shim.fn<int (*)(unsigned long long*, const cudaResourceDesc*)>("cudaCreateSurfaceObject");
  auto destroy_surf = shim.fn<int (*)(unsigned long long)>("cudaDestroySurfaceObject");
  auto info = shim.fn<int (*)(cudaChannelFormatDesc*, cudaExtent*, unsigned*, CudaArray*)>("cudaArrayGetInfo");
  auto last_error = shim.fn<int (*)()>("cudaGetLastError");
  cudaChannelFormatDesc desc{32, 0, 0, 0, cudaChannelFormatKindFloat};
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  cudaTextureDesc tex{};
  unsigned long long t = 0;
  // A 1D layered array (no height): its extent reads back with height 0.
  CudaArray* l1 = nullptr;
  ASSERT_EQ(malloc3d_array(&l1, &desc, cudaExtent{16, 0, 5}, 0x01), 0);
  cudaExtent e{};
  unsigned flags = 99;
  ASSERT_EQ(info(nullptr, &e, &flags, l1), 0);
  EXPECT_EQ(e.width, 16u);
  EXPECT_EQ(e.height, 0u);
  EXPECT_EQ(e.depth, 5u);
  EXPECT_EQ(flags, 0x01u);
  res.res.array.array = l1;
  EXPECT_EQ(create_tex(&t, &res, &tex, nullptr), 0);
  // Surfaces need the surface flag.
  unsigned long long surf = 0;
  EXPECT_EQ(create_surf(&surf, &res), cudaErrorInvalidValue);
  last_error();
  CudaArray* l2 = nullptr;
  ASSERT_EQ(malloc3d_array(&l2, &desc, cudaExtent{8, 8, 4}, 0x01 | 0x02), 0);
  res.res.array.array = l2;
  ASSERT_EQ(create_surf(&surf, &res), 0);
  EXPECT_NE(surf, 0u);
  EXPECT_EQ(create_tex(&t, &res, &tex, nullptr), 0);
  EXPECT_EQ(destroy_surf(surf), 0);
  EXPECT_EQ(destroy_surf(surf), cudaErrorInvalidValue);  // destroyed already
  last_error();
  // Cubemaps: square faces, 6 of them (a multiple of 6 when layered).
  CudaArray* cube = nullptr;
  EXPECT_EQ(malloc3d_array(&cube, &desc, cudaExtent{8, 4, 6}, 0x04), cudaErrorInvalidValue);
  EXPECT_EQ(malloc3d_array(&cube, &desc, cudaExtent{8, 8, 5}, 0x04), cudaErrorInvalidValue);
  EXPECT_EQ(malloc3d_array(&cube, &desc, cudaExtent{8, 8, 9}, 0x05), cudaErrorInvalidValue);
  last_error();
  ASSERT_EQ(malloc3d_array(&cube, &desc, cudaExtent{8, 8, 12}, 0x05), 0);
  res.res.array.array = cube;
  EXPECT_EQ(create_tex(&t, &res, &tex, nullptr), 0);
  // A 3D array makes a texture too; unknown flags are refused.
  CudaArray* vol = nullptr;
  ASSERT_EQ(malloc3d_array(&vol, &desc, cudaExtent{8, 8, 4}, 0), 0);
  res.res.array.array = vol;
  EXPECT_EQ(create_tex(&t, &res, &tex, nullptr), 0);
  EXPECT_EQ(malloc3d_array(&vol, &desc, cudaExtent{8, 8, 4}, 0x40), cudaErrorInvalidValue);
  last_error();
  // A surface over linear memory is refused.
  cudaResourceDesc lin{};
  lin.resType = cudaResourceTypeLinear;
  EXPECT_EQ(create_surf(&surf, &lin), cudaErrorInvalidValue);
  last_error();
}

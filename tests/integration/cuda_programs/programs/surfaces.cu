// Surfaces, layered, cubemap and 3D textures, and SIMD video instructions, each checked on the
// host against values computed here:
//   1. a 2D surface written and read back by kernels (surf2Dwrite/surf2Dread), with the clamp
//      and zero boundary modes outside it, and suq-free size use;
//   2. a layered 2D surface written per layer, then read as a layered texture (tex2DLayered);
//   3. a layered array filled by cudaMemcpy3D and read with tex2DLayered;
//   4. a cubemap filled by cudaMemcpy3D and read with texCubemap along each face's axis;
//   5. a 3D array read with tex3D;
//   6. __vabsdiffu4 / __vabsdiffs4 (vabsdiff4) and __vsadu4.
#include <cstdint>
#include <vector>

#include "common.h"

__global__ void fill_surface(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) surf2Dwrite(float(y * 100 + x), s, x * 4, y);
}

// out[y][x] = 2 * surface[y][x] for x in [0, w + 2): x >= w reads with clamp (the last
// column), x = w + 1 also with zero mode (0).
__global__ void read_surface(cudaSurfaceObject_t s, float* out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x >= w + 2) return;
  float v = x < w ? surf2Dread<float>(s, x * 4, y) : surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
  if (x == w + 1) v += surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
  out[y * (w + 2) + x] = 2.0f * v;
  // An out-of-range write in zero mode is dropped.
  surf2Dwrite(-1.0f, s, (w + 5) * 4, y, cudaBoundaryModeZero);
}

__global__ void fill_layers(cudaSurfaceObject_t s, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x;
  for (int l = 0; l < layers; ++l) surf2DLayeredwrite(float(l * 1000 + y * 10 + x), s, x * 4, y, l);
}

__global__ void read_layered(cudaTextureObject_t t, float* out, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x;
  for (int l = 0; l < layers; ++l) out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

// One thread per face: the texel at the face's centre, looked up along the face's axis.
__global__ void read_cube(cudaTextureObject_t t, float* out) {
  const float dir[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  int f = threadIdx.x;
  if (f < 6) out[f] = texCubemap<float>(t, dir[f][0], dir[f][1], dir[f][2]);
}

__global__ void read_3d(cudaTextureObject_t t, float* out, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void video(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[3 * i] = __vabsdiffu4(a[i], b[i]);
    out[3 * i + 1] = __vabsdiffs4(a[i], b[i]);
    out[3 * i + 2] = __vsadu4(a[i], b[i]);
  }
}

static int fail(const char* what, int i, double got, double want) {
  std::printf("%s: mismatch at %d: %g, expected %g\n", what, i, got, want);
  return 1;
}

int main() {
  // 1. A 2D surface.
  const int w = 24, h = 5;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, w, h, cudaArraySurfaceLoadStore));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaSurfaceObject_t surf = 0;
  CHECK(cudaCreateSurfaceObject(&surf, &res));
  fill_surface<<<dim3(1, h), 32>>>(surf, w, h);
  float* dout;
  CHECK(cudaMalloc(&dout, 4096 * sizeof(float)));
  read_surface<<<h, 32>>>(surf, dout, w, h);
  CHECK(cudaGetLastError());
  std::vector<float> out((w + 2) * h);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w + 2; ++x) {
      float want = 2.0f * float(y * 100 + (x < w ? x : w - 1));
      if (out[y * (w + 2) + x] != want) return fail("surface", y * (w + 2) + x, out[y * (w + 2) + x], want);
    }
  std::vector<float> back(w * h);
  CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, arr, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i)
    if (back[i] != float((i / w) * 100 + i % w)) return fail("surface copy", i, back[i], (i / w) * 100 + i % w);
  CHECK(cudaDestroySurfaceObject(surf));
  CHECK(cudaFreeArray(arr));

  // 2. A layered surface written by a kernel, read as a layered texture.
  const int lw = 8, lh = 4, layers = 3;
  cudaArray_t larr;
  CHECK(cudaMalloc3DArray(&larr, &fd, make_cudaExtent(lw, lh, layers), cudaArrayLayered | cudaArraySurfaceLoadStore));
  res.res.array.array = larr;
  CHECK(cudaCreateSurfaceObject(&surf, &res));
  fill_layers<<<lh, lw>>>(surf, lw, lh, layers);
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  read_layered<<<lh, lw>>>(tex, dout, lw, lh, layers);
  std::vector<float> lo(lw * lh * layers);
  CHECK(cudaMemcpy(lo.data(), dout, lo.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < lw * lh * layers; ++i) {
    int x = i % lw, y = (i / lw) % lh, l = i / (lw * lh);
    if (lo[i] != float(l * 1000 + y * 10 + x)) return fail("layered surface", i, lo[i], l * 1000 + y * 10 + x);
  }
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaDestroySurfaceObject(surf));

  // 3. The same layered array refilled by cudaMemcpy3D.
  std::vector<float> host(lw * lh * layers);
  for (int i = 0; i < lw * lh * layers; ++i) host[i] = float(i) * 0.5f;
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(host.data(), lw * sizeof(float), lw, lh);
  p.dstArray = larr;
  p.extent = make_cudaExtent(lw, lh, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  read_layered<<<lh, lw>>>(tex, dout, lw, lh, layers);
  CHECK(cudaMemcpy(lo.data(), dout, lo.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < lw * lh * layers; ++i)
    if (lo[i] != host[i]) return fail("layered texture", i, lo[i], host[i]);
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(larr));

  // 4. A cubemap: face f holds f * 10 + (texel index).
  const int cw = 4;
  cudaArray_t carr;
  CHECK(cudaMalloc3DArray(&carr, &fd, make_cudaExtent(cw, cw, 6), cudaArrayCubemap));
  std::vector<float> faces(cw * cw * 6);
  for (int i = 0; i < cw * cw * 6; ++i) faces[i] = float((i / (cw * cw)) * 100 + i % (cw * cw));
  p = {};
  p.srcPtr = make_cudaPitchedPtr(faces.data(), cw * sizeof(float), cw, cw);
  p.dstArray = carr;
  p.extent = make_cudaExtent(cw, cw, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  res.res.array.array = carr;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  read_cube<<<1, 32>>>(tex, dout);
  float cube[6];
  CHECK(cudaMemcpy(cube, dout, sizeof cube, cudaMemcpyDeviceToHost));
  // Along a face's axis the face coordinates are (0.5, 0.5): texel (2, 2) of a 4 x 4 face.
  for (int f = 0; f < 6; ++f)
    if (cube[f] != float(f * 100 + 2 * cw + 2)) return fail("cubemap", f, cube[f], f * 100 + 2 * cw + 2);
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(carr));

  // 5. A 3D array.
  const int vw = 6, vh = 3, vd = 4;
  cudaArray_t varr;
  CHECK(cudaMalloc3DArray(&varr, &fd, make_cudaExtent(vw, vh, vd), 0));
  std::vector<float> vol(vw * vh * vd);
  for (int i = 0; i < vw * vh * vd; ++i) vol[i] = float(i * 3);
  p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.data(), vw * sizeof(float), vw, vh);
  p.dstArray = varr;
  p.extent = make_cudaExtent(vw, vh, vd);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  res.res.array.array = varr;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  read_3d<<<dim3(vh, vd), vw>>>(tex, dout, vw, vh, vd);
  std::vector<float> vo(vw * vh * vd);
  CHECK(cudaMemcpy(vo.data(), dout, vo.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < vw * vh * vd; ++i)
    if (vo[i] != vol[i]) return fail("3D texture", i, vo[i], vol[i]);
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(varr));

  // 6. Video instructions.
  const int n = 4;
  unsigned ha[n] = {0x01020304u, 0xff00ff00u, 0x80808080u, 0x7f017f01u};
  unsigned hb[n] = {0x04030201u, 0x00ff00ffu, 0x7f7f7f7fu, 0x81ff81ffu};
  unsigned *da, *db, *dv;
  CHECK(cudaMalloc(&da, sizeof ha));
  CHECK(cudaMalloc(&db, sizeof hb));
  CHECK(cudaMalloc(&dv, 3 * n * sizeof(unsigned)));
  CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
  video<<<1, 32>>>(da, db, dv, n);
  unsigned hv[3 * n];
  CHECK(cudaMemcpy(hv, dv, sizeof hv, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned u = 0, s = 0, sad = 0;
    for (int k = 0; k < 4; ++k) {
      int ua = (ha[i] >> (8 * k)) & 0xff, ub = (hb[i] >> (8 * k)) & 0xff;
      int sa = int8_t(ua), sb = int8_t(ub);
      unsigned du = unsigned(ua > ub ? ua - ub : ub - ua), ds = unsigned(sa > sb ? sa - sb : sb - sa);
      u |= (du & 0xff) << (8 * k);
      s |= (ds & 0xff) << (8 * k);
      sad += du;
    }
    if (hv[3 * i] != u) return fail("vabsdiff4.u32", i, hv[3 * i], u);
    if (hv[3 * i + 1] != s) return fail("vabsdiff4.s32", i, hv[3 * i + 1], s);
    if (hv[3 * i + 2] != sad) return fail("__vsadu4", i, hv[3 * i + 2], sad);
  }
  std::printf("surfaces: ok\n");
  return 0;
}

// Texture gathers and texture and surface queries, checked on the host against values computed
// here:
//   1. tex2Dgather<float4> of each component (0..3) of a 5 x 4 float4 array, with clamp
//      addressing (unnormalized coordinates) and with wrap in x and mirror in y (normalized);
//   2. tex2Dgather<int4> of a signed 32-bit integer array;
//   3. every txq query (inline PTX: CUDA C++ has no intrinsic for txq) of both float textures,
//      and suq.channel_data_type / suq.channel_order of a uchar4 surface.
// The gather's 4 results are the texels of the bilinear footprint, counter-clockwise from the
// lower left: (i0, j1), (i1, j1), (i1, j0), (i0, j0) with i0 = floor(x - 0.5), j0 = floor(y - 0.5)
// (PTX ISA, tld4). The query values are those docs/ptx.md gives.
#include <cmath>
#include <cstdint>
#include <vector>

#include "common.h"

constexpr int kW = 5, kH = 4, kPoints = 4;

// out[p * 16 + comp * 4 + k]: result k of the gather of component comp at point p.
__global__ void gather(cudaTextureObject_t t, const float2* at, float* out) {
  int p = threadIdx.x;
  if (p >= kPoints) return;
  for (int comp = 0; comp < 4; ++comp) {
    float4 v = tex2Dgather<float4>(t, at[p].x, at[p].y, comp);
    float* o = out + p * 16 + comp * 4;
    o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = v.w;
  }
}

__global__ void gather_int(cudaTextureObject_t t, const float2* at, int* out) {
  int p = threadIdx.x;
  if (p >= kPoints) return;
  int4 v = tex2Dgather<int4>(t, at[p].x, at[p].y, 1);
  out[p * 4] = v.x, out[p * 4 + 1] = v.y, out[p * 4 + 2] = v.z, out[p * 4 + 3] = v.w;
}

#define TXQ(q, i) asm volatile("txq." #q ".b32 %0, [%1];" : "=r"(out[i]) : "l"(t))
__global__ void query(cudaTextureObject_t t, unsigned* out) {
  TXQ(width, 0);
  TXQ(height, 1);
  TXQ(depth, 2);
  TXQ(channel_data_type, 3);
  TXQ(channel_order, 4);
  TXQ(normalized_coords, 5);
  TXQ(filter_mode, 6);
  TXQ(addr_mode_0, 7);
  TXQ(addr_mode_1, 8);
  TXQ(addr_mode_2, 9);
  TXQ(array_size, 10);
  TXQ(num_mipmap_levels, 11);
  TXQ(num_samples, 12);
}

__global__ void surface_query(cudaSurfaceObject_t s, unsigned* out) {
  asm volatile("suq.channel_data_type.b32 %0, [%1];" : "=r"(out[0]) : "l"(s));
  asm volatile("suq.channel_order.b32 %0, [%1];" : "=r"(out[1]) : "l"(s));
}

// The texel index an address mode gives index i of a dimension of n texels.
int address(int i, int n, cudaTextureAddressMode m) {
  if (m == cudaAddressModeWrap) return ((i % n) + n) % n;
  if (m == cudaAddressModeMirror) {
    int p = ((i % (2 * n)) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

// The 4 texel indices (j * kW + i) of the gather at (x, y) in texels.
void footprint(float x, float y, cudaTextureAddressMode mx, cudaTextureAddressMode my, int idx[4]) {
  int i0 = int(std::floor(x - 0.5f)), j0 = int(std::floor(y - 0.5f));
  const int quad[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  for (int k = 0; k < 4; ++k)
    idx[k] = address(j0 + quad[k][1], kH, my) * kW + address(i0 + quad[k][0], kW, mx);
}

cudaTextureObject_t texture(cudaArray_t a, cudaTextureAddressMode mx, cudaTextureAddressMode my, bool normalized) {
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = mx;
  td.addressMode[1] = my;
  td.addressMode[2] = cudaAddressModeBorder;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

int main() {
  int bad = 0;
  // Channel c of texel (i, j): c * 100 + j * 10 + i.
  std::vector<float4> texels(kW * kH);
  std::vector<int4> itexels(kW * kH);
  for (int j = 0; j < kH; ++j)
    for (int i = 0; i < kW; ++i) {
      float v = float(j * 10 + i);
      texels[j * kW + i] = make_float4(v, 100 + v, 200 + v, 300 + v);
      itexels[j * kW + i] = make_int4(-(j * 10 + i), -1000 - (j * 10 + i), 0, 0);
    }
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float4>(), id = cudaCreateChannelDesc<int4>();
  cudaArray_t fa, ia;
  CHECK(cudaMallocArray(&fa, &fd, kW, kH));
  CHECK(cudaMallocArray(&ia, &id, kW, kH));
  CHECK(cudaMemcpy2DToArray(fa, 0, 0, texels.data(), kW * sizeof(float4), kW * sizeof(float4), kH,
                            cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(ia, 0, 0, itexels.data(), kW * sizeof(int4), kW * sizeof(int4), kH,
                            cudaMemcpyHostToDevice));
  cudaTextureObject_t clamp = texture(fa, cudaAddressModeClamp, cudaAddressModeClamp, false);
  cudaTextureObject_t wrap = texture(fa, cudaAddressModeWrap, cudaAddressModeMirror, true);
  cudaTextureObject_t itex = texture(ia, cudaAddressModeClamp, cudaAddressModeClamp, false);

  // Points away from texel-centre boundaries, inside and at each edge.
  const float2 pixels[kPoints] = {{0.1f, 0.1f}, {2.6f, 1.4f}, {4.9f, 3.9f}, {1.2f, 2.3f}};
  const float2 normalized[kPoints] = {{0.02f, 0.03f}, {0.97f, 0.95f}, {0.5f, 0.4f}, {0.13f, 0.9f}};
  float2* d_at;
  float* d_out;
  int* d_iout;
  unsigned* d_q;
  CHECK(cudaMalloc(&d_at, sizeof pixels));
  CHECK(cudaMalloc(&d_out, kPoints * 16 * sizeof(float)));
  CHECK(cudaMalloc(&d_iout, kPoints * 4 * sizeof(int)));
  CHECK(cudaMalloc(&d_q, 16 * sizeof(unsigned)));
  std::vector<float> out(kPoints * 16);
  for (int pass = 0; pass < 2; ++pass) {
    const float2* pts = pass ? normalized : pixels;
    CHECK(cudaMemcpy(d_at, pts, sizeof pixels, cudaMemcpyHostToDevice));
    gather<<<1, 32>>>(pass ? wrap : clamp, d_at, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int p = 0; p < kPoints; ++p) {
      int idx[4];
      if (pass)
        footprint(pts[p].x * kW, pts[p].y * kH, cudaAddressModeWrap, cudaAddressModeMirror, idx);
      else
        footprint(pts[p].x, pts[p].y, cudaAddressModeClamp, cudaAddressModeClamp, idx);
      for (int comp = 0; comp < 4; ++comp)
        for (int k = 0; k < 4; ++k) {
          const float4& t = texels[idx[k]];
          float want = comp == 0 ? t.x : comp == 1 ? t.y : comp == 2 ? t.z : t.w;
          float got = out[p * 16 + comp * 4 + k];
          if (got != want) {
            std::printf("gather %s point %d component %d result %d: %g, want %g\n", pass ? "wrap" : "clamp", p,
                        comp, k, got, want);
            ++bad;
          }
        }
    }
  }
  CHECK(cudaMemcpy(d_at, pixels, sizeof pixels, cudaMemcpyHostToDevice));
  gather_int<<<1, 32>>>(itex, d_at, d_iout);
  CHECK(cudaGetLastError());
  std::vector<int> iout(kPoints * 4);
  CHECK(cudaMemcpy(iout.data(), d_iout, iout.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int p = 0; p < kPoints; ++p) {
    int idx[4];
    footprint(pixels[p].x, pixels[p].y, cudaAddressModeClamp, cudaAddressModeClamp, idx);
    for (int k = 0; k < 4; ++k)
      if (iout[p * 4 + k] != itexels[idx[k]].y) {
        std::printf("integer gather point %d result %d: %d, want %d\n", p, k, iout[p * 4 + k], itexels[idx[k]].y);
        ++bad;
      }
  }

  // txq: width, height, depth, channel data type (float: 0x10DE), channel order (RGBA: 0x10B5),
  // normalized coordinates, filter mode (point: 0), the 3 address modes (cudaTextureAddressMode
  // values), array size (0: no layered array), mipmap levels and samples (0).
  const unsigned want_clamp[13] = {kW, kH, 1, 0x10DE, 0x10B5, 0, 0, 1, 1, 3, 0, 0, 0};
  const unsigned want_wrap[13] = {kW, kH, 1, 0x10DE, 0x10B5, 1, 0, 0, 2, 3, 0, 0, 0};
  const char* names[13] = {"width",       "height",      "depth",       "channel_data_type", "channel_order",
                           "normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",
                           "array_size",  "num_mipmap_levels", "num_samples"};
  unsigned q[16];
  for (int pass = 0; pass < 2; ++pass) {
    query<<<1, 1>>>(pass ? wrap : clamp, d_q);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(q, d_q, sizeof q, cudaMemcpyDeviceToHost));
    const unsigned* want = pass ? want_wrap : want_clamp;
    for (int i = 0; i < 13; ++i)
      if (q[i] != want[i]) {
        std::printf("txq.%s of the %s texture: %u (0x%x), want %u (0x%x)\n", names[i], pass ? "wrap" : "clamp",
                    q[i], q[i], want[i], want[i]);
        ++bad;
      }
  }
  cudaChannelFormatDesc sd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t sa;
  CHECK(cudaMallocArray(&sa, &sd, 8, 2, cudaArraySurfaceLoadStore));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = sa;
  cudaSurfaceObject_t surf;
  CHECK(cudaCreateSurfaceObject(&surf, &rd));
  surface_query<<<1, 1>>>(surf, d_q);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(q, d_q, 2 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  if (q[0] != 0x10DA || q[1] != 0x10B5) {  // unsigned 8-bit, RGBA
    std::printf("suq.channel_data_type/channel_order: 0x%x 0x%x, want 0x10da 0x10b5\n", q[0], q[1]);
    ++bad;
  }
  CHECK(cudaDestroySurfaceObject(surf));
  CHECK(cudaDestroyTextureObject(clamp));
  CHECK(cudaDestroyTextureObject(wrap));
  CHECK(cudaDestroyTextureObject(itex));
  CHECK(cudaFreeArray(fa));
  CHECK(cudaFreeArray(ia));
  CHECK(cudaFreeArray(sa));
  if (bad) {
    std::printf("texture_gather: %d wrong\n", bad);
    return 1;
  }
  std::printf("texture_gather: ok\n");
  return 0;
}

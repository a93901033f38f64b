#include <algorithm>
#include <cstdint>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

int expand5(int v) { return (v << 3) | (v >> 2); }
int expand6(int v) { return (v << 2) | (v >> 4); }

// The kernel's encoder, one 4x4 block at a time: end points (c0 | c1 << 16), indices, error.
void encode_block(const std::vector<uint32_t>& img, int width, int bx, int by, uint32_t out[2], int* error) {
  int r[16], g[16], b[16];
  int mn[3] = {255, 255, 255}, mx[3] = {0, 0, 0}, sum[3] = {0, 0, 0};
  for (int p = 0; p < 16; ++p) {
    uint32_t px = img[size_t(by * 4 + (p >> 2)) * width + bx * 4 + (p & 3)];
    r[p] = px & 0xff;
    g[p] = (px >> 8) & 0xff;
    b[p] = (px >> 16) & 0xff;
    int c[3] = {r[p], g[p], b[p]};
    for (int k = 0; k < 3; ++k) {
      mn[k] = std::min(mn[k], c[k]);
      mx[k] = std::max(mx[k], c[k]);
      sum[k] += c[k];
    }
  }
  int cov_rg = 0, cov_bg = 0;
  for (int p = 0; p < 16; ++p) {
    int dr = 16 * r[p] - sum[0], dg = 16 * g[p] - sum[1], db = 16 * b[p] - sum[2];
    cov_rg += dr * dg;
    cov_bg += db * dg;
  }
  for (int k = 0; k < 3; ++k) {
    int inset = (mx[k] - mn[k]) >> 4;
    mx[k] -= inset;
    mn[k] += inset;
  }
  if (cov_rg < 0) std::swap(mx[0], mn[0]);
  if (cov_bg < 0) std::swap(mx[2], mn[2]);
  int c0 = ((mx[0] >> 3) << 11) | ((mx[1] >> 2) << 5) | (mx[2] >> 3);
  int c1 = ((mn[0] >> 3) << 11) | ((mn[1] >> 2) << 5) | (mn[2] >> 3);
  if (c0 < c1) std::swap(c0, c1);
  int e0[3] = {expand5(c0 >> 11), expand6((c0 >> 5) & 63), expand5(c0 & 31)};
  int e1[3] = {expand5(c1 >> 11), expand6((c1 >> 5) & 63), expand5(c1 & 31)};
  int pal[4][3];
  for (int k = 0; k < 3; ++k) {
    pal[0][k] = e0[k];
    pal[1][k] = e1[k];
    pal[2][k] = (2 * e0[k] + e1[k]) / 3;
    pal[3][k] = (e0[k] + 2 * e1[k]) / 3;
  }
  uint32_t indices = 0;
  int total = 0;
  for (int p = 0; p < 16; ++p) {
    int best = 0, best_d = 0x7fffffff;
    int entries = c0 == c1 ? 1 : 4;
    for (int k = 0; k < entries; ++k) {
      int d = (r[p] - pal[k][0]) * (r[p] - pal[k][0]) + (g[p] - pal[k][1]) * (g[p] - pal[k][1]) +
              (b[p] - pal[k][2]) * (b[p] - pal[k][2]);
      if (d < best_d) {
        best_d = d;
        best = k;
      }
    }
    indices |= uint32_t(best) << (2 * p);
    total += best_d;
  }
  out[0] = uint32_t(c0) | (uint32_t(c1) << 16);
  out[1] = indices;
  *error = total;
}

class Dxtc final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int w = int(size.get_int("width")), h = int(size.get_int("height"));
    if (w <= 0 || h <= 0 || w % 16 || h % 4 || w > 16384 || h > 16384)
      throw Error("dxtc: width must be a multiple of 16 and height of 4 (at most 16384)");
    // A synthetic picture: 8x8 regions of random colour with a gradient and noise; every
    // fifth region is flat (one colour), which the encoder handles on a short path.
    int regions_x = (w + 7) / 8, regions_y = (h + 7) / 8;
    std::vector<uint32_t> region(size_t(regions_x) * regions_y);
    for (auto& c : region) c = uint32_t(rng.next() & 0xffffff);
    std::vector<uint32_t> img(size_t(w) * h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        size_t ri = size_t(y / 8) * regions_x + x / 8;
        uint32_t base = region[ri];
        uint32_t px = 0xff000000u;
        for (int k = 0; k < 3; ++k) {
          int c = int((base >> (8 * k)) & 0xff);
          if (ri % 5 != 0) c += ((x + 2 * y) & 7) * (k + 1) * 3 + int(rng.below(16)) - 8;
          px |= uint32_t(std::clamp(c, 0, 255)) << (8 * k);
        }
        img[size_t(y) * w + x] = px;
      }
    int blocks = (w / 4) * (h / 4);
    DevPtr dimg = rt.malloc(img.size() * 4), dout = rt.malloc(size_t(blocks) * 8), derr = rt.malloc(size_t(blocks) * 4);
    rt.memcpy_h2d(dimg, img.data(), img.size() * 4);
    KernelArgs args;
    args.add(dimg).add(dout).add(derr).add(w).add(h);
    rt.launch(rt.get_kernel(mod, "dxt1_compress"), {uint32_t(blocks / 4), 1, 1}, {64, 1, 1}, args);
    std::vector<uint32_t> got(size_t(blocks) * 2), want(got.size());
    std::vector<int> got_err(static_cast<size_t>(blocks)), want_err(got_err.size());
    rt.memcpy_d2h(got.data(), dout, got.size() * 4);
    rt.memcpy_d2h(got_err.data(), derr, got_err.size() * 4);
    for (int i = 0; i < blocks; ++i)
      encode_block(img, w, i % (w / 4), i / (w / 4), &want[size_t(i) * 2], &want_err[size_t(i)]);
    return Verifier().check("blocks", got, want).check("error", got_err, want_err).outcome();  // exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(dxtc, Dxtc)

}  // namespace warpsim

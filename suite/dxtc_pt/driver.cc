#include <algorithm>
#include <utility>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlocksPerItem = 16;  // 256 threads, one per pixel of sixteen 4x4 blocks

int expand5(int v) { return (v << 3) | (v >> 2); }
int expand6(int v) { return (v << 2) | (v >> 4); }

// CPU reference of one 4x4 block, following the kernel's integer arithmetic step by step.
void compress_block(const std::vector<uint32_t>& img, int width, int bx, int by, uint32_t out[2], int* error) {
  int ch[3][16];
  int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0}, sum[3] = {0, 0, 0};
  for (int p = 0; p < 16; ++p) {
    uint32_t px = img[size_t(by * 4 + (p >> 2)) * size_t(width) + size_t(bx * 4 + (p & 3))];
    for (int k = 0; k < 3; ++k) {
      ch[k][p] = int((px >> (8 * k)) & 0xff);
      lo[k] = std::min(lo[k], ch[k][p]);
      hi[k] = std::max(hi[k], ch[k][p]);
      sum[k] += ch[k][p];
    }
  }
  int cov_rg = 0, cov_bg = 0;
  for (int p = 0; p < 16; ++p) {
    int dg = 16 * ch[1][p] - sum[1];
    cov_rg += (16 * ch[0][p] - sum[0]) * dg;
    cov_bg += (16 * ch[2][p] - sum[2]) * dg;
  }
  for (int k = 0; k < 3; ++k) {
    int inset = (hi[k] - lo[k]) >> 4;
    hi[k] -= inset;
    lo[k] += inset;
  }
  if (cov_rg < 0) std::swap(hi[0], lo[0]);
  if (cov_bg < 0) std::swap(hi[2], lo[2]);
  int c0 = ((hi[0] >> 3) << 11) | ((hi[1] >> 2) << 5) | (hi[2] >> 3);
  int c1 = ((lo[0] >> 3) << 11) | ((lo[1] >> 2) << 5) | (lo[2] >> 3);
  if (c0 < c1) std::swap(c0, c1);
  int end0[3] = {expand5(c0 >> 11), expand6((c0 >> 5) & 63), expand5(c0 & 31)};
  int end1[3] = {expand5(c1 >> 11), expand6((c1 >> 5) & 63), expand5(c1 & 31)};
  int palette[4][3];
  for (int k = 0; k < 3; ++k) {
    palette[0][k] = end0[k];
    palette[1][k] = end1[k];
    palette[2][k] = (2 * end0[k] + end1[k]) / 3;
    palette[3][k] = (end0[k] + 2 * end1[k]) / 3;
  }
  int entries = c0 == c1 ? 1 : 4;
  uint32_t indices = 0;
  int total = 0;
  for (int p = 0; p < 16; ++p) {
    int best = 0, best_d = 0x7fffffff;
    for (int e = 0; e < entries; ++e) {
      int d = 0;
      for (int k = 0; k < 3; ++k) d += (ch[k][p] - palette[e][k]) * (ch[k][p] - palette[e][k]);
      if (d < best_d) {
        best_d = d;
        best = e;
      }
    }
    indices |= uint32_t(best) << (2 * p);
    total += best_d;
  }
  out[0] = uint32_t(c0) | (uint32_t(c1) << 16);
  out[1] = indices;
  *error = total;
}

class DxtcPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int64_t w64 = size.get_int("width"), h64 = size.get_int("height");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (w64 <= 0 || h64 <= 0 || w64 % 4 || h64 % 4 || w64 > 16384 || h64 > 16384 || (w64 / 4 * (h64 / 4)) % kBlocksPerItem)
      throw Error("dxtc_pt: width and height must be multiples of 4 up to 16384, with a multiple of 16 pixel blocks");
    if (grid < 1 || grid > 65535) throw Error("dxtc_pt: grid must be in 1..65535");
    if (block != 256) throw Error("dxtc_pt: block must be 256 (one thread per pixel of sixteen blocks)");
    int w = int(w64), h = int(h64);
    // A synthetic picture: 8x8 regions of one random colour plus a gradient and noise; every
    // fifth region stays flat, which the encoder handles on its short path.
    int regions_x = (w + 7) / 8, regions_y = (h + 7) / 8;
    std::vector<uint32_t> region(size_t(regions_x) * size_t(regions_y));
    for (auto& c : region) c = uint32_t(rng.next() & 0xffffff);
    std::vector<uint32_t> img(size_t(w) * size_t(h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        size_t ri = size_t(y / 8) * size_t(regions_x) + size_t(x / 8);
        uint32_t px = 0xff000000u;
        for (int k = 0; k < 3; ++k) {
          int c = int((region[ri] >> (8 * k)) & 0xff);
          if (ri % 5 != 0) c += ((x + 2 * y) & 7) * (k + 1) * 3 + int(rng.below(16)) - 8;
          px |= uint32_t(std::clamp(c, 0, 255)) << (8 * k);
        }
        img[size_t(y) * size_t(w) + size_t(x)] = px;
      }
    int blocks = (w / 4) * (h / 4), items = blocks / kBlocksPerItem;
    DevPtr dimg = rt.malloc(img.size() * 4), dout = rt.malloc(size_t(blocks) * 8), derr = rt.malloc(size_t(blocks) * 4);
    rt.memcpy_h2d(dimg, img.data(), img.size() * 4);
    KernelArgs args;
    args.add(dimg).add(dout).add(derr).add(w).add(h).add(items);
    rt.launch(rt.get_kernel(mod, "dxt1_compress"), {uint32_t(grid), 1, 1}, {256, 1, 1}, args);
    std::vector<uint32_t> got(size_t(blocks) * 2), want(got.size());
    std::vector<int> got_err(static_cast<size_t>(blocks)), want_err(got_err.size());
    rt.memcpy_d2h(got.data(), dout, got.size() * 4);
    rt.memcpy_d2h(got_err.data(), derr, got_err.size() * 4);
    for (int i = 0; i < blocks; ++i)
      compress_block(img, w, i % (w / 4), i / (w / 4), &want[size_t(i) * 2], &want_err[size_t(i)]);
    return Verifier().check("blocks", got, want).check("error", got_err, want_err).outcome();  // exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(dxtc_pt, DxtcPt)

}  // namespace warpsim

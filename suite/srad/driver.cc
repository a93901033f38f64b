#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlock = 16;
constexpr float kLambda = 0.5f;

// q0^2 of the region of interest (the top-left quarter, at most 128 x 128 as in the
// original's usual run), computed on the host each iteration as the original program does.
float roi_q0sqr(const std::vector<float>& j, int rows, int cols) {
  int r2 = std::min(rows, 128), c2 = std::min(cols, 128);
  double sum = 0, sum2 = 0;
  for (int r = 0; r < r2; ++r)
    for (int c = 0; c < c2; ++c) {
      double v = j[size_t(r) * cols + c];
      sum += v;
      sum2 += v * v;
    }
  double n = double(r2) * c2, mean = sum / n, var = sum2 / n - mean * mean;
  return float(var / (mean * mean));
}

class Srad final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int rows = int(size.get_int("rows")), cols = int(size.get_int("cols"));
    int iterations = int(size.get_int("iterations"));
    if (rows <= 0 || cols <= 0 || rows % kBlock || cols % kBlock || rows > 16384 || cols > 16384)
      throw Error("srad: rows and cols must be multiples of 16 in 16..16384");
    if (iterations < 1) throw Error("srad: iterations must be positive");
    size_t count = size_t(rows) * cols;
    std::vector<float> j(count);
    for (auto& v : j) v = std::exp(float(rng.uniform()));  // the original takes exp of the image
    DevPtr dj = rt.malloc(count * 4), dc = rt.malloc(count * 4);
    DevPtr dn = rt.malloc(count * 4), ds = rt.malloc(count * 4), dw = rt.malloc(count * 4),
           de = rt.malloc(count * 4);
    KernelHandle k1 = rt.get_kernel(mod, "srad_1"), k2 = rt.get_kernel(mod, "srad_2");
    Dim3 grid{uint32_t(cols / kBlock), uint32_t(rows / kBlock), 1}, block{kBlock, kBlock, 1};
    std::vector<float> gj = j;
    std::vector<float> want = j;
    std::vector<float> cn(count), cs(count), cw(count), ce(count), cc(count);
    for (int it = 0; it < iterations; ++it) {
      // Device: the host computes q0^2 from the current image and copies it in and out.
      float q0 = roi_q0sqr(gj, rows, cols);
      rt.memcpy_h2d(dj, gj.data(), count * 4);
      KernelArgs a1;
      a1.add(dn).add(ds).add(dw).add(de).add(dj).add(dc).add(cols).add(rows).add(q0);
      rt.launch(k1, grid, block, a1);
      KernelArgs a2;
      a2.add(dn).add(ds).add(dw).add(de).add(dj).add(dc).add(cols).add(rows).add(kLambda);
      rt.launch(k2, grid, block, a2);
      rt.memcpy_d2h(gj.data(), dj, count * 4);

      // Reference.
      float q = roi_q0sqr(want, rows, cols);
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          size_t i = size_t(r) * cols + c;
          float v = want[i];
          float n = want[size_t(std::max(r - 1, 0)) * cols + c] - v;
          float s = want[size_t(std::min(r + 1, rows - 1)) * cols + c] - v;
          float w = want[size_t(r) * cols + std::max(c - 1, 0)] - v;
          float e = want[size_t(r) * cols + std::min(c + 1, cols - 1)] - v;
          float g2 = (n * n + s * s + w * w + e * e) / (v * v);
          float l = (n + s + w + e) / v;
          float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
          float den = 1.0f + 0.25f * l;
          float qsqr = num / (den * den);
          den = (qsqr - q) / (q * (1.0f + q));
          float coef = std::clamp(1.0f / (1.0f + den), 0.0f, 1.0f);
          cn[i] = n; cs[i] = s; cw[i] = w; ce[i] = e; cc[i] = coef;
        }
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          size_t i = size_t(r) * cols + c;
          float c_s = cc[size_t(std::min(r + 1, rows - 1)) * cols + c];
          float c_e = cc[size_t(r) * cols + std::min(c + 1, cols - 1)];
          float d = cc[i] * cn[i] + c_s * cs[i] + cc[i] * cw[i] + c_e * ce[i];
          want[i] = want[i] + 0.25f * kLambda * d;
        }
    }
    // Single precision with divisions and a clamped coefficient; the device may contract
    // multiply-adds: 1e-3 relative on values in [1, e].
    return Verifier().check("J", gj, want, 1e-3, 1e-4).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(srad, Srad)

}  // namespace warpsim

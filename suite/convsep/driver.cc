#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kRadius = 8;

class ConvSep final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int w = int(size.get_int("width")), h = int(size.get_int("height"));
    // Rows blocks cover 16 x 8 = 128 columns, columns blocks 8 x 8 = 64 rows.
    if (w <= 0 || h <= 0 || w % 128 || h % 64 || w > 16384 || h > 16384)
      throw Error("convsep: width must be a multiple of 128 and height of 64 (each at most 16384)");
    size_t count = size_t(w) * h;
    std::vector<float> filter = random_floats(rng, 2 * kRadius + 1, 0, 1);
    float fsum = 0;
    for (float f : filter) fsum += f;
    for (float& f : filter) f /= fsum;
    std::vector<float> img = random_floats(rng, count, 0, 16);
    rt.memcpy_to_symbol(mod, "c_kernel", filter.data(), filter.size() * 4);
    DevPtr src = rt.malloc(count * 4), tmp = rt.malloc(count * 4), dst = rt.malloc(count * 4);
    rt.memcpy_h2d(src, img.data(), count * 4);
    KernelArgs rows;
    rows.add(tmp).add(src).add(w).add(h).add(w);
    rt.launch(rt.get_kernel(mod, "convolution_rows"), {uint32_t(w / 128), uint32_t(h / 4), 1}, {16, 4, 1}, rows);
    KernelArgs cols;
    cols.add(dst).add(tmp).add(w).add(h).add(w);
    rt.launch(rt.get_kernel(mod, "convolution_columns"), {uint32_t(w / 16), uint32_t(h / 64), 1}, {16, 8, 1}, cols);
    std::vector<float> got(count);
    rt.memcpy_d2h(got.data(), dst, count * 4);

    std::vector<double> mid(count, 0.0);
    std::vector<float> want(count);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double s = 0;
        for (int j = -kRadius; j <= kRadius; ++j)
          if (x + j >= 0 && x + j < w) s += double(filter[kRadius - j]) * img[size_t(y) * w + x + j];
        mid[size_t(y) * w + x] = s;
      }
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double s = 0;
        for (int j = -kRadius; j <= kRadius; ++j)
          if (y + j >= 0 && y + j < h) s += double(filter[kRadius - j]) * mid[size_t(y + j) * w + x];
        want[size_t(y) * w + x] = float(s);
      }
    // Two passes of 17 single-precision products (weights sum to 1, pixels < 16): 1e-4 absolute.
    return Verifier().check("dst", got, want, 1e-5, 1e-4).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(convsep, ConvSep)

}  // namespace warpsim

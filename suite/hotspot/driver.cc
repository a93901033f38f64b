#include <algorithm>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlock = 16;

class Hotspot final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int grid = int(size.get_int("grid"));
    int pyramid = int(size.get_int("pyramid_height"));
    int iterations = int(size.get_int("iterations"));
    if (grid < 16 || grid > 16384) throw Error("hotspot: grid must be in 16..16384");
    if (pyramid < 1 || 2 * pyramid >= kBlock) throw Error("hotspot: pyramid_height must be in 1..7");
    if (iterations < 1) throw Error("hotspot: iterations must be positive");
    int rows = grid, cols = grid;
    size_t count = size_t(rows) * cols;
    std::vector<float> temp = random_floats(rng, count, 323.0f, 343.0f);
    std::vector<float> power = random_floats(rng, count, 0.0f, 0.01f);

    // Chip parameters of the original program.
    const float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f;
    const float k_si = 100.0f, spec_heat_si = 1.75e6f, factor_chip = 0.5f;
    const float max_pd = 3.0e6f, precision = 0.001f;
    float grid_height = chip_height / float(rows), grid_width = chip_width / float(cols);
    float cap = factor_chip * spec_heat_si * t_chip * grid_width * grid_height;
    float rx = grid_width / (2.0f * k_si * t_chip * grid_height);
    float ry = grid_height / (2.0f * k_si * t_chip * grid_width);
    float rz = t_chip / (k_si * grid_height * grid_width);
    float max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
    float step = precision / max_slope;

    int border = pyramid;
    int small_block = kBlock - 2 * pyramid;
    uint32_t blocks = uint32_t(cols / small_block + (cols % small_block ? 1 : 0));
    DevPtr dpower = rt.malloc(count * 4), dtemp[2] = {rt.malloc(count * 4), rt.malloc(count * 4)};
    rt.memcpy_h2d(dpower, power.data(), count * 4);
    rt.memcpy_h2d(dtemp[0], temp.data(), count * 4);
    rt.memcpy_h2d(dtemp[1], temp.data(), count * 4);
    KernelHandle k = rt.get_kernel(mod, "calculate_temp");
    int src = 0;
    for (int t = 0; t < iterations; t += pyramid) {
      int iter = std::min(pyramid, iterations - t);
      KernelArgs args;
      args.add(iter).add(dpower).add(dtemp[src]).add(dtemp[1 - src]).add(cols).add(rows)
          .add(border).add(border).add(cap).add(rx).add(ry).add(rz).add(step);
      rt.launch(k, {blocks, blocks, 1}, {kBlock, kBlock, 1}, args);
      src = 1 - src;
    }
    std::vector<float> got(count);
    rt.memcpy_d2h(got.data(), dtemp[src], count * 4);

    float sdc = step / cap, rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
    std::vector<float> cur = temp, next(count);
    for (int it = 0; it < iterations; ++it) {
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          auto at = [&](int y, int x) { return double(cur[size_t(y) * cols + x]); };
          double v = at(r, c);
          double n = at(std::max(r - 1, 0), c), s = at(std::min(r + 1, rows - 1), c);
          double w = at(r, std::max(c - 1, 0)), e = at(r, std::min(c + 1, cols - 1));
          next[size_t(r) * cols + c] = float(
              v + sdc * (power[size_t(r) * cols + c] + (s + n - 2.0 * v) * ry_1 +
                         (e + w - 2.0 * v) * rx_1 + (80.0 - v) * rz_1));
        }
      std::swap(cur, next);
    }
    // Single-precision stencil on temperatures near 330 K: a few ulps (1e-5 relative) per step.
    return Verifier().check("temp", got, cur, 1e-5 * iterations, 0).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(hotspot, Hotspot)

}  // namespace warpsim

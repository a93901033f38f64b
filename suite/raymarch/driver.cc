#include <algorithm>
#include <cmath>

#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kSpheres = 6;  // NUM_SPHERES in kernel.cu

float dot3(float ax, float ay, float az, float bx, float by, float bz) {
  float xx = ax * bx, yy = ay * by, zz = az * bz;
  float s = xx + yy;
  return s + zz;
}

class RayMarch final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int width = int(size.get_int("width")), height = int(size.get_int("height"));
    int max_steps = int(size.get_int("max_steps"));
    uint32_t bx = uint32_t(size.get_int("block_x")), by = uint32_t(size.get_int("block_y"));
    const float max_depth = 20.0f;
    std::vector<float> spheres(kSpheres * 4);
    for (int s = 0; s < kSpheres; ++s) {
      spheres[4 * s] = float(rng.uniform()) * 4.0f - 2.0f;
      spheres[4 * s + 1] = float(rng.uniform()) * 1.5f - 0.5f;
      spheres[4 * s + 2] = float(rng.uniform()) * 4.0f;
      spheres[4 * s + 3] = 0.3f + float(rng.uniform()) * 0.5f;
    }
    uint64_t bytes = uint64_t(width) * height * 4;
    DevPtr dsteps = rt.malloc(bytes), ddepth = rt.malloc(bytes), dspheres = rt.malloc(spheres.size() * 4);
    rt.memcpy_h2d(dspheres, spheres.data(), spheres.size() * 4);
    KernelArgs args;
    args.add(dsteps).add(ddepth).add(dspheres).add(width).add(height).add(max_steps).add(max_depth);
    rt.launch(rt.get_kernel(m, "raymarch"), {(uint32_t(width) + bx - 1) / bx, (uint32_t(height) + by - 1) / by, 1},
              {bx, by, 1}, args);
    std::vector<int> steps(size_t(width) * height), want_steps(steps.size());
    std::vector<float> depth(steps.size()), want_depth(steps.size());
    rt.memcpy_d2h(steps.data(), dsteps, bytes);
    rt.memcpy_d2h(depth.data(), ddepth, bytes);
    float inv = 1.0f / float(height);
    for (int py = 0; py < height; ++py)
      for (int px = 0; px < width; ++px) {
        // Each operation rounds once, as the kernel's __f*_rn intrinsics and sqrtf do.
        float dx = (2.0f * float(px) - float(width)) * inv, dy = (float(height) - 2.0f * float(py)) * inv;
        float dz = 1.5f;
        float len = std::sqrt(dot3(dx, dy, dz, dx, dy, dz));
        dx /= len;
        dy /= len;
        dz /= len;
        float t = 0;
        int step = 0;
        for (; step < max_steps; ++step) {
          float qx = dx * t, qy = dy * t, qz = dz * t;
          qz = qz + -3.0f;
          float d = qy + 1.0f;
          for (int s = 0; s < kSpheres; ++s) {
            float ex = qx - spheres[4 * s], ey = qy - spheres[4 * s + 1], ez = qz - spheres[4 * s + 2];
            d = std::min(d, std::sqrt(dot3(ex, ey, ez, ex, ey, ez)) - spheres[4 * s + 3]);
          }
          if (d < 0.001f) break;
          t = t + d;
          if (t > max_depth) break;
        }
        want_steps[size_t(py) * width + px] = step;
        want_depth[size_t(py) * width + px] = t;
      }
    return Verifier().check("steps", steps, want_steps).check("depth", depth, want_depth).outcome();  // exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(raymarch, RayMarch)

}  // namespace warpsim

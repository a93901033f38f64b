#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Mandelbrot final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng&) override {
    int width = int(size.get_int("width")), height = int(size.get_int("height"));
    int max_iter = int(size.get_int("max_iter"));
    uint32_t bx = uint32_t(size.get_int("block_x")), by = uint32_t(size.get_int("block_y"));
    // The classic view of the whole set: x in [-2.25, 0.75], centred on y = 0.
    float step = 3.0f / float(width), x0 = -2.25f, y0 = -0.5f * step * float(height);
    uint64_t bytes = uint64_t(width) * height * 4;
    DevPtr dit = rt.malloc(bytes);
    KernelArgs args;
    args.add(dit).add(width).add(height).add(x0).add(y0).add(step).add(max_iter);
    rt.launch(rt.get_kernel(m, "mandelbrot"), {(uint32_t(width) + bx - 1) / bx, (uint32_t(height) + by - 1) / by, 1},
              {bx, by, 1}, args);
    std::vector<int> it(size_t(width) * height), want(it.size());
    rt.memcpy_d2h(it.data(), dit, bytes);
    for (int py = 0; py < height; ++py)
      for (int px = 0; px < width; ++px) {
        // Every operation rounds once, as the kernel's __f*_rn intrinsics do.
        float cx = x0 + step * float(px), cy = y0 + step * float(py);
        float x = 0, y = 0;
        int k = 0;
        while (k < max_iter) {
          float x2 = x * x, y2 = y * y;
          if (x2 + y2 > 4.0f) break;
          float xy = x * y;
          x = (x2 - y2) + cx;
          y = (xy + xy) + cy;
          ++k;
        }
        want[size_t(py) * width + px] = k;
      }
    return Verifier().check("iterations", it, want).outcome();  // exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(mandelbrot, Mandelbrot)

}  // namespace warpsim

#include <algorithm>

#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class TexFilter final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int width = int(size.get_int("width")), height = int(size.get_int("height"));
    int radius = int(size.get_int("radius"));
    uint32_t bx = uint32_t(size.get_int("block_x")), by = uint32_t(size.get_int("block_y"));
    std::vector<float> image = random_floats(rng, size_t(width) * height, 0, 1);
    uint64_t bytes = uint64_t(width) * height * 4;
    DevPtr dimage = rt.malloc(bytes), dout = rt.malloc(bytes);
    rt.memcpy_h2d(dimage, image.data(), bytes);
    TextureDesc desc;
    desc.data = dimage;
    desc.width = uint32_t(width);
    desc.height = uint32_t(height);
    for (auto& a : desc.address) a = TextureDesc::Clamp;
    uint64_t tex = rt.create_texture(desc);
    KernelArgs args;
    args.add(dout).add(tex).add(width).add(height).add(radius);
    rt.launch(rt.get_kernel(m, "box_filter_tex"), {(uint32_t(width) + bx - 1) / bx, (uint32_t(height) + by - 1) / by, 1},
              {bx, by, 1}, args);
    std::vector<float> out(size_t(width) * height), want(out.size());
    rt.memcpy_d2h(out.data(), dout, bytes);
    rt.destroy_texture(tex);
    int side = 2 * radius + 1;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        float sum = 0;
        for (int dy = -radius; dy <= radius; ++dy)
          for (int dx = -radius; dx <= radius; ++dx) {
            int sx = std::clamp(x + dx, 0, width - 1), sy = std::clamp(y + dy, 0, height - 1);
            sum += image[size_t(sy) * width + sx];
          }
        want[size_t(y) * width + x] = sum / float(side * side);
      }
    // Same summation order; only a contracted multiply-add could differ: 1e-6 relative.
    return Verifier().check("out", out, want, 1e-6, 1e-7).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(texfilter, TexFilter)

}  // namespace warpsim

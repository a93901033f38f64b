#include <utility>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Stencil3d final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int nx = int(size.get_int("nx")), ny = int(size.get_int("ny")), nz = int(size.get_int("nz"));
    int iterations = int(size.get_int("iterations"));
    uint32_t bx = uint32_t(size.get_int("block_x")), by = uint32_t(size.get_int("block_y"));
    if (nx < 3 || ny < 3 || nz < 3 || iterations < 0 || size.get_int("block_x") < 1 || size.get_int("block_y") < 1)
      throw Error("stencil3d: nx, ny, nz must be at least 3, blocks positive, iterations non-negative");
    size_t cells = size_t(nx) * ny * nz;
    const float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
    std::vector<float> grid = random_floats(rng, cells, 0, 1);
    DevPtr d[2] = {rt.malloc(cells * 4), rt.malloc(cells * 4)};
    rt.memcpy_h2d(d[0], grid.data(), cells * 4);
    KernelHandle k = rt.get_kernel(m, "stencil7");
    Dim3 g{(uint32_t(nx) + bx - 1) / bx, (uint32_t(ny) + by - 1) / by, 1};
    for (int it = 0; it < iterations; ++it) {
      KernelArgs args;
      args.add(c0).add(c1).add(d[it % 2]).add(d[(it + 1) % 2]).add(nx).add(ny).add(nz);
      rt.launch(k, g, {bx, by, 1}, args);
    }
    std::vector<float> got(cells);
    rt.memcpy_d2h(got.data(), d[iterations % 2], cells * 4);
    std::vector<float> cur = grid, next(cells);
    size_t plane = size_t(nx) * ny;
    for (int it = 0; it < iterations; ++it) {
      for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
          for (int x = 0; x < nx; ++x) {
            size_t c = z * plane + size_t(y) * nx + x;
            if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
              next[c] = cur[c];
            } else {
              float sum = cur[c - plane] + cur[c + plane] + cur[c - 1] + cur[c + 1] + cur[c - nx] + cur[c + nx];
              next[c] = c1 * sum - c0 * cur[c];
            }
          }
      std::swap(cur, next);
    }
    // Same summation order; FMA contraction may differ: 1e-5 rel + 1e-6 abs.
    return Verifier().check("grid", got, cur, 1e-5, 1e-6).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(stencil3d, Stencil3d)

}  // namespace warpsim

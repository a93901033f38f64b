#include <utility>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Stencil2d final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int nx = int(size.get_int("nx"));
    int ny = int(size.get_int("ny"));
    int iterations = int(size.get_int("iterations"));
    uint32_t bx = uint32_t(size.get_int("block_x")), by = uint32_t(size.get_int("block_y"));
    if (nx < 1 || ny < 1 || iterations < 0 || size.get_int("block_x") < 1 || size.get_int("block_y") < 1)
      throw Error("stencil2d: nx, ny, block_x, block_y must be positive and iterations non-negative");
    size_t cells = size_t(nx) * size_t(ny);
    std::vector<float> grid = random_floats(rng, cells, 0, 1);
    DevPtr d[2] = {rt.malloc(cells * 4), rt.malloc(cells * 4)};
    rt.memcpy_h2d(d[0], grid.data(), cells * 4);
    KernelHandle k = rt.get_kernel(m, "jacobi2d");
    Dim3 g{(uint32_t(nx) + bx - 1) / bx, (uint32_t(ny) + by - 1) / by, 1};
    for (int it = 0; it < iterations; ++it) {
      KernelArgs args;
      args.add(d[it % 2]).add(d[(it + 1) % 2]).add(nx).add(ny);
      rt.launch(k, g, {bx, by, 1}, args);
    }
    std::vector<float> got(cells);
    rt.memcpy_d2h(got.data(), d[iterations % 2], cells * 4);
    std::vector<float> cur = grid, next(cells);
    for (int it = 0; it < iterations; ++it) {
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          size_t i = size_t(y) * nx + x;
          if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) next[i] = cur[i];
          else next[i] = 0.2f * (cur[i] + cur[i - 1] + cur[i + 1] + cur[i - nx] + cur[i + nx]);
        }
      std::swap(cur, next);
    }
    // Same operation order in float; only FMA contraction may differ: 1e-5 rel + 1e-6 abs.
    return Verifier().check("grid", got, cur, 1e-5, 1e-6).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(stencil2d, Stencil2d)

}  // namespace warpsim

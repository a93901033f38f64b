#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Mvt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("n"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (n < 1 || size.get_int("block") < 1) throw Error("mvt: n and block must be positive");
    size_t cells = size_t(n) * size_t(n);
    uint64_t vbytes = uint64_t(n) * 4;
    std::vector<float> a = random_floats(rng, cells, -1, 1);
    std::vector<float> x1 = random_floats(rng, size_t(n), -1, 1), x2 = random_floats(rng, size_t(n), -1, 1);
    std::vector<float> y1 = random_floats(rng, size_t(n), -1, 1), y2 = random_floats(rng, size_t(n), -1, 1);
    DevPtr da = rt.malloc(cells * 4), dx1 = rt.malloc(vbytes), dx2 = rt.malloc(vbytes);
    DevPtr dy1 = rt.malloc(vbytes), dy2 = rt.malloc(vbytes);
    rt.memcpy_h2d(da, a.data(), cells * 4);
    rt.memcpy_h2d(dx1, x1.data(), vbytes);
    rt.memcpy_h2d(dx2, x2.data(), vbytes);
    rt.memcpy_h2d(dy1, y1.data(), vbytes);
    rt.memcpy_h2d(dy2, y2.data(), vbytes);
    KernelArgs a1, a2;
    a1.add(da).add(dx1).add(dy1).add(n);
    a2.add(da).add(dx2).add(dy2).add(n);
    Dim3 grid{(uint32_t(n) + block - 1) / block, 1, 1};
    rt.launch(rt.get_kernel(m, "mvt_kernel1"), grid, {block, 1, 1}, a1);
    rt.launch(rt.get_kernel(m, "mvt_kernel2"), grid, {block, 1, 1}, a2);
    std::vector<float> got1(static_cast<size_t>(n)), got2(static_cast<size_t>(n)), want1(static_cast<size_t>(n)), want2(static_cast<size_t>(n));
    rt.memcpy_d2h(got1.data(), dx1, vbytes);
    rt.memcpy_d2h(got2.data(), dx2, vbytes);
    for (int i = 0; i < n; ++i) {
      double s1 = x1[size_t(i)], s2 = x2[size_t(i)];
      for (int j = 0; j < n; ++j) {
        s1 += double(a[size_t(i) * n + j]) * y1[size_t(j)];
        s2 += double(a[size_t(j) * n + i]) * y2[size_t(j)];
      }
      want1[size_t(i)] = float(s1);
      want2[size_t(i)] = float(s2);
    }
    // Single-precision sums of n terms in [-1, 1] against double: 1e-4 relative + 1e-3 absolute.
    return Verifier().check("x1", got1, want1, 1e-4, 1e-3).check("x2", got2, want2, 1e-4, 1e-3).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(mvt, Mvt)

}  // namespace warpsim

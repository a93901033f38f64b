#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Atax final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int nx = int(size.get_int("nx"));
    int ny = int(size.get_int("ny"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (nx < 1 || ny < 1 || size.get_int("block") < 1) throw Error("atax: nx, ny and block must be positive");
    size_t cells = size_t(nx) * size_t(ny);
    std::vector<float> a = random_floats(rng, cells, -1, 1), x = random_floats(rng, size_t(ny), -1, 1);
    DevPtr da = rt.malloc(cells * 4), dx = rt.malloc(uint64_t(ny) * 4);
    DevPtr dtmp = rt.malloc(uint64_t(nx) * 4), dy = rt.malloc(uint64_t(ny) * 4);
    rt.memcpy_h2d(da, a.data(), cells * 4);
    rt.memcpy_h2d(dx, x.data(), uint64_t(ny) * 4);
    KernelArgs a1, a2;
    a1.add(da).add(dx).add(dtmp).add(nx).add(ny);
    a2.add(da).add(dtmp).add(dy).add(nx).add(ny);
    rt.launch(rt.get_kernel(m, "atax_kernel1"), {(uint32_t(nx) + block - 1) / block, 1, 1}, {block, 1, 1}, a1);
    rt.launch(rt.get_kernel(m, "atax_kernel2"), {(uint32_t(ny) + block - 1) / block, 1, 1}, {block, 1, 1}, a2);
    std::vector<float> tmp(static_cast<size_t>(nx)), y(static_cast<size_t>(ny));
    rt.memcpy_d2h(tmp.data(), dtmp, uint64_t(nx) * 4);
    rt.memcpy_d2h(y.data(), dy, uint64_t(ny) * 4);
    // Reference in double: tmp = A x, then y = A^T tmp computed from the device's tmp so
    // that the second check isolates the second kernel.
    std::vector<float> want_tmp(static_cast<size_t>(nx)), want_y(static_cast<size_t>(ny));
    for (int i = 0; i < nx; ++i) {
      double s = 0;
      for (int j = 0; j < ny; ++j) s += double(a[size_t(i) * ny + j]) * x[size_t(j)];
      want_tmp[size_t(i)] = float(s);
    }
    std::vector<double> acc(size_t(ny), 0.0);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j) acc[size_t(j)] += double(a[size_t(i) * ny + j]) * tmp[size_t(i)];
    for (int j = 0; j < ny; ++j) want_y[size_t(j)] = float(acc[size_t(j)]);
    // Single-precision sums of n terms against double: 1e-4 relative + 1e-3 absolute
    // (tmp entries are O(sqrt(n)/3), y entries O(n/10)).
    return Verifier().check("tmp", tmp, want_tmp, 1e-4, 1e-3).check("y", y, want_y, 1e-4, 1e-2).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(atax, Atax)

}  // namespace warpsim

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class AtaxPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int64_t nx = size.get_int("nx"), ny = size.get_int("ny"), batch = size.get_int("batch");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (nx < 1 || ny < 1 || batch < 1 || nx > 16384 || ny > 16384 || nx * ny * batch > (int64_t(1) << 27))
      throw Error("atax_pt: nx, ny and batch must be positive with nx * ny * batch at most 2^27");
    if (grid < 1 || grid > 65535 || block < 32 || block > 1024 || block % 32)
      throw Error("atax_pt: grid must be in 1..65535 and block a multiple of 32 up to 1024");
    size_t cells = size_t(nx * ny * batch), rows = size_t(nx * batch), cols = size_t(ny * batch);
    std::vector<float> a = random_floats(rng, cells, -1, 1), x = random_floats(rng, cols, -1, 1);
    DevPtr da = rt.malloc(cells * 4), dx = rt.malloc(cols * 4);
    DevPtr dtmp = rt.malloc(rows * 4), dy = rt.malloc(cols * 4);
    rt.memcpy_h2d(da, a.data(), cells * 4);
    rt.memcpy_h2d(dx, x.data(), cols * 4);
    KernelArgs a1, a2;
    a1.add(da).add(dx).add(dtmp).add(int(nx)).add(int(ny)).add(int(batch));
    a2.add(da).add(dtmp).add(dy).add(int(nx)).add(int(ny)).add(int(batch));
    Dim3 g{uint32_t(grid), 1, 1}, b{uint32_t(block), 1, 1};
    rt.launch(rt.get_kernel(m, "atax_kernel1"), g, b, a1);
    rt.launch(rt.get_kernel(m, "atax_kernel2"), g, b, a2);
    std::vector<float> tmp(rows), y(cols);
    rt.memcpy_d2h(tmp.data(), dtmp, rows * 4);
    rt.memcpy_d2h(y.data(), dy, cols * 4);
    // Reference in double: tmp = A x per problem, then y = A^T tmp from the device's tmp so that
    // the second check isolates the second kernel.
    std::vector<float> want_tmp(rows), want_y(cols);
    for (int64_t p = 0; p < batch; ++p) {
      const float* ap = a.data() + size_t(p * nx * ny);
      for (int64_t i = 0; i < nx; ++i) {
        double s = 0;
        for (int64_t j = 0; j < ny; ++j) s += double(ap[i * ny + j]) * double(x[size_t(p * ny + j)]);
        want_tmp[size_t(p * nx + i)] = float(s);
      }
      for (int64_t j = 0; j < ny; ++j) {
        double s = 0;
        for (int64_t i = 0; i < nx; ++i) s += double(ap[i * ny + j]) * double(tmp[size_t(p * nx + i)]);
        want_y[size_t(p * ny + j)] = float(s);
      }
    }
    // Single-precision sums of up to 16384 terms against double: 1e-4 relative + 1e-3 absolute.
    return Verifier().check("tmp", tmp, want_tmp, 1e-4, 1e-3).check("y", y, want_y, 1e-4, 1e-3).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(atax_pt, AtaxPt)

}  // namespace warpsim

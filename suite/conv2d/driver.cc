#include "workloads/driver.h"
#include "core/error.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Conv2d final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int ni = int(size.get_int("ni")), nj = int(size.get_int("nj"));
    if (ni < 3 || nj < 3 || ni > 16384 || nj > 16384) throw Error("conv2d: ni and nj must be in 3..16384");
    size_t count = size_t(ni) * nj;
    std::vector<float> a = random_floats(rng, count, 0, 1);
    DevPtr da = rt.malloc(count * 4), db = rt.malloc(count * 4);
    rt.memcpy_h2d(da, a.data(), count * 4);
    rt.memset(db, 0, count * 4);
    KernelArgs args;
    args.add(da).add(db).add(ni).add(nj);
    // Polybench's block shape: 32 x 8 threads.
    rt.launch(rt.get_kernel(mod, "conv2d"), {uint32_t((nj + 31) / 32), uint32_t((ni + 7) / 8), 1}, {32, 8, 1}, args);
    std::vector<float> got(count), want(count, 0.0f);
    rt.memcpy_d2h(got.data(), db, count * 4);
    const double c[3][3] = {{0.2, -0.3, 0.4}, {0.5, 0.6, 0.7}, {-0.8, -0.9, 0.10}};  // c[col][row]
    for (int i = 1; i < ni - 1; ++i)
      for (int j = 1; j < nj - 1; ++j) {
        double s = 0;
        for (int dj = -1; dj <= 1; ++dj)
          for (int di = -1; di <= 1; ++di) s += double(float(c[dj + 1][di + 1])) * a[size_t(i + di) * nj + (j + dj)];
        want[size_t(i) * nj + j] = float(s);
      }
    // Nine single-precision products of magnitude < 1: 1e-5 absolute.
    return Verifier().check("B", got, want, 1e-5, 1e-5).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(conv2d, Conv2d)

}  // namespace warpsim

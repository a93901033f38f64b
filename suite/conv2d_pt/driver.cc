#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Conv2dPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int64_t ni = size.get_int("ni"), nj = size.get_int("nj");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (ni < 3 || nj < 3 || ni > 16384 || nj > 16384 || ni * nj > (int64_t(1) << 28))
      throw Error("conv2d_pt: ni and nj must be in 3..16384 with ni * nj at most 2^28");
    if (grid < 1 || grid > 65535 || block < 32 || block > 1024 || block % 32)
      throw Error("conv2d_pt: grid must be in 1..65535 and block a multiple of 32 up to 1024");
    size_t count = size_t(ni) * size_t(nj);
    std::vector<float> a = random_floats(rng, count, 0, 1);
    DevPtr da = rt.malloc(count * 4), db = rt.malloc(count * 4);
    rt.memcpy_h2d(da, a.data(), count * 4);
    rt.memset(db, 0, count * 4);
    KernelArgs args;
    args.add(da).add(db).add(int(ni)).add(int(nj));
    rt.launch(rt.get_kernel(mod, "conv2d"), {uint32_t(grid), 1, 1}, {uint32_t(block), 1, 1}, args);
    std::vector<float> got(count), want(count, 0.0f);
    rt.memcpy_d2h(got.data(), db, count * 4);
    // Filter taps by column offset (first index) and row offset (second index), as in the kernel.
    const float tap[3][3] = {{0.2f, -0.3f, 0.4f}, {0.5f, 0.6f, 0.7f}, {-0.8f, -0.9f, 0.10f}};
    for (int64_t i = 1; i < ni - 1; ++i)
      for (int64_t j = 1; j < nj - 1; ++j) {
        double s = 0;
        for (int dj = -1; dj <= 1; ++dj)
          for (int di = -1; di <= 1; ++di)
            s += double(tap[dj + 1][di + 1]) * double(a[size_t((i + di) * nj + (j + dj))]);
        want[size_t(i * nj + j)] = float(s);
      }
    // Nine single-precision products of magnitude below one against double: 1e-5.
    return Verifier().check("B", got, want, 1e-5, 1e-5).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(conv2d_pt, Conv2dPt)

}  // namespace warpsim

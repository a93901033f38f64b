#include "workloads/driver.h"
#include "core/error.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

// C = alpha * A * B^T + beta * C, column-major; m a multiple of 128, n of 16, k of 8.
class Sgemm final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int m = int(size.get_int("m")), n = int(size.get_int("n")), k = int(size.get_int("k"));
    if (m <= 0 || n <= 0 || k <= 0 || m % 128 || n % 16 || k % 8 || m > 16384 || n > 16384 || k > 16384)
      throw Error("sgemm: m must be a multiple of 128, n of 16 and k of 8 (each at most 16384)");
    float alpha = 1.5f, beta = 0.5f;
    std::vector<float> a = random_floats(rng, size_t(m) * k, -1, 1);
    std::vector<float> b = random_floats(rng, size_t(n) * k, -1, 1);
    std::vector<float> c = random_floats(rng, size_t(m) * n, -1, 1);
    DevPtr da = rt.malloc(a.size() * 4), db = rt.malloc(b.size() * 4), dc = rt.malloc(c.size() * 4);
    rt.memcpy_h2d(da, a.data(), a.size() * 4);
    rt.memcpy_h2d(db, b.data(), b.size() * 4);
    rt.memcpy_h2d(dc, c.data(), c.size() * 4);
    KernelArgs args;
    args.add(da).add(m).add(db).add(n).add(dc).add(m).add(k).add(alpha).add(beta);
    rt.launch(rt.get_kernel(mod, "sgemm_nt"), {uint32_t(m / 128), uint32_t(n / 16), 1}, {16, 8, 1}, args);
    std::vector<float> got(c.size()), want(c.size());
    rt.memcpy_d2h(got.data(), dc, got.size() * 4);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double s = 0;
        for (int l = 0; l < k; ++l) s += double(a[i + size_t(l) * m]) * double(b[j + size_t(l) * n]);
        want[i + size_t(j) * m] = float(double(c[i + size_t(j) * m]) * beta + alpha * s);
      }
    // Single-precision accumulation of k products of values in [-1, 1] against a double
    // reference: |error| <= 1e-5 * k + 1e-4 relative.
    return Verifier().check("C", got, want, 1e-4, 1e-5 * k).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(sgemm, Sgemm)

}  // namespace warpsim

#include "workloads/driver.h"
#include "core/error.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

// C (hA x wB) = A (hA x wA) * B (wA x wB), row-major, all dimensions multiples of 16.
class MatMul final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int ha = int(size.get_int("ha")), wa = int(size.get_int("wa")), wb = int(size.get_int("wb"));
    if (ha <= 0 || wa <= 0 || wb <= 0 || ha % 16 || wa % 16 || wb % 16 || ha > 16384 || wa > 16384 || wb > 16384)
      throw Error("matmul: ha, wa and wb must be multiples of 16 in 16..16384");
    std::vector<float> a = random_floats(rng, size_t(ha) * wa, -1, 1);
    std::vector<float> b = random_floats(rng, size_t(wa) * wb, -1, 1);
    DevPtr da = rt.malloc(a.size() * 4), db = rt.malloc(b.size() * 4), dc = rt.malloc(size_t(ha) * wb * 4);
    rt.memcpy_h2d(da, a.data(), a.size() * 4);
    rt.memcpy_h2d(db, b.data(), b.size() * 4);
    KernelArgs args;
    args.add(dc).add(da).add(db).add(wa).add(wb);
    rt.launch(rt.get_kernel(mod, "matrix_mul"), {uint32_t(wb / 16), uint32_t(ha / 16), 1}, {16, 16, 1}, args);
    std::vector<float> got(size_t(ha) * wb), want(got.size());
    rt.memcpy_d2h(got.data(), dc, got.size() * 4);
    for (int i = 0; i < ha; ++i)
      for (int j = 0; j < wb; ++j) {
        double s = 0;
        for (int l = 0; l < wa; ++l) s += double(a[size_t(i) * wa + l]) * double(b[size_t(l) * wb + j]);
        want[size_t(i) * wb + j] = float(s);
      }
    // Single-precision sum of wA products in [-1, 1] vs a double reference: 1e-5 * wA absolute.
    return Verifier().check("C", got, want, 1e-4, 1e-5 * wa).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(matmul, MatMul)

}  // namespace warpsim

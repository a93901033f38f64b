#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlock = 16;

class Lud final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int dim = int(size.get_int("dim"));
    if (dim < kBlock || dim % kBlock || dim > 8192) throw Error("lud: dim must be a multiple of 16 in 16..8192");
    size_t count = size_t(dim) * dim;
    // Diagonally dominant, so that LU without pivoting is stable.
    std::vector<float> a = random_floats(rng, count, -1, 1);
    for (int i = 0; i < dim; ++i) a[size_t(i) * dim + i] += float(dim);
    DevPtr dm = rt.malloc(count * 4);
    rt.memcpy_h2d(dm, a.data(), count * 4);
    KernelHandle diag = rt.get_kernel(mod, "lud_diagonal"), peri = rt.get_kernel(mod, "lud_perimeter"),
                 inner = rt.get_kernel(mod, "lud_internal");
    int i = 0;
    for (; i < dim - kBlock; i += kBlock) {
      KernelArgs args;
      args.add(dm).add(dim).add(i);
      uint32_t rest = uint32_t((dim - i) / kBlock - 1);
      rt.launch(diag, {1, 1, 1}, {kBlock, 1, 1}, args);
      rt.launch(peri, {rest, 1, 1}, {2 * kBlock, 1, 1}, args);
      rt.launch(inner, {rest, rest, 1}, {kBlock, kBlock, 1}, args);
    }
    KernelArgs last;
    last.add(dm).add(dim).add(i);
    rt.launch(diag, {1, 1, 1}, {kBlock, 1, 1}, last);
    std::vector<float> got(count);
    rt.memcpy_d2h(got.data(), dm, count * 4);

    // Reference: in-place Doolittle LU (unit lower L below the diagonal, U on and above).
    std::vector<double> r(a.begin(), a.end());
    for (int k = 0; k < dim; ++k)
      for (int y = k + 1; y < dim; ++y) {
        double l = r[size_t(y) * dim + k] /= r[size_t(k) * dim + k];
        for (int x = k + 1; x < dim; ++x) r[size_t(y) * dim + x] -= l * r[size_t(k) * dim + x];
      }
    std::vector<float> want(r.begin(), r.end());
    // Single-precision elimination of a diagonally dominant matrix (U ~ dim on the diagonal,
    // L entries ~ 1/dim): 1e-4 relative plus 1e-5 absolute.
    return Verifier().check("LU", got, want, 1e-4, 1e-5).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(lud, Lud)

}  // namespace warpsim

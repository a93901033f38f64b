#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class VectorAdd final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("n"));
    uint32_t block = uint32_t(size.get_int("block"));
    std::vector<float> a = random_floats(rng, n, -1, 1), b = random_floats(rng, n, -1, 1);
    DevPtr da = rt.malloc(n * 4), db = rt.malloc(n * 4), dc = rt.malloc(n * 4);
    rt.memcpy_h2d(da, a.data(), n * 4);
    rt.memcpy_h2d(db, b.data(), n * 4);
    KernelArgs args;
    args.add(da).add(db).add(dc).add(n);
    rt.launch(rt.get_kernel(m, "vector_add"), {(n + block - 1) / block, 1, 1}, {block, 1, 1}, args);
    std::vector<float> c(n), want(n);
    rt.memcpy_d2h(c.data(), dc, n * 4);
    for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];
    return Verifier().check("c", c, want).outcome();  // one rounding, exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(vectoradd, VectorAdd)

}  // namespace warpsim

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class ScalarProd final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int vectors = int(size.get_int("vectors"));
    int elements = int(size.get_int("elements"));
    uint32_t grid = uint32_t(size.get_int("grid"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (vectors < 1 || elements < 1 || size.get_int("grid") < 1 || size.get_int("block") < 1)
      throw Error("scalarprod: vectors, elements, grid and block must be positive");
    size_t total = size_t(vectors) * size_t(elements);
    std::vector<float> a = random_floats(rng, total, -1, 1), b = random_floats(rng, total, -1, 1);
    DevPtr da = rt.malloc(total * 4), db = rt.malloc(total * 4), dc = rt.malloc(uint64_t(vectors) * 4);
    rt.memcpy_h2d(da, a.data(), total * 4);
    rt.memcpy_h2d(db, b.data(), total * 4);
    KernelArgs args;
    args.add(dc).add(da).add(db).add(vectors).add(elements);
    rt.launch(rt.get_kernel(m, "scalar_prod"), {grid, 1, 1}, {block, 1, 1}, args);
    std::vector<float> c(size_t(vectors), 0.0f), want(static_cast<size_t>(vectors));
    rt.memcpy_d2h(c.data(), dc, uint64_t(vectors) * 4);
    for (int v = 0; v < vectors; ++v) {
      double s = 0;
      for (int e = 0; e < elements; ++e) s += double(a[size_t(v) * elements + e]) * b[size_t(v) * elements + e];
      want[size_t(v)] = float(s);
    }
    // Summation order differs from the double-precision reference: |err| <= 1e-5 rel + 1e-4 abs
    // (terms are in [-1, 1], partial sums of up to a few thousand terms).
    return Verifier().check("c", c, want, 1e-5, 1e-4).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(scalarprod, ScalarProd)

}  // namespace warpsim

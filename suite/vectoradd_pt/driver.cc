#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class VectorAddPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int64_t n = size.get_int("n"), grid = size.get_int("grid"), block = size.get_int("block");
    if (n < 1 || n > (int64_t(1) << 28)) throw Error("vectoradd_pt: n must be in 1..2^28");
    if (grid < 1 || grid > 65535 || block < 32 || block > 1024 || block % 32)
      throw Error("vectoradd_pt: grid must be in 1..65535 and block a multiple of 32 up to 1024");
    size_t count = size_t(n);
    std::vector<float> a = random_floats(rng, count, -1, 1), b = random_floats(rng, count, -1, 1);
    DevPtr da = rt.malloc(count * 4), db = rt.malloc(count * 4), dc = rt.malloc(count * 4);
    rt.memcpy_h2d(da, a.data(), count * 4);
    rt.memcpy_h2d(db, b.data(), count * 4);
    KernelArgs args;
    args.add(da).add(db).add(dc).add(int(n));
    rt.launch(rt.get_kernel(m, "vector_add"), {uint32_t(grid), 1, 1}, {uint32_t(block), 1, 1}, args);
    std::vector<float> c(count), want(count);
    rt.memcpy_d2h(c.data(), dc, count * 4);
    for (size_t i = 0; i < count; ++i) want[i] = a[i] + b[i];
    return Verifier().check("c", c, want).outcome();  // one rounding, exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(vectoradd_pt, VectorAddPt)

}  // namespace warpsim

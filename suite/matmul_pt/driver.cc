#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class MatmulPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int64_t ha = size.get_int("ha"), wa = size.get_int("wa"), wb = size.get_int("wb");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (ha <= 0 || wa <= 0 || wb <= 0 || ha % 16 || wa % 16 || wb % 16 || ha > 16384 || wa > 16384 || wb > 16384)
      throw Error("matmul_pt: ha, wa and wb must be multiples of 16 in 16..16384");
    if (grid < 1 || grid > 65535) throw Error("matmul_pt: grid must be in 1..65535");
    if (block != 256) throw Error("matmul_pt: block must be 256 (16 x 16 threads, one per element of a tile)");
    std::vector<float> a = random_floats(rng, size_t(ha) * size_t(wa), -1, 1);
    std::vector<float> b = random_floats(rng, size_t(wa) * size_t(wb), -1, 1);
    size_t cells = size_t(ha) * size_t(wb);
    DevPtr da = rt.malloc(a.size() * 4), db = rt.malloc(b.size() * 4), dc = rt.malloc(cells * 4);
    rt.memcpy_h2d(da, a.data(), a.size() * 4);
    rt.memcpy_h2d(db, b.data(), b.size() * 4);
    int tiles_x = int(wb / 16), tiles = int(wb / 16 * (ha / 16));
    KernelArgs args;
    args.add(dc).add(da).add(db).add(int(wa)).add(int(wb)).add(tiles_x).add(tiles);
    rt.launch(rt.get_kernel(mod, "matrix_mul"), {uint32_t(grid), 1, 1}, {16, 16, 1}, args);
    std::vector<float> got(cells), want(cells);
    rt.memcpy_d2h(got.data(), dc, cells * 4);
    for (int64_t i = 0; i < ha; ++i)
      for (int64_t j = 0; j < wb; ++j) {
        double s = 0;
        for (int64_t l = 0; l < wa; ++l) s += double(a[size_t(i * wa + l)]) * double(b[size_t(l * wb + j)]);
        want[size_t(i * wb + j)] = float(s);
      }
    // Single-precision sum of wa products in [-1, 1] against double: 1e-5 * wa absolute.
    return Verifier().check("C", got, want, 1e-4, 1e-5 * double(wa)).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(matmul_pt, MatmulPt)

}  // namespace warpsim

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Spmv final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int rows = int(size.get_int("rows"));
    int max_row = int(size.get_int("max_row"));
    int band = int(size.get_int("band"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (rows < 1 || max_row < 1 || band < 1 || block < 32 || block % 32 != 0)
      throw Error("spmv: rows, max_row, band must be positive and block a multiple of 32");
    // Square matrix; row lengths Pareto-like (minimum 2, shape 1.5, capped at max_row); three
    // quarters of a row's columns fall in a band around the diagonal, the rest anywhere.
    std::vector<int> row_ptr(size_t(rows) + 1, 0), cols;
    for (int r = 0; r < rows; ++r) {
      double u = 1.0 - rng.uniform();
      int len = int(std::min(double(max_row), 2.0 / std::pow(u, 1.0 / 1.5)));
      std::vector<int> c;
      for (int k = 0; k < len; ++k) {
        int col = rng.below(4) != 0 ? r - band + int(rng.below(uint64_t(2 * band + 1))) : int(rng.below(uint64_t(rows)));
        c.push_back(std::clamp(col, 0, rows - 1));
      }
      std::sort(c.begin(), c.end());
      cols.insert(cols.end(), c.begin(), c.end());
      row_ptr[size_t(r) + 1] = int(cols.size());
    }
    size_t nnz = cols.size();
    std::vector<float> vals = random_floats(rng, nnz, -1, 1), x = random_floats(rng, size_t(rows), -1, 1);
    DevPtr drp = rt.malloc((uint64_t(rows) + 1) * 4), dcols = rt.malloc(nnz * 4), dvals = rt.malloc(nnz * 4);
    DevPtr dx = rt.malloc(uint64_t(rows) * 4), dy1 = rt.malloc(uint64_t(rows) * 4), dy2 = rt.malloc(uint64_t(rows) * 4);
    rt.memcpy_h2d(drp, row_ptr.data(), (uint64_t(rows) + 1) * 4);
    rt.memcpy_h2d(dcols, cols.data(), nnz * 4);
    rt.memcpy_h2d(dvals, vals.data(), nnz * 4);
    rt.memcpy_h2d(dx, x.data(), uint64_t(rows) * 4);
    KernelArgs a1, a2;
    a1.add(drp).add(dcols).add(dvals).add(dx).add(dy1).add(rows);
    a2.add(drp).add(dcols).add(dvals).add(dx).add(dy2).add(rows);
    rt.launch(rt.get_kernel(m, "spmv_csr_scalar"), {(uint32_t(rows) + block - 1) / block, 1, 1}, {block, 1, 1}, a1);
    uint32_t warps_per_block = block / 32;
    rt.launch(rt.get_kernel(m, "spmv_csr_vector"), {(uint32_t(rows) + warps_per_block - 1) / warps_per_block, 1, 1},
              {block, 1, 1}, a2);
    std::vector<float> y1(static_cast<size_t>(rows)), y2(static_cast<size_t>(rows)), want(static_cast<size_t>(rows));
    rt.memcpy_d2h(y1.data(), dy1, uint64_t(rows) * 4);
    rt.memcpy_d2h(y2.data(), dy2, uint64_t(rows) * 4);
    for (int r = 0; r < rows; ++r) {
      double s = 0;
      for (int k = row_ptr[size_t(r)]; k < row_ptr[size_t(r) + 1]; ++k) s += double(vals[size_t(k)]) * x[size_t(cols[size_t(k)])];
      want[size_t(r)] = float(s);
    }
    // Single-precision sums of at most max_row terms in [-1, 1] against double: 1e-5 rel + 1e-4 abs.
    return Verifier().check("y_scalar", y1, want, 1e-5, 1e-4).check("y_vector", y2, want, 1e-5, 1e-4).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(spmv, Spmv)

}  // namespace warpsim

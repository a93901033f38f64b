#include <fmt/format.h>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

// Solutions of the n-queens problem with the given rows already placed (recursive reference).
uint32_t count_from(int n, int rows_left, uint32_t cols, uint32_t dl, uint32_t dr) {
  if (rows_left == 0) return 1;
  uint32_t all = (1u << n) - 1u, total = 0;
  for (uint32_t free = all & ~(cols | dl | dr); free; free &= free - 1) {
    uint32_t bit = free & (0u - free);
    total += count_from(n, rows_left - 1, cols | bit, ((dl | bit) << 1) & all, (dr | bit) >> 1);
  }
  return total;
}

class NQueens final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng&) override {
    int n = int(size.get_int("n")), prefix = int(size.get_int("prefix_rows"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (n < 4 || n > 16 || prefix < 1 || prefix > n || prefix > 6)
      throw Error("nqueens: need 4 <= n <= 16 and 1 <= prefix_rows <= min(n, 6)");
    int prefixes = 1;
    for (int r = 0; r < prefix; ++r) prefixes *= n;
    DevPtr dcounts = rt.malloc(uint64_t(prefixes) * 4);
    KernelArgs args;
    args.add(dcounts).add(n).add(prefix).add(prefixes);
    rt.launch(rt.get_kernel(m, "nqueens"), {(uint32_t(prefixes) + block - 1) / block, 1, 1}, {block, 1, 1}, args);
    std::vector<uint32_t> counts(prefixes), want(prefixes);
    rt.memcpy_d2h(counts.data(), dcounts, uint64_t(prefixes) * 4);
    uint32_t all = (1u << n) - 1u;
    uint64_t total = 0, got_total = 0;
    for (int t = 0; t < prefixes; ++t) {
      uint32_t cols = 0, dl = 0, dr = 0;
      bool valid = true;
      for (int r = 0, code = t; r < prefix; ++r, code /= n) {
        uint32_t bit = 1u << (code % n);
        if ((cols | dl | dr) & bit) valid = false;
        cols |= bit;
        dl = ((dl | bit) << 1) & all;
        dr = (dr | bit) >> 1;
      }
      want[t] = valid ? count_from(n, n - prefix, cols, dl, dr) : 0;
      total += want[t];
      got_total += counts[t];
    }
    return Verifier()
        .check("solutions", counts, want)
        .expect(got_total == total, fmt::format("total {} solutions, expected {}", got_total, total))
        .outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(nqueens, NQueens)

}  // namespace warpsim

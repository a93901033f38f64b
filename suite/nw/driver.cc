#include <algorithm>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlock = 16;
constexpr int kSymbols = 24;

class Nw final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("n"));
    int penalty = int(size.get_int("penalty"));
    if (n < kBlock || n % kBlock || n > 16384) throw Error("nw: n must be a multiple of 16 in 16..16384");
    int cols = n + 1;
    size_t count = size_t(cols) * cols;
    // A symmetric substitution table: matches score 4..11, mismatches -4..3.
    int table[kSymbols][kSymbols];
    for (int x = 0; x < kSymbols; ++x)
      for (int y = 0; y <= x; ++y)
        table[x][y] = table[y][x] = x == y ? 4 + int(rng.below(8)) : -4 + int(rng.below(8));
    std::vector<int> seq1 = random_ints(rng, size_t(cols), 0, kSymbols - 1);
    std::vector<int> seq2 = random_ints(rng, size_t(cols), 0, kSymbols - 1);
    std::vector<int> reference(count, 0), matrix(count, 0);
    for (int i = 1; i < cols; ++i)
      for (int j = 1; j < cols; ++j) reference[size_t(i) * cols + j] = table[seq1[size_t(i)]][seq2[size_t(j)]];
    for (int i = 1; i < cols; ++i) {
      matrix[size_t(i) * cols] = -i * penalty;
      matrix[size_t(i)] = -i * penalty;
    }
    DevPtr dref = rt.malloc(count * 4), dmat = rt.malloc(count * 4);
    rt.memcpy_h2d(dref, reference.data(), count * 4);
    rt.memcpy_h2d(dmat, matrix.data(), count * 4);
    int block_width = n / kBlock;
    KernelHandle k1 = rt.get_kernel(mod, "needle_1"), k2 = rt.get_kernel(mod, "needle_2");
    for (int i = 1; i <= block_width; ++i) {
      KernelArgs args;
      args.add(dref).add(dmat).add(cols).add(penalty).add(i).add(block_width);
      rt.launch(k1, {uint32_t(i), 1, 1}, {kBlock, 1, 1}, args);
    }
    for (int i = block_width - 1; i >= 1; --i) {
      KernelArgs args;
      args.add(dref).add(dmat).add(cols).add(penalty).add(i).add(block_width);
      rt.launch(k2, {uint32_t(i), 1, 1}, {kBlock, 1, 1}, args);
    }
    std::vector<int> got(count);
    rt.memcpy_d2h(got.data(), dmat, count * 4);
    for (int i = 1; i < cols; ++i)
      for (int j = 1; j < cols; ++j) {
        size_t k = size_t(i) * cols + j;
        matrix[k] = std::max({matrix[k - cols - 1] + reference[k], matrix[k - 1] - penalty,
                              matrix[k - cols] - penalty});
      }
    return Verifier().check("score", got, matrix).outcome();  // integers, exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(nw, Nw)

}  // namespace warpsim

#include <algorithm>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlock = 256;

class Pathfinder final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int cols = int(size.get_int("cols")), rows = int(size.get_int("rows"));
    int pyramid = int(size.get_int("pyramid_height"));
    if (cols < 1 || rows < 2 || cols > (1 << 24) || int64_t(rows) * cols > (int64_t(1) << 28))
      throw Error("pathfinder: cols must be in 1..2^24, rows at least 2, rows * cols at most 2^28");
    if (pyramid < 1 || 2 * pyramid >= kBlock) throw Error("pathfinder: pyramid_height must be in 1..127");
    std::vector<int> wall = random_ints(rng, size_t(rows) * cols, 0, 9);
    int border = pyramid;
    int small_cols = kBlock - 2 * pyramid;
    uint32_t blocks = uint32_t(cols / small_cols + (cols % small_cols ? 1 : 0));
    DevPtr dwall = rt.malloc(uint64_t(rows - 1) * cols * 4);
    DevPtr dres[2] = {rt.malloc(uint64_t(cols) * 4), rt.malloc(uint64_t(cols) * 4)};
    rt.memcpy_h2d(dwall, wall.data() + cols, uint64_t(rows - 1) * cols * 4);
    rt.memcpy_h2d(dres[0], wall.data(), uint64_t(cols) * 4);
    KernelHandle k = rt.get_kernel(mod, "dynproc_kernel");
    int src = 0;
    for (int t = 0; t < rows - 1; t += pyramid) {
      int iter = std::min(pyramid, rows - t - 1);
      KernelArgs args;
      args.add(iter).add(dwall).add(dres[src]).add(dres[1 - src]).add(cols).add(rows).add(t).add(border);
      rt.launch(k, {blocks, 1, 1}, {kBlock, 1, 1}, args);
      src = 1 - src;
    }
    std::vector<int> got(static_cast<size_t>(cols));
    rt.memcpy_d2h(got.data(), dres[src], uint64_t(cols) * 4);
    std::vector<int> cur(wall.begin(), wall.begin() + cols), next(static_cast<size_t>(cols));
    for (int r = 1; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        int best = cur[size_t(c)];
        if (c > 0) best = std::min(best, cur[size_t(c - 1)]);
        if (c < cols - 1) best = std::min(best, cur[size_t(c + 1)]);
        next[size_t(c)] = best + wall[size_t(r) * cols + c];
      }
      std::swap(cur, next);
    }
    return Verifier().check("cost", got, cur).outcome();  // integers, exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(pathfinder, Pathfinder)

}  // namespace warpsim

#include <algorithm>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kBlock = 256;

class PathfinderPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int64_t cols = size.get_int("cols"), height = size.get_int("pyramid_height");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (cols < 1 || cols > (int64_t(1) << 24)) throw Error("pathfinder_pt: cols must be in 1..2^24");
    if (height < 1 || 2 * height >= kBlock) throw Error("pathfinder_pt: pyramid_height must be in 1..127");
    if (grid < 1 || grid > 65535) throw Error("pathfinder_pt: grid must be in 1..65535");
    if (block != kBlock) throw Error("pathfinder_pt: block must be 256 (the segment width)");
    int rows = int(height) + 1;  // the source row and `height` rows of walls
    std::vector<int> wall = random_ints(rng, size_t(rows) * size_t(cols), 0, 9);
    int small_cols = kBlock - 2 * int(height);
    int segments = int((cols + small_cols - 1) / small_cols);
    DevPtr dwall = rt.malloc(uint64_t(height) * cols * 4);
    DevPtr dsrc = rt.malloc(uint64_t(cols) * 4), dres = rt.malloc(uint64_t(cols) * 4);
    rt.memcpy_h2d(dwall, wall.data() + cols, uint64_t(height) * cols * 4);
    rt.memcpy_h2d(dsrc, wall.data(), uint64_t(cols) * 4);
    KernelArgs args;
    args.add(int(height)).add(dwall).add(dsrc).add(dres).add(int(cols)).add(segments).add(int(height));
    rt.launch(rt.get_kernel(mod, "dynproc_kernel"), {uint32_t(grid), 1, 1}, {kBlock, 1, 1}, args);
    std::vector<int> got(static_cast<size_t>(cols));
    rt.memcpy_d2h(got.data(), dres, uint64_t(cols) * 4);
    std::vector<int> cur(wall.begin(), wall.begin() + cols), next(static_cast<size_t>(cols));
    for (int r = 1; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        int best = cur[size_t(c)];
        if (c > 0) best = std::min(best, cur[size_t(c - 1)]);
        if (c < cols - 1) best = std::min(best, cur[size_t(c + 1)]);
        next[size_t(c)] = best + wall[size_t(r) * size_t(cols) + size_t(c)];
      }
      std::swap(cur, next);
    }
    return Verifier().check("cost", got, cur).outcome();  // integers, exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(pathfinder_pt, PathfinderPt)

}  // namespace warpsim

#include <cmath>
#include <deque>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

struct Node {
  int start;
  int degree;
};

class Bfs final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("nodes"));
    int max_degree = int(size.get_int("max_degree"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (n < 1 || max_degree < 1 || block < 1) throw Error("bfs: nodes, max_degree and block must be positive");
    // Directed random graph with Pareto-distributed out-degrees (shape 1.5, minimum 2, mean
    // about 6, capped at max_degree): most nodes have a handful of edges, a few have many, so
    // the per-thread loop trip counts diverge within a warp. Targets are uniform: scattered loads.
    std::vector<Node> nodes(static_cast<size_t>(n));
    std::vector<int> edges;
    for (int v = 0; v < n; ++v) {
      double u = 1.0 - rng.uniform();  // (0, 1]
      int deg = int(std::min(double(max_degree), 2.0 / std::pow(u, 1.0 / 1.5)));
      nodes[size_t(v)] = {int(edges.size()), deg};
      for (int e = 0; e < deg; ++e) edges.push_back(int(rng.below(uint64_t(n))));
    }
    int ne = int(edges.size());
    std::vector<unsigned char> mask(size_t(n), 0), visited(size_t(n), 0), updating(size_t(n), 0);
    std::vector<int> cost(size_t(n), -1);
    mask[0] = visited[0] = 1;
    cost[0] = 0;
    DevPtr dnodes = rt.malloc(uint64_t(n) * sizeof(Node)), dedges = rt.malloc(uint64_t(ne) * 4);
    DevPtr dmask = rt.malloc(uint64_t(n)), dupd = rt.malloc(uint64_t(n)), dvis = rt.malloc(uint64_t(n));
    DevPtr dcost = rt.malloc(uint64_t(n) * 4), dover = rt.malloc(4);
    rt.memcpy_h2d(dnodes, nodes.data(), uint64_t(n) * sizeof(Node));
    rt.memcpy_h2d(dedges, edges.data(), uint64_t(ne) * 4);
    rt.memcpy_h2d(dmask, mask.data(), uint64_t(n));
    rt.memcpy_h2d(dupd, updating.data(), uint64_t(n));
    rt.memcpy_h2d(dvis, visited.data(), uint64_t(n));
    rt.memcpy_h2d(dcost, cost.data(), uint64_t(n) * 4);
    KernelHandle k1 = rt.get_kernel(m, "bfs_expand"), k2 = rt.get_kernel(m, "bfs_update");
    Dim3 grid{(uint32_t(n) + block - 1) / block, 1, 1};
    KernelArgs a1, a2;
    a1.add(dnodes).add(dedges).add(dmask).add(dupd).add(dvis).add(dcost).add(n);
    a2.add(dmask).add(dupd).add(dvis).add(dover).add(n);
    int levels = 0;
    for (int over = 1; over;) {
      if (++levels > n + 1) throw Error("bfs: level loop did not terminate");
      over = 0;
      rt.memcpy_h2d(dover, &over, 4);
      rt.launch(k1, grid, {block, 1, 1}, a1);
      rt.launch(k2, grid, {block, 1, 1}, a2);
      rt.memcpy_d2h(&over, dover, 4);
    }
    std::vector<int> got(static_cast<size_t>(n)), want(size_t(n), -1);
    rt.memcpy_d2h(got.data(), dcost, uint64_t(n) * 4);
    std::deque<int> queue{0};
    want[0] = 0;
    int depth = 0;
    while (!queue.empty()) {
      int v = queue.front();
      queue.pop_front();
      depth = std::max(depth, want[size_t(v)]);
      const Node& nd = nodes[size_t(v)];
      for (int e = nd.start; e < nd.start + nd.degree; ++e) {
        int w = edges[size_t(e)];
        if (want[size_t(w)] < 0) {
          want[size_t(w)] = want[size_t(v)] + 1;
          queue.push_back(w);
        }
      }
    }
    // The device loop runs one extra level that finds nothing new.
    return Verifier()
        .check("cost", got, want)
        .expect(levels == depth + 1, fmt::format("bfs: {} levels launched, expected {}", levels, depth + 1))
        .outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(bfs, Bfs)

}  // namespace warpsim

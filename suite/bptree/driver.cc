#include <algorithm>
#include <climits>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kOrder = 128;  // ORDER in kernel.cu

struct Node {
  int keys[kOrder];
  int children[kOrder];
  int num_keys;
  int is_leaf;
};

class BpTree final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int nrecords = int(size.get_int("records"));
    int nqueries = int(size.get_int("queries"));
    if (nrecords < 1 || nqueries < 1) throw Error("bptree: records and queries must be positive");
    // Sorted distinct keys with random gaps; each key's record is a random value.
    std::vector<int> keys(static_cast<size_t>(nrecords)), records = random_ints(rng, size_t(nrecords), 0, 1 << 30);
    int key = 0;
    for (auto& k : keys) k = key += 1 + int(rng.below(4));
    // Leaves filled between half and fully, then internal levels bottom-up until one root. The
    // first key of an internal node is INT_MIN: the parent already bounds the node's range.
    std::vector<Node> nodes;
    std::vector<int> level, level_min;  // node indices of the current level and their least keys
    for (int i = 0; i < nrecords;) {
      int fill = std::min(nrecords - i, kOrder / 2 + int(rng.below(kOrder / 2 + 1)));
      Node n{};
      n.num_keys = fill;
      n.is_leaf = 1;
      for (int t = 0; t < fill; ++t) {
        n.keys[t] = keys[size_t(i + t)];
        n.children[t] = i + t;
      }
      level.push_back(int(nodes.size()));
      level_min.push_back(keys[size_t(i)]);
      nodes.push_back(n);
      i += fill;
    }
    int height = 0;
    while (level.size() > 1) {
      std::vector<int> up, up_min;
      for (size_t i = 0; i < level.size();) {
        int fill = int(std::min(level.size() - i, size_t(kOrder / 2 + int(rng.below(kOrder / 2 + 1)))));
        Node n{};
        n.num_keys = fill;
        for (int t = 0; t < fill; ++t) {
          n.keys[t] = t == 0 ? INT_MIN : level_min[i + size_t(t)];
          n.children[t] = level[i + size_t(t)];
        }
        up.push_back(int(nodes.size()));
        up_min.push_back(level_min[i]);
        nodes.push_back(n);
        i += size_t(fill);
      }
      level.swap(up);
      level_min.swap(up_min);
      ++height;
    }
    int root = level[0];
    // Four in five queries hit a stored key; the rest are uniform over the key range.
    std::vector<int> queries(static_cast<size_t>(nqueries));
    for (auto& q : queries)
      q = rng.below(5) != 0 ? keys[size_t(rng.below(uint64_t(nrecords)))] : int(rng.below(uint64_t(key) + 2));
    DevPtr dnodes = rt.malloc(nodes.size() * sizeof(Node)), drec = rt.malloc(uint64_t(nrecords) * 4);
    DevPtr dq = rt.malloc(uint64_t(nqueries) * 4), dans = rt.malloc(uint64_t(nqueries) * 4);
    rt.memcpy_h2d(dnodes, nodes.data(), nodes.size() * sizeof(Node));
    rt.memcpy_h2d(drec, records.data(), uint64_t(nrecords) * 4);
    rt.memcpy_h2d(dq, queries.data(), uint64_t(nqueries) * 4);
    KernelArgs args;
    args.add(dnodes).add(root).add(drec).add(dq).add(dans).add(height);
    rt.launch(rt.get_kernel(m, "find_k"), {uint32_t(nqueries), 1, 1}, {uint32_t(kOrder), 1, 1}, args);
    std::vector<int> got(static_cast<size_t>(nqueries)), want(static_cast<size_t>(nqueries));
    rt.memcpy_d2h(got.data(), dans, uint64_t(nqueries) * 4);
    for (size_t i = 0; i < queries.size(); ++i) {
      auto it = std::lower_bound(keys.begin(), keys.end(), queries[i]);
      want[i] = it != keys.end() && *it == queries[i] ? records[size_t(it - keys.begin())] : -1;
    }
    return Verifier().check("answers", got, want).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(bptree, BpTree)

}  // namespace warpsim

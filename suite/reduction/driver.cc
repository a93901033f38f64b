#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Reduction final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int64_t n64 = size.get_int("n");
    if (n64 <= 0 || n64 > (int64_t(1) << 28)) throw Error("reduction: n must be in 1..2^28");
    uint32_t n = uint32_t(n64);
    std::vector<int> data = random_ints(rng, n, -1000, 1000);
    const uint32_t block = 256, per_block = 2 * block;
    DevPtr a = rt.malloc(uint64_t(n) * 4), b = rt.malloc(uint64_t((n + per_block - 1) / per_block) * 4);
    rt.memcpy_h2d(a, data.data(), uint64_t(n) * 4);
    KernelHandle k = rt.get_kernel(mod, "reduce_sum");
    std::vector<uint32_t> pass_sizes;
    // Each pass turns n values into ceil(n / 512) partial sums, until one is left.
    for (uint32_t left = n; ; ) {
      uint32_t blocks = (left + per_block - 1) / per_block;
      KernelArgs args;
      args.add(a).add(b).add(left);
      rt.launch(k, {blocks, 1, 1}, {block, 1, 1}, args);
      pass_sizes.push_back(blocks);
      std::swap(a, b);
      left = blocks;
      if (left == 1) break;
    }
    int got = 0;
    rt.memcpy_d2h(&got, a, 4);
    int64_t want = 0;
    for (int v : data) want += v;
    // Integer sums are exact.
    return Verifier()
        .check("sum", std::vector<int64_t>{got}, std::vector<int64_t>{want})
        .outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(reduction, Reduction)

}  // namespace warpsim

#include <cmath>

#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class PersistentCompute final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("n")), rounds = int(size.get_int("rounds"));
    uint32_t block = uint32_t(size.get_int("block")), grid = uint32_t(size.get_int("grid"));
    std::vector<uint32_t> in(n);
    for (auto& v : in) v = uint32_t(rng.next()) | 1u;
    DevPtr din = rt.malloc(uint64_t(n) * 4), dout = rt.malloc(uint64_t(n) * 4);
    rt.memcpy_h2d(din, in.data(), uint64_t(n) * 4);
    KernelArgs args;
    args.add(din).add(dout).add(n).add(rounds);
    rt.launch(rt.get_kernel(m, "pc_kernel"), {grid, 1, 1}, {block, 1, 1}, args);
    std::vector<float> out(n), want(n);
    rt.memcpy_d2h(out.data(), dout, uint64_t(n) * 4);
    for (int i = 0; i < n; ++i) {
      uint32_t h = in[i];
      float acc = 0;
      for (int r = 0; r < rounds; ++r) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        acc = std::fma(acc, 0.5f, float(h & 0xffffu) * (1.0f / 65536.0f));
      }
      want[i] = acc + float(h >> 24);
    }
    return Verifier().check("out", out, want).outcome();  // same roundings: exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(pc, PersistentCompute)

}  // namespace warpsim

#include <cmath>

#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class FmaChain final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("n")), iters = int(size.get_int("iters"));
    uint32_t block = uint32_t(size.get_int("block"));
    std::vector<float> in = random_floats(rng, n, -2, 2);
    DevPtr din = rt.malloc(uint64_t(n) * 4), dout = rt.malloc(uint64_t(n) * 4);
    rt.memcpy_h2d(din, in.data(), uint64_t(n) * 4);
    KernelArgs args;
    args.add(din).add(dout).add(n).add(iters);
    rt.launch(rt.get_kernel(m, "fma_chain"), {(uint32_t(n) + block - 1) / block, 1, 1}, {block, 1, 1}, args);
    std::vector<float> out(n), want(n);
    rt.memcpy_d2h(out.data(), dout, uint64_t(n) * 4);
    for (int i = 0; i < n; ++i) {
      float x = in[i], a = x, b = x + 1.0f, c = x - 1.0f, d = 0.5f * x;
      for (int k = 0; k < iters; ++k) {
        a = std::fma(a, 0.999f, 0.001f);
        b = std::fma(b, 0.998f, 0.002f);
        c = std::fma(c, 0.997f, 0.003f);
        d = std::fma(d, 0.996f, 0.004f);
      }
      want[i] = (a + b) + (c + d);
    }
    return Verifier().check("out", out, want).outcome();  // same fused roundings: exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(fma_chain, FmaChain)

}  // namespace warpsim

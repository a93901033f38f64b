#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class MonteCarlo final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("options")), paths = int(size.get_int("paths"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (block == 0 || (block & (block - 1)) != 0) throw Error("montecarlo: block must be a power of two");
    const float riskfree = 0.06f, volatility = 0.10f;
    const uint32_t seed = uint32_t(rng.next());
    std::vector<float> s = random_floats(rng, n, 5, 50), x = random_floats(rng, n, 10, 25),
                       t = random_floats(rng, n, 1, 5);
    uint64_t bytes = uint64_t(n) * 4;
    DevPtr dres = rt.malloc(bytes), ds = rt.malloc(bytes), dx = rt.malloc(bytes), dt = rt.malloc(bytes);
    rt.memcpy_h2d(ds, s.data(), bytes);
    rt.memcpy_h2d(dx, x.data(), bytes);
    rt.memcpy_h2d(dt, t.data(), bytes);
    KernelArgs args;
    args.add(dres).add(ds).add(dx).add(dt).add(riskfree).add(volatility).add(paths).add(seed);
    rt.launch(rt.get_kernel(m, "monte_carlo"), {uint32_t(n), 1, 1}, {block, 1, 1}, args, block * 4);
    std::vector<float> res(n), want(n);
    rt.memcpy_d2h(res.data(), dres, bytes);
    // The same generator streams, paths and summation order as the kernel, in single precision.
    std::vector<float> partial(block);
    for (int o = 0; o < n; ++o) {
      float drift = (riskfree - 0.5f * volatility * volatility) * t[o];
      float vsqrt_t = volatility * std::sqrt(t[o]);
      for (uint32_t tid = 0; tid < block; ++tid) {
        uint32_t state = seed ^ (uint32_t(o) * 0x9e3779b9u) ^ (tid * 0x85ebca6bu);
        auto lcg = [&] { return state = state * 1664525u + 1013904223u; };
        float sum = 0;
        for (int p = int(tid) * 2; p < paths; p += int(block) * 2) {
          float u1 = float((lcg() >> 8) + 1) * (1.0f / 16777216.0f);
          float u2 = float(lcg() >> 8) * (1.0f / 16777216.0f);
          float radius = std::sqrt(-2.0f * std::log(u1)), angle = 6.28318530718f * u2;
          float z0 = radius * std::cos(angle), z1 = radius * std::sin(angle);
          sum += std::max(s[o] * std::exp(drift + vsqrt_t * z0) - x[o], 0.0f);
          sum += std::max(s[o] * std::exp(drift + vsqrt_t * z1) - x[o], 0.0f);
        }
        partial[tid] = sum;
      }
      for (uint32_t half = block / 2; half > 0; half /= 2)
        for (uint32_t i = 0; i < half; ++i) partial[i] += partial[i + half];
      want[o] = std::exp(-riskfree * t[o]) * partial[0] / float(paths);
    }
    // Same samples; only the fast sine/cosine/log/exp approximations differ in the last bits:
    // 1e-3 relative plus 1e-3 absolute.
    return Verifier().check("price", res, want, 1e-3, 1e-3).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(montecarlo, MonteCarlo)

}  // namespace warpsim

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class Binomial final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("options")), steps = int(size.get_int("steps"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (steps < 1 || steps > 1024) throw Error("binomial: steps must be in 1..1024");
    const float riskfree = 0.06f, volatility = 0.10f;
    std::vector<float> s = random_floats(rng, n, 5, 30), x = random_floats(rng, n, 1, 100),
                       t = random_floats(rng, n, 0.25f, 10);
    uint64_t bytes = uint64_t(n) * 4;
    DevPtr dres = rt.malloc(bytes), ds = rt.malloc(bytes), dx = rt.malloc(bytes), dt = rt.malloc(bytes);
    rt.memcpy_h2d(ds, s.data(), bytes);
    rt.memcpy_h2d(dx, x.data(), bytes);
    rt.memcpy_h2d(dt, t.data(), bytes);
    KernelArgs args;
    args.add(dres).add(ds).add(dx).add(dt).add(riskfree).add(volatility).add(steps);
    rt.launch(rt.get_kernel(m, "binomial_options"), {uint32_t(n), 1, 1}, {block, 1, 1}, args);
    std::vector<float> res(n), want(n);
    rt.memcpy_d2h(res.data(), dres, bytes);
    std::vector<double> v(steps + 1);
    for (int o = 0; o < n; ++o) {
      double dt_ = double(t[o]) / steps, vdt = volatility * std::sqrt(dt_);
      double r = std::exp(riskfree * dt_), u = std::exp(vdt), d = 1 / u;
      double pu = (r - d) / (u - d), pd = 1 - pu;
      for (int j = 0; j <= steps; ++j)
        v[j] = std::max(double(s[o]) * std::exp(vdt * (2.0 * j - steps)) - double(x[o]), 0.0);
      for (int level = steps; level > 0; --level)
        for (int j = 0; j < level; ++j) v[j] = (pu * v[j + 1] + pd * v[j]) / r;
      want[o] = float(v[0]);
    }
    // Single-precision tree against a double-precision one: the error grows with the number of
    // levels; 2e-3 relative plus 2e-3 absolute covers 1024 steps.
    return Verifier().check("price", res, want, 2e-3, 2e-3).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(binomial, Binomial)

}  // namespace warpsim

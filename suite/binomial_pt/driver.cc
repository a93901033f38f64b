#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class BinomialPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int64_t n = size.get_int("options"), steps = size.get_int("steps");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (n < 1 || n > (int64_t(1) << 24)) throw Error("binomial_pt: options must be in 1..2^24");
    if (steps < 1 || steps > 256) throw Error("binomial_pt: steps must be in 1..256");
    if (grid < 1 || grid > 65535 || block < 32 || block > 1024 || block % 32)
      throw Error("binomial_pt: grid must be in 1..65535 and block a multiple of 32 up to 1024");
    const float riskfree = 0.06f, volatility = 0.10f;
    size_t count = size_t(n);
    std::vector<float> s = random_floats(rng, count, 5, 30), x = random_floats(rng, count, 1, 100),
                       t = random_floats(rng, count, 0.25f, 10);
    uint64_t bytes = uint64_t(n) * 4;
    DevPtr dres = rt.malloc(bytes), ds = rt.malloc(bytes), dx = rt.malloc(bytes), dt = rt.malloc(bytes);
    rt.memcpy_h2d(ds, s.data(), bytes);
    rt.memcpy_h2d(dx, x.data(), bytes);
    rt.memcpy_h2d(dt, t.data(), bytes);
    KernelArgs args;
    args.add(dres).add(ds).add(dx).add(dt).add(riskfree).add(volatility).add(int(steps)).add(int(n));
    rt.launch(rt.get_kernel(m, "binomial_options"), {uint32_t(grid), 1, 1}, {uint32_t(block), 1, 1}, args);
    std::vector<float> res(count), want(count);
    rt.memcpy_d2h(res.data(), dres, bytes);
    std::vector<double> v(size_t(steps) + 1);
    for (size_t o = 0; o < count; ++o) {
      double dt_ = double(t[o]) / double(steps), vdt = volatility * std::sqrt(dt_);
      double r = std::exp(riskfree * dt_), u = std::exp(vdt), d = 1 / u;
      double pu = (r - d) / (u - d), pd = 1 - pu;
      for (int64_t j = 0; j <= steps; ++j)
        v[size_t(j)] = std::max(double(s[o]) * std::exp(vdt * (2.0 * double(j) - double(steps))) - double(x[o]), 0.0);
      for (int64_t level = steps; level > 0; --level)
        for (int64_t j = 0; j < level; ++j) v[size_t(j)] = (pu * v[size_t(j) + 1] + pd * v[size_t(j)]) / r;
      want[o] = float(v[0]);
    }
    // Single-precision tree against a double-precision one: 2e-3 relative plus absolute covers
    // the rounding of up to 256 levels.
    return Verifier().check("price", res, want, 2e-3, 2e-3).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(binomial_pt, BinomialPt)

}  // namespace warpsim

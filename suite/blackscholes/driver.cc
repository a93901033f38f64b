#include <cmath>

#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

double cnd(double d) {
  return 0.5 * std::erfc(-d / std::sqrt(2.0));
}

class BlackScholes final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("options"));
    uint32_t block = uint32_t(size.get_int("block")), grid = uint32_t(size.get_int("grid"));
    const float riskfree = 0.02f, volatility = 0.30f;
    std::vector<float> s = random_floats(rng, n, 5, 30), x = random_floats(rng, n, 1, 100),
                       t = random_floats(rng, n, 0.25f, 10);
    uint64_t bytes = uint64_t(n) * 4;
    DevPtr dcall = rt.malloc(bytes), dput = rt.malloc(bytes), ds = rt.malloc(bytes),
           dx = rt.malloc(bytes), dt = rt.malloc(bytes);
    rt.memcpy_h2d(ds, s.data(), bytes);
    rt.memcpy_h2d(dx, x.data(), bytes);
    rt.memcpy_h2d(dt, t.data(), bytes);
    KernelArgs args;
    args.add(dcall).add(dput).add(ds).add(dx).add(dt).add(riskfree).add(volatility).add(n);
    rt.launch(rt.get_kernel(m, "black_scholes"), {grid, 1, 1}, {block, 1, 1}, args);
    std::vector<float> call(n), put(n), want_call(n), want_put(n);
    rt.memcpy_d2h(call.data(), dcall, bytes);
    rt.memcpy_d2h(put.data(), dput, bytes);
    for (int i = 0; i < n; ++i) {
      double S = s[i], X = x[i], T = t[i], R = riskfree, V = volatility;
      double sqrt_t = std::sqrt(T);
      double d1 = (std::log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrt_t), d2 = d1 - V * sqrt_t;
      double exp_rt = std::exp(-R * T);
      want_call[i] = float(S * cnd(d1) - X * exp_rt * cnd(d2));
      want_put[i] = float(X * exp_rt * cnd(-d2) - S * cnd(-d1));
    }
    // The kernel's polynomial CND is accurate to ~1e-7 absolute; single precision on prices up
    // to 100 leaves a few 1e-5; allow 1e-4 relative plus 2e-4 absolute.
    return Verifier()
        .check("call", call, want_call, 1e-4, 2e-4)
        .check("put", put, want_put, 1e-4, 2e-4)
        .outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(blackscholes, BlackScholes)

}  // namespace warpsim

#include <cmath>

#include <fmt/format.h>

#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class NBody final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("bodies"));
    uint32_t block = uint32_t(size.get_int("block"));
    const float softening2 = 0.01f;
    std::vector<float> body(size_t(n) * 4);
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) body[4 * i + c] = float(rng.uniform()) * 20.0f - 10.0f;
      body[4 * i + 3] = 0.5f + float(rng.uniform());
    }
    uint64_t bytes = uint64_t(n) * 16;
    DevPtr dbody = rt.malloc(bytes), dacc = rt.malloc(bytes);
    rt.memcpy_h2d(dbody, body.data(), bytes);
    KernelArgs args;
    args.add(dacc).add(dbody).add(n).add(softening2);
    rt.launch(rt.get_kernel(m, "nbody_accel"), {(uint32_t(n) + block - 1) / block, 1, 1}, {block, 1, 1},
              args, block * 16);
    std::vector<float> acc(size_t(n) * 4);
    rt.memcpy_d2h(acc.data(), dacc, bytes);
    // Double-precision reference; forces of all directions cancel, so the tolerance is 1e-5 of
    // the sum of the force magnitudes on the body, per component.
    Verifier v;
    int bad = 0;
    for (int i = 0; i < n && bad < 5; ++i) {
      double a[3] = {0, 0, 0}, mag = 0;
      for (int j = 0; j < n; ++j) {
        double d[3], d2 = softening2;
        for (int c = 0; c < 3; ++c) {
          d[c] = double(body[4 * j + c]) - body[4 * i + c];
          d2 += d[c] * d[c];
        }
        double f = body[4 * j + 3] / (d2 * std::sqrt(d2));
        for (int c = 0; c < 3; ++c) a[c] += d[c] * f;
        mag += f * std::sqrt(d2);
      }
      for (int c = 0; c < 3; ++c)
        if (std::fabs(acc[4 * i + c] - a[c]) > 1e-5 * mag + 1e-6) {
          ++bad;
          v.expect(false, fmt::format("accel[{}].{} = {}, expected {}", i, "xyz"[c], acc[4 * i + c], a[c]));
        }
    }
    return v.outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(nbody, NBody)

}  // namespace warpsim

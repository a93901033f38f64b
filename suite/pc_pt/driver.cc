#include <cmath>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class PersistentComputePt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int64_t n = size.get_int("n"), rounds = size.get_int("rounds");
    int64_t grid = size.get_int("grid"), block = size.get_int("block");
    if (n < 1 || n > (int64_t(1) << 26) || rounds < 0 || rounds > 100000)
      throw Error("pc_pt: n must be in 1..2^26 and rounds in 0..100000");
    if (grid < 1 || grid > 65535 || block < 32 || block > 1024 || block % 32)
      throw Error("pc_pt: grid must be in 1..65535 and block a multiple of 32 up to 1024");
    std::vector<uint32_t> in(static_cast<size_t>(n));
    for (auto& v : in) v = uint32_t(rng.next()) | 1u;
    DevPtr din = rt.malloc(uint64_t(n) * 4), dout = rt.malloc(uint64_t(n) * 4);
    rt.memcpy_h2d(din, in.data(), uint64_t(n) * 4);
    KernelArgs args;
    args.add(din).add(dout).add(int(n)).add(int(rounds));
    rt.launch(rt.get_kernel(m, "pc_kernel"), {uint32_t(grid), 1, 1}, {uint32_t(block), 1, 1}, args);
    std::vector<float> out(static_cast<size_t>(n)), want(static_cast<size_t>(n));
    rt.memcpy_d2h(out.data(), dout, uint64_t(n) * 4);
    for (size_t i = 0; i < in.size(); ++i) {
      uint32_t h = in[i];
      float acc = 0;
      for (int64_t r = 0; r < rounds; ++r) {
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

WARPSIM_WORKLOAD(pc_pt, PersistentComputePt)

}  // namespace warpsim

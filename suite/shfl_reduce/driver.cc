#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

class ShflReduce final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int n = int(size.get_int("n"));
    uint32_t block = uint32_t(size.get_int("block")), grid = uint32_t(size.get_int("grid"));
    if (block % 32 != 0 || block > 1024 || block == 0) throw Error("shfl_reduce: block must be a multiple of 32 up to 1024");
    std::vector<uint32_t> in(n);
    for (auto& v : in) v = uint32_t(rng.next());
    DevPtr din = rt.malloc(uint64_t(n) * 4), dsums = rt.malloc(uint64_t(grid) * 4);
    rt.memcpy_h2d(din, in.data(), uint64_t(n) * 4);
    KernelArgs args;
    args.add(dsums).add(din).add(n);
    rt.launch(rt.get_kernel(m, "shfl_reduce"), {grid, 1, 1}, {block, 1, 1}, args);
    std::vector<uint32_t> sums(grid), want(grid, 0);
    rt.memcpy_d2h(sums.data(), dsums, uint64_t(grid) * 4);
    uint64_t stride = uint64_t(block) * grid;
    for (uint32_t b = 0; b < grid; ++b)
      for (uint32_t t = 0; t < block; ++t)
        for (uint64_t i = uint64_t(b) * block + t; i < uint64_t(n); i += stride) want[b] += in[i];
    return Verifier().check("block_sums", sums, want).outcome();  // modulo 2^32: exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(shfl_reduce, ShflReduce)

}  // namespace warpsim

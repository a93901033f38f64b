#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kElems = 512;  // elements scanned per block

class Scan final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle mod, const SizeParams& size, Rng& rng) override {
    int64_t n64 = size.get_int("n");
    if (n64 <= 0 || n64 > (int64_t(1) << 28)) throw Error("scan: n must be in 1..2^28");
    int n = int(n64);
    std::vector<int> data = random_ints(rng, size_t(n), 0, 9);
    DevPtr in = rt.malloc(uint64_t(n) * 4), out = rt.malloc(uint64_t(n) * 4);
    rt.memcpy_h2d(in, data.data(), uint64_t(n) * 4);
    scan_level(rt, mod, in, out, n);
    std::vector<int> got(static_cast<size_t>(n)), want(static_cast<size_t>(n));
    rt.memcpy_d2h(got.data(), out, uint64_t(n) * 4);
    int run = 0;
    for (int i = 0; i < n; ++i) {
      want[size_t(i)] = run;
      run += data[size_t(i)];
    }
    return Verifier().check("out", got, want).outcome();  // integers, exact
  }

 private:
  // Exclusive scan of n values: per-block scans with block totals, the totals scanned the same
  // way (recursively while they span several blocks), then the offsets added.
  void scan_level(Device& rt, ModuleHandle mod, DevPtr in, DevPtr out, int n) {
    uint32_t blocks = uint32_t((n + kElems - 1) / kElems);
    DevPtr sums = blocks > 1 ? rt.malloc(uint64_t(blocks) * 4) : 0;
    KernelArgs args;
    args.add(in).add(out).add(sums).add(n);
    rt.launch(rt.get_kernel(mod, "scan_blocks"), {blocks, 1, 1}, {kElems / 2, 1, 1}, args);
    if (blocks == 1) return;
    DevPtr offsets = rt.malloc(uint64_t(blocks) * 4);
    scan_level(rt, mod, sums, offsets, int(blocks));
    KernelArgs add;
    add.add(out).add(offsets).add(n);
    rt.launch(rt.get_kernel(mod, "add_offsets"), {blocks, 1, 1}, {kElems / 2, 1, 1}, add);
  }
};

}  // namespace

WARPSIM_WORKLOAD(scan, Scan)

}  // namespace warpsim

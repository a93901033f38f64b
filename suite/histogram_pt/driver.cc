#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr uint32_t kBins = 256;

class HistogramPt final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int64_t words = size.get_int("words"), grid = size.get_int("grid"), block = size.get_int("block");
    if (words < 1 || words > (int64_t(1) << 28)) throw Error("histogram_pt: words must be in 1..2^28");
    if (grid < 1 || grid > 65535) throw Error("histogram_pt: grid must be in 1..65535");
    if (block != 256) throw Error("histogram_pt: block must be 256 (eight warps, one sub-histogram each)");
    // Bytes with a bell-shaped distribution (mean of two uniforms): central bins are hot, so
    // warps contend on the same shared-memory counters.
    std::vector<uint32_t> data(static_cast<size_t>(words));
    for (auto& w : data) {
      w = 0;
      for (int b = 0; b < 4; ++b) w |= uint32_t((rng.below(256) + rng.below(256)) / 2) << (8 * b);
    }
    DevPtr ddata = rt.malloc(uint64_t(words) * 4), dhist = rt.malloc(kBins * 4);
    rt.memcpy_h2d(ddata, data.data(), uint64_t(words) * 4);
    rt.memset(dhist, 0, kBins * 4);
    KernelArgs args;
    args.add(dhist).add(ddata).add(int(words));
    rt.launch(rt.get_kernel(m, "histogram256"), {uint32_t(grid), 1, 1}, {uint32_t(block), 1, 1}, args);
    std::vector<uint32_t> got(kBins), want(kBins, 0);
    rt.memcpy_d2h(got.data(), dhist, kBins * 4);
    for (uint32_t w : data)
      for (int b = 0; b < 4; ++b) ++want[(w >> (8 * b)) & 0xff];
    return Verifier().check("histogram", got, want).outcome();  // integer counts, exact
  }
};

}  // namespace

WARPSIM_WORKLOAD(histogram_pt, HistogramPt)

}  // namespace warpsim

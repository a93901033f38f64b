#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr uint32_t kBins = 256, kBlock = 192, kMergeThreads = 256;  // as in kernel.cu

class Histogram final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int words = int(size.get_int("words"));
    int partials = int(size.get_int("partials"));
    if (words < 1 || partials < 1) throw Error("histogram: words and partials must be positive");
    // Bytes with a bell-shaped distribution (mean of two uniforms), like image intensities:
    // central bins are hot, so warps contend on the same shared-memory counters.
    std::vector<uint32_t> data(static_cast<size_t>(words));
    for (auto& w : data) {
      w = 0;
      for (int b = 0; b < 4; ++b) w |= uint32_t((rng.below(256) + rng.below(256)) / 2) << (8 * b);
    }
    DevPtr ddata = rt.malloc(uint64_t(words) * 4), dpart = rt.malloc(uint64_t(partials) * kBins * 4);
    DevPtr dhist = rt.malloc(kBins * 4);
    rt.memcpy_h2d(ddata, data.data(), uint64_t(words) * 4);
    KernelArgs a1, a2;
    a1.add(dpart).add(ddata).add(words);
    a2.add(dhist).add(dpart).add(partials);
    rt.launch(rt.get_kernel(m, "histogram256"), {uint32_t(partials), 1, 1}, {kBlock, 1, 1}, a1);
    rt.launch(rt.get_kernel(m, "merge_histogram256"), {kBins, 1, 1}, {kMergeThreads, 1, 1}, a2);
    std::vector<uint32_t> got(kBins), want(kBins, 0);
    rt.memcpy_d2h(got.data(), dhist, kBins * 4);
    for (uint32_t w : data)
      for (int b = 0; b < 4; ++b) ++want[(w >> (8 * b)) & 0xff];
    return Verifier().check("histogram", got, want).outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(histogram, Histogram)

}  // namespace warpsim

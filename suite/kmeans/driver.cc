#include <algorithm>

#include "core/error.h"
#include "workloads/driver.h"
#include "workloads/verify.h"

namespace warpsim {
namespace {

constexpr int kMaxClusters = 16, kMaxFeatures = 32;  // as in kernel.cu

class Kmeans final : public BundledWorkload {
 public:
  using BundledWorkload::BundledWorkload;

 protected:
  WorkloadOutcome execute(Device& rt, ModuleHandle m, const SizeParams& size, Rng& rng) override {
    int npoints = int(size.get_int("points"));
    int nclusters = int(size.get_int("clusters"));
    int nfeatures = int(size.get_int("features"));
    int iterations = int(size.get_int("iterations"));
    uint32_t block = uint32_t(size.get_int("block"));
    if (nclusters < 1 || nclusters > kMaxClusters || nfeatures < 1 || nfeatures > kMaxFeatures ||
        npoints < nclusters || iterations < 1 || size.get_int("block") < 1)
      throw Error("kmeans: clusters must be in 1..16, features in 1..32, points >= clusters, iterations >= 1");
    size_t np = size_t(npoints), nf = size_t(nfeatures), nc = size_t(nclusters);
    // Points scattered around nclusters hidden centres (sum of two uniforms per feature).
    std::vector<float> centres = random_floats(rng, nc * nf, 0, 1), points(np * nf);
    for (size_t p = 0; p < np; ++p) {
      size_t c = size_t(rng.below(nc));
      for (size_t f = 0; f < nf; ++f)
        points[p * nf + f] = centres[c * nf + f] + 0.1f * (float(rng.uniform()) + float(rng.uniform()) - 1.0f);
    }
    DevPtr din = rt.malloc(np * nf * 4), dfeat = rt.malloc(np * nf * 4), dmember = rt.malloc(np * 4);
    rt.memcpy_h2d(din, points.data(), np * nf * 4);
    Dim3 grid{(uint32_t(npoints) + block - 1) / block, 1, 1};
    KernelArgs ai, aa;
    ai.add(din).add(dfeat).add(npoints).add(nfeatures);
    aa.add(dfeat).add(dmember).add(npoints).add(nclusters).add(nfeatures);
    rt.launch(rt.get_kernel(m, "invert_mapping"), grid, {block, 1, 1}, ai);
    std::vector<float> flipped(np * nf), want_flipped(np * nf);
    rt.memcpy_d2h(flipped.data(), dfeat, np * nf * 4);
    for (size_t p = 0; p < np; ++p)
      for (size_t f = 0; f < nf; ++f) want_flipped[f * np + p] = points[p * nf + f];
    Verifier v;
    v.check("features", flipped, want_flipped);
    // Initial centres: the first nclusters points (Rodinia starts from input points too).
    std::vector<float> clusters(points.begin(), points.begin() + long(nc * nf));
    KernelHandle assign = rt.get_kernel(m, "kmeans_assign");
    std::vector<int> member(np);
    for (int it = 0; it < iterations; ++it) {
      rt.memcpy_to_symbol(m, "c_clusters", clusters.data(), nc * nf * 4);
      rt.launch(assign, grid, {block, 1, 1}, aa);
      rt.memcpy_d2h(member.data(), dmember, np * 4);
      // Accept the device's choice when its distance is the minimum up to float rounding
      // (relative 1e-5 + absolute 1e-6); exact ties may go either way.
      int bad = 0;
      for (size_t p = 0; p < np && bad < 5; ++p) {
        double best = 1e300, chosen = -1;
        for (size_t c = 0; c < nc; ++c) {
          double d = 0;
          for (size_t f = 0; f < nf; ++f) {
            double t = double(points[p * nf + f]) - clusters[c * nf + f];
            d += t * t;
          }
          best = std::min(best, d);
          if (int(c) == member[p]) chosen = d;
        }
        if (chosen < 0 || chosen > best * (1 + 1e-5) + 1e-6) {
          ++bad;
          v.expect(false, fmt::format("iteration {}: point {} assigned to {} (distance {}, best {})", it, p,
                                      member[p], chosen, best));
        }
      }
      // New centres from the device's membership, on the host as in Rodinia.
      std::vector<double> sum(nc * nf, 0.0);
      std::vector<int> count(nc, 0);
      for (size_t p = 0; p < np; ++p) {
        size_t c = size_t(std::clamp(member[p], 0, nclusters - 1));
        ++count[c];
        for (size_t f = 0; f < nf; ++f) sum[c * nf + f] += points[p * nf + f];
      }
      for (size_t c = 0; c < nc; ++c)
        if (count[c] > 0)
          for (size_t f = 0; f < nf; ++f) clusters[c * nf + f] = float(sum[c * nf + f] / count[c]);
    }
    return v.outcome();
  }
};

}  // namespace

WARPSIM_WORKLOAD(kmeans, Kmeans)

}  // namespace warpsim

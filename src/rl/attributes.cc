#include "rl/attributes.h"

#include <algorithm>
#include <cctype>

namespace warpsim::rl {

namespace {
using S = Spacing;
// Ranges from Table II; spacing chosen per attribute (docs/rlws.md explains the choice).
constexpr AttrInfo kInfo[kNumAttrs] = {
    {"ATBWB", "any CTA with some but not all warps at a barrier", S::Boolean, 1},
    {"ATBWF", "any CTA with warps finished", S::Boolean, 1},
    {"TBW", "CTAs waiting to be assigned to SMs", S::Boolean, 1},
    {"RLMI", "any warp with a ready long-latency memory instruction", S::Boolean, 1},
    {"RGMI", "any warp with a ready global memory instruction", S::Boolean, 1},
    {"RSTCMI", "any warp with a ready shared/texture/constant memory instruction", S::Boolean, 1},
    {"RSFI", "any warp with a ready SFU instruction", S::Boolean, 1},
    {"RSPI", "any warp with a ready SP instruction", S::Boolean, 1},
    {"NTF", "no CTA finished yet", S::Boolean, 1},
    {"NIW", "warps with an empty instruction buffer", S::Increasing, 0},
    {"NSW", "diverged warps", S::Increasing, 0},
    {"NFSFI", "warps whose next instruction is SFU", S::Increasing, 0},
    {"NFMI", "warps whose next instruction is a memory instruction", S::Increasing, 0},
    {"NRSPI", "warps with a ready SP instruction", S::Increasing, 0},
    {"NRGMI", "warps with a ready global memory instruction", S::Increasing, 0},
    {"NRSTCMI", "warps with a ready shared/texture/constant memory instruction", S::Increasing, 0},
    {"NRSFI", "warps with a ready SFU instruction", S::Increasing, 0},
    {"NWI", "warps waiting for operands", S::Increasing, 0},
    {"NPS", "warps stalled on a busy pipeline", S::Increasing, 0},
    {"NMPS", "warps stalled on the busy MEM pipeline", S::Increasing, 0},
    {"NSFPS", "warps stalled on the busy SFU pipeline", S::Increasing, 0},
    {"NSPPS", "warps stalled on the busy SP pipeline", S::Increasing, 0},
    {"NAIPMI", "ALU instructions issued per memory instruction", S::Increasing, 24},
    {"NRI", "warps with a ready instruction", S::Increasing, 0},
    {"NWS", "schedulable warps", S::Increasing, 0},
    {"NRAI", "warps with a ready ALU (SP or SFU) instruction", S::Increasing, 0},
    {"STBRMI", "ready memory warps of the CTA of the last memory instruction", S::Increasing, 0},
    {"SMNMIE", "memory instructions executing on the SM", S::Increasing, 40},
    {"ICMP", "instruction cache miss percentage", S::Decreasing, 100},
    {"L1MP", "L1D miss percentage", S::Decreasing, 100},
    {"L2MP", "L2 miss percentage", S::Decreasing, 100},
    {"NIPL1M", "instructions issued per L1D miss", S::Increasing, 100},
    {"AGML", "average global memory latency, cycles", S::Increasing, 800},
    {"GNMIE", "memory instructions executing on the GPU", S::Increasing, -1},
};
}  // namespace

const AttrInfo& attr_info(Attr a) { return kInfo[int(a)]; }

bool attr_by_name(std::string_view name, Attr* out) {
  for (int i = 0; i < kNumAttrs; ++i) {
    std::string_view n = kInfo[i].name;
    if (n.size() != name.size()) continue;
    bool eq = true;
    for (size_t k = 0; k < n.size() && eq; ++k) eq = std::toupper(static_cast<unsigned char>(name[k])) == n[k];
    if (eq) {
      *out = Attr(i);
      return true;
    }
  }
  return false;
}

uint32_t bucketize(double value, double range, uint32_t buckets, Spacing spacing) {
  return Bucketizer(range, buckets, spacing)(value);
}

Bucketizer::Bucketizer(double range, uint32_t buckets, Spacing spacing)
    : range_(range), buckets_(buckets), spacing_(spacing) {
  // Bucket sizes in proportion 1:2:..:B (increasing) or B:..:2:1 (decreasing); the bucket is
  // the number of upper bounds at or below the value.
  double total = double(buckets_) * double(buckets_ + 1) / 2.0;
  double upper = 0.0;
  for (uint32_t b = 0; b + 1 < buckets_; ++b) {
    double size = spacing == Spacing::Increasing ? double(b + 1) : double(buckets_ - b);
    upper += size / total;
    bounds_.push_back(upper - 1e-12);
  }
  double upto = std::clamp(range_ + 2.0, double(kMinWholeNumbers), double(kMaxWholeNumbers));
  whole_.resize(size_t(upto));
  for (size_t i = 0; i < whole_.size(); ++i) whole_[i] = uint8_t(cut(double(i)));
}

uint32_t Bucketizer::cut(double value) const {
  if (buckets_ <= 1) return 0;
  if (spacing_ == Spacing::Boolean) return value > 0 ? 1 : 0;
  double frac = range_ > 0 ? value / range_ : 0.0;
  frac = std::clamp(frac, 0.0, 1.0);
  for (uint32_t b = 0; b + 1 < buckets_; ++b)
    if (frac < bounds_[b]) return b;
  return buckets_ - 1;
}

}  // namespace warpsim::rl

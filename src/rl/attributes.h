// The state attributes of RLWS (Table II of the RLWS paper) and their bucketing.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace warpsim::rl {

enum class Attr : uint8_t {
  ATBWB,
  ATBWF,
  TBW,
  RLMI,
  RGMI,
  RSTCMI,
  RSFI,
  RSPI,
  NTF,  // boolean
  NIW,
  NSW,
  NFSFI,
  NFMI,
  NRSPI,
  NRGMI,
  NRSTCMI,
  NRSFI,
  NWI,
  NPS,
  NMPS,
  NSFPS,
  NSPPS,
  NAIPMI,
  NRI,
  NWS,
  NRAI,
  STBRMI,
  SMNMIE,
  ICMP,
  L1MP,
  L2MP,
  NIPL1M,
  AGML,
  GNMIE,
  kCount
};
inline constexpr int kNumAttrs = int(Attr::kCount);

// How a value range is cut into buckets (Sec. IV-B): bucket sizes grow (fine resolution near
// the low end) or shrink (fine resolution near the high end) in proportion 1:2:...:B.
enum class Spacing : uint8_t { Boolean, Increasing, Decreasing };

struct AttrInfo {
  std::string_view name;
  std::string_view description;
  Spacing spacing;
  // Upper end of the value range; 0 means "warps per scheduler" (24 on Fermi), -1 means
  // "40 per SM times the number of SMs" (GNMIE).
  double range;
};

const AttrInfo& attr_info(Attr a);
// Attr by its Table II name (case-insensitive); returns false when unknown.
bool attr_by_name(std::string_view name, Attr* out);

// Bucket index of `value` in [0, range] cut into `buckets` parts with the given spacing.
uint32_t bucketize(double value, double range, uint32_t buckets, Spacing spacing);

// The same cut, with the bucket bounds computed once (a decision bucketizes every attribute),
// and the buckets of the whole numbers up to the range (warp counts, flags, memory
// instructions in flight, latencies; at least 0..127, at most 0..4095) looked up.
class Bucketizer {
 public:
  Bucketizer(double range, uint32_t buckets, Spacing spacing);
  uint32_t operator()(double value) const {
    if (value >= 0 && value < double(whole_.size())) {
      int i = int(value);
      if (double(i) == value) return whole_[i];
    }
    return cut(value);
  }

 private:
  static constexpr size_t kMinWholeNumbers = 128, kMaxWholeNumbers = 4096;
  uint32_t cut(double value) const;
  double range_;
  uint32_t buckets_;
  Spacing spacing_;
  std::vector<double> bounds_;  // bucket b holds fractions below bounds_[b] (b < buckets - 1)
  std::vector<uint8_t> whole_;  // cut(i) for i = 0, 1, ...
};

}  // namespace warpsim::rl

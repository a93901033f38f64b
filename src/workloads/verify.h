// Comparing a kernel's output with a CPU reference: exact for integers, a stated relative and
// absolute tolerance for floating point; the message names the first mismatches.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.h"
#include "workloads/workload.h"

namespace warpsim {

class Verifier {
 public:
  // |got - want| <= abs_tol + rel_tol * |want| for floating point; equality otherwise.
  template <class T>
  Verifier& check(const std::string& what, const std::vector<T>& got, const std::vector<T>& want, double rel_tol = 0,
                  double abs_tol = 0) {
    if (got.size() != want.size()) {
      fail(fmt::format("{}: {} values, expected {}", what, got.size(), want.size()));
      return *this;
    }
    for (size_t i = 0; i < got.size(); ++i) {
      bool ok;
      if constexpr (std::is_floating_point_v<T>) {
        double g = double(got[i]), w = double(want[i]);
        ok = (std::isnan(g) && std::isnan(w)) || std::fabs(g - w) <= abs_tol + rel_tol * std::fabs(w);
      } else {
        ok = got[i] == want[i];
      }
      if (!ok && fail(fmt::format("{}[{}] = {}, expected {}", what, i, got[i], want[i]))) break;
    }
    return *this;
  }
  Verifier& expect(bool ok, const std::string& message) {
    if (!ok) fail(message);
    return *this;
  }
  WorkloadOutcome outcome() const {
    WorkloadOutcome o;
    o.checked = true;
    o.verified = mismatches_ == 0;
    o.message = o.verified ? "verified" : fmt::format("{} mismatches: {}", mismatches_, message_);
    return o;
  }

 private:
  // Returns true when enough mismatches were reported.
  bool fail(const std::string& m) {
    if (++mismatches_ <= 5) message_ += (message_.empty() ? "" : "; ") + m;
    return mismatches_ > 5;
  }
  int mismatches_ = 0;
  std::string message_;
};

// Inputs of a workload: uniform values from the seeded generator.
inline std::vector<float> random_floats(Rng& rng, size_t n, float lo = 0.0f, float hi = 1.0f) {
  std::vector<float> v(n);
  for (auto& x : v) x = lo + float(rng.uniform()) * (hi - lo);
  return v;
}
inline std::vector<int> random_ints(Rng& rng, size_t n, int lo, int hi) {
  std::vector<int> v(n);
  for (auto& x : v) x = lo + int(rng.below(uint64_t(hi - lo + 1)));
  return v;
}

}  // namespace warpsim

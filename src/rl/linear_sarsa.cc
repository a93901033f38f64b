#include "rl/linear_sarsa.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace warpsim::rl {

namespace {
constexpr double kOne = 65536.0;  // Q16.16
// 2^-v for a bucket index v (buckets are at most 8, so v < 8; the rest guards the table).
constexpr double kFeature[16] = {1.0,        0.5,         0.25,    0.125,   0.0625,  0.03125, 0.015625, 0.0078125,
                                 0.00390625, 0.001953125, 0x1p-10, 0x1p-11, 0x1p-12, 0x1p-13, 0x1p-14,  0x1p-15};
inline double feature(uint8_t v) { return kFeature[v & 15]; }
// std::has_single_bit without a population count (a library call on baseline x86-64).
inline bool single_bit(uint32_t m) { return m && !(m & (m - 1)); }
}  // namespace

LinearSarsa::LinearSarsa(uint32_t num_attrs, uint32_t num_actions, const RlConfig& cfg)
    : n_(num_attrs),
      a_(num_actions),
      fixed_(cfg.fixed_point),
      td_update_(cfg.td_update),
      tie_break_(cfg.tie_break),
      limit_(cfg.effective_weight_limit()) {
  if (n_ > uint32_t(kMaxAttrsInUse)) throw std::invalid_argument("LinearSarsa: more attributes than a State holds");
  // Optimistic start: with every state variable in bucket 0 (feature 1), Q = r_max / (1 - gamma).
  double rmax = std::max(cfg.reward, cfg.penalty);
  init_ = cfg.optimistic && n_ > 0 ? rmax / (1.0 - cfg.gamma) / double(n_) : 0.0;
  reset();
}

void LinearSarsa::reset() {
  theta_.assign(size_t(n_) * a_, init_);
  thetaq_.assign(size_t(n_) * a_, int64_t(std::llround(init_ * kOne)));
}

double LinearSarsa::q(const State& s, int action) const {
  size_t base = size_t(action) * n_;
  const uint32_t n = n_;
  const uint8_t* v = s.v;
  if (fixed_) {
    const int64_t* w = thetaq_.data() + base;
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += w[i] >> v[i];  // theta * 2^-v as a shift
    return double(sum) / kOne;
  }
  // The terms are added in attribute order, four per step (the same sums as one at a time).
  const double* w = theta_.data() + base;
  double sum = 0;
  uint32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    sum += w[i] * feature(v[i]);
    sum += w[i + 1] * feature(v[i + 1]);
    sum += w[i + 2] * feature(v[i + 2]);
    sum += w[i + 3] * feature(v[i + 3]);
  }
  for (; i < n; ++i) sum += w[i] * feature(v[i]);
  return sum;
}

double LinearSarsa::feature_norm2(const State& s) const {
  // Consecutive updates are mostly at the same state (idle cycles): the last sum serves again.
  if (norm2_valid_ && norm2_state_.same_as(s, n_)) return norm2_;
  double sum = 0;
  for (uint32_t i = 0; i < n_; ++i) {
    double f = feature(s.v[i]);
    sum += f * f;
  }
  norm2_state_ = s;
  norm2_ = sum;
  norm2_valid_ = true;
  return sum;
}

int LinearSarsa::choose(const State& s, uint32_t possible, double epsilon, Rng& rng, bool* explored) const {
  if (!possible) return -1;
  if (epsilon > 0 && rng.uniform() < epsilon) {
    *explored = true;
    int k = int(rng.below(uint64_t(std::popcount(possible))));
    uint32_t m = possible;
    while (k--) m &= m - 1;
    return std::countr_zero(m);
  }
  *explored = false;
  // One possible action needs no Q values (the rotating tie-break still draws its start).
  if (single_bit(possible) && tie_break_ != TieBreak::Rotate) return std::countr_zero(possible);
  if (tie_break_ == TieBreak::Rotate) {
    int best = -1;
    double bq = 0;
    uint32_t start = uint32_t(rng.below(a_));  // rotate so ties do not always favour action 0
    for (uint32_t k = 0; k < a_; ++k) {
      int a = int((start + k) % a_);
      if (!(possible >> a & 1)) continue;
      double qa = q(s, a);
      if (best < 0 || qa > bq) {
        best = a;
        bq = qa;
      }
    }
    return best;
  }
  uint32_t tied = 0;  // the actions with the highest Q so far
  double bq = 0;
  for (uint32_t m = possible; m; m &= m - 1) {
    int a = std::countr_zero(m);
    double qa = q(s, a);
    if (!tied || qa > bq) {
      tied = 1u << a;
      bq = qa;
    } else if (qa == bq) {
      tied |= 1u << a;
    }
  }
  if (tie_break_ == TieBreak::Lowest || single_bit(tied)) return std::countr_zero(tied);
  int k = int(rng.below(uint64_t(std::popcount(tied))));
  while (k--) tied &= tied - 1;
  return std::countr_zero(tied);
}

bool LinearSarsa::update(const State& s, int action, double delta, double alpha) {
  size_t base = size_t(action) * n_;
  if (td_update_ == TdUpdate::Bounded) {
    // One update moves Q(s, a) by alpha * |phi|^2 * delta: at most delta, never past the target.
    double norm2 = feature_norm2(s);
    if (alpha * norm2 > 1.0) alpha = 1.0 / norm2;
  }
  bool ok = true;
  if (fixed_) {
    double stepd = alpha * delta * kOne;
    // A step beyond the Q16.16 range (or not a number) is itself a divergence.
    if (!(std::abs(stepd) < 0x1p62)) {
      ok = false;
    } else {
      int64_t step = int64_t(std::llround(stepd));
      int64_t lim = int64_t(std::min(limit_ * kOne, 0x1p62));
      for (uint32_t i = 0; i < n_; ++i) {
        int64_t& w = thetaq_[base + i];
        w += step >> s.v[i];
        if (w > lim || w < -lim) ok = false;
      }
    }
  } else {
    const double step = alpha * delta, limit = limit_;
    const uint32_t n = n_;
    const uint8_t* v = s.v;
    double* w = theta_.data() + base;
    // Four weights per step; a weight beyond the limit or not a number (the comparison fails
    // for NaN) is noted and acted on after the loop.
    bool within = true;
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4) {
      double w0 = w[i] + step * feature(v[i]), w1 = w[i + 1] + step * feature(v[i + 1]);
      double w2 = w[i + 2] + step * feature(v[i + 2]), w3 = w[i + 3] + step * feature(v[i + 3]);
      w[i] = w0, w[i + 1] = w1, w[i + 2] = w2, w[i + 3] = w3;
      within &= (std::abs(w0) <= limit) & (std::abs(w1) <= limit) & (std::abs(w2) <= limit) & (std::abs(w3) <= limit);
    }
    for (; i < n; ++i) {
      w[i] += step * feature(v[i]);
      within &= std::abs(w[i]) <= limit;
    }
    ok = within;
  }
  if (!ok) {
    ++resets_;
    reset();
  }
  return ok;
}

bool LinearSarsa::update_traced(const State& s, int action, const std::vector<double>& e, double delta, double alpha) {
  if (td_update_ == TdUpdate::Bounded) {
    // Q(s, a) moves by alpha * <phi(s, a), e> * delta: at most delta, as update() bounds it.
    size_t base = size_t(action) * n_;
    double dot = 0;
    for (uint32_t i = 0; i < n_; ++i) dot += feature(s.v[i]) * e[base + i];
    if (alpha * dot > 1.0) alpha = 1.0 / dot;
  }
  double step = alpha * delta;
  bool ok = true;
  for (size_t i = 0; i < theta_.size(); ++i) {
    if (e[i] == 0) continue;
    double& w = theta_[i];
    w += step * e[i];
    if (!(std::abs(w) <= limit_)) ok = false;  // also catches NaN
  }
  if (!ok) {
    ++resets_;
    reset();
  }
  return ok;
}

void LinearSarsa::add_features(const State& s, int action, std::vector<double>& e) const {
  size_t base = size_t(action) * n_;
  for (uint32_t i = 0; i < n_; ++i) e[base + i] += feature(s.v[i]);
}

void LinearSarsa::set_weights(const Weights& w) {
  if (w.theta.size() != theta_.size() || w.thetaq.size() != thetaq_.size())
    throw std::invalid_argument("LinearSarsa::set_weights: weights of another shape");
  theta_ = w.theta;
  thetaq_ = w.thetaq;
}

double LinearSarsa::weight(int action, int attr) const {
  size_t i = size_t(action) * n_ + attr;
  return fixed_ ? double(thetaq_[i]) / kOne : theta_[i];
}

}  // namespace warpsim::rl

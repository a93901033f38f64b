#include "rl/linear_sarsa.h"

#include <bit>
#include <cmath>

namespace warpsim::rl {

namespace {
constexpr double kOne = 65536.0;  // Q16.16
}

LinearSarsa::LinearSarsa(uint32_t num_attrs, uint32_t num_actions, const RlConfig& cfg)
    : n_(num_attrs), a_(num_actions), fixed_(cfg.fixed_point) {
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
  if (fixed_) {
    int64_t sum = 0;
    for (uint32_t i = 0; i < n_; ++i) sum += thetaq_[base + i] >> s.v[i];  // theta * 2^-v as a shift
    return double(sum) / kOne;
  }
  double sum = 0;
  for (uint32_t i = 0; i < n_; ++i) sum += std::ldexp(theta_[base + i], -int(s.v[i]));
  return sum;
}

int LinearSarsa::choose(const State& s, uint32_t possible, double epsilon, Rng& rng, bool* explored) const {
  if (!possible) return -1;
  int count = std::popcount(possible);
  if (epsilon > 0 && rng.uniform() < epsilon) {
    *explored = true;
    int k = int(rng.below(uint64_t(count)));
    uint32_t m = possible;
    while (k--) m &= m - 1;
    return std::countr_zero(m);
  }
  *explored = false;
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

void LinearSarsa::update(const State& s, int action, double delta, double alpha) {
  size_t base = size_t(action) * n_;
  if (fixed_) {
    int64_t step = int64_t(std::llround(alpha * delta * kOne));
    for (uint32_t i = 0; i < n_; ++i) thetaq_[base + i] += step >> s.v[i];
    return;
  }
  double step = alpha * delta;
  for (uint32_t i = 0; i < n_; ++i) theta_[base + i] += std::ldexp(step, -int(s.v[i]));
}

double LinearSarsa::weight(int action, int attr) const {
  size_t i = size_t(action) * n_ + attr;
  return fixed_ ? double(thetaq_[i]) / kOne : theta_[i];
}

}  // namespace warpsim::rl

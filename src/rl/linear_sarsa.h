// Linear SARSA over bucketed state attributes (RLWS Sec. IV-E): Q(s,a) = phi(s,a)^T theta with
// one block of N weights per action and feature 2^-v for a state variable in bucket v.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/rng.h"
#include "rl/rl_config.h"

namespace warpsim::rl {

inline constexpr int kMaxAttrsInUse = kNumAttrs;

// The bucketed state: one small integer per attribute in use.
struct State {
  uint8_t v[kMaxAttrsInUse] = {};
  // The first n variables equal those of o (eight at a time).
  bool same_as(const State& o, uint32_t n) const {
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t a, b;
      std::memcpy(&a, v + i, 8);
      std::memcpy(&b, o.v + i, 8);
      if (a != b) return false;
    }
    for (; i < n; ++i)
      if (v[i] != o.v[i]) return false;
    return true;
  }
};

class LinearSarsa {
 public:
  LinearSarsa(uint32_t num_attrs, uint32_t num_actions, const RlConfig& cfg);

  void reset();  // weights back to their initial values
  double q(const State& s, int action) const;
  // |phi(s, a)|^2 = sum of 4^-v over the attributes (the same for every action).
  double feature_norm2(const State& s) const;
  // Epsilon-greedy choice among the actions set in `possible` (bit per action); ties among the
  // best are broken as cfg.tie_break says. Returns -1 if none possible.
  int choose(const State& s, uint32_t possible, double epsilon, Rng& rng, bool* explored) const;
  // theta += alpha' * delta * phi(s, action), alpha' = alpha, or with TdUpdate::Bounded
  // min(alpha, 1 / |phi(s)|^2). Then checks the updated weights: one that is not finite or
  // beyond the weight limit resets every weight to its initial value and counts a reset.
  // Returns false when it reset.
  bool update(const State& s, int action, double delta, double alpha);
  // Eligibility traces (SARSA(lambda), floating point only): theta += alpha' * delta * e, where
  // e holds one entry per weight ([action][attr]) and alpha' = alpha, or with TdUpdate::Bounded
  // min(alpha, 1 / <phi(s, action), e>) so that Q(s, action) moves by at most delta. The same
  // divergence check and reset as update(). Returns false when it reset.
  bool update_traced(const State& s, int action, const std::vector<double>& e, double delta, double alpha);
  // Adds phi(s, action) to a trace vector e ([action][attr], num_actions() * num_attrs() entries).
  void add_features(const State& s, int action, std::vector<double>& e) const;

  // The weights as they stand, to restore later (warm start of a kernel launched again).
  struct Weights {
    std::vector<double> theta;
    std::vector<int64_t> thetaq;
  };
  Weights weights() const { return {theta_, thetaq_}; }
  void set_weights(const Weights& w);

  rl::TdUpdate td_update() const { return td_update_; }
  uint64_t resets() const { return resets_; }  // weight resets since construction
  double weight_limit() const { return limit_; }

  uint32_t num_attrs() const { return n_; }
  uint32_t num_actions() const { return a_; }
  double weight(int action, int attr) const;
  bool fixed_point() const { return fixed_; }

 private:
  uint32_t n_, a_;
  bool fixed_;
  rl::TdUpdate td_update_;
  rl::TieBreak tie_break_;
  double init_;
  double limit_;
  uint64_t resets_ = 0;
  std::vector<double> theta_;    // [action][attr]
  std::vector<int64_t> thetaq_;  // Q16.16 in fixed-point mode
  // feature_norm2 of the state it was last asked for (it depends on the state alone).
  mutable State norm2_state_;
  mutable double norm2_ = 0;
  mutable bool norm2_valid_ = false;
};

// One SARSA chain: the previous state-action pair and its Q, the reward accumulated since, and
// with lambda > 0 the eligibility of every weight (accumulating traces, decayed by
// gamma * lambda per decision). lambda = 0 is one-step SARSA, the same arithmetic as before
// traces existed.
struct SarsaTrace {
  State prev;
  int prev_action = -1;
  double prev_q = 0;
  double reward = 0;
  double lambda = 0;
  std::vector<double> eligibility;  // [action][attr], used when lambda > 0

  // Close the previous step with the current (state, action): TD update of theta. Q(s_p, a_p)
  // is the value stored when a_p was chosen (TdUpdate::Stale) or recomputed now from the
  // current weights, which other chains sharing the agent may have moved since. Returns false
  // when the update found diverged weights (the agent reset them).
  bool step(LinearSarsa& agent, const State& s, int action, double gamma, double alpha) {
    double qn = action >= 0 ? agent.q(s, action) : 0.0;
    bool ok = true;
    if (prev_action >= 0) {
      // Q(s_p, a_p) from the current weights is Q(s, a) again when the pair repeats (idle cycles).
      double qp = agent.td_update() == TdUpdate::Stale                  ? prev_q
                  : action == prev_action && same_state(agent, prev, s) ? qn
                                                                        : agent.q(prev, prev_action);
      double delta = reward + gamma * qn - qp;
      if (lambda > 0) {
        decay_eligibility(agent, gamma * lambda);
        agent.add_features(prev, prev_action, eligibility);
        ok = agent.update_traced(prev, prev_action, eligibility, delta, alpha);
        if (!ok) clear_eligibility();
      } else {
        ok = agent.update(prev, prev_action, delta, alpha);
      }
      if (!ok) qn = action >= 0 ? agent.q(s, action) : 0.0;  // from the reset weights
    }
    prev = s;
    prev_action = action;
    prev_q = qn;
    reward = 0;
    return ok;
  }
  void reset() {
    prev_action = -1;
    reward = 0;
    clear_eligibility();
  }

 private:
  static bool same_state(const LinearSarsa& agent, const State& a, const State& b) {
    return a.same_as(b, agent.num_attrs());
  }
  void decay_eligibility(const LinearSarsa& agent, double factor) {
    eligibility.resize(size_t(agent.num_actions()) * agent.num_attrs(), 0.0);
    for (double& e : eligibility) e *= factor;
  }
  void clear_eligibility() { std::fill(eligibility.begin(), eligibility.end(), 0.0); }
};

}  // namespace warpsim::rl

// Linear SARSA over bucketed state attributes (RLWS Sec. IV-E): Q(s,a) = phi(s,a)^T theta with
// one block of N weights per action and feature 2^-v for a state variable in bucket v.
#pragma once
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "rl/rl_config.h"

namespace warpsim::rl {

inline constexpr int kMaxAttrsInUse = kNumAttrs;

// The bucketed state: one small integer per attribute in use.
struct State {
  uint8_t v[kMaxAttrsInUse] = {};
};

class LinearSarsa {
 public:
  LinearSarsa(uint32_t num_attrs, uint32_t num_actions, const RlConfig& cfg);

  void reset();  // weights back to their initial values
  double q(const State& s, int action) const;
  // Epsilon-greedy choice among the actions set in `possible` (bit per action); ties among the
  // best go to the lowest-numbered action after a random rotation. Returns -1 if none possible.
  int choose(const State& s, uint32_t possible, double epsilon, Rng& rng, bool* explored) const;
  // theta += alpha * delta * phi(s, action).
  void update(const State& s, int action, double delta, double alpha);

  uint32_t num_attrs() const { return n_; }
  uint32_t num_actions() const { return a_; }
  double weight(int action, int attr) const;
  bool fixed_point() const { return fixed_; }

 private:
  uint32_t n_, a_;
  bool fixed_;
  double init_;
  std::vector<double> theta_;    // [action][attr]
  std::vector<int64_t> thetaq_;  // Q16.16 in fixed-point mode
};

// One SARSA chain: the previous state-action pair and its Q, and the reward accumulated since.
struct SarsaTrace {
  State prev;
  int prev_action = -1;
  double prev_q = 0;
  double reward = 0;

  // Close the previous step with the current (state, action): TD update of theta.
  void step(LinearSarsa& agent, const State& s, int action, double gamma, double alpha) {
    double qn = action >= 0 ? agent.q(s, action) : 0.0;
    if (prev_action >= 0) {
      double delta = reward + gamma * qn - prev_q;
      agent.update(prev, prev_action, delta, alpha);
    }
    prev = s;
    prev_action = action;
    prev_q = qn;
    reward = 0;
  }
  void reset() {
    prev_action = -1;
    reward = 0;
  }
};

}  // namespace warpsim::rl

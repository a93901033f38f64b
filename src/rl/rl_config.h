// An RLWS design point: which attributes the agent sees and with how many buckets, and the RL
// parameters. Written and read as TOML so the genetic search can produce configurations that
// `--rl-config FILE` loads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rl/attributes.h"

namespace warpsim::rl {

struct AttrUse {
  Attr attr;
  uint32_t buckets;  // 2, 4 or 8
};

struct RlConfig {
  double alpha = 0.09;        // learning rate
  double epsilon = 0.04;      // exploration rate
  double gamma = 0.95;        // discount factor
  double reward = 1.0;        // for a cycle that issues
  double penalty = 0.0;       // for a stall cycle
  uint32_t decide_every = 1;  // cycles between decisions (1, 2, 4, 8, 16)
  // With decide_every > 1: keep the held action even in a cycle where it has no ready warp
  // (true), or decide afresh in such a cycle (false, the default).
  bool hold_when_blocked = false;
  bool keep_theta = false;   // keep the weights across kernels instead of learning afresh
  bool fixed_point = false;  // weights in Q16.16 fixed point, features as shifts
  bool optimistic = true;    // start Q near reward / (1 - gamma)
  // Phase 1 (CTAs still waiting): alpha_t = alpha / (1 + t / decay_cycles), same for epsilon,
  // t counted in cycles since the kernel started. Phase 2: back to the initial values.
  double decay_cycles = 20000;
  uint64_t seed = 1;
  std::vector<AttrUse> attrs;

  static RlConfig rlws_defaults();     // RLWS paper Table V
  static RlConfig rlws_ms_defaults();  // RLWS paper Table VIII
  // N*(A+1)+4 registers per SM (Sec. IV-I).
  uint32_t storage_registers(uint32_t actions) const { return uint32_t(attrs.size()) * (actions + 1) + 4; }
};

RlConfig load_rl_config(const std::string& path, const RlConfig& defaults);
RlConfig parse_rl_config(const std::string& text, const std::string& source, const RlConfig& defaults);
std::string rl_config_to_toml(const RlConfig& c);

}  // namespace warpsim::rl

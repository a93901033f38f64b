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

// How a SARSA step updates the weights (docs/rlws.md, "Stable learning").
enum class TdUpdate : uint8_t {
  // TD error from the Q value stored when the previous action was chosen, step alpha * delta *
  // phi: the update before this design, unstable once alpha * |phi|^2 times the number of
  // updates between storing and using that Q value passes about 1.
  Stale,
  // TD error from Q(s_p, a_p) recomputed with the current weights, step alpha * delta * phi.
  Fresh,
  // Fresh, and the step scaled down (normalised-LMS style) so that one update moves
  // Q(s_p, a_p) by at most delta: alpha_eff = min(alpha, 1 / |phi(s_p)|^2).
  Bounded,
};
// How exploitation breaks ties among actions with the same highest Q value.
enum class TieBreak : uint8_t {
  Rotate,   // the first of the tied actions after a random rotation of the action order
  Uniform,  // each tied action equally likely
  Lowest,   // the lowest-numbered tied action (Table I order: NO_INSTR first)
};
// Phase-1 schedule of alpha and epsilon (Sec. IV-G: "gradually reduces").
enum class Decay : uint8_t {
  Harmonic,  // rate / (1 + t / decay_cycles)
  None,      // rates held at their initial values in both phases
};
// What RLMI ("ready long-latency memory instruction") counts as long-latency.
enum class RlmiReading : uint8_t {
  GlobalLoad,  // every ready load, atomic or read from global or local memory
  Observed,    // a ready global/local read at a PC that has been seen to keep its warp waiting
               // on memory for more than `long_latency` cycles (Table II / Sec. IV-B wording)
};

// Which weights a kernel launch starts from (keep_theta = false).
enum class CarryWeights : uint8_t {
  None,    // the initial weights at every launch
  Kernel,  // a kernel launched again on the SM starts from the weights that SM ended its previous
           // launch of the same kernel name with; a kernel new to the SM from the initial weights
};

const char* carry_weights_name(CarryWeights c);
const char* td_update_name(TdUpdate u);
const char* tie_break_name(TieBreak t);
const char* decay_name(Decay d);
const char* rlmi_reading_name(RlmiReading r);

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
  bool keep_theta = false;  // keep the weights across kernels instead of learning afresh
  CarryWeights carry_weights = CarryWeights::None;
  // SARSA(lambda): eligibility traces decayed by gamma * lambda per decision; 0 = one-step SARSA.
  double lambda = 0;
  bool fixed_point = false;  // weights in Q16.16 fixed point, features as shifts
  bool optimistic = true;    // start Q near reward / (1 - gamma)
  // Phase 1 (CTAs still waiting): alpha_t = alpha / (1 + t / decay_cycles), same for epsilon,
  // t counted in cycles since the kernel started. Phase 2: back to the initial values.
  double decay_cycles = 20000;
  Decay decay = Decay::Harmonic;
  TdUpdate td_update = TdUpdate::Bounded;
  TieBreak tie_break = TieBreak::Uniform;
  // Largest magnitude a weight may reach; beyond it (or not finite) the weights are reset to
  // their initial values, counted and reported. 0: 100 * max(|reward|, |penalty|) / (1 - gamma).
  double weight_limit = 0;
  // Ratio and percentage attributes (NAIPMI, NIPL1M, ICMP, L1MP, L2MP): 0 = cumulative since the
  // kernel started; W > 0 = over the last W to 2W cycles (counters re-based every W cycles).
  uint64_t ratio_window = 0;
  RlmiReading rlmi = RlmiReading::GlobalLoad;
  uint32_t long_latency = 100;  // cycles, for rlmi = observed
  uint64_t seed = 1;
  std::vector<AttrUse> attrs;

  static RlConfig rlws_defaults();     // RLWS paper Table V
  static RlConfig rlws_ms_defaults();  // RLWS paper Table VIII
  // N*(A+1)+4 registers per SM (Sec. IV-I).
  uint32_t storage_registers(uint32_t actions) const { return uint32_t(attrs.size()) * (actions + 1) + 4; }
  // weight_limit, or its automatic value when 0.
  double effective_weight_limit() const;
};

RlConfig load_rl_config(const std::string& path, const RlConfig& defaults);
RlConfig parse_rl_config(const std::string& text, const std::string& source, const RlConfig& defaults);
std::string rl_config_to_toml(const RlConfig& c);

}  // namespace warpsim::rl

// Common machinery of the reinforcement-learning schedulers (RLWS, RLWS_MS): a linear SARSA
// agent per SM shared by the SM's schedulers, one SARSA chain per scheduler, two learning
// phases, decisions every `decide_every` cycles, and per-kernel observability.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rl/linear_sarsa.h"
#include "sched/clone_context.h"
#include "sched/rl_state.h"
#include "sched/rl_state_evaluator.h"
#include "sched/scheduler.h"

namespace warpsim {

// The learning agent of one SM (RLWS section III): all schedulers of the SM read and update the
// same weights, baseline and exploration stream, so what one scheduler learns steers the others;
// each scheduler keeps its own SARSA chain (state, action, eligibility) in RlScheduler. It is
// made once per SM (SchedulerFactory::make_sm_state) and never shared across SMs; a snapshot
// copies it once per SM, and the copies of the SM's schedulers share that copy (SnapshotShared).
struct RlAgent : SmSharedState {
  rl::RlConfig cfg;
  rl::LinearSarsa sarsa;
  Rng rng;
  RlBaseline base;  // counters at the kernel's start
  // ratio_window > 0: the ratio attributes start from ratio_prev, and every ratio_window cycles
  // ratio_prev takes ratio_cur and ratio_cur the current counters.
  RlBaseline ratio_prev, ratio_cur;
  uint64_t ratio_rebased_at = 0;
  uint64_t kernel_start = 0;
  bool baseline_pending = true;
  uint64_t baseline_version = 0;  // changes with base and ratio_prev
  // rlmi = observed: the PCs of off-chip reads seen to be long-latency (sorted), and per warp
  // slot the last such read issued and when.
  struct PendingLoad {
    uint32_t pc = 0;
    uint64_t issued_at = 0;
    bool pending = false;
  };
  std::vector<uint32_t> long_latency_pcs;
  std::vector<PendingLoad> loads = std::vector<PendingLoad>(64);
  // carry_weights = kernel: the weights this SM ended each kernel name's last launch with, and
  // the name of the kernel the weights are learning now.
  std::map<std::string, rl::LinearSarsa::Weights> kernel_weights;
  std::string kernel_name;
  bool has_kernel = false;
  // At a kernel launch (scheduler 0 of the SM): the weights the launch starts from.
  void start_kernel(const std::string& name);
  RlAgent(const rl::RlConfig& c, uint32_t actions, uint64_t seed)
      : cfg(c), sarsa(uint32_t(c.attrs.size()), actions, c), rng(seed) {}
};

// Reads `rl_config` (a TOML file) and the single-value overrides of every key of the file but
// [attributes] (alpha, epsilon, gamma, reward, penalty, decide_every, ..., seed).
rl::RlConfig rl_config_from_params(const SchedulerParams& p, const rl::RlConfig& defaults);
// The parameters rl_config_from_params reads, with `defaults`' values.
std::vector<SchedulerParamInfo> rl_param_infos(const rl::RlConfig& defaults);

class RlScheduler : public WarpScheduler {
 public:
  RlScheduler(std::shared_ptr<RlAgent> agent, int sm_id, int sched_id, uint32_t num_actions, std::string report_key);
  int select(const SchedulerContext& ctx) final;
  void on_issue(const SchedulerContext& ctx, int slot, const WarpInst& inst) final;
  void on_cycle_end(const SchedulerContext& ctx, bool issued, WarpStatus stall) final;
  void on_warp_removed(int slot) final;
  void on_warp_added(int) final { summary_current_ = false; }
  void on_kernel_start(uint32_t kernel) final;
  void on_kernel_launch(const KernelLaunch& launch) final;
  // A learning step every cycle: the GPU may skip idle cycles, the SM replays them.
  bool replays_skipped_cycles() const final { return true; }
  bool reads_gpu_sums() const final { return true; }
  void on_replay_start() final { replay_summary_ = replay_state_ = false; }
  // A scheduler without warps only counts its cycles (rewards and per-kernel records).
  bool takes_empty_cycles_in_bulk() const final { return true; }
  void on_empty_cycles(uint64_t first, uint64_t n) final { count_cycles(first, n, false); }
  void report(nlohmann::json& out) const final;

 protected:
  // Bit per action that has a warp to issue (or is always allowed, like NO_INSTR).
  virtual uint32_t possible_actions(const SchedulerContext& ctx, const WarpSummaries& w) = 0;
  // The warp an action selects, or -1.
  virtual int warp_for(const SchedulerContext& ctx, int action, const WarpSummaries& w) = 0;
  virtual const char* action_name(int action) const = 0;
  // True for an action that issues nothing by choice (RLWS's NO_INSTR): held as chosen.
  virtual bool idles_by_choice(int action) const { return false; }

  int last_issued_ = -1;
  int last_action_ = -1;

 private:
  struct KernelRecord {
    std::vector<uint64_t> actions;
    uint64_t explored = 0, exploited = 0, decisions = 0, cycles = 0, weight_resets = 0;
    double reward = 0;
  };
  // Shared by the SM's schedulers; a snapshot (clone within a CloneContext) gives the copied
  // schedulers of the SM one copied agent between them.
  SnapshotShared<RlAgent> agent_;
  int sm_id_, sched_id_;
  uint32_t num_actions_;
  std::string key_;
  rl::SarsaTrace trace_;
  int held_action_ = -1;
  uint32_t current_kernel_ = 0;
  std::map<uint32_t, KernelRecord> records_;
  static constexpr uint64_t kRewardWindow = 5000;
  std::vector<std::pair<double, uint64_t>> reward_windows_;  // (reward sum, cycles) per kRewardWindow cycles
  // The window count_cycles last started in (it exists in reward_windows_), and its first cycle.
  bool window_valid_ = false;
  size_t window_index_ = 0;
  uint64_t window_start_ = 0;
  // rlmi = observed: marks the PCs of this scheduler's warps' pending off-chip reads that have
  // kept their warp waiting on memory for more than cfg.long_latency cycles.
  void observe_long_latency(const SchedulerContext& ctx);
  void report_divergence(uint64_t now) const;
  // The rewards and records of cycles first .. first + n - 1, all of which issued or none.
  void count_cycles(uint64_t first, uint64_t n, bool issued);

  // The state this cycle: the warps' summary and the bucketed attributes.
  rl::State compute_state(const SchedulerContext& ctx);

  WarpSummaries summary_;
  uint64_t summary_version_ = 0;                // changes with summary_
  std::optional<RlStateEvaluator> state_eval_;  // made at the first decision
  // While replaying skipped cycles nothing the state is made of changes: the summary and the
  // state of the first replayed cycle serve the rest (not with rlmi = observed, whose marks
  // age with time, nor across a rebase of the ratio window).
  bool replay_summary_ = false, replay_state_ = false;
  bool summary_current_ = false;  // summary_ was made in the previous, not replayed, decision
  rl::State replay_s_;
  // records_[current_kernel_], looked up once per kernel (and again by a copy).
  KernelRecord& record() {
    if (!record_.get()) record_.set(&records_[current_kernel_]);
    return *record_.get();
  }
  SelfPointer<KernelRecord> record_;
};

}  // namespace warpsim

// The modelled GPU: SMs, the memory system, the CTA dispatcher and the kernel queue. It is the
// LaunchTarget the runtime sends launches to.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/launch_target.h"
#include "memory/memory_system.h"
#include "sched/scheduler.h"
#include "timing/inst_profile.h"
#include "timing/issue_trace.h"
#include "timing/launch_queue.h"
#include "timing/sm.h"
#include "timing/sm_workers.h"
#include "timing/stats.h"

namespace warpsim {

// Statistics of one kernel launch: its result plus the counters accumulated while it ran
// (for kernels that overlap in time, the counters cover the whole interval).
struct KernelStats {
  KernelResult result;
  StatsSnapshot stats;
};

struct IpcSample {
  uint64_t cycle;  // end of the window
  double ipc;      // warp instructions per cycle in the window
};

class Gpu final : public LaunchTarget {
 public:
  Gpu(const GpuConfig& cfg, const std::string& scheduler, const SchedulerParams& params = {});
  ~Gpu() override;

  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) override;
  void run_until_idle() override;
  void run_until_stream_idle(uint32_t stream) override;
  uint64_t now() const override { return now_; }
  uint64_t device_memory_limit() const override { return cfg_.global_memory; }
  bool hoists_global_loads() const override { return cfg_.core.hoist_global_loads; }
  const CoreConfig* core_config() const override { return &cfg_.core; }
  void copied(uint64_t addr, uint64_t bytes, bool /*to_device*/) override {
    if (cfg_.l2.fill_on_copy) mem_->copy_fill(addr, bytes);
  }
  uint64_t set_persisting_l2(uint64_t bytes) override { return mem_->set_persisting_bytes(bytes); }
  void reset_persisting_l2() override { mem_->reset_persisting(); }
  const std::vector<KernelResult>& results() const override { return results_; }

  // --- snapshots (docs/snapshot.md) ---
  // An independent copy of the whole simulation in its current state: SMs (warps, scoreboards,
  // caches, LD/ST queues), schedulers (deep, RL agents included), the memory system, the
  // kernel queue and kernel sources (KernelSource::clone), counters, statistics and RNG states.
  // Running the copy gives bit-identical results to running this GPU, and leaves it untouched.
  // Not copied: the issue log. Throws Error when a queued or running kernel's source cannot be
  // copied.
  std::unique_ptr<Gpu> clone() const;
  // Run until cycle `cycle` is reached or until every kernel (stream < 0) or every kernel of
  // `stream` is done, whichever comes first. Stops at the first step boundary at or after
  // `cycle` (idle cycles are skipped in one step, so now() may end past it; nothing issues in
  // skipped cycles). Returns true when the kernels are done. Stopping and continuing gives
  // the same results as running without a stop.
  bool run_until_cycle(uint64_t cycle, int stream = -1);
  bool run_for(uint64_t cycles, int stream = -1) { return run_until_cycle(now_ + cycles, stream); }
  // True when every kernel (stream < 0) or every kernel of `stream` queued so far is done.
  bool done(int stream = -1) const;
  // Replace every SM's schedulers by fresh instances of `scheduler` (as Sm::replace_schedulers);
  // to_json() then names this policy. Throws Error for an unknown name or unused parameters.
  void set_scheduler(const std::string& scheduler, const SchedulerParams& params = {});
  // Warp instructions issued so far, over all SMs.
  uint64_t warp_insts() const;

  const std::vector<KernelStats>& kernel_stats() const { return kernel_stats_; }
  StatsSnapshot snapshot() const;
  const std::vector<IpcSample>& ipc_series() const { return ipc_; }
  const GpuConfig& config() const { return cfg_; }
  const std::string& scheduler_name() const { return scheduler_; }
  const MemorySystem& memory() const { return *mem_; }
  std::vector<std::unique_ptr<Sm>>& sms() { return sms_; }
  // Record every scheduler decision of every SM into `log` (null to stop).
  void set_issue_log(std::vector<IssueRecord>* log) {
    for (auto& sm : sms_) sm->set_issue_log(log);
    issue_log_ = log != nullptr;
  }
  // Profile every instruction from now on (timing/inst_profile.h): each launch's rows are
  // added to inst_profile() when it finishes.
  void enable_inst_profile();
  const std::vector<InstProfileRow>& inst_profile() const { return inst_rows_; }
  // Record every issued instruction from now on (timing/issue_trace.h; the SMs then run on
  // the calling thread alone).
  void enable_issue_trace();
  const IssueTrace* issue_trace() const { return issue_trace_.get(); }
  // Host threads the SMs may run on: the caller and the workers made for sm_threads (1 when
  // none were made). Cycles with few awake SMs still run on the caller alone.
  uint32_t sm_threads_in_use() const { return workers_ ? workers_->threads() : 1; }
  // Scheduler-specific counters of every SM's schedulers, merged.
  nlohmann::json scheduler_report() const;
  // The whole run as JSON (see docs/statistics.md).
  nlohmann::json to_json() const;

 private:
  struct Kernel {
    std::unique_ptr<KernelSource> source;
    KernelInfo info;
    uint32_t id = 0, stream = 0;
    uint64_t launch_cycle = 0;
    uint64_t start_cycle = 0;
    uint64_t first_cta_cycle = 0;  // no CTA is dispatched before (core.kernel_launch_latency)
    uint32_t next_cta = 0, ctas_done = 0;
    enum State { Queued, Running, Done } state = Queued;
    StatsSnapshot at_start;
  };

  struct CloneTag {};
  Gpu(const Gpu& o, CloneTag);
  std::vector<std::unique_ptr<WarpScheduler>> make_schedulers(const SchedulerFactory& f, int sm) const;
  static constexpr uint32_t kAllLaunches = ~0u;
  // Advance until launch `wait_for` is done (every launch when kAllLaunches) (true), or until
  // now_ >= until at a step boundary (false). Launches of a stream finish in order: waiting for
  // a stream's last launch waits for the whole stream.
  bool step_until(uint32_t wait_for, uint64_t until = ~0ull);
  void start_eligible_kernels();
  bool dispatch();
  bool place_cta(uint32_t smi, const std::vector<Kernel*>& running);
  void retire_ctas();
  void settle_l1_flushes();  // core.l1_flush_by_cluster, after a dispatch
  void finish_kernel(Kernel& k);
  void refresh_gpu_counters();
  // One cycle of every SM (asleep ones dozing or left alone), on sm_threads host threads;
  // true when any was active. Raises `last_progress` to the latest progress of any SM.
  bool tick_sms(uint64_t& last_progress);
  // Not asleep, or woken by a response.
  bool wants_cycle(const Sm& sm) const {
    return !sm.asleep(now_) || (sm.sleeps_on_memory() && mem_->has_response(sm.id(), now_));
  }
  // Fewest SMs to tick per thread for a cycle to be handed to the workers.
  static constexpr uint32_t kMinSmsPerThread = 2;
  void sample(uint64_t upto);
  void check_limits();
  void check_stream_memory(const Kernel& k, const PackedCta& cta) const;
  [[noreturn]] void deadlock();

  GpuConfig cfg_;
  std::string scheduler_;
  SchedulerParams params_;
  std::unique_ptr<MemorySystem> mem_;
  GpuCounters counters_;
  std::vector<std::unique_ptr<Sm>> sms_;
  std::vector<std::unique_ptr<Kernel>> kernels_;  // every launch, by id
  LaunchQueue queue_;                             // the unfinished ones
  uint64_t ctas_waiting_ = 0;                     // CTAs of unfinished launches not dispatched
  uint64_t last_submit_cycle_ = 0;                // launch cycle of the latest launch (core.kernel_submit_interval)
  std::vector<KernelResult> results_;
  std::unique_ptr<InstProfile> inst_profile_;
  std::unique_ptr<IssueTrace> issue_trace_;
  std::vector<InstProfileRow> inst_rows_;
  std::vector<KernelStats> kernel_stats_;
  std::vector<IpcSample> ipc_;
  CtaStreams cta_buf_;  // the CTA being produced, before it is packed
  CtaPacker packer_;
  uint64_t now_ = 0;
  // First cycle whose cycle-class counts the ticked SMs have not added yet; sleeping SMs count
  // up to it before their statistics are read (Sm::count_sleep).
  uint64_t sm_counted_until_ = 0;
  uint64_t sample_start_ = 0, sample_insts_ = 0;
  uint32_t dispatch_rr_ = 0;
  std::vector<uint32_t> sm_kernel_rr_;
  // Per cluster: its SM that received the last CTA (core.cta_dispatch_per_cluster).
  std::vector<uint32_t> cluster_sm_rr_;
  // core.l1_flush_by_cluster: SMs whose last CTA finished and whose L1 is not flushed yet, with
  // that CTA's kernel.
  struct PendingFlush {
    uint32_t sm, kernel;
  };
  std::vector<PendingFlush> l1_flush_pending_;
  std::vector<Kernel*> dispatchable_;  // scratch of dispatch()
  // A dispatch pass that placed nothing is not repeated until an SM frees a CTA's resources
  // (retired_ctas_ changes) or the kernels with CTAs to place change: it would place nothing again.
  uint64_t retired_ctas_ = 0;
  uint64_t refused_at_ = ~0ull;
  std::vector<uint32_t> refused_kernels_;  // their ids
  std::vector<uint32_t> started_;          // scratch of start_eligible_kernels()
  bool every_cycle_ = false;
  bool gpu_sums_ = false;  // a scheduler reads counters_.mem_in_flight (WarpScheduler::reads_gpu_sums)
  // Set by an SM when a CTA of it finishes; retire_ctas() looks at the SMs only then.
  std::atomic<bool> ctas_finished_{false};
  bool issue_log_ = false;
  // sm_threads > 1: the workers (made at the first cycle that can use them) and each SM's
  // result of the cycle.
  std::unique_ptr<SmWorkers> workers_;
  std::vector<uint8_t> sm_active_;
  // Watchdog state kept across a run_until_cycle() stop, so that continuing is exact.
  uint64_t progress_mark_ = 0;
  bool resume_ = false;
};

}  // namespace warpsim

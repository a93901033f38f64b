// The modelled GPU: SMs, the memory system, the CTA dispatcher and the kernel queue. It is the
// LaunchTarget the runtime sends launches to.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/config.h"
#include "core/launch_target.h"
#include "memory/memory_system.h"
#include "sched/scheduler.h"
#include "timing/sm.h"
#include "timing/stats.h"

namespace warpsim {

// Statistics of one kernel launch: its result plus the counters accumulated while it ran
// (for kernels that overlap in time, the counters cover the whole interval).
struct KernelStats {
  KernelResult result;
  StatsSnapshot stats;
};

struct IpcSample {
  uint64_t cycle;   // end of the window
  double ipc;       // warp instructions per cycle in the window
};

class Gpu final : public LaunchTarget {
 public:
  Gpu(const GpuConfig& cfg, const std::string& scheduler, const SchedulerParams& params = {});
  ~Gpu() override;

  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) override;
  void run_until_idle() override;
  void run_until_stream_idle(uint32_t stream) override;
  uint64_t now() const override { return now_; }
  const std::vector<KernelResult>& results() const override { return results_; }

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
  }
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
    uint32_t next_cta = 0, ctas_done = 0;
    enum State { Queued, Running, Done } state = Queued;
    StatsSnapshot at_start;
  };

  bool step_until(const std::vector<uint32_t>& wait_for);
  void start_eligible_kernels();
  bool dispatch();
  void retire_ctas();
  void finish_kernel(Kernel& k);
  void refresh_gpu_counters();
  void sample(uint64_t upto);
  void check_limits();
  [[noreturn]] void deadlock();

  GpuConfig cfg_;
  std::string scheduler_;
  SchedulerParams params_;
  std::unique_ptr<MemorySystem> mem_;
  GpuCounters counters_;
  std::vector<std::unique_ptr<Sm>> sms_;
  std::vector<std::unique_ptr<Kernel>> kernels_;
  std::vector<KernelResult> results_;
  std::vector<KernelStats> kernel_stats_;
  std::vector<IpcSample> ipc_;
  CtaTrace cta_buf_;
  uint64_t now_ = 0;
  uint64_t sample_start_ = 0, sample_insts_ = 0;
  uint32_t dispatch_rr_ = 0;
  std::vector<uint32_t> sm_kernel_rr_;
  std::vector<Kernel*> running_;
  bool every_cycle_ = false;
};

}  // namespace warpsim

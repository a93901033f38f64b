// The warp scheduler plug-in interface. Each SM has `core.schedulers` instances; each cycle the
// SM asks each one to select a warp among the warps it owns (warp slot i belongs to scheduler
// i mod M). A policy is one file: it defines its WarpScheduler and registers a SchedulerFactory
// under its name with a SchedulerRegistration object in that file.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <vector>

#include "sched/inst_brief.h"
#include "sched/warp_view.h"

namespace warpsim {

// What a scheduler learns about a kernel launch when it starts running (on_kernel_launch).
struct KernelLaunch {
  uint32_t id = 0;            // GPU-wide launch index (WarpInfo::kernel)
  std::string name;           // kernel name (KernelInfo::name)
  uint32_t stream = 0;        // stream it was launched on
  uint64_t launch_cycle = 0;  // cycle of the launch (enqueue time plus its delay)
  uint64_t start_cycle = 0;   // cycle it became eligible to run
};

// Read-only view of the SM handed to a scheduler for one decision: the only way a policy sees
// the SM. It is defined here so that policies depend on nothing above sched/; the SM implements
// it (timing/sm_scheduler_context.h) and tests implement it with a fake (tests/sched).
//
// The cheap parts are plain data that the implementation fills before each decision and that
// a policy reads inline: the cycle, this scheduler's warp lists, the SM's and the GPU's counters
// and the SM's shape. The parts the SM computes lazily or keeps in its own structures are
// virtual: status() is computed on demand and cached for the cycle, so an ordering policy that
// stops at the first ready warp only pays for the warps it looks at.
class SchedulerContext {
 public:
  uint64_t now() const { return now_; }
  int scheduler_id() const { return sched_id_; }
  // This scheduler's live warp slots, oldest first.
  std::span<const uint16_t> warps() const { return *age_order_; }
  // The same warps in slot order (round-robin policies walk this).
  std::span<const uint16_t> slots() const { return *slot_order_; }
  const SmCounters& sm() const { return *sm_counters_; }
  const GpuCounters& gpu() const { return *gpu_counters_; }
  int sm_id() const { return sm_id_; }
  int num_ctas_slots() const { return num_cta_slots_; }
  // Warp slots per scheduler (max warps / schedulers).
  int warps_per_scheduler() const { return warps_per_scheduler_; }
  // Schedulers of the SM (slot i belongs to scheduler i mod this).
  int num_schedulers() const { return num_schedulers_; }
  int num_sms() const { return num_sms_; }
  // True while the SM replays a cycle the GPU skipped (WarpScheduler::replays_skipped_cycles):
  // nothing in the SM or the memory system changed since the previous cycle the policy saw.
  bool replaying() const { return replaying_; }
  // True in an idle cycle of this scheduler in which none of its warps changed since the
  // policy's previous select() (no event of its warps; none is ready): what the policy read of
  // the warps then still holds. The SM's and the GPU's counters may have moved.
  bool warps_unchanged() const { return warps_unchanged_; }

  virtual WarpStatus status(int slot) const = 0;
  // True when the warp waits on a long-latency memory operation: its next instruction reads a
  // register that a global, local, parameter or texture load has not yet written back, it waits
  // at a memory barrier, or (core.atomic_waits) an atomic of the warp is in flight.
  virtual bool waiting_on_memory(int slot) const = 0;
  // What GPGPU-Sim's two-level scheduler demotes a warp for besides barriers and exits: it waits
  // on memory as above, or (core.long_op_marks_persist) its next instruction reads a register
  // marked long-latency, ready or not.
  virtual bool waits_on_long_op(int slot) const { return status(slot) == WarpStatus::RAW && waiting_on_memory(slot); }
  // Next instruction of the warp (valid when status is Ready, UnitBusy or RAW).
  virtual const WarpInst& next_inst(int slot) const = 0;
  // The brief of next_inst(slot) (same validity); the SM keeps it per warp.
  virtual InstBrief next_brief(int slot) const { return brief_of(next_inst(slot)); }
  virtual const WarpInfo& warp(int slot) const = 0;
  virtual const CtaInfo& cta(int cta_slot) const = 0;

 protected:
  SchedulerContext() = default;
  SchedulerContext(const SchedulerContext&) = default;
  SchedulerContext& operator=(const SchedulerContext&) = default;
  ~SchedulerContext() = default;  // never owned through this type

  // Filled by the implementation; the vectors and counters outlive the context and may change
  // between a policy's calls (a warp that finishes leaves the lists at once).
  uint64_t now_ = 0;
  int sched_id_ = 0;
  const std::vector<uint16_t>* age_order_ = nullptr;   // warps(): live slots, oldest first
  const std::vector<uint16_t>* slot_order_ = nullptr;  // slots(): live slots, ascending
  const SmCounters* sm_counters_ = nullptr;
  const GpuCounters* gpu_counters_ = nullptr;
  int sm_id_ = 0;
  int num_cta_slots_ = 0;
  int warps_per_scheduler_ = 0;
  int num_schedulers_ = 1;
  int num_sms_ = 1;
  bool replaying_ = false;
  bool warps_unchanged_ = false;
};

// Parameters of a scheduler, from `--sched-param key=value` or a TOML table. Reading a key
// marks it used; keys nobody read are reported as errors.
class SchedulerParams {
 public:
  void set(const std::string& key, const std::string& value) { values_[key] = value; }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  int64_t get_int(const std::string& key, int64_t def) const;
  double get_double(const std::string& key, double def) const;
  std::string get_string(const std::string& key, const std::string& def) const;
  bool get_bool(const std::string& key, bool def) const;  // true|false|1|0
  const std::map<std::string, std::string>& values() const { return values_; }
  // Throws Error listing keys that were given but never read.
  void check_all_used(const std::string& scheduler) const;
  // Every key read so far with the default it was read with, as text (checks declarations).
  const std::map<std::string, std::string>& defaults_read() const { return defaults_; }

 private:
  std::map<std::string, std::string> values_;
  mutable std::map<std::string, bool> used_;
  mutable std::map<std::string, std::string> defaults_;
};

// A parameter a policy reads, declared where the policy registers: `warpsim list schedulers`
// and docs/schedulers.md show them, and a test checks them against what the policy reads.
struct SchedulerParamInfo {
  std::string name;           // with a <placeholder> for a family of keys: budget.<kernel>
  std::string default_value;  // as the policy reads it; empty: none
  std::string help;
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Return the warp slot to issue from, or -1 to issue nothing this cycle.
  virtual int select(const SchedulerContext& ctx) = 0;
  // The SM issued `inst` from `slot` (after select() returned it).
  virtual void on_issue(const SchedulerContext& ctx, int slot, const WarpInst& inst) {}
  // End of the cycle: whether this scheduler issued, and the stall class if not.
  virtual void on_cycle_end(const SchedulerContext& ctx, bool issued, WarpStatus stall) {}
  virtual void on_warp_added(int slot) {}
  virtual void on_warp_removed(int slot) {}
  virtual void on_kernel_start(uint32_t kernel) {}
  virtual void on_kernel_end(uint32_t kernel) {}
  // Called right after on_kernel_start with the launch's name, stream and cycles (policies
  // that treat kernels differently, such as QAWS budgets, key on these).
  virtual void on_kernel_launch(const KernelLaunch& launch) {}
  // True when the policy needs on_cycle_end every cycle, even when the GPU would otherwise
  // skip idle cycles; learning schedulers that count stalls say true.
  virtual bool needs_every_cycle() const { return false; }
  // True when the policy acts in every cycle, even one in which nothing can change for it (a
  // learning step per cycle), but lets the GPU skip idle cycles: the SM then replays each
  // skipped cycle through select() and on_cycle_end(), in cycle order and scheduler order, with
  // a context whose replaying() is true. In a skipped cycle no warp of the scheduler is ready
  // (a ready warp passed over keeps the GPU ticking), so select() must return -1 there; the
  // policy gets exactly the calls it would get if every cycle were ticked.
  virtual bool replays_skipped_cycles() const { return false; }
  // A run of replayed cycles begins (the SM's state is the same for all of them).
  virtual void on_replay_start() {}
  // False when the policy, asked only in the last cycle of a run of skipped cycles, does by
  // itself what each of them would have done (it catches up from ctx.now() with the state
  // that held in all of them): the SM then replays that last cycle alone.
  virtual bool replays_each_skipped_cycle() const { return true; }
  // True when, in the cycles in which the policy holds no warp, it needs nothing but the count:
  // the SM then gives a run of such cycles in one on_empty_cycles() call, later than the cycles
  // themselves but before any other call to the policy (on_replay_start aside), instead of one
  // on_cycle_end() per cycle.
  virtual bool takes_empty_cycles_in_bulk() const { return false; }
  // True when the policy reads GpuCounters::mem_in_flight (or keeps copies of the whole
  // GpuCounters): the GPU adds up the SMs' memory instructions in flight, a pass over every SM
  // in every cycle, only in a run with such a policy; otherwise the field is not kept up to date.
  virtual bool reads_gpu_sums() const { return false; }
  // Cycles first .. first + n - 1, in which the scheduler held no warp and issued nothing.
  virtual void on_empty_cycles(uint64_t first, uint64_t n) {}
  // Scheduler-specific counters for the run's JSON (actions, modes, budgets, ...). Called for
  // every scheduler of every SM on the same object: add to what is there (json_add in
  // sched/report_util.h) so the result is GPU-wide.
  virtual void report(nlohmann::json& out) const;
  // Deep copy, for simulation snapshots.
  virtual std::unique_ptr<WarpScheduler> clone() const = 0;
};

// State that all schedulers of one SM share, made once per SM before its schedulers (the RLWS
// agent, QAWS's parsed options). A policy derives its own type from this one and writes, where
// it defines it, what is shared, who writes it and how snapshots copy it.
class SmSharedState {
 public:
  virtual ~SmSharedState() = default;
};

// What a scheduler instance is made from.
struct SchedulerSetup {
  const SchedulerParams& params;
  int sm_id = 0;
  int sched_id = 0;        // index among the SM's schedulers: it owns the slots s with s mod num_schedulers == sched_id
  int num_schedulers = 1;  // schedulers per SM (core.schedulers)
  std::shared_ptr<SmSharedState> sm_state;  // from the factory's make_sm_state; null when it has none

  // sm_state as the policy's own type; throws Error when it is missing or of another type.
  template <class T>
  std::shared_ptr<T> shared_state() const {
    auto p = std::dynamic_pointer_cast<T>(sm_state);
    if (!p) throw_missing_shared_state();
    return p;
  }

 private:
  [[noreturn]] void throw_missing_shared_state() const;
};

struct SchedulerFactory {
  std::string name;
  std::string description;
  std::unique_ptr<WarpScheduler> (*make)(const SchedulerSetup& setup) = nullptr;
  // Makes the object the SM's schedulers share; null when the policy shares nothing.
  std::shared_ptr<SmSharedState> (*make_sm_state)(const SchedulerParams& params, int sm_id) = nullptr;
  std::vector<SchedulerParamInfo> params;  // every --sched-param key it reads
};

// Registers a policy from its own file, at static initialisation:
//   const SchedulerRegistration kRegistered{{"lrr", "loose round robin ...", make_lrr}};
// Names are unique (a second registration of a name aborts at start-up).
class SchedulerRegistration {
 public:
  explicit SchedulerRegistration(SchedulerFactory factory);
};

// Every registered policy, sorted by name.
const std::vector<SchedulerFactory>& scheduler_registry();
// The policies and their parameters as docs/schedulers.md tables them.
std::string scheduler_params_markdown();
const SchedulerFactory& find_scheduler(const std::string& name);  // throws Error listing names

// The `num_schedulers` schedulers of SM `sm_id` under policy `f`, sharing one SmSharedState.
std::vector<std::unique_ptr<WarpScheduler>> make_sm_schedulers(const SchedulerFactory& f, const SchedulerParams& params,
                                                               int sm_id, int num_schedulers);

}  // namespace warpsim

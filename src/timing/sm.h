// One streaming multiprocessor: CTA slots, warps with fetch / instruction buffer / scoreboard,
// M warp schedulers, execution units, and the LD/ST unit with shared memory, constant cache and
// L1D in front of the memory system.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/config.h"
#include "core/kernel_source.h"
#include "memory/cache.h"
#include "memory/memory_system.h"
#include "memory/ring.h"
#include "sched/scheduler.h"
#include "timing/inst_profile.h"
#include "timing/issue_trace.h"
#include "timing/ldst_unit.h"
#include "timing/operand_collector.h"
#include "timing/packed_cta.h"
#include "timing/scoreboard.h"
#include "timing/slot_ring.h"
#include "timing/stats.h"
#include "timing/wake_set.h"

namespace warpsim {

// One scheduler decision, recorded when an issue log is attached (tests, debugging).
struct IssueRecord {
  uint64_t cycle;
  uint16_t sched;
  int16_t slot;         // warp issued, -1 for none
  uint64_t ready_mask;  // warp slots of this scheduler that were ready at the decision
  uint16_t sm = 0;
};

class Sm {
 public:
  Sm(int id, const GpuConfig& cfg, MemorySystem& mem, const GpuCounters& gpu,
     std::vector<std::unique_ptr<WarpScheduler>> schedulers);
  Sm(const Sm&) = delete;
  // Deep copy of `o` for a copied GPU (Gpu::clone) whose configuration, memory system and
  // counters are `cfg`, `mem` and `gpu`. Schedulers are cloned (call within a CloneContext so
  // that state shared by an SM's schedulers stays shared in the copy); the issue log is not
  // attached. CTA instruction streams are immutable once launched and shared with `o`.
  Sm(const Sm& o, const GpuConfig& cfg, MemorySystem& mem, const GpuCounters& gpu);

  // Resources a CTA of this kernel needs; true when one more fits now.
  bool can_host(const KernelInfo& k) const;
  // Launch a CTA with its packed streams; the SM holds them until the CTA finishes.
  void launch_cta(uint32_t kernel, const KernelInfo& k, std::shared_ptr<const PackedCta> streams, uint64_t now);
  // Heap bytes of the streams of the CTAs resident on this SM.
  uint64_t stream_bytes() const { return stream_bytes_; }

  // Simulate one cycle. Returns true when something happened that may make the next cycle
  // differ from this one (an issue, a fetch, LD/ST progress, a response, a CTA event).
  bool cycle(uint64_t now);
  // Earliest cycle > now at which this SM's state changes on its own (ALU results, fetches,
  // unit availability), or ~0. Memory responses are the memory system's events.
  uint64_t next_event(uint64_t now);
  // Accounts cycles first .. first+n-1, in which nothing changed: repeats the last cycle's stall
  // classes, and replays them to the policies that act every cycle.
  void skip_cycles(uint64_t first, uint64_t n);
  // An SM that holds no CTA and has nothing in flight, or whose cycle did nothing and that can
  // do nothing before its own next event, sleeps after its cycle: the GPU does not tick it until
  // `asleep(now)` turns false (its schedulers' own next decision, its LD/ST unit's next event), a
  // memory response for it arrives or a CTA is launched on it. Ticking it would only count each
  // scheduler's last cycle class again, so the
  // cycles it sleeps are counted by skip_cycles when it wakes, or earlier by count_sleep: the
  // statistics are the same as if it had been ticked.
  bool asleep(uint64_t now) const { return now < sleep_until_; }
  bool dormant() const { return sleep_from_ != kAwake; }
  // An SM whose policies are given every cycle (WarpScheduler::replays_skipped_cycles) dozes
  // rather than sleeps: in each cycle it sleeps the GPU calls doze(), which counts the cycle and
  // asks those policies as the cycle would have (live, not replayed), without ticking the SM;
  // the cycles the GPU itself skips are counted at once (count_sleep), so none waits for a wake.
  // Where each such policy holds no warp and takes its empty cycles in bulk, the SM sleeps
  // instead: those cycles reach the policies in one call when the sleep is counted, which
  // happens before anything they are attributed to (a kernel's start or end, a report).
  bool dozes() const { return doze_live_; }
  void doze(uint64_t now);
  // Asleep with CTAs: a memory response for the SM ends the sleep (the GPU asks for one).
  bool sleeps_on_memory() const { return sleeps_on_memory_; }
  // How often the SM fell asleep while holding CTAs (a host-side figure, not a statistic).
  uint64_t sleeps_with_ctas() const { return sleeps_with_ctas_; }
  // Of those, how often its LD/ST queue was full (a host-side figure, not a statistic).
  uint64_t sleeps_with_full_ldst() const { return sleeps_with_full_ldst_; }
  // Counts the cycles slept before `upto` (the first cycle not yet counted); the SM sleeps on.
  void count_sleep(uint64_t upto);
  // Counts the cycles slept before `upto` and ends the sleep.
  void wake(uint64_t upto);

  // CTAs finished since the last call: (kernel, cta_id).
  std::vector<std::pair<uint32_t, uint32_t>>& finished_ctas() { return finished_ctas_; }
  bool idle() const { return live_ctas_ == 0; }
  // Drops the L1D's lines (core.l1_flush_by_cluster: the GPU decides when).
  void invalidate_l1() { ldst_.invalidate_l1(); }
  uint32_t live_ctas(uint32_t kernel) const;
  int id() const { return id_; }
  uint64_t kernel_insts(uint32_t k) const { return k < kernel_insts_.size() ? kernel_insts_[k] : 0; }
  uint64_t kernel_thread_insts(uint32_t k) const {
    return k < kernel_thread_insts_.size() ? kernel_thread_insts_[k] : 0;
  }
  const CoreStats& stats() const { return stats_; }
  const SmCounters& counters() const { return counters_; }
  bool needs_every_cycle() const { return needs_every_cycle_; }
  // A scheduler of the SM reads the GPU's sums over the SMs (WarpScheduler::reads_gpu_sums).
  bool reads_gpu_sums() const {
    for (const auto& s : schedulers_)
      if (s->reads_gpu_sums()) return true;
    return false;
  }
  // `flag` is set whenever a CTA of this SM finishes (finished_ctas() grows), so that the GPU
  // looks at the SMs' lists only in cycles in which one did. Not copied with the SM.
  void set_cta_finish_flag(std::atomic<bool>* flag) { cta_finish_flag_ = flag; }
  std::vector<std::unique_ptr<WarpScheduler>>& schedulers() { return schedulers_; }
  // Gives every scheduler the empty cycles it has not been told of yet
  // (WarpScheduler::takes_empty_cycles_in_bulk); before anything reads the policies.
  void flush_empty_cycles();
  void notify_kernel_start(const KernelLaunch& launch);
  // The L1D uses `ways` ways from now on (the unified L1/shared carve-out of a new kernel).
  void set_l1d_ways(uint32_t ways) { ldst_.l1d().set_active_ways(ways); }
  void notify_kernel_end(uint32_t kernel);
  // Install new schedulers (another policy) in place of the current ones: they are told about
  // the running kernels and, oldest first, about every live warp, as if they had been there
  // from the start, and are asked to decide at the next cycle.
  void replace_schedulers(std::vector<std::unique_ptr<WarpScheduler>> schedulers,
                          const std::vector<KernelLaunch>& running);
  // Human-readable state of every live warp (deadlock diagnostics).
  // One line per unfinished warp: where it is and what it waits for (the deadlock report);
  // kernel_names[i] names launch i.
  std::string describe_warps(uint64_t now, const std::vector<std::string>& kernel_names) const;
  size_t fetches_in_flight() const { return ifills_.size() + ifetches_out_; }
  // The line of I-cache MSHR `mshr` arrived from memory (core.ifetch_through_memory).
  void instruction_arrived(int mshr, uint64_t now);
  uint64_t last_progress() const { return last_progress_; }
  void set_issue_log(std::vector<IssueRecord>* log) { issue_log_ = log; }
  // Count issues and latencies per instruction into `p` (null: off).
  void set_inst_profile(InstProfile* p) { inst_profile_ = p; }
  void set_issue_trace(IssueTrace* t) { issue_trace_ = t; }

  // --- scheduler view (SmSchedulerContext, timing/sm_scheduler_context.h, reads these) ---
  WarpStatus status(int slot) {
    // A warp blocked until a later cycle keeps its status (the common case: no call).
    const Warp& w = warps_[size_t(slot)];
    if (w.blocked_until > now_ && w.status != WarpStatus::Ready) return w.status;
    return update_status(slot);
  }
  bool waiting_on_memory(int slot);
  // GPGPU-Sim's two-level demotion test beyond barriers and exits (SchedulerContext::waits_on_long_op).
  bool waits_on_long_op(int slot);
  const WarpInst& next_inst(int slot) const { return warps_[slot].cur(); }
  // next_inst's brief, kept per warp until its next instruction changes.
  InstBrief next_brief(int slot) {
    Warp& w = warps_[size_t(slot)];
    if (!w.brief_known) {
      w.brief = brief_of(w.cur());
      w.brief_known = true;
    }
    return w.brief;
  }
  const WarpInfo& warp_info(int slot) const { return warps_[slot].info; }
  const CtaInfo& cta_info(int slot) const { return ctas_[slot].info; }
  const std::vector<uint16_t>& sched_warps(int s) const { return sched_age_[s]; }
  const std::vector<uint16_t>& sched_slots(int s) const { return sched_slot_[s]; }
  const GpuCounters& gpu() const { return gpu_; }
  uint64_t now() const { return now_; }
  int num_cta_slots() const { return int(ctas_.size()); }
  int warps_per_scheduler() const { return int(cfg_.core.max_warps / cfg_.core.schedulers); }
  int num_schedulers() const { return int(cfg_.core.schedulers); }
  int num_sms() const { return int(cfg_.core.num_sms); }

 private:
  // The scheduler asked i-th in cycle `cycle` (core.rotate_issue_priority: the order starts at
  // scheduler cycle mod m; else scheduler i). A function of the cycle, so skipped and replayed
  // cycles get the order ticking would have given them.
  uint32_t sched_in_order(uint32_t i, uint64_t cycle) const {
    return cfg_.core.rotate_issue_priority ? sched_of(uint64_t(i) + cycle) : i;
  }
  // x mod the number of schedulers (the scheduler of warp slot x), without a division when
  // that number is a power of two (every preset).
  uint32_t sched_of(uint64_t x) const {
    const uint32_t m = cfg_.core.schedulers;
    return (m & (m - 1)) == 0 ? uint32_t(x & (m - 1)) : uint32_t(x % m);
  }
  // needs_every_cycle_ and replays_ from the schedulers.
  void read_scheduler_needs();
  // Cycle now_ for scheduler `s`, which replays skipped cycles and cannot issue in it; `frozen`:
  // a cycle the GPU skipped (nothing changed anywhere since the previous one).
  void idle_cycle(uint32_t s, bool frozen);
  // status() when the warp's cached status may have changed or is Ready.
  WarpStatus update_status(int slot);
  // Cycle now_ for scheduler `s`, which is idle and whose warps did not change: its last class
  // counted again, and a policy that is given every cycle asked.
  void unchanged_cycle(uint32_t s, uint64_t now) {
    stats_.sched_cycles[int(last_class_[s])]++;
    if (last_class_[s] == CycleClass::UnitBusy) stats_.unit_busy[int(last_busy_unit_[s])]++;
    if (!sched_replays_[s]) return;
    if (in_bulk(s))
      add_empty_cycles(s, now, 1);
    else
      idle_cycle(s, false);
  }
  // Cycles first .. first + n - 1 of scheduler `s`, which holds no warp and takes them in bulk.
  void add_empty_cycles(uint32_t s, uint64_t first, uint64_t n) {
    EmptyRun& run = empty_runs_[s];
    if (run.n && run.first + run.n == first) {
      run.n += n;
      return;
    }
    flush_empty_cycles(s);
    run = {first, n};
  }
  bool in_bulk(uint32_t s) const { return bulk_empty_[s] && sched_slot_[s].empty(); }
  // The empty cycles scheduler `s` has not been told of yet, if any.
  void flush_empty_cycles(uint32_t s) {
    if (empty_runs_[s].n) {
      schedulers_[s]->on_empty_cycles(empty_runs_[s].first, empty_runs_[s].n);
      empty_runs_[s].n = 0;
    }
  }
  friend class LdstUnit;
  enum class NeedsUnit : uint8_t { None, Mem, Sfu, Alu };
  struct Warp {
    const WarpInst* table = nullptr;      // the CTA's distinct instructions (PackedCta)
    const uint32_t* codes = nullptr;      // the stream: indices into `table`
    const uint32_t* addr_next = nullptr;  // address record of the next memory instruction
    uint32_t n = 0;                       // instructions in the stream
    uint32_t next = 0;                    // next instruction to issue
    const WarpInst* cur_inst = nullptr;   // inst(next) while next < n (set_next)
    bool brief_known = false;             // `brief` is that of cur_inst (next_brief)
    InstBrief brief;
    // Warp-local status (Ready meaning "ready but for its unit"), valid until cycle
    // `blocked_until` unless an event of the warp invalidates it first (invalidate()). With
    // `next` and `brief` in the struct's first 64 bytes: what a scheduler reads of every warp.
    WarpStatus status = WarpStatus::Finished;
    NeedsUnit needs_unit = NeedsUnit::None;
    uint64_t blocked_until = 0;
    Unit unit = Unit::SP;
    bool on_memory = false;
    uint32_t ibuf = 0;  // decoded instructions at the head of the stream
    uint32_t inst_bytes = 8;
    uint64_t ibuf_ready = 0;       // cycle the decoded instructions become visible
    uint64_t branch_wait = 0;      // no fetch before this cycle (a taken branch resolving)
    uint64_t code_base = 0;        // instruction address space of the warp's kernel
    uint64_t local_thread = 0;     // lane 0's place in a word-row of local memory (core.local_layout)
    uint64_t local_stride = 0;     // threads in a word-row of local memory
    bool fetching = false;         // waiting for an I-cache fill
    bool control = false;          // the empty ibuffer is due to a taken branch
    bool stale_successor = false;  // the buffer ends at a taken branch that was not its fetch's last
    bool wrong_path = false;       // core.fetch_falls_through: the next fetch brings the fall-through
    uint64_t wrong_addr = 0;       // its address
    uint32_t pending_mem = 0;      // memory instructions in flight
    uint64_t done_at = 0;          // core.exit_at_fetch_scan: cycle its exit and last results have left the pipeline
    bool left = false;             // core.exit_at_fetch_scan: the fetch stage passed it after that
    uint32_t atomics = 0;          // atomics in flight (core.atomic_waits)
    uint64_t atomic_done = 0;      // cycle the last atomic's result is written back
    uint64_t barrier_done = 0;     // cycle a released barrier lets the warp issue (core.barrier_latency)
    uint64_t results_at = 0;       // oc.queued_dispatch: cycle the last ALU result is written back
    Scoreboard sb;
    WarpInfo info;
    void invalidate() { blocked_until = 0; }
    const WarpInst& inst(uint32_t i) const { return table[codes[i]]; }
    // The next instruction (next < n).
    const WarpInst& cur() const { return *cur_inst; }
    void set_next(uint32_t i) {
      next = i;
      cur_inst = i < n ? &table[codes[i]] : nullptr;
      brief_known = false;
    }
  };
  struct Cta {
    CtaInfo info;
    // The streams the CTA's warps point into, released when it finishes. Never modified; shared
    // with the copies of this SM made by Gpu::clone, so a copy does not duplicate them.
    std::shared_ptr<const PackedCta> streams;
    std::vector<uint16_t> warp_slots;
    uint32_t threads = 0, regs = 0, shared = 0;
  };

  bool fetch(uint64_t now);
  // Whether fetch() has anything to do: an I-cache fill to take or a warp wanting instructions
  // (without, it changes nothing and returns false; most cycles of a memory-bound SM).
  bool fetch_has_work() const { return fetch_want_ != 0 || leaving_ != 0 || !ifills_.empty() || !ifeed_.empty(); }
  void warp_done(int slot, uint64_t now);
  bool pass_leaving(uint64_t span, uint64_t now);
  void compute_local_status(Warp& w);
  void fill_ibuffer(Warp& w, uint64_t ready);
  void icache_filled(int mshr, uint64_t now);
  void issue(int sched, int slot, uint64_t now);
  void arrive_barrier(uint32_t cta_slot, uint64_t now);
  void warp_finished(int slot, uint64_t now);
  void maybe_finish_cta(int cta_slot, uint64_t now);
  Unit route(Unit u) const;
  uint64_t exit_pipeline() const;
  // A free instance of unit `u` for scheduler `sched` (its index in unit_free_), or -1. With
  // core.result_slot_conflicts, `latency` > 0 also requires that no instruction issued earlier
  // to that instance writes its result back in cycle now + latency.
  int free_unit(int sched, Unit u, uint64_t now, uint32_t latency = 0);
  // oc.queued_dispatch: the instance index of a free issue slot of unit type `u` for `sched`
  // (the one free longest), or -1; the first cycle one is free.
  int free_issue_slot(int sched, Unit u, uint64_t now) const;
  uint64_t issue_slot_next_free(int sched, Unit u) const {
    return issue_slot_min_[(subcore_ ? uint32_t(sched) : 0u) * kNumUnits + uint32_t(u)];
  }
  // oc.queued_dispatch: an ALU or SFU instruction issued now to unit type `u`; returns the cycle
  // it reaches a unit instance.
  uint64_t issue_queued(int sched, int slot, Unit u, const WarpInst& in, uint32_t latency, uint32_t initiation,
                        uint64_t now);
  static uint64_t code_window(const std::string& kernel_name);  // 20-bit window index
  bool collector_free(int sched, Unit u) const {
    return !oc_.enabled() || (oc_.accept_cycle(sched, u, now_) <= now_ && !held_out(sched, u));
  }
  // oc.mem_holds_collectors: every collector unit `u` would use is held by waiting memory
  // instructions (they give them back as the LD/ST unit takes instructions; cycle() then marks
  // the schedulers that share the unit changed).
  bool held_out(int sched, Unit u) const { return cfg_.oc.mem_holds_collectors && oc_.all_held(sched, u); }
  // oc.mem_holds_collectors: scheduler `sched`'s memory instructions behind the first one that
  // waits for the LD/ST unit hold a collector unit each. True if a held unit was given back.
  bool sync_mem_holds(int sched, uint64_t now) {
    const uint32_t w = ldst_.waiting(sched);
    return oc_.hold(sched, Unit::MEM, w > 1 ? w - 1 : 0, now);
  }
  // The unit config whose tables time `in`: its latency_unit, else the unit it names (not the
  // one it may be routed to: an integer add on a GPU without INT units runs on SP with the
  // integer latency, as in GPGPU-Sim, where latency follows the operation and its type).
  const UnitConfig& timing_unit(const WarpInst& in, Unit) const {
    Unit t = in.latency_unit < Unit::kCount ? in.latency_unit : in.unit;
    return cfg_.units[t < Unit::kCount ? int(t) : 0];
  }
  static int latency_index(const WarpInst& in) { return in.latency_class < kNumLatencyClasses ? in.latency_class : 0; }
  uint32_t result_latency(const WarpInst& in, Unit u) const { return timing_unit(in, u).latency[latency_index(in)]; }
  uint32_t initiation_interval(const WarpInst& in, Unit u) const {
    return timing_unit(in, u).initiation[latency_index(in)];
  }
  CycleClass classify(int sched, Unit* busy_unit, uint64_t* wake);
  uint64_t unit_next_free(int sched, Unit u) const;
  // A warp's state changed: drop its cached status and wake its scheduler.
  void touch(int slot) {
    warps_[slot].invalidate();
    sched_dirty_[sched_of(uint32_t(slot))] = 1;
  }
  static WarpStatus status_of_class(CycleClass c);
  void wake_at(uint64_t t) {
    if (t > now_) wakes_.add(t);
  }
  // A memory instruction of warp `slot` completed in the LD/ST unit: its results are ready at
  // `ready`; `in` was issued at `issued`.
  // `missed`: an access of it missed its cache (what decides its long-op marks).
  void mem_done(int slot, const WarpInst& in, uint64_t issued, const RegId* dst, int ndst, bool atomic, bool missed,
                uint64_t ready, uint64_t now);

  int id_;
  const GpuConfig& cfg_;
  MemorySystem& mem_;
  const GpuCounters& gpu_;
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  std::vector<Warp> warps_;
  std::vector<Cta> ctas_;
  std::vector<std::vector<uint16_t>> sched_age_, sched_slot_;
  // Units: free_at cycle per unit instance; [sched][unit][instance] in subcore mode, else [0].
  std::vector<uint64_t> unit_free_;
  uint32_t unit_stride_ = 0;
  bool subcore_ = false;  // cfg_.core.subcore, read on the status path
  // Result (write-back) cycles taken per unit instance, by absolute cycle. Only with
  // core.result_slot_conflicts.
  static constexpr uint32_t kResultRing = 512;
  using ResultSlots = SlotRing<kResultRing>;
  std::vector<ResultSlots> result_slots_;
  // oc.queued_dispatch: per unit instance (indexed as unit_free_), the cycle its slot of the
  // issue-to-collector register and of the collector-to-unit register is free again.
  std::vector<uint64_t> issue_slot_free_, unit_slot_free_;
  std::vector<uint64_t> issue_slot_min_;  // per unit type (and sub-core): the earliest of its issue slots
  OperandCollector oc_;
  uint32_t mem_issued_this_cycle_ = 0, sfu_issued_this_cycle_ = 0;
  Cache icache_;
  LdstUnit ldst_;
  CoreStats stats_;
  SmCounters counters_;
  std::vector<CycleClass> last_class_;
  std::vector<Unit> last_busy_unit_;
  std::vector<uint8_t> sched_dirty_;  // an event touched one of the scheduler's warps
  std::vector<uint64_t> sched_wake_;  // first cycle its idle decision may change by itself
  // The LD/ST queue was full at the cycle's start for every scheduler (ldst_.full()), and with
  // core.ldst_queue_per_scheduler for each one (ldst_.full(s)); ldst_was_full_: the cycle before.
  std::vector<uint8_t> ldst_full_at_start_, ldst_was_full_;
  bool ldst_full_all_at_start_ = false;
  uint64_t ldst_dequeues_seen_ = 0;  // ldst_.dequeues() when the collector holds were last synced
  bool mem_port_used_last_cycle_ = false;
  WakeSet wakes_;  // future cycles at which something changes by itself
  uint64_t now_ = 0;
  uint64_t next_age_ = 0;
  uint64_t fetch_want_ = 0;  // warps whose instruction buffer is empty and may fetch
  uint64_t leaving_ = 0;     // core.exit_at_fetch_scan: finished warps the fetch stage has not passed yet
  uint32_t used_threads_ = 0, used_regs_ = 0, used_shared_ = 0, used_warps_ = 0, live_ctas_ = 0;
  uint64_t stream_bytes_ = 0;  // PackedCta::bytes() of the resident CTAs' streams
  uint32_t fetch_rr_ = 0;
  bool needs_every_cycle_ = false;
  std::atomic<bool>* cta_finish_flag_ = nullptr;
  // Schedulers that act every cycle (WarpScheduler::replays_skipped_cycles): cycle() asks them
  // in the cycles it lets the others idle, skip_cycles replays the cycles the GPU skipped, and
  // the SM does not sleep.
  bool replays_ = false;
  enum : uint8_t { kNoReplay, kReplayEach, kReplayLast };
  std::vector<uint8_t> sched_replays_;  // per scheduler: which skipped cycles it is given
  // Per scheduler: its policy takes the cycles in which it holds no warp in bulk, and the run of
  // such cycles not yet given to it.
  struct EmptyRun {
    uint64_t first = 0, n = 0;
  };
  std::vector<uint8_t> bulk_empty_;
  std::vector<EmptyRun> empty_runs_;
  std::vector<uint8_t> replay_each_scratch_;  // skip_cycles: the schedulers replayed cycle by cycle
  std::vector<IssueRecord>* issue_log_ = nullptr;
  InstProfile* inst_profile_ = nullptr;
  IssueTrace* issue_trace_ = nullptr;  // --issue-log: every issued instruction
  struct IFill {
    int mshr;
    uint64_t ready;
  };
  std::vector<IFill> ifills_;
  // core.ifill_feeds_one_per_fetch: warps whose I-cache line has arrived, in the order they
  // missed, each waiting for a fetch slot to take it.
  Ring<uint16_t> ifeed_{64};
  uint32_t ifetches_out_ = 0;                                 // I-cache misses sent to memory, not yet back
  std::vector<uint64_t> kernel_insts_, kernel_thread_insts_;  // by kernel launch index
  uint64_t sleeps_with_ctas_ = 0;
  uint64_t sleeps_with_full_ldst_ = 0;
  // What the GPU reads of every SM in every cycle (wants_cycle, dozes, last_progress,
  // finished_ctas), in one cache line of its own.
  static constexpr uint64_t kAwake = ~0ull;
  alignas(64) uint64_t sleep_from_ = kAwake;  // first cycle slept and not yet counted (kAwake: ticked)
  uint64_t sleep_until_ = 0;                  // first cycle the SM must be ticked again by itself
  uint64_t last_progress_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> finished_ctas_;
  bool sleeps_on_memory_ = false;  // the sleep began with CTAs on the SM
  bool doze_live_ = false;         // the current sleep is a doze (dozes())
  void maybe_sleep(uint64_t now);
};

}  // namespace warpsim

#include "timing/gpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/error.h"
#include "core/l1_carveout.h"
#include "core/occupancy.h"
#include "sched/clone_context.h"

namespace warpsim {

Gpu::Gpu(const GpuConfig& cfg, const std::string& scheduler, const SchedulerParams& params)
    : cfg_(cfg), scheduler_(scheduler), params_(params) {
  validate(cfg_);
  mem_ = std::make_unique<MemorySystem>(cfg_);
  const SchedulerFactory& f = find_scheduler(scheduler);
  for (uint32_t i = 0; i < cfg_.core.num_sms; ++i) {
    sms_.push_back(std::make_unique<Sm>(int(i), cfg_, *mem_, counters_, make_schedulers(f, int(i))));
    sms_.back()->set_cta_finish_flag(&ctas_finished_);
    every_cycle_ |= sms_.back()->needs_every_cycle();
    gpu_sums_ |= sms_.back()->reads_gpu_sums();
  }
  params_.check_all_used(scheduler);
  sm_kernel_rr_.assign(cfg_.core.num_sms, 0);
  // GPGPU-Sim's m_cta_issue_next_core starts at the last SM, so a cluster's first CTA goes to its first.
  cluster_sm_rr_.assign(cfg_.core.num_sms, std::max(1u, cfg_.core.sms_per_cluster) - 1);
}

Gpu::~Gpu() = default;

std::vector<std::unique_ptr<WarpScheduler>> Gpu::make_schedulers(const SchedulerFactory& f, int sm) const {
  return make_sm_schedulers(f, params_, sm, int(cfg_.core.schedulers));
}

// --- snapshots ------------------------------------------------------------------------------
Gpu::Gpu(const Gpu& o, CloneTag)
    : cfg_(o.cfg_),
      scheduler_(o.scheduler_),
      params_(o.params_),
      mem_(std::make_unique<MemorySystem>(*o.mem_)),
      counters_(o.counters_),
      queue_(o.queue_),
      ctas_waiting_(o.ctas_waiting_),
      last_submit_cycle_(o.last_submit_cycle_),
      results_(o.results_),
      kernel_stats_(o.kernel_stats_),
      ipc_(o.ipc_),
      now_(o.now_),
      sm_counted_until_(o.sm_counted_until_),
      sample_start_(o.sample_start_),
      sample_insts_(o.sample_insts_),
      dispatch_rr_(o.dispatch_rr_),
      sm_kernel_rr_(o.sm_kernel_rr_),
      cluster_sm_rr_(o.cluster_sm_rr_),
      l1_flush_pending_(o.l1_flush_pending_),
      every_cycle_(o.every_cycle_),
      gpu_sums_(o.gpu_sums_),
      ctas_finished_(o.ctas_finished_.load()),
      progress_mark_(o.progress_mark_),
      resume_(o.resume_) {
  // Kernel sources first: the one that cannot be copied fails before anything big is copied.
  kernels_.reserve(o.kernels_.size());
  for (const auto& kp : o.kernels_) {
    auto k = std::make_unique<Kernel>();
    k->source = kp->source ? kp->source->clone() : nullptr;
    k->info = kp->info;
    k->id = kp->id;
    k->stream = kp->stream;
    k->launch_cycle = kp->launch_cycle;
    k->start_cycle = kp->start_cycle;
    k->first_cta_cycle = kp->first_cta_cycle;
    k->next_cta = kp->next_cta;
    k->ctas_done = kp->ctas_done;
    k->state = kp->state;
    k->at_start = kp->at_start;
    kernels_.push_back(std::move(k));
  }
  CloneContext ctx;  // schedulers of one SM share their copied state; GPU counters are ours
  ctx.map(&o.counters_, &counters_);
  sms_.reserve(o.sms_.size());
  for (const auto& sm : o.sms_) {
    sms_.push_back(std::make_unique<Sm>(*sm, cfg_, *mem_, counters_));
    sms_.back()->set_cta_finish_flag(&ctas_finished_);
  }
  issue_log_ = o.issue_log_;  // the copy's workers are made when it first runs
}

std::unique_ptr<Gpu> Gpu::clone() const { return std::unique_ptr<Gpu>(new Gpu(*this, CloneTag{})); }

void Gpu::set_scheduler(const std::string& scheduler, const SchedulerParams& params) {
  const SchedulerFactory& f = find_scheduler(scheduler);
  SchedulerParams old = params_;
  params_ = params;
  std::vector<std::vector<std::unique_ptr<WarpScheduler>>> all;
  try {
    for (auto& sm : sms_) all.push_back(make_schedulers(f, sm->id()));
    params_.check_all_used(scheduler);
  } catch (...) {
    params_ = std::move(old);
    throw;
  }
  std::vector<KernelLaunch> running;
  for (uint32_t id : queue_.running()) {
    const Kernel& k = *kernels_[id];
    running.push_back({k.id, k.info.name, k.stream, k.launch_cycle, k.start_cycle});
  }
  scheduler_ = scheduler;
  every_cycle_ = gpu_sums_ = false;
  for (size_t i = 0; i < sms_.size(); ++i) {
    sms_[i]->wake(sm_counted_until_);  // new schedulers decide afresh (replace_schedulers)
    sms_[i]->replace_schedulers(std::move(all[i]), running);
    every_cycle_ |= sms_[i]->needs_every_cycle();
    gpu_sums_ |= sms_[i]->reads_gpu_sums();
  }
}

uint64_t Gpu::warp_insts() const {
  uint64_t n = 0;
  for (const auto& sm : sms_) n += sm->stats().warp_insts;
  return n;
}

bool Gpu::done(int stream) const { return stream < 0 ? queue_.empty() : !queue_.last_of(uint32_t(stream)); }

bool Gpu::run_until_cycle(uint64_t cycle, int stream) {
  if (stream < 0) return step_until(kAllLaunches, cycle);
  std::optional<uint32_t> last = queue_.last_of(uint32_t(stream));
  return !last || step_until(*last, cycle);
}

uint32_t Gpu::enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay) {
  auto k = std::make_unique<Kernel>();
  k->info = kernel->info();
  if (k->info.num_ctas() == 0) throw Error(fmt::format("kernel '{}': empty grid", k->info.name));
  if (k->info.threads_per_cta() == 0) throw Error(fmt::format("kernel '{}': empty block", k->info.name));
  // A CTA that can never fit would wait forever: say why now.
  const CoreConfig& c = cfg_.core;
  uint32_t regs = regs_per_cta(c, k->info.regs_per_thread, k->info.warps_per_cta());
  if (ctas_per_sm(c, {k->info.threads_per_cta(), k->info.regs_per_thread, k->info.shared_bytes_per_cta}) == 0)
    throw Error(
        fmt::format("kernel '{}': one CTA ({} threads, {} registers, {} bytes shared) does not fit an SM of "
                    "'{}' ({} threads, {} registers, {} bytes shared)",
                    k->info.name, k->info.threads_per_cta(), regs, k->info.shared_bytes_per_cta, cfg_.name,
                    c.max_threads, c.registers, c.shared_mem));
  k->source = std::move(kernel);
  k->id = uint32_t(kernels_.size());
  k->stream = stream;
  k->launch_cycle = now_ + delay;
  // The host submits one launch per core.kernel_submit_interval at most.
  if (c.kernel_submit_interval && !kernels_.empty())
    k->launch_cycle = std::max(k->launch_cycle, last_submit_cycle_ + c.kernel_submit_interval);
  last_submit_cycle_ = k->launch_cycle;
  queue_.push(k->id, k->stream, k->launch_cycle);
  ctas_waiting_ += k->info.num_ctas();
  kernels_.push_back(std::move(k));
  return kernels_.back()->id;
}

StatsSnapshot Gpu::snapshot() const {
  StatsSnapshot s;
  s.cycle = now_;
  for (const auto& sm : sms_) {
    sm->count_sleep(sm_counted_until_);  // the cycles a sleeping SM would have counted
    s.core += sm->stats();
  }
  s.mem = mem_->stats();
  return s;
}

// A launch starts at its launch cycle once every earlier launch of its stream has finished;
// launches of different streams that become ready in the same cycle start in launch order.
void Gpu::start_eligible_kernels() {
  started_.clear();
  queue_.start_due(now_, started_);
  for (uint32_t id : started_) {
    Kernel& k = *kernels_[id];
    k.state = Kernel::Running;
    k.start_cycle = now_;
    k.first_cta_cycle =
        now_ + cfg_.core.kernel_launch_latency + uint64_t(cfg_.core.cta_dispatch_latency) * k.info.num_ctas();
    k.at_start = snapshot();
    if (cfg_.l2.flush_at_launch) mem_->drop_l2();
    mem_->add_window(k.id, k.info.access_window);
    KernelLaunch launch{k.id, k.info.name, k.stream, k.launch_cycle, k.start_cycle};
    for (auto& sm : sms_) sm->notify_kernel_start(launch);
    if (l1_carveout_enabled(cfg_)) {
      // The shared memory of the CTAs an SM will hold at once, the grid spread over the SMs.
      const CoreConfig& c = cfg_.core;
      const uint64_t shared = k.info.shared_bytes_per_cta;
      uint32_t resident = ctas_per_sm(c, {k.info.threads_per_cta(), k.info.regs_per_thread, shared});
      const uint64_t spread = (k.info.num_ctas() + sms_.size() - 1) / sms_.size();
      resident = uint32_t(std::min<uint64_t>(resident, spread));
      const uint32_t ways = l1d_ways_for_kernel(cfg_, shared, resident);
      for (auto& sm : sms_) sm->set_l1d_ways(ways);
    }
  }
}

// One CTA per SM per cycle, SMs visited round robin (core.cta_dispatch_per_cluster: one CTA per
// cluster per cycle, clusters visited round robin and a cluster's SMs in turn). Concurrent kernels
// share an SM in the order of `dispatch`: fifo (oldest kernel first) or round_robin (alternating
// per SM).
bool Gpu::dispatch() {
  bool any = false;
  std::vector<Kernel*>& running = dispatchable_;
  running.clear();
  for (uint32_t id : queue_.running()) {
    Kernel* k = kernels_[id].get();
    if (k->next_cta < k->info.num_ctas() && k->first_cta_cycle <= now_) running.push_back(k);
  }
  if (running.empty()) return false;
  if (refused_at_ == retired_ctas_ && running.size() == refused_kernels_.size() &&
      std::equal(running.begin(), running.end(), refused_kernels_.begin(),
                 [](const Kernel* k, uint32_t id) { return k->id == id; }))
    return false;
  // The clusters are visited from the one after the last cluster that received a CTA (GPGPU-Sim's
  // m_last_cluster_issue): the order moves only when a CTA is placed, so cycles in which nothing
  // can be placed (and the GPU may skip) leave it alone. Without cta_dispatch_per_cluster every SM
  // is a cluster of its own here. SM c + j * clusters is the j-th SM of cluster c (the
  // interconnect's mapping), tried from the one after the cluster's last that received a CTA
  // (GPGPU-Sim's m_cta_issue_next_core).
  const uint32_t n = uint32_t(sms_.size());
  const uint32_t per = cfg_.core.cta_dispatch_per_cluster ? cfg_.core.sms_per_cluster : 1;
  const uint32_t clusters = n / per;
  const uint32_t start = dispatch_rr_;
  for (uint32_t i = 0; i < clusters; ++i) {
    const uint32_t c = (start + i) % clusters;
    for (uint32_t j = 0; j < per; ++j) {
      const uint32_t core = (cluster_sm_rr_[c] + 1 + j) % per;
      if (!place_cta(c + core * clusters, running)) continue;
      cluster_sm_rr_[c] = core;
      dispatch_rr_ = (c + 1) % clusters;
      any = true;
      break;
    }
  }
  if (!any) {
    refused_at_ = retired_ctas_;
    refused_kernels_.clear();
    for (const Kernel* k : running) refused_kernels_.push_back(k->id);
  } else {
    refused_at_ = ~0ull;
  }
  return any;
}

// Places the next CTA of the first kernel in `running` that SM `smi` can host, in the SM's kernel
// order; false if it can host none.
bool Gpu::place_cta(uint32_t smi, const std::vector<Kernel*>& running) {
  Sm& sm = *sms_[smi];
  const size_t nk = running.size();
  const size_t first = cfg_.dispatch == "fifo" ? 0 : sm_kernel_rr_[smi] % nk;
  for (size_t j = 0; j < nk; ++j) {
    Kernel& k = *running[(first + j) % nk];
    if (k.next_cta >= k.info.num_ctas() || !sm.can_host(k.info)) continue;
    uint32_t cta = k.next_cta++;
    --ctas_waiting_;
    cta_buf_.warps.clear();
    cta_buf_.cta_id = cta;
    k.source->produce_cta(cta, smi, cta_buf_);
    cta_buf_.cta_id = cta;
    auto packed = std::make_shared<PackedCta>();
    packer_.pack(cta_buf_, *packed);
    check_stream_memory(k, *packed);
    sm.launch_cta(k.id, k.info, std::move(packed), now_);
    sm_kernel_rr_[smi] = uint32_t((first + j + 1) % nk);
    return true;
  }
  return false;
}

void Gpu::enable_issue_trace() {
  if (!issue_trace_) issue_trace_ = std::make_unique<IssueTrace>();
  for (auto& sm : sms_) sm->set_issue_trace(issue_trace_.get());
}

void Gpu::enable_inst_profile() {
  if (!inst_profile_) inst_profile_ = std::make_unique<InstProfile>();
  for (auto& sm : sms_) sm->set_inst_profile(inst_profile_.get());
}

void Gpu::finish_kernel(Kernel& k) {
  k.state = Kernel::Done;
  queue_.finish(k.id, k.stream);
  KernelResult r;
  r.name = k.info.name;
  r.launch_index = k.id;
  r.stream = k.stream;
  r.grid = k.info.grid;
  r.block = k.info.block;
  r.launch_cycle = k.launch_cycle;
  r.start_cycle = k.start_cycle;
  r.end_cycle = now_;
  KernelStats ks;
  ks.stats = snapshot() - k.at_start;
  for (auto& sm : sms_) {
    r.warp_insts += sm->kernel_insts(k.id);
    r.thread_insts += sm->kernel_thread_insts(k.id);
  }
  ks.result = r;
  results_.push_back(r);
  kernel_stats_.push_back(ks);
  for (auto& sm : sms_) sm->notify_kernel_end(k.id);
  mem_->remove_window(k.id);
  if (inst_profile_)
    for (auto& [pc, e] : inst_profile_->take(k.id))
      inst_rows_.push_back({k.info.name, k.id, pc, k.source->source_line(pc), e});
  k.source->on_kernel_done();
  k.source.reset();  // every CTA was produced: nothing needs the source any more
}

void Gpu::retire_ctas() {
  if (!ctas_finished_.load(std::memory_order_relaxed)) return;  // no SM's list grew
  ctas_finished_.store(false, std::memory_order_relaxed);
  const bool flush_later = cfg_.core.l1_flush_when_idle && cfg_.core.l1_flush_by_cluster;
  for (auto& sm : sms_) {
    auto& done = sm->finished_ctas();
    for (auto [kid, cta] : done) {
      Kernel& k = *kernels_[kid];
      if (++k.ctas_done == k.info.num_ctas()) finish_kernel(k);
      ++retired_ctas_;
    }
    if (flush_later && !done.empty() && sm->idle()) {
      std::erase_if(l1_flush_pending_, [&](const PendingFlush& p) { return p.sm == uint32_t(sm->id()); });
      l1_flush_pending_.push_back({uint32_t(sm->id()), done.back().first});
    }
    done.clear();
  }
}

// GPGPU-Sim's gpgpu_sim::cycle issues the cycle's CTAs and then invalidates the L1s of every
// cluster with no thread left. An SM whose last CTA finished keeps its lines when the dispatch
// that follows gives it another CTA of the same kernel (then for good) or while another SM of
// its cluster runs one; once its whole cluster is idle after a dispatch, every SM of the cluster
// drops them. A CTA of another kernel finds the SM flushed: GPGPU-Sim starts a kernel cycles
// after the one before it ends, with its clusters idle in between.
void Gpu::settle_l1_flushes() {
  const uint32_t n = uint32_t(sms_.size());
  const uint32_t clusters = n / std::max(1u, cfg_.core.sms_per_cluster);
  std::erase_if(l1_flush_pending_, [&](const PendingFlush& p) {
    Sm& sm = *sms_[p.sm];
    if (!sm.idle()) {
      if (sm.live_ctas(p.kernel) == 0) sm.invalidate_l1();  // only another kernel's CTAs
      return true;
    }
    const uint32_t c = p.sm % clusters;
    for (uint32_t t = c; t < n; t += clusters)
      if (!sms_[t]->idle()) return false;  // its cluster still runs: wait
    for (uint32_t t = c; t < n; t += clusters) sms_[t]->invalidate_l1();
    return true;
  });
}

void Gpu::refresh_gpu_counters() {
  counters_.ctas_waiting = ctas_waiting_;
  const MemoryStats& ms = mem_->counters();  // no DRAM figure is read here
  counters_.l2_hits = ms.l2_read_hits + ms.l2_write_hits;
  counters_.l2_misses = (ms.l2_reads + ms.l2_writes) - counters_.l2_hits;
  counters_.avg_mem_latency = mem_->average_read_latency();
  if (gpu_sums_) {
    uint64_t inflight = 0;
    for (auto& sm : sms_) inflight += sm->counters().mem_in_flight;
    counters_.mem_in_flight = inflight;
  }
  counters_.cycle = now_;
}

void Gpu::sample(uint64_t upto) {
  // Close every sampling window that ends at or before `upto`.
  if (sample_start_ + cfg_.sample_interval > upto) return;
  uint64_t insts = 0;
  for (auto& sm : sms_) insts += sm->stats().warp_insts;
  while (sample_start_ + cfg_.sample_interval <= upto) {
    uint64_t end = sample_start_ + cfg_.sample_interval;
    uint64_t window = insts - sample_insts_;  // skipped windows issued nothing
    ipc_.push_back({end, double(window) / double(cfg_.sample_interval)});
    sample_insts_ = insts;
    sample_start_ = end;
  }
}

void Gpu::check_limits() {
  if (cfg_.max_cycles && now_ >= cfg_.max_cycles)
    throw LimitError(fmt::format("cycle limit reached: {} cycles (max_cycles = {})", now_, cfg_.max_cycles));
  if (cfg_.max_insts) {
    uint64_t insts = 0;
    for (auto& sm : sms_) insts += sm->stats().warp_insts;
    if (insts >= cfg_.max_insts)
      throw LimitError(fmt::format("instruction limit reached: {} warp instructions at cycle {} (max_insts = {})",
                                   insts, now_, cfg_.max_insts));
  }
}

// The streams of the resident CTAs are the host memory a run holds per CTA; past the limit the
// run stops with an error rather than being killed by the host for want of memory.
void Gpu::check_stream_memory(const Kernel& k, const PackedCta& cta) const {
  if (!cfg_.stream_memory_limit_mb) return;
  uint64_t held = cta.bytes();
  for (const auto& sm : sms_) held += sm->stream_bytes();
  if (held <= cfg_.stream_memory_limit_mb << 20) return;
  const double mb = 1024.0 * 1024.0;
  throw Error(fmt::format(
      "kernel '{}' (launch {}): with CTA {} ({:.1f} MB) the instruction streams of the CTAs resident on the GPU "
      "would take {:.1f} MB of host memory, over stream_memory_limit_mb = {}; if the host has the memory, raise the "
      "limit with --set stream_memory_limit_mb=N (0: no limit)",
      k.info.name, k.id, cta.cta_id, double(cta.bytes()) / mb, double(held) / mb, cfg_.stream_memory_limit_mb));
}

void Gpu::deadlock() {
  std::vector<std::string> names;
  for (auto& k : kernels_) names.push_back(k->info.name);
  std::string warps;
  uint64_t fetches = 0;
  for (auto& sm : sms_) {
    warps += sm->describe_warps(now_, names);
    fetches += sm->fetches_in_flight();
  }
  std::string kernels;
  for (uint32_t id : queue_.running()) {
    const Kernel& k = *kernels_[id];
    kernels += fmt::format("{}{} (launch {}, {} of {} CTAs done)", kernels.empty() ? "" : ", ", k.info.name, k.id,
                           k.ctas_done, k.info.num_ctas());
  }
  throw DeadlockError(
      fmt::format("deadlock: no warp made progress for {} cycles (cycle {}); running kernels: {}; "
                  "memory requests in flight: {}; instruction fetches in flight: {}\nstuck warps:\n{}",
                  cfg_.watchdog_cycles, now_, kernels.empty() ? "none" : kernels, mem_->in_flight(), fetches, warps));
}

bool Gpu::step_until(uint32_t wait_for, uint64_t until) {
  auto pending = [&] { return wait_for == kAllLaunches ? !queue_.empty() : kernels_[wait_for]->state != Kernel::Done; };
  // A run stopped at `until` continues with its watchdog state, so that stopping changes nothing.
  // (A call with nothing to wait for leaves that state alone.)
  if (!pending()) return true;
  uint64_t last_progress = resume_ ? progress_mark_ : now_;
  resume_ = false;
  while (pending()) {
    if (now_ >= until) {
      progress_mark_ = last_progress;
      resume_ = true;
      return false;
    }
    start_eligible_kernels();
    bool active = dispatch();
    if (!l1_flush_pending_.empty()) settle_l1_flushes();
    mem_->tick(now_);
    refresh_gpu_counters();
    active |= tick_sms(last_progress);
    sm_counted_until_ = now_ + 1;
    retire_ctas();
    if (now_ - last_progress > cfg_.watchdog_cycles) deadlock();
    check_limits();
    uint64_t next = now_ + 1;
    if (!active && !every_cycle_ && cfg_.skip_idle_cycles) {
      // Nothing changed this cycle: jump to the next cycle at which something can.
      uint64_t t = mem_->next_event(now_);
      for (auto& sm : sms_) t = std::min(t, sm->next_event(now_));
      t = std::min(t, queue_.next_launch_cycle(now_));
      for (uint32_t id : queue_.running())
        if (kernels_[id]->first_cta_cycle > now_) t = std::min(t, kernels_[id]->first_cta_cycle);
      // Stop the jump where the watchdog or the cycle cap fires, so that each fires on time.
      const uint64_t horizon = last_progress + cfg_.watchdog_cycles + 1;
      if (t == ~0ull) {
        if (pending()) {
          // Nothing will ever happen again but kernels are unfinished.
          now_ = std::max(now_, horizon);
          deadlock();
        }
        break;
      }
      t = std::min(t, std::max(next, horizon));
      if (cfg_.max_cycles) t = std::min(t, std::max(next, cfg_.max_cycles));
      if (t > next) {
        // The skipped cycles' dispatches place nothing: the idle clusters' flushes are due now.
        if (!l1_flush_pending_.empty()) settle_l1_flushes();
        for (auto& sm : sms_)
          if (!sm->dormant())
            sm->skip_cycles(next, t - next);
          else if (sm->dozes())
            sm->count_sleep(t);
        sm_counted_until_ = t;
        next = t;
      }
    }
    now_ = next;
    sample(now_);
  }
  return true;
}

bool Gpu::tick_sms(uint64_t& last_progress) {
  // The per-instruction profile and the issue log are shared by the SMs: one thread.
  const bool threads = cfg_.sm_threads != 1 && sms_.size() > 1 && !inst_profile_ && !issue_log_ && !issue_trace_;
  if (threads && !workers_) [[unlikely]] {
    // 0: one per hardware thread. More threads than SMs would have nothing to do; more than
    // the host runs at once only wait for each other (they are made all the same: the results
    // do not depend on it).
    const uint32_t host = std::max(1u, std::thread::hardware_concurrency());
    const uint32_t n = std::min(cfg_.sm_threads ? cfg_.sm_threads : host, uint32_t(sms_.size()));
    if (n > 1) workers_ = std::make_unique<SmWorkers>(n);
    sm_active_.assign(sms_.size(), 0);
  }
  bool active = false;
  if (!threads || !workers_) [[likely]] {
    for (auto& sm : sms_) {
      if (wants_cycle(*sm))
        active |= sm->cycle(now_);
      else if (sm->dozes())
        sm->doze(now_);
      last_progress = std::max(last_progress, sm->last_progress());
    }
    return active;
  }
  uint32_t awake = 0;
  for (size_t i = 0; i < sms_.size(); ++i) {
    sm_active_[i] = wants_cycle(*sms_[i]);
    awake += sm_active_[i];
    if (!sm_active_[i] && sms_[i]->dozes()) sms_[i]->doze(now_);
  }
  // A round of the workers costs about as much as a few SM cycles: a cycle in which few SMs
  // are awake stays on this thread.
  auto progress = [&] {
    for (auto& sm : sms_) last_progress = std::max(last_progress, sm->last_progress());
  };
  if (awake < kMinSmsPerThread * workers_->threads()) {
    for (size_t i = 0; i < sms_.size(); ++i)
      if (sm_active_[i]) active |= sms_[i]->cycle(now_);
    progress();
    return active;
  }
  // In the memory system's SM phase each SM's requests wait for the slices until every SM has
  // run: the SMs of the cycle are independent, in any order and on any thread, and the result
  // is the one of ticking them one after another (as above).
  mem_->open_sm_phase();
  try {
    workers_->run(uint32_t(sms_.size()), [this](uint32_t i) {
      if (sm_active_[i]) sm_active_[i] = sms_[i]->cycle(now_);
    });
  } catch (...) {
    mem_->close_sm_phase();
    throw;
  }
  mem_->close_sm_phase();
  for (uint8_t a : sm_active_) active |= a != 0;
  progress();
  return active;
}

void Gpu::run_until_idle() { step_until(kAllLaunches); }

void Gpu::run_until_stream_idle(uint32_t stream) {
  if (std::optional<uint32_t> last = queue_.last_of(stream)) step_until(*last);
}

nlohmann::json Gpu::scheduler_report() const {
  // Every scheduler of every SM adds its counters into the same object (sched/report_util.h).
  nlohmann::json out = nlohmann::json::object();
  for (const auto& sm : sms_) {
    sm->count_sleep(sm_counted_until_);  // a sleep's empty cycles reach the policies first
    sm->flush_empty_cycles();
    for (const auto& s : sm->schedulers()) s->report(out);
  }
  return out;
}

}  // namespace warpsim

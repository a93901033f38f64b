#include "timing/sm.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "core/error.h"
#include "core/occupancy.h"
#include "timing/lane_address_codec.h"
#include "timing/sm_scheduler_context.h"

namespace warpsim {

// --- construction ---------------------------------------------------------------------------
Sm::Sm(int id, const GpuConfig& cfg, MemorySystem& mem, const GpuCounters& gpu,
       std::vector<std::unique_ptr<WarpScheduler>> schedulers)
    : id_(id),
      cfg_(cfg),
      mem_(mem),
      gpu_(gpu),
      schedulers_(std::move(schedulers)),
      oc_(cfg),
      icache_(cfg.icache),
      ldst_(id, cfg, mem) {
  uint32_t m = cfg.core.schedulers;
  fetch_rr_ = cfg.core.first_fetch_warp & 63;
  warps_.resize(cfg.core.max_warps);
  ctas_.resize(cfg.core.max_ctas);
  sched_age_.resize(m);
  sched_slot_.resize(m);
  for (uint32_t s = 0; s < m; ++s) {
    sched_age_[s].reserve(cfg.core.max_warps);
    sched_slot_[s].reserve(cfg.core.max_warps);
  }
  unit_stride_ = kNumUnits * 8;
  subcore_ = cfg_.core.subcore;
  unit_free_.assign(size_t(cfg.core.subcore ? m : 1) * unit_stride_, 0);
  if (cfg.core.result_slot_conflicts) result_slots_.resize(unit_free_.size());
  if (oc_.queued_dispatch()) {
    issue_slot_free_.assign(unit_free_.size(), 0);
    unit_slot_free_.assign(unit_free_.size(), 0);
    issue_slot_min_.assign(unit_free_.size() / 8, 0);
    for (size_t b = 0; b < issue_slot_min_.size(); ++b)
      if (cfg.units[b % kNumUnits].count == 0) issue_slot_min_[b] = ~0ull;
  }
  last_class_.assign(m, CycleClass::NoWarp);
  last_busy_unit_.assign(m, Unit::SP);
  sched_dirty_.assign(m, 1);
  sched_wake_.assign(m, 0);
  ldst_full_at_start_.assign(m, 0);
  ldst_was_full_.assign(m, 0);
  read_scheduler_needs();
}

void Sm::read_scheduler_needs() {
  needs_every_cycle_ = !cfg_.skip_idle_cycles;  // every scheduler asked every cycle, no SM sleeps
  replays_ = false;
  sched_replays_.assign(schedulers_.size(), 0);
  bulk_empty_.assign(schedulers_.size(), 0);
  empty_runs_.assign(schedulers_.size(), EmptyRun{});
  for (size_t s = 0; s < schedulers_.size(); ++s) {
    bulk_empty_[s] = schedulers_[s]->takes_empty_cycles_in_bulk();
    needs_every_cycle_ |= schedulers_[s]->needs_every_cycle();
    if (schedulers_[s]->replays_skipped_cycles())
      sched_replays_[s] = schedulers_[s]->replays_each_skipped_cycle() ? kReplayEach : kReplayLast;
    replays_ |= sched_replays_[s] != 0;
  }
}

Sm::Sm(const Sm& o, const GpuConfig& cfg, MemorySystem& mem, const GpuCounters& gpu)
    : id_(o.id_),
      cfg_(cfg),
      mem_(mem),
      gpu_(gpu),
      warps_(o.warps_),
      ctas_(o.ctas_),
      sched_age_(o.sched_age_),
      sched_slot_(o.sched_slot_),
      unit_free_(o.unit_free_),
      unit_stride_(o.unit_stride_),
      subcore_(o.subcore_),
      result_slots_(o.result_slots_),
      issue_slot_free_(o.issue_slot_free_),
      unit_slot_free_(o.unit_slot_free_),
      issue_slot_min_(o.issue_slot_min_),
      oc_(o.oc_),
      mem_issued_this_cycle_(o.mem_issued_this_cycle_),
      sfu_issued_this_cycle_(o.sfu_issued_this_cycle_),
      icache_(o.icache_),
      ldst_(o.ldst_, cfg, mem),
      stats_(o.stats_),
      counters_(o.counters_),
      last_class_(o.last_class_),
      last_busy_unit_(o.last_busy_unit_),
      sched_dirty_(o.sched_dirty_),
      sched_wake_(o.sched_wake_),
      ldst_full_at_start_(o.ldst_full_at_start_),
      ldst_was_full_(o.ldst_was_full_),
      ldst_full_all_at_start_(o.ldst_full_all_at_start_),
      ldst_dequeues_seen_(o.ldst_dequeues_seen_),
      mem_port_used_last_cycle_(o.mem_port_used_last_cycle_),
      wakes_(o.wakes_),
      now_(o.now_),
      next_age_(o.next_age_),
      fetch_want_(o.fetch_want_),
      leaving_(o.leaving_),
      used_threads_(o.used_threads_),
      used_regs_(o.used_regs_),
      used_shared_(o.used_shared_),
      used_warps_(o.used_warps_),
      live_ctas_(o.live_ctas_),
      stream_bytes_(o.stream_bytes_),
      fetch_rr_(o.fetch_rr_),
      needs_every_cycle_(o.needs_every_cycle_),
      replays_(o.replays_),
      sched_replays_(o.sched_replays_),
      bulk_empty_(o.bulk_empty_),
      empty_runs_(o.empty_runs_),
      issue_log_(nullptr),
      ifills_(o.ifills_),
      ifeed_(o.ifeed_),
      ifetches_out_(o.ifetches_out_),
      kernel_insts_(o.kernel_insts_),
      kernel_thread_insts_(o.kernel_thread_insts_),
      sleep_from_(o.sleep_from_),
      sleep_until_(o.sleep_until_),
      last_progress_(o.last_progress_),
      finished_ctas_(o.finished_ctas_),
      sleeps_on_memory_(o.sleeps_on_memory_),
      doze_live_(o.doze_live_) {
  schedulers_.reserve(o.schedulers_.size());
  for (const auto& s : o.schedulers_) schedulers_.push_back(s->clone());
  for (size_t s = 0; s < sched_age_.size(); ++s) {
    sched_age_[s].reserve(cfg.core.max_warps);
    sched_slot_[s].reserve(cfg.core.max_warps);
  }
}

void Sm::replace_schedulers(std::vector<std::unique_ptr<WarpScheduler>> schedulers,
                            const std::vector<KernelLaunch>& running) {
  if (schedulers.size() != schedulers_.size())
    throw Error(fmt::format("internal: {} schedulers for an SM with {}", schedulers.size(), schedulers_.size()));
  flush_empty_cycles();
  schedulers_ = std::move(schedulers);
  empty_runs_.assign(schedulers_.size(), EmptyRun{});
  for (const KernelLaunch& k : running) notify_kernel_start(k);
  read_scheduler_needs();
  for (size_t s = 0; s < schedulers_.size(); ++s) {
    for (uint16_t slot : sched_age_[s]) schedulers_[s]->on_warp_added(slot);
    sched_dirty_[s] = 1;
    sched_wake_[s] = 0;
  }
}

// --- resources and CTA launch ---------------------------------------------------------------
namespace {
uint32_t regs_per_cta(const KernelInfo& k, const CoreConfig& c) {
  return warpsim::regs_per_cta(c, k.regs_per_thread, k.warps_per_cta());
}
}  // namespace

bool Sm::can_host(const KernelInfo& k) const {
  const CoreConfig& c = cfg_.core;
  return live_ctas_ < c.max_ctas && used_warps_ + k.warps_per_cta() <= c.max_warps &&
         used_threads_ + k.threads_per_cta() <= c.max_threads && used_regs_ + regs_per_cta(k, c) <= c.registers &&
         used_shared_ + k.shared_bytes_per_cta <= c.shared_mem;
}

uint32_t Sm::live_ctas(uint32_t kernel) const {
  uint32_t n = 0;
  for (const Cta& c : ctas_)
    if (c.info.valid && c.info.kernel == kernel) ++n;
  return n;
}

uint64_t Sm::code_window(const std::string& kernel_name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : kernel_name) h = (h ^ c) * 1099511628211ull;
  return h & 0xfffff;
}

void Sm::launch_cta(uint32_t kernel, const KernelInfo& k, std::shared_ptr<const PackedCta> streams, uint64_t now) {
  if (sleep_from_ != kAwake) wake(now);
  int c = 0;
  while (c < int(ctas_.size()) && ctas_[c].info.valid) ++c;
  if (c == int(ctas_.size())) throw Error("internal: no free CTA slot");
  Cta& cta = ctas_[c];
  cta.streams = std::move(streams);
  const PackedCta& ct = *cta.streams;
  stream_bytes_ += ct.bytes();
  uint32_t nw = k.warps_per_cta();
  cta.info = CtaInfo{kernel, ct.cta_id, uint16_t(nw), 0, 0, true};
  cta.threads = k.threads_per_cta();
  cta.regs = regs_per_cta(k, cfg_.core);
  cta.shared = k.shared_bytes_per_cta;
  used_threads_ += cta.threads;
  used_regs_ += cta.regs;
  used_shared_ += cta.shared;
  used_warps_ += nw;
  ++live_ctas_;
  cta.warp_slots.clear();
  if (kernel_insts_.size() <= kernel) {
    kernel_insts_.resize(kernel + 1, 0);
    kernel_thread_insts_.resize(kernel + 1, 0);
  }
  // Each kernel function has its own 16 MB code window, the same for all its launches, so a
  // relaunch finds its code in the I-cache (GPGPU-Sim keeps instructions at fixed addresses
  // and does not flush the I-cache between kernels). With core.module_code_layout a PTX kernel's
  // code lies where GPGPU-Sim puts it instead (KernelInfo::code_address).
  uint64_t code_base = code_window(k.name) << 24;
  if (cfg_.core.module_code_layout && k.code_address != KernelInfo::kNoCodeAddress) code_base = k.code_address;
  // core.local_layout "cta" (GPGPU-Sim's translate_local_memaddr): a word-row holds, CTA slot
  // by CTA slot, that slot's CTA of every SM, each padded to whole warps; as many slots as the
  // kernel's CTAs fit on an SM, or as a grid smaller than that needs per SM (max_cta()).
  const bool cta_local = cfg_.core.local_layout == "cta";
  const uint64_t padded = uint64_t(nw) * 32;
  uint64_t local_stride = 0;
  if (cta_local) {
    const uint64_t sms = cfg_.core.num_sms;
    uint64_t slots = ctas_per_sm(cfg_.core, {k.threads_per_cta(), k.regs_per_thread, k.shared_bytes_per_cta});
    slots = std::max<uint64_t>(1, std::min(slots, (k.num_ctas() + sms - 1) / sms));
    local_stride = padded * slots * sms;
  }
  int slot = 0;
  for (uint32_t w = 0; w < nw; ++w) {
    while (warps_[slot].info.valid) ++slot;
    Warp& wp = warps_[slot];
    const PackedWarp* pw = w < ct.warps.size() ? &ct.warps[w] : nullptr;
    wp.table = ct.table.data();
    wp.codes = pw ? pw->codes.data() : nullptr;
    wp.addr_next = pw ? pw->addr_words.data() : nullptr;
    wp.n = pw ? uint32_t(pw->codes.size()) : 0;
    wp.set_next(0);
    wp.ibuf = 0;
    wp.ibuf_ready = 0;
    wp.fetching = false;
    wp.branch_wait = 0;
    wp.control = false;
    wp.wrong_path = false;
    wp.pending_mem = 0;
    wp.done_at = 0;
    wp.left = false;
    wp.atomics = 0;
    wp.atomic_done = 0;
    wp.barrier_done = 0;
    wp.results_at = 0;
    wp.code_base = code_base;
    wp.inst_bytes = k.inst_bytes;
    if (cta_local) {
      wp.local_thread = padded * (uint64_t(id_) + uint64_t(cfg_.core.num_sms) * uint64_t(c)) + w * 32;
      wp.local_stride = local_stride;
    } else {
      wp.local_thread = uint64_t(id_) * cfg_.core.max_threads + uint64_t(slot) * 32;
      wp.local_stride = uint64_t(cfg_.core.num_sms) * cfg_.core.max_threads;
    }
    wp.sb.clear();
    touch(slot);
    wp.info = WarpInfo{next_age_++, uint32_t(c), kernel, w, 0, true, false, false};
    cta.warp_slots.push_back(uint16_t(slot));
    uint32_t s = sched_of(uint32_t(slot));
    sched_age_[s].push_back(uint16_t(slot));
    auto& bys = sched_slot_[s];
    bys.insert(std::upper_bound(bys.begin(), bys.end(), uint16_t(slot)), uint16_t(slot));
    flush_empty_cycles(s);
    schedulers_[s]->on_warp_added(slot);
    if (wp.n == 0) {
      wp.info.finished = true;
      wp.left = true;
      cta.info.finished++;
    } else {
      fetch_want_ |= 1ull << slot;
    }
  }
  last_progress_ = now;
  maybe_finish_cta(c, now);
}

void Sm::flush_empty_cycles() {
  for (uint32_t s = 0; s < uint32_t(schedulers_.size()); ++s) flush_empty_cycles(s);
}

void Sm::notify_kernel_start(const KernelLaunch& launch) {
  flush_empty_cycles();
  for (auto& s : schedulers_) {
    s->on_kernel_start(launch.id);
    s->on_kernel_launch(launch);
  }
}
void Sm::notify_kernel_end(uint32_t kernel) {
  flush_empty_cycles();
  for (auto& s : schedulers_) s->on_kernel_end(kernel);
}

// --- units ----------------------------------------------------------------------------------
// Cycles an exit spends in the pipeline: its operand collection, its unit's latency and the
// writeback (GPGPU-Sim counts it among the warp's instructions in the pipeline until then).
uint64_t Sm::exit_pipeline() const {
  uint64_t d = cfg_.units[int(route(Unit::BRANCH))].latency[kLatAlu];
  if (oc_.enabled()) d += oc_.base_delay() + oc_.writeback_latency();
  return d;
}

// A kind of unit the GPU lacks hands its instructions on: branches to the INT pipeline, double
// precision to the SFU (as on Fermi, whose SFUs ran DP in GPGPU-Sim), and everything in the end
// to the SP pipeline.
Unit Sm::route(Unit u) const {
  auto has = [&](Unit x) { return cfg_.units[int(x)].count > 0; };
  if (has(u)) return u;
  if (u == Unit::BRANCH && has(Unit::INT)) return Unit::INT;
  if (u == Unit::DP && has(Unit::SFU)) return Unit::SFU;
  return Unit::SP;
}

int Sm::free_unit(int sched, Unit u, uint64_t now, uint32_t latency) {
  uint32_t base = (cfg_.core.subcore ? sched : 0) * unit_stride_ + uint32_t(u) * 8;
  uint32_t n = cfg_.units[int(u)].count;
  bool slots = latency > 0 && latency < kResultRing && !result_slots_.empty();
  for (uint32_t i = 0; i < n; ++i) {
    if (unit_free_[base + i] > now) continue;
    if (slots) {
      ResultSlots& r = result_slots_[base + i];
      r.advance(now);
      if (r.taken(now + latency)) continue;
    }
    return int(base + i);
  }
  return -1;
}

int Sm::free_issue_slot(int sched, Unit u, uint64_t now) const {
  uint32_t base = (cfg_.core.subcore ? sched : 0) * unit_stride_ + uint32_t(u) * 8;
  int best = -1;
  for (uint32_t i = 0; i < cfg_.units[int(u)].count; ++i)
    if (issue_slot_free_[base + i] <= now && (best < 0 || issue_slot_free_[base + i] < issue_slot_free_[size_t(best)]))
      best = int(base + i);
  return best;
}

// GPGPU-Sim's path from issue to a unit: the instruction takes a slot of its unit type's
// issue register (ID_OC), moves into a collector unit when one is free (leaving the slot),
// reads its operands, moves into a slot of the collector-to-unit register (OC_EX) when one is
// free, and the cycle after that is taken by the first unit instance whose initiation interval
// has passed and whose result slot is free. Reservations are made in issue order.
uint64_t Sm::issue_queued(int sched, int slot, Unit u, const WarpInst& in, uint32_t latency, uint32_t initiation,
                          uint64_t now) {
  const uint32_t base = (cfg_.core.subcore ? sched : 0) * unit_stride_ + uint32_t(u) * 8;
  const uint32_t n = cfg_.units[int(u)].count;
  int in_slot = free_issue_slot(sched, u, now);
  uint32_t out = base;
  for (uint32_t i = 1; i < n; ++i)
    if (unit_slot_free_[base + i] < unit_slot_free_[out]) out = base + i;
  OperandCollector::Route r =
      oc_.collect_queued(sched, slot, u, in.src, kMaxSrc, now, unit_slot_free_[out], &stats_.reg_bank_conflicts);
  if (in_slot >= 0) {
    issue_slot_free_[size_t(in_slot)] = r.alloc;
    uint64_t first = ~0ull;
    for (uint32_t i = 0; i < n; ++i) first = std::min(first, issue_slot_free_[base + i]);
    issue_slot_min_[base / 8] = first;
  }
  const bool slots = latency > 0 && latency < kResultRing && !result_slots_.empty();
  // The first cycle after the dispatch at which an instance takes it (bounded: a unit frees
  // within its initiation interval, and result slots only delay within the ring).
  uint64_t at = r.dispatch + 1;
  int unit = -1;
  for (uint64_t tries = 0; unit < 0; ++tries, ++at) {
    for (uint32_t i = 0; i < n && unit < 0; ++i) {
      if (unit_free_[base + i] > at) continue;
      if (slots && tries < kResultRing / 2) {
        ResultSlots& rs = result_slots_[base + i];
        rs.advance(now);
        if (!rs.in_window(at + latency) || rs.taken(at + latency)) continue;
      }
      unit = int(base + i);
    }
    if (unit >= 0) break;
  }
  unit_free_[size_t(unit)] = at + initiation;
  if (slots) {
    ResultSlots& rs = result_slots_[size_t(unit)];
    if (rs.in_window(at + latency)) rs.take(at + latency);
  }
  unit_slot_free_[out] = at;
  wake_at(r.alloc);
  wake_at(unit_free_[size_t(unit)]);
  return at;
}

// --- warp status ----------------------------------------------------------------------------
// A warp's status has a warp-local part (finished, barrier, instruction buffer, scoreboard)
// that can only change at a known cycle or on an event of the warp, and is cached until then;
// and a unit part (is a unit free for its next instruction) that is checked on every call.
void Sm::compute_local_status(Warp& w) {
  constexpr uint64_t kUntilEvent = ~0ull;
  w.on_memory = false;
  w.needs_unit = NeedsUnit::None;
  if (!w.info.valid || w.info.finished) {
    w.status = WarpStatus::Finished;
    w.blocked_until = kUntilEvent;
  } else if (w.info.at_barrier) {
    w.status = WarpStatus::Barrier;
    w.blocked_until = kUntilEvent;  // released by arrive_barrier()
  } else if (w.barrier_done > now_) {
    w.status = WarpStatus::Barrier;
    w.blocked_until = w.barrier_done;
  } else if (w.atomics > 0 || w.atomic_done > now_) {
    // core.atomic_waits: nothing issues until the warp's atomics have written back.
    w.status = WarpStatus::RAW;
    w.on_memory = true;
    w.blocked_until = w.atomics > 0 ? kUntilEvent : w.atomic_done;  // mem_done() invalidates
  } else if (w.ibuf == 0 || w.ibuf_ready > now_) {
    w.status = w.control ? WarpStatus::Control : WarpStatus::Idle;
    // Fetch, fills and branch resolution invalidate; a decoded buffer appears at ibuf_ready.
    w.blocked_until = w.ibuf > 0 ? w.ibuf_ready : kUntilEvent;
  } else {
    const WarpInst& in = w.cur();
    uint64_t until = 0;
    if (w.sb.blocks(in, now_, &until)) {
      w.status = WarpStatus::RAW;
      w.on_memory = w.sb.reads_long_op(in, now_);
      w.blocked_until = until;  // kPending == kUntilEvent: mem_done() invalidates
      return;
    }
    // Locally ready: stays so until the warp's own next event (issue, fill, ...).
    w.status = WarpStatus::Ready;
    w.blocked_until = kUntilEvent;
    switch (in.op) {
      case OpClass::BARRIER:
      case OpClass::EXIT:
        // Queued dispatch: the warp ends once its last instruction has left the pipeline.
        if (w.results_at > now_) {
          w.status = WarpStatus::RAW;
          w.blocked_until = w.results_at;
        }
        break;
      case OpClass::NOP:
        break;
      case OpClass::MEMBAR:
        if (w.pending_mem) {
          w.status = WarpStatus::RAW;
          w.on_memory = true;
        }
        break;
      case OpClass::LOAD:
      case OpClass::STORE:
      case OpClass::ATOMIC:
        w.needs_unit = NeedsUnit::Mem;
        break;
      default:
        w.unit = route(in.unit);
        w.needs_unit = w.unit == Unit::SFU ? NeedsUnit::Sfu : NeedsUnit::Alu;
    }
  }
}

WarpStatus Sm::update_status(int slot) {
  Warp& w = warps_[slot];
  if (w.blocked_until <= now_) compute_local_status(w);
  if (w.status != WarpStatus::Ready) return w.status;
  int sched = int(sched_of(uint32_t(slot)));
  switch (w.needs_unit) {
    case NeedsUnit::None:
      return WarpStatus::Ready;
    case NeedsUnit::Mem:
      return (ldst_.full(sched) || mem_issued_this_cycle_ >= cfg_.core.mem_issue_per_sm ||
              free_unit(sched, Unit::MEM, now_) < 0 || !collector_free(sched, Unit::MEM))
                 ? WarpStatus::UnitBusy
                 : WarpStatus::Ready;
    case NeedsUnit::Sfu:
      if (cfg_.core.sfu_issue_per_sm && sfu_issued_this_cycle_ >= cfg_.core.sfu_issue_per_sm)
        return WarpStatus::UnitBusy;
      [[fallthrough]];
    default:
      if (oc_.queued_dispatch())
        return issue_slot_next_free(sched, w.unit) > now_ || held_out(sched, w.unit) ? WarpStatus::UnitBusy
                                                                                     : WarpStatus::Ready;
      return free_unit(sched, w.unit, now_, result_latency(w.cur(), w.unit)) < 0 || !collector_free(sched, w.unit)
                 ? WarpStatus::UnitBusy
                 : WarpStatus::Ready;
  }
}

bool Sm::waiting_on_memory(int slot) {
  status(slot);
  return warps_[slot].on_memory;
}

bool Sm::waits_on_long_op(int slot) {
  const WarpStatus s = status(slot);
  const Warp& w = warps_[slot];
  if (s == WarpStatus::RAW && w.on_memory) return true;
  // Ready, waiting for a unit or for a register: its next instruction is decoded (asked here
  // rather than with the status, so that schedulers that never ask pay nothing).
  const bool decoded = s == WarpStatus::Ready || s == WarpStatus::UnitBusy || s == WarpStatus::RAW;
  return cfg_.core.long_op_marks_persist && decoded && w.sb.reads_long_op_mark(w.cur(), now_);
}

// --- fetch ----------------------------------------------------------------------------------
void Sm::fill_ibuffer(Warp& w, uint64_t ready) {
  const int slot = int(&w - warps_.data());
  touch(slot);
  if (w.wrong_path) {
    // The fall-through of a taken branch: the scheduler finds it is not the branch's target when
    // it becomes visible, discards it, and the warp fetches again from then.
    w.wrong_path = false;
    w.fetching = false;
    w.branch_wait = ready;
    fetch_want_ |= 1ull << slot;
    wake_at(ready);
    return;
  }
  uint32_t limit = std::min(cfg_.core.decode_width, cfg_.core.ibuffer);
  uint32_t count = 0, idx = w.next;
  w.stale_successor = false;
  while (count < limit && idx < w.n) {
    ++count;
    const WarpInst& in = w.inst(idx);
    if (in.op == OpClass::BRANCH && idx + 1 < w.n && w.inst(idx + 1).pc != in.pc + w.inst_bytes) {
      // The successor is on the taken path: fetched after the branch resolves. A fetch that
      // had room for more brought the sequential successor along, to be discarded.
      w.stale_successor = count < limit;
      break;
    }
    ++idx;
  }
  w.ibuf = count;
  w.ibuf_ready = ready;
  w.fetching = false;
  w.control = false;
  wake_at(ready);
}

void Sm::instruction_arrived(int mshr, uint64_t now) {
  --ifetches_out_;
  icache_filled(mshr, now);
}

// The warps waiting on I-cache MSHR `mshr` get their instructions in the next cycle.
void Sm::icache_filled(int mshr, uint64_t now) {
  for (uint32_t slot : icache_.fill(mshr, now)) {
    Warp& w = warps_[slot];
    if (!w.info.valid || !w.fetching) continue;
    if (cfg_.core.ifill_feeds_one_per_fetch)
      ifeed_.push_back(uint16_t(slot));
    else
      fill_ibuffer(w, now + 1);
  }
}

namespace {
// The low d + 1 bits.
uint64_t span_mask(uint32_t d) { return d >= 63 ? ~0ull : (2ull << d) - 1; }
}  // namespace

bool Sm::fetch(uint64_t now) {
  bool active = false;
  // I-cache fills that arrived.
  for (size_t i = 0; i < ifills_.size();) {
    if (ifills_[i].ready <= now) {
      icache_filled(ifills_[i].mshr, now);
      ifills_[i] = ifills_.back();
      ifills_.pop_back();
      active = true;
    } else {
      ++i;
    }
  }
  uint64_t want = fetch_want_;
  for (uint32_t f = 0; f < cfg_.core.fetch_per_cycle; ++f) {
    if (!want && ifeed_.empty()) {
      // A search that finds no warp to fetch for passes them all.
      if (leaving_) active |= pass_leaving(~0ull, now);
      break;
    }
    // After the cycle's issue, its last fetch slot is decoded only in the next cycle.
    const uint32_t late = cfg_.core.fetch_after_issue && f + 1 == cfg_.core.fetch_per_cycle ? 1 : 0;
    if (!ifeed_.empty()) {
      // A filled line serves one waiting warp in this slot, as a hit would (no other fetch).
      Warp& w = warps_[ifeed_.front()];
      ifeed_.pop_front();
      if (w.info.valid && w.fetching) fill_ibuffer(w, now + std::max<uint32_t>(1, cfg_.icache.latency) + late);
      active = true;
      continue;
    }
    // Round robin over warps that need instructions, starting after the last one fetched.
    uint64_t rot = std::rotr(want, int(fetch_rr_ & 63));
    int slot = -1;
    while (rot) {
      int k = std::countr_zero(rot);
      int s = int((k + fetch_rr_) & 63);
      if (warps_[s].branch_wait <= now) {
        slot = s;
        break;
      }
      rot &= rot - 1;
    }
    if (leaving_)
      active |= pass_leaving(
          slot < 0 ? ~0ull : std::rotl(span_mask(uint32_t(slot - int(fetch_rr_)) & 63), int(fetch_rr_ & 63)), now);
    if (slot < 0) break;
    Warp& w = warps_[slot];
    touch(slot);
    const uint64_t addr = w.wrong_path ? w.wrong_addr : w.code_base + w.inst(w.next).pc;
    fetch_want_ &= ~(1ull << slot);
    want &= ~(1ull << slot);
    if (!cfg_.icache.enabled) {
      fill_ibuffer(w, now + 1);
    } else {
      Cache::Result r = icache_.read(addr, icache_.sector_mask(addr, 8), uint32_t(slot), now);
      if (r.outcome == Cache::Outcome::Fail) {
        fetch_want_ |= 1ull << slot;
        // GPGPU-Sim moves its round robin past a warp the I-cache refused: the next cycle tries
        // another warp, so the cycle changed something (it may not be skipped).
        if (cfg_.core.fetch_refusal_moves_on) {
          fetch_rr_ = uint32_t(slot + 1) & 63;
          active = true;
        }
        break;
      }
      if (r.outcome == Cache::Outcome::Hit) {
        stats_.icache_hits++;
        counters_.icache_hits++;
        fill_ibuffer(w, now + std::max<uint32_t>(1, cfg_.icache.latency) + late);
      } else {
        stats_.icache_misses++;
        counters_.icache_misses++;
        w.fetching = true;
        if (r.outcome == Cache::Outcome::Miss) {
          if (cfg_.core.ifetch_through_memory) {
            ldst_.fetch_instructions(icache_.mshr_line(r.mshr), r.mshr, cfg_.icache.line, now);
            ++ifetches_out_;
          } else {
            uint64_t ready = now + cfg_.core.icache_miss_latency;
            ifills_.push_back({r.mshr, ready});
            wake_at(ready);
          }
        }
      }
    }
    fetch_rr_ = uint32_t(slot + 1) & 63;
    active = true;
  }
  return active;
}

// --- issue ----------------------------------------------------------------------------------
void Sm::issue(int sched, int slot, uint64_t now) {
  Warp& w = warps_[slot];
  const WarpInst& in = w.cur();
  w.set_next(w.next + 1);
  --w.ibuf;
  touch(slot);
  w.info.issued++;
  stats_.warp_insts++;
  stats_.thread_insts += std::popcount(in.active_mask);
  kernel_insts_[w.info.kernel]++;
  kernel_thread_insts_[w.info.kernel] += std::popcount(in.active_mask);
  counters_.insts_issued++;
  last_progress_ = now;
  if (inst_profile_) inst_profile_->issued(w.info.kernel, in.pc, uint32_t(std::popcount(in.active_mask)));
  if (issue_trace_)
    issue_trace_->issued({now, w.info.kernel, in.pc, uint16_t(id_), uint8_t(sched), in.op, uint16_t(slot),
                          uint8_t(std::popcount(in.active_mask))});
  switch (in.op) {
    case OpClass::ALU:
    case OpClass::BRANCH: {
      Unit u = route(in.unit);
      uint32_t lat = result_latency(in, u);
      uint32_t ii = initiation_interval(in, u);
      uint64_t ready = now + lat;
      if (oc_.queued_dispatch()) {
        uint64_t unit_at = issue_queued(sched, slot, u, in, lat, ii, now);
        oc_.write_back(sched, slot, in.dst, kMaxDst, unit_at + lat);
        ready = unit_at + lat + oc_.writeback_latency();
        w.results_at = std::max(w.results_at, unit_at + lat);
        wake_at(unit_at + lat);
      } else {
        int i = free_unit(sched, u, now, lat);
        if (i >= 0) {
          unit_free_[i] = now + ii;
          if (!result_slots_.empty() && lat < kResultRing) result_slots_[size_t(i)].take(now + lat);
        }
        wake_at(now + ii);
        if (oc_.enabled()) {
          uint64_t unit_at = now + oc_.collect(sched, slot, u, in.src, kMaxSrc, now, &stats_.reg_bank_conflicts);
          oc_.write_back(sched, slot, in.dst, kMaxDst, unit_at + lat);
          ready = unit_at + lat + oc_.writeback_latency();
        }
      }
      if (u == Unit::SFU) {
        ++sfu_issued_this_cycle_;
        mem_port_used_last_cycle_ = true;
      }
      stats_.issued_by_unit[int(u)]++;
      counters_.alu_issued++;
      for (RegId d : in.dst)
        if (d != kNoReg) w.sb.reserve(d, ready, now, false, cfg_.core.long_op_marks_persist && w.sb.unmark_long_op(d));
      if (inst_profile_)
        inst_profile_->completed(w.info.kernel, in.pc, uint32_t(std::popcount(in.active_mask)), ready - now);
      wake_at(ready);
      if (in.op == OpClass::BRANCH && w.next < w.n && w.inst(w.next).pc != in.pc + w.inst_bytes) {
        w.ibuf = 0;  // taken: flush and wait for the branch to resolve
        w.control = true;
        w.branch_wait = now + cfg_.core.branch_latency + (cfg_.core.fetch_after_issue && w.stale_successor ? 1 : 0);
        if (cfg_.core.fetch_falls_through && !w.stale_successor) {
          w.wrong_path = true;
          w.wrong_addr = w.code_base + in.pc + w.inst_bytes;
        }
        wake_at(w.branch_wait);
      }
      break;
    }
    case OpClass::LOAD:
    case OpClass::STORE:
    case OpClass::ATOMIC: {
      int i = free_unit(sched, Unit::MEM, now);
      if (i >= 0) unit_free_[i] = now + cfg_.units[int(Unit::MEM)].initiation[kLatDefault];
      wake_at(now + cfg_.units[int(Unit::MEM)].initiation[kLatDefault]);
      ++mem_issued_this_cycle_;
      mem_port_used_last_cycle_ = true;
      stats_.issued_by_unit[int(Unit::MEM)]++;
      if (oc_.enabled()) oc_.collect(sched, slot, Unit::MEM, in.src, kMaxSrc, now, &stats_.reg_bank_conflicts);
      if (in.addr_index == kNoAddr) {
        ldst_.push(slot, sched, in, nullptr, w.local_thread, w.local_stride, now);
      } else {
        uint64_t lane_addrs[32];
        w.addr_next = lane_addresses::decode(w.addr_next, in.active_mask, lane_addrs);
        ldst_.push(slot, sched, in, lane_addrs, w.local_thread, w.local_stride, now);
      }
      if (in.op != OpClass::STORE) {
        const bool long_op = in.space == MemSpace::Global || in.space == MemSpace::Local ||
                             in.space == MemSpace::Param || in.space == MemSpace::Tex;
        for (RegId d : in.dst)
          if (d != kNoReg) w.sb.reserve(d, Scoreboard::kPending, now, long_op);
      }
      if (in.op == OpClass::ATOMIC && cfg_.core.atomic_waits) ++w.atomics;
      ++w.pending_mem;
      if (cfg_.oc.mem_holds_collectors) sync_mem_holds(sched, now);
      counters_.mem_issued++;
      counters_.mem_in_flight++;
      counters_.last_mem_cta = int32_t(w.info.cta_slot);
      break;
    }
    case OpClass::BARRIER:
      if (!(in.flags & kFlagBarrierArrive)) {
        w.info.at_barrier = true;
        ctas_[w.info.cta_slot].info.at_barrier++;
      }
      arrive_barrier(w.info.cta_slot, now);
      break;
    case OpClass::EXIT:
      warp_finished(slot, now);
      break;
    default:
      break;
  }
  if (!w.info.finished) {
    if (w.next >= w.n) {
      warp_finished(slot, now);  // a stream without EXIT ends when it runs out
    } else if (w.ibuf == 0) {
      if (w.branch_wait <= now || !w.control) w.control = w.control && w.branch_wait > now;
      fetch_want_ |= 1ull << slot;
    }
  }
}

void Sm::arrive_barrier(uint32_t cta_slot, uint64_t now) {
  Cta& cta = ctas_[cta_slot];
  CtaInfo& ci = cta.info;
  if (ci.at_barrier == 0 || ci.at_barrier + ci.finished < ci.warps) return;
  for (uint16_t s : cta.warp_slots) {
    warps_[s].info.at_barrier = false;
    warps_[s].barrier_done = now + cfg_.core.barrier_latency;
    touch(s);
  }
  if (cfg_.core.barrier_latency > 0) wake_at(now + cfg_.core.barrier_latency);
  ci.at_barrier = 0;
}

void Sm::warp_finished(int slot, uint64_t now) {
  Warp& w = warps_[slot];
  touch(slot);
  w.info.finished = true;
  w.done_at = now + exit_pipeline();
  w.ibuf = 0;
  fetch_want_ &= ~(1ull << slot);
  ctas_[w.info.cta_slot].info.finished++;
  arrive_barrier(w.info.cta_slot, now);
  if (w.pending_mem == 0) warp_done(slot, now);
}

// A finished warp with nothing in flight: it leaves now, or (core.exit_at_fetch_scan) when the
// fetch stage next passes it.
void Sm::warp_done(int slot, uint64_t now) {
  Warp& w = warps_[slot];
  if (cfg_.core.exit_at_fetch_scan && !w.left) {
    w.done_at = std::max({w.done_at, now, w.sb.last_ready(), w.results_at});
    leaving_ |= 1ull << slot;
    return;
  }
  maybe_finish_cta(int(w.info.cta_slot), now);
}

// The fetch stage passed the warps of `span`: those that finished before this cycle leave.
bool Sm::pass_leaving(uint64_t span, uint64_t now) {
  uint64_t m = leaving_ & span;
  bool any = false;
  while (m) {
    const int s = std::countr_zero(m);
    m &= m - 1;
    Warp& w = warps_[s];
    if (w.done_at >= now) continue;
    leaving_ &= ~(1ull << s);
    w.left = true;
    any = true;
    maybe_finish_cta(int(w.info.cta_slot), now);
  }
  return any;
}

void Sm::maybe_finish_cta(int c, uint64_t now) {
  Cta& cta = ctas_[c];
  if (!cta.info.valid || cta.info.finished < cta.info.warps) return;
  for (uint16_t s : cta.warp_slots)
    if (warps_[s].pending_mem || (cfg_.core.exit_at_fetch_scan && !warps_[s].left)) return;
  for (uint16_t s : cta.warp_slots) {
    Warp& w = warps_[s];
    w.info.valid = false;
    w.table = nullptr;  // the streams are released below
    w.codes = nullptr;
    w.cur_inst = nullptr;
    w.addr_next = nullptr;
    touch(s);
    fetch_want_ &= ~(1ull << s);
    const uint32_t sched = sched_of(s);
    auto& a = sched_age_[sched];
    a.erase(std::find(a.begin(), a.end(), s));
    auto& b = sched_slot_[sched];
    b.erase(std::find(b.begin(), b.end(), s));
    schedulers_[sched]->on_warp_removed(s);
  }
  used_threads_ -= cta.threads;
  used_regs_ -= cta.regs;
  used_shared_ -= cta.shared;
  used_warps_ -= cta.info.warps;
  --live_ctas_;
  if (live_ctas_ == 0 && cfg_.core.l1_flush_when_idle && !cfg_.core.l1_flush_by_cluster) ldst_.invalidate_l1();
  stream_bytes_ -= cta.streams->bytes();
  cta.streams.reset();
  cta.info.valid = false;
  finished_ctas_.push_back({cta.info.kernel, cta.info.cta_id});
  if (cta_finish_flag_) cta_finish_flag_->store(true, std::memory_order_relaxed);
  stats_.ctas_done++;
  counters_.ctas_finished++;
  last_progress_ = now;
}

namespace {
// core.long_op_marks_persist: what a completed load does to its registers' long-op marks, as
// GPGPU-Sim's LD/ST unit leaves them. Global and local data come back through the L1's miss path
// or its latency queue, whose writeback releases a register without unmarking it; a parameter,
// texture or constant load whose every access hit is finished when it leaves the unit, which
// releases and unmarks its registers; a parameter or texture load that missed comes back like a
// global one (constant loads are never marked); shared loads release without unmarking.
void update_long_op_marks(Scoreboard& sb, const WarpInst& in, const RegId* dst, int ndst, bool missed) {
  bool mark = false, unmark = false;
  switch (in.space) {
    case MemSpace::Global:
    case MemSpace::Local:
      mark = true;
      break;
    case MemSpace::Param:
    case MemSpace::Tex:
      mark = missed;
      unmark = !missed;
      break;
    case MemSpace::Const:
      unmark = !missed;
      break;
    default:
      return;
  }
  for (int i = 0; i < ndst; ++i) {
    if (dst[i] == kNoReg) continue;
    if (mark) sb.mark_long_op(dst[i]);
    if (unmark) sb.unmark_long_op(dst[i]);
  }
}
}  // namespace

void Sm::mem_done(int slot, const WarpInst& in, uint64_t issued, const RegId* dst, int ndst, bool atomic, bool missed,
                  uint64_t ready, uint64_t now) {
  Warp& w = warps_[slot];
  touch(slot);
  // Memory instructions pass the operand collector before the LD/ST unit and write back after
  // it: modelled as its uncontended delay added to the result.
  if (oc_.enabled()) ready += oc_.base_delay() + oc_.writeback_latency();
  if (inst_profile_)
    inst_profile_->completed(w.info.kernel, in.pc, uint32_t(std::popcount(in.active_mask)), ready - issued);
  for (int i = 0; i < ndst; ++i)
    if (dst[i] != kNoReg) w.sb.release(dst[i], ready);
  if (cfg_.core.long_op_marks_persist && ndst > 0) update_long_op_marks(w.sb, in, dst, ndst, missed);
  if (atomic && w.atomics > 0) {
    --w.atomics;
    w.atomic_done = std::max(w.atomic_done, ready);
  }
  --w.pending_mem;
  --counters_.mem_in_flight;
  wake_at(ready);
  last_progress_ = now;
  if (w.info.finished && w.pending_mem == 0) warp_done(slot, now);
}

// --- one cycle ------------------------------------------------------------------------------
uint64_t Sm::unit_next_free(int sched, Unit u) const {
  uint32_t base = (cfg_.core.subcore ? sched : 0) * unit_stride_ + uint32_t(u) * 8;
  uint64_t t = ~0ull;
  for (uint32_t i = 0; i < cfg_.units[int(u)].count; ++i) t = std::min(t, unit_free_[base + i]);
  return t;
}

// Why scheduler `sched` did not issue, and (in *wake) the first cycle at which that can change
// without an event that marks the scheduler dirty.
CycleClass Sm::classify(int sched, Unit* busy_unit, uint64_t* wake) {
  int best = 100;
  CycleClass cls = CycleClass::NoWarp;
  uint64_t w_at = ~0ull;
  // The warps of a scheduler that wait for one unit ask for the same wake cycle: ask once.
  uint64_t asked = 0;
  auto wake_once = [&](uint64_t t) {
    if (t == asked) return;
    asked = t;
    wake_at(t);
  };
  for (uint16_t slot : sched_slot_[sched]) {
    WarpStatus s = status(slot);
    const Warp& w = warps_[slot];
    int rank;
    CycleClass c;
    switch (s) {
      case WarpStatus::Ready:
        // The policy passed over a ready warp (a two-level active set, a throttle): it decides
        // again next cycle, so the SM must not sleep past it.
        rank = 0;
        c = CycleClass::Declined;
        w_at = now_ + 1;
        wake_once(now_ + 1);
        break;
      case WarpStatus::UnitBusy: {
        rank = 1;
        c = CycleClass::UnitBusy;
        Unit u = w.needs_unit == NeedsUnit::Mem ? Unit::MEM : w.unit;
        // The LD/ST unit gives held collector units back as it takes instructions, an event
        // that marks the schedulers sharing them changed (cycle()).
        if (held_out(sched, u)) break;
        if (w.needs_unit != NeedsUnit::Mem && oc_.queued_dispatch()) {
          // The issue slot frees when its instruction moves into a collector unit.
          uint64_t slot_at = std::max(now_ + 1, issue_slot_next_free(sched, u));
          wake_once(slot_at);
          w_at = std::min(w_at, slot_at);
          break;
        }
        // A collector unit frees by itself: no event marks it.
        uint64_t oc_at = oc_.enabled() ? oc_.accept_cycle(sched, u, now_) : 0;
        if (oc_at > now_) wake_once(oc_at);
        if (w.needs_unit == NeedsUnit::Mem) {
          // A full LD/ST queue drains by an event; the per-cycle MEM/SFU ports reset next cycle.
          if (!ldst_.full(sched)) w_at = std::min(w_at, std::max({now_ + 1, unit_next_free(sched, Unit::MEM), oc_at}));
        } else {
          uint64_t free_at = std::max(unit_next_free(sched, w.unit), oc_at);
          // A free unit whose result slot is taken frees by itself next cycle: no event marks it.
          if (free_at <= now_) wake_once(now_ + 1);
          w_at = std::min(w_at, std::max(now_ + 1, free_at));
        }
        break;
      }
      case WarpStatus::RAW:
        rank = 2;
        c = CycleClass::RAW;
        w_at = std::min(w_at, w.blocked_until);
        break;
      case WarpStatus::Control:
        rank = 3;
        c = CycleClass::Control;
        w_at = std::min(w_at, w.blocked_until);
        break;
      case WarpStatus::Barrier:
        rank = 4;
        c = CycleClass::Barrier;
        w_at = std::min(w_at, w.blocked_until);
        break;
      case WarpStatus::Idle:
        rank = 5;
        c = CycleClass::Idle;
        w_at = std::min(w_at, w.blocked_until);
        break;
      default:
        continue;
    }
    if (rank < best) {
      best = rank;
      cls = c;
      if (s == WarpStatus::UnitBusy) *busy_unit = w.needs_unit == NeedsUnit::Mem ? Unit::MEM : w.unit;
    }
  }
  *wake = w_at;
  return cls;
}

bool Sm::cycle(uint64_t now) {
  if (sleep_from_ != kAwake) wake(now);
  now_ = now;
  mem_issued_this_cycle_ = sfu_issued_this_cycle_ = 0;
  wakes_.drop_through(now);
  bool active = ldst_.cycle(*this, now, stats_);
  if (cfg_.oc.mem_holds_collectors && ldst_.dequeues() != ldst_dequeues_seen_) {
    // An instruction entered the LD/ST unit: the ones behind it move up. A collector unit given
    // back can take an instruction of any scheduler that shares it.
    ldst_dequeues_seen_ = ldst_.dequeues();
    const bool shared = oc_.shared_between_schedulers();
    bool released = false;
    for (uint32_t s = 0; s < cfg_.core.schedulers; ++s)
      if (sync_mem_holds(int(s), now)) {
        released = true;
        sched_dirty_[s] = 1;
      }
    if (released && shared) std::fill(sched_dirty_.begin(), sched_dirty_.end(), 1);
  }
  if (!cfg_.core.fetch_after_issue && fetch_has_work()) active |= fetch(now);
  uint32_t m = cfg_.core.schedulers;
  // Whether the LD/ST queue was full for each scheduler as the last cycle left it (one flag for
  // all without core.ldst_queue_per_scheduler).
  const bool per_sched = ldst_.bounds_schedulers();
  const bool ldst_was_full = ldst_full_all_at_start_;
  ldst_full_all_at_start_ = ldst_.full();
  if (per_sched) {
    ldst_was_full_.swap(ldst_full_at_start_);
    for (size_t s = 0; s < ldst_full_at_start_.size(); ++s) ldst_full_at_start_[s] = ldst_.full(int(s));
  }
  bool ports_reset = mem_port_used_last_cycle_;
  mem_port_used_last_cycle_ = false;
  for (uint32_t i = 0; i < m; ++i) {
    const uint32_t s = sched_in_order(i, now);
    // A scheduler that issued nothing stays idle until an event of one of its warps, its wake
    // cycle, the LD/ST queue draining or the per-cycle issue ports freeing.
    if (!needs_every_cycle_ && !sched_dirty_[s] && now < sched_wake_[s] &&
        !(per_sched ? ldst_was_full_[s] && !ldst_.full(int(s)) : ldst_was_full && !ldst_.full()) && !ports_reset) {
      unchanged_cycle(s, now);
      continue;
    }
    sched_dirty_[s] = 0;
    flush_empty_cycles(s);
    SmSchedulerContext ctx(*this, int(s));
    WarpScheduler& policy = *schedulers_[s];
    bool issued = false;
    uint64_t ready_mask = 0;
    bool had_warps = !sched_slot_[s].empty();
    if (issue_log_)
      for (uint16_t w : sched_slot_[s])
        if (status(w) == WarpStatus::Ready) ready_mask |= 1ull << w;
    int first_slot = -1;
    for (uint32_t k = 0; k < cfg_.core.issue_per_scheduler; ++k) {
      int slot = sched_slot_[s].empty() ? -1 : policy.select(ctx);
      if (slot < 0 || slot >= int(warps_.size()) || sched_of(uint32_t(slot)) != s || status(slot) != WarpStatus::Ready)
        break;
      const WarpInst& in = warps_[slot].cur();
      issue(int(s), slot, now);
      policy.on_issue(ctx, slot, in);
      if (!issued) first_slot = slot;
      issued = true;
    }
    if (issue_log_ && had_warps)
      issue_log_->push_back({now, uint16_t(s), int16_t(first_slot), ready_mask, uint16_t(id_)});
    CycleClass cls = CycleClass::Issued;
    Unit busy = Unit::SP;
    uint64_t wake = now + 1;
    if (!issued) cls = classify(int(s), &busy, &wake);
    sched_wake_[s] = issued ? now + 1 : wake;
    if (issued) sched_dirty_[s] = 1;
    stats_.sched_cycles[int(cls)]++;
    if (cls == CycleClass::UnitBusy) stats_.unit_busy[int(busy)]++;
    last_class_[s] = cls;
    last_busy_unit_[s] = busy;
    policy.on_cycle_end(ctx, issued, issued ? WarpStatus::Ready : status_of_class(cls));
    active |= issued;
  }
  if (cfg_.core.fetch_after_issue && fetch_has_work()) active |= fetch(now);
  active |= ldst_.has_outgoing(now);
  // An SM whose policies act every cycle on their own stays awake; one whose policies are
  // given every cycle (replays_) dozes instead of sleeping.
  if ((live_ctas_ == 0 || !active) && !needs_every_cycle_) maybe_sleep(now);
  return active;
}

void Sm::doze(uint64_t now) {
  // The cycles before `now` are counted (by the previous doze, or a skip_cycles of the GPU's).
  now_ = now;
  ldst_.skip_cycles(1, stats_);
  for (uint32_t i = 0; i < uint32_t(schedulers_.size()); ++i) unchanged_cycle(sched_in_order(i, now), now);
  sleep_from_ = now + 1;
}

// Sleeps from the next cycle when ticking would change nothing but the cycle-class counts:
// every scheduler in the fast path of cycle() (not dirty, before its wake cycle, no port
// change pending), no instruction fill, and either no CTA and nothing in flight, or (an SM
// whose cycle did nothing) nothing the LD/ST unit can do before its next own event or a memory
// response for this SM, which wakes it (Gpu::step_until asks the memory system). A full LD/ST
// queue does not keep the SM awake: it empties only in a cycle of the LD/ST unit that does
// something, i.e. at one of those events, and the schedulers waiting for room are asked in that
// cycle (cycle() keeps ldst_full_at_start_ as the last cycle left it), as they would be awake.
void Sm::maybe_sleep(uint64_t now) {
  if (!ifills_.empty() || !ifeed_.empty() || mem_port_used_last_cycle_ || leaving_) return;
  const bool empty = live_ctas_ == 0;
  if (empty && (!ldst_.quiet() || ifetches_out_)) return;
  uint64_t until = ~0ull;
  for (size_t s = 0; s < sched_wake_.size(); ++s) {
    if (sched_dirty_[s]) return;
    until = std::min(until, sched_wake_[s]);
  }
  if (!empty) {
    if (ldst_.has_outgoing(now + 1)) return;
    until = std::min(until, next_event(now));
  }
  if (until <= now + 1) return;
  sleep_from_ = now + 1;
  sleep_until_ = until;
  doze_live_ = false;
  if (replays_)
    for (uint32_t s = 0; s < uint32_t(schedulers_.size()); ++s)
      doze_live_ |= sched_replays_[s] && !(sched_replays_[s] == kReplayEach && in_bulk(s));
  sleeps_on_memory_ = !empty;
  sleeps_with_ctas_ += !empty;
  sleeps_with_full_ldst_ +=
      !empty && (ldst_full_all_at_start_ ||
                 std::find(ldst_full_at_start_.begin(), ldst_full_at_start_.end(), 1) != ldst_full_at_start_.end());
}

void Sm::count_sleep(uint64_t upto) {
  if (sleep_from_ == kAwake || upto <= sleep_from_) return;
  skip_cycles(sleep_from_, upto - sleep_from_);
  sleep_from_ = upto;
}

void Sm::wake(uint64_t upto) {
  count_sleep(upto);
  sleep_from_ = kAwake;
  sleep_until_ = 0;
  doze_live_ = false;
  sleeps_on_memory_ = false;
}

WarpStatus Sm::status_of_class(CycleClass c) {
  switch (c) {
    case CycleClass::Issued:
    case CycleClass::Declined:
      return WarpStatus::Ready;
    case CycleClass::UnitBusy:
      return WarpStatus::UnitBusy;
    case CycleClass::RAW:
      return WarpStatus::RAW;
    case CycleClass::Control:
      return WarpStatus::Control;
    case CycleClass::Barrier:
      return WarpStatus::Barrier;
    case CycleClass::Idle:
      return WarpStatus::Idle;
    default:
      return WarpStatus::Finished;
  }
}

uint64_t Sm::next_event(uint64_t now) {
  // Asleep, it is ticked again at sleep_until_ or by a memory response (the memory system's
  // event); its timers before then find it asleep.
  if (sleep_from_ != kAwake) return sleep_until_;
  wakes_.drop_through(now);
  uint64_t t = wakes_.earliest();
  for (size_t s = 0; s < sched_wake_.size(); ++s)
    if (sched_dirty_[s]) t = std::min(t, now + 1);
  // A blocked head waits for a request to leave or for a response: the terms below and the
  // memory system's events.
  if (ldst_.has_queued() && ldst_.head_blocked() == LdstHeadWait::Reason::None)
    t = std::min(t, std::max(now + 1, ldst_.busy_until()));
  if (ldst_.has_writebacks() || leaving_) t = std::min(t, now + 1);
  t = std::min(t, std::max(now + 1, ldst_.next_request_ready(now)));
  return t;
}

void Sm::skip_cycles(uint64_t first, uint64_t n) {
  ldst_.skip_cycles(n, stats_);
  for (size_t s = 0; s < last_class_.size(); ++s) {
    stats_.sched_cycles[int(last_class_[s])] += n;
    if (last_class_[s] == CycleClass::UnitBusy) stats_.unit_busy[int(last_busy_unit_[s])] += n;
  }
  if (!replays_) return;
  // The policies that act every cycle get the skipped cycles, in cycle order and scheduler
  // order, as cycle() would have given them.
  // A scheduler without warps that takes such cycles in bulk gets all of them at once.
  std::vector<uint8_t>& each = replay_each_scratch_;
  each.assign(schedulers_.size(), 0);
  bool any_each = false;
  for (size_t s = 0; s < schedulers_.size(); ++s) {
    if (!sched_replays_[s]) continue;
    schedulers_[s]->on_replay_start();
    if (sched_replays_[s] == kReplayEach && in_bulk(uint32_t(s)))
      add_empty_cycles(uint32_t(s), first, n);
    else
      any_each |= each[s] = sched_replays_[s] == kReplayEach;
  }
  const uint64_t last = first + n - 1;
  for (uint64_t c = any_each ? first : last; c <= last; ++c) {
    now_ = c;
    for (uint32_t i = 0; i < uint32_t(schedulers_.size()); ++i) {
      const uint32_t s = sched_in_order(i, c);
      if (each[s] || (sched_replays_[s] == kReplayLast && c == last)) idle_cycle(s, true);
    }
  }
}

// What cycle() does for scheduler `s` in a cycle in which none of its warps can issue (none is
// ready: a ready warp passed over keeps the scheduler awake the next cycle): it is asked, it
// chooses nothing, and the cycle ends with the class of its last decided cycle.
void Sm::idle_cycle(uint32_t s, bool frozen) {
  flush_empty_cycles(s);
  SmSchedulerContext ctx(*this, int(s), frozen, true);
  WarpScheduler& policy = *schedulers_[s];
  const bool had_warps = !sched_slot_[s].empty();
  if (had_warps && policy.select(ctx) >= 0)
    throw Error(
        fmt::format("internal: scheduler {} of SM {} chose a warp in cycle {}, in which none can issue", s, id_, now_));
  // The issue log has no entry for it, as for any scheduler's idle cycle.
  policy.on_cycle_end(ctx, false, status_of_class(last_class_[s]));
}

std::string Sm::describe_warps(uint64_t now, const std::vector<std::string>& kernel_names) const {
  static const char* names[] = {"ready",   "unit busy", "register dependency", "branch", "barrier", "instruction fetch",
                                "finished"};
  std::string out;
  for (size_t i = 0; i < warps_.size(); ++i) {
    const Warp& w = warps_[i];
    if (!w.info.valid || w.info.finished) continue;
    Sm* self = const_cast<Sm*>(this);
    WarpStatus s = self->status(int(i));
    const CtaInfo& c = ctas_[w.info.cta_slot].info;
    const std::string& kname = w.info.kernel < kernel_names.size() ? kernel_names[w.info.kernel] : "?";
    out += fmt::format("  sm {} warp slot {} (kernel {} '{}', cta {}, warp {}): pc 0x{:x}, waiting for {}{}\n", id_, i,
                       w.info.kernel, kname, c.cta_id, w.info.warp_in_cta, w.next < w.n ? w.inst(w.next).pc : 0,
                       names[int(s)],
                       w.pending_mem ? fmt::format(" ({} memory instructions in flight)", w.pending_mem) : "");
  }
  return out;
}

}  // namespace warpsim

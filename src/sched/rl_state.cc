#include "sched/rl_state.h"

#include <algorithm>
#include <cstring>

namespace warpsim {

void WarpSummaries::clear() {
  n = 0;
  std::memset(count, 0, sizeof count);
  std::memset(by_status, 0, sizeof by_status);
  std::memset(by_pipe, 0, sizeof by_pipe);
  diverged = ready_loads = 0;
}

void summarize_warps(const SchedulerContext& ctx, WarpSummaries& out) {
  out.clear();
  for (uint16_t w : ctx.warps()) {
    WarpStatus s = ctx.status(w);
    WarpSummary sum{w, s, PipeClass::None, 0};
    if (s == WarpStatus::Ready || s == WarpStatus::UnitBusy || s == WarpStatus::RAW) {
      const WarpInst& in = ctx.next_inst(w);
      sum.pipe = pipe_class(in);
      if (in.flags & kFlagDiverged) sum.flags |= kSummaryDiverged;
      if (sum.pipe == PipeClass::GMEM && in.op != OpClass::STORE) sum.flags |= kSummaryLoad;
    }
    out.add(sum);
  }
}

namespace {

double ratio(uint64_t num, uint64_t den) { return den ? double(num) / double(den) : double(num); }
double percent(uint64_t part, uint64_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; }

}  // namespace

bool attribute_reads_counters_only(rl::Attr a) {
  using rl::Attr;
  switch (a) {
    case Attr::ATBWB:   // the CTAs
    case Attr::ATBWF:   // the CTAs
    case Attr::RLMI:    // the next instructions' PCs (rlmi = observed)
    case Attr::STBRMI:  // the warps' CTAs
      return false;
    default:
      return true;
  }
}

// A counter added to either struct must be compared below (or said not to matter, like the cycle).
static_assert(sizeof(SmCounters) == 9 * sizeof(uint64_t) + 8, "same_counters(SmCounters) compares every field");
static_assert(sizeof(GpuCounters) == 6 * sizeof(uint64_t), "same_counters(GpuCounters) compares every field but cycle");

bool same_counters(const SmCounters& a, const SmCounters& b) {
  return a.insts_issued == b.insts_issued && a.alu_issued == b.alu_issued && a.mem_issued == b.mem_issued &&
         a.mem_in_flight == b.mem_in_flight && a.l1d_hits == b.l1d_hits && a.l1d_misses == b.l1d_misses &&
         a.icache_hits == b.icache_hits && a.icache_misses == b.icache_misses && a.ctas_finished == b.ctas_finished &&
         a.last_mem_cta == b.last_mem_cta;
}

bool same_counters(const GpuCounters& a, const GpuCounters& b) {
  return a.ctas_waiting == b.ctas_waiting && a.l2_hits == b.l2_hits && a.l2_misses == b.l2_misses &&
         a.avg_mem_latency == b.avg_mem_latency && a.mem_in_flight == b.mem_in_flight;
}

double attribute_value(rl::Attr a, const SchedulerContext& ctx, const WarpSummaries& ws, const AttrInputs& in) {
  using rl::Attr;
  const RlBaseline& base = *in.ratios;
  const SmCounters& sm = ctx.sm();
  const GpuCounters& gpu = ctx.gpu();
  auto all_of = [&](PipeClass p) { return ws.by_pipe[int(p)]; };
  auto busy = [&](PipeClass p) { return ws.count[int(WarpStatus::UnitBusy)][int(p)]; };
  switch (a) {
    case Attr::ATBWB:
    case Attr::ATBWF:
      for (int c = 0; c < ctx.num_ctas_slots(); ++c) {
        const CtaInfo& ci = ctx.cta(c);
        if (!ci.valid) continue;
        if (a == Attr::ATBWB ? ci.at_barrier > 0 && ci.at_barrier + ci.finished < ci.warps : ci.finished > 0) return 1;
      }
      return 0;
    case Attr::TBW:
      return gpu.ctas_waiting > 0;
    case Attr::RLMI:
      // Loads from off-chip memory are the long-latency memory instructions (rlmi =
      // global_load), or those of them at a PC observed to be long-latency (observed).
      if (!in.long_latency_pcs || ws.ready_loads == 0) return ws.ready_loads > 0;
      for (int i = 0; i < ws.n; ++i) {
        const WarpSummary& w = ws.w[i];
        if (w.status == WarpStatus::Ready && (w.flags & kSummaryLoad) &&
            std::binary_search(in.long_latency_pcs->begin(), in.long_latency_pcs->end(), ctx.next_inst(w.slot).pc))
          return 1;
      }
      return 0;
    case Attr::RGMI:
      return ws.ready(PipeClass::GMEM) > 0;
    case Attr::RSTCMI:
      return ws.ready(PipeClass::STCMEM) > 0;
    case Attr::RSFI:
      return ws.ready(PipeClass::SFU) > 0;
    case Attr::RSPI:
      return ws.ready(PipeClass::SP) > 0;
    case Attr::NTF:
      return sm.ctas_finished == in.kernel->sm.ctas_finished;
    case Attr::NIW:
      return ws.with_status(WarpStatus::Idle) + ws.with_status(WarpStatus::Control);
    case Attr::NSW:
      return ws.diverged;
    case Attr::NFSFI:
      return all_of(PipeClass::SFU);
    case Attr::NFMI:
      return all_of(PipeClass::GMEM) + all_of(PipeClass::STCMEM);
    case Attr::NRSPI:
      return ws.ready(PipeClass::SP);
    case Attr::NRGMI:
      return ws.ready(PipeClass::GMEM);
    case Attr::NRSTCMI:
      return ws.ready(PipeClass::STCMEM);
    case Attr::NRSFI:
      return ws.ready(PipeClass::SFU);
    case Attr::NWI:
      return ws.with_status(WarpStatus::RAW);
    case Attr::NPS:
      return ws.with_status(WarpStatus::UnitBusy);
    case Attr::NMPS:
      return busy(PipeClass::GMEM) + busy(PipeClass::STCMEM);
    case Attr::NSFPS:
      return busy(PipeClass::SFU);
    case Attr::NSPPS:
      return busy(PipeClass::SP) + busy(PipeClass::None);
    case Attr::NAIPMI:
      return ratio(sm.alu_issued - base.sm.alu_issued, sm.mem_issued - base.sm.mem_issued);
    case Attr::NRI:
      return ws.with_status(WarpStatus::Ready);
    case Attr::NWS:
      return ws.n - ws.with_status(WarpStatus::Finished) - ws.with_status(WarpStatus::Barrier);
    case Attr::NRAI:
      return ws.ready(PipeClass::SP) + ws.ready(PipeClass::SFU);
    case Attr::STBRMI: {
      if (ws.ready(PipeClass::GMEM) + ws.ready(PipeClass::STCMEM) == 0) return 0;
      int c = 0;
      for (int i = 0; i < ws.n; ++i) {
        const WarpSummary& w = ws.w[i];
        if (w.status == WarpStatus::Ready && (w.pipe == PipeClass::GMEM || w.pipe == PipeClass::STCMEM) &&
            int32_t(ctx.warp(w.slot).cta_slot) == sm.last_mem_cta)
          ++c;
      }
      return c;
    }
    case Attr::SMNMIE:
      return double(sm.mem_in_flight);
    case Attr::ICMP: {
      uint64_t h = sm.icache_hits - base.sm.icache_hits, m = sm.icache_misses - base.sm.icache_misses;
      return percent(m, h + m);
    }
    case Attr::L1MP: {
      uint64_t h = sm.l1d_hits - base.sm.l1d_hits, m = sm.l1d_misses - base.sm.l1d_misses;
      return percent(m, h + m);
    }
    case Attr::L2MP: {
      uint64_t h = gpu.l2_hits - base.gpu.l2_hits, m = gpu.l2_misses - base.gpu.l2_misses;
      return percent(m, h + m);
    }
    case Attr::NIPL1M:
      return ratio(sm.insts_issued - base.sm.insts_issued, sm.l1d_misses - base.sm.l1d_misses);
    case Attr::AGML:
      return double(gpu.avg_mem_latency);
    case Attr::GNMIE:
      return double(gpu.mem_in_flight);
    case Attr::kCount:
      break;
  }
  return 0;
}

}  // namespace warpsim

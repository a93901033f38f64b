#include "sched/rl_state.h"

#include <algorithm>
#include <cstddef>
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
    const WarpStatus s = ctx.status(w);
    InstBrief b;  // PipeClass::None: the next instruction is not known
    if (s == WarpStatus::Ready || s == WarpStatus::UnitBusy || s == WarpStatus::RAW) b = ctx.next_brief(w);
    out.add(w, s, b.pipe, b.flags);
  }
}

namespace {

double ratio(uint64_t num, uint64_t den) { return den ? double(num) / double(den) : double(num); }
double percent(uint64_t part, uint64_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; }

}  // namespace

AttrSource attribute_source(rl::Attr a, bool observed_rlmi) {
  using rl::Attr;
  switch (a) {
    case Attr::ATBWB:   // the CTAs
    case Attr::ATBWF:   // the CTAs
    case Attr::STBRMI:  // the warps' CTAs
      return AttrSource::Other;
    case Attr::RLMI:  // the next instructions' PCs when observed
      return observed_rlmi ? AttrSource::Other : AttrSource::Summary;
    default:
      return counter_inputs(a).count ? AttrSource::Counters : AttrSource::Summary;
  }
}

CounterInputs counter_inputs(rl::Attr a) {
  using rl::Attr;
  auto sm = [](size_t off) { return CounterRef{false, uint8_t(off)}; };
  auto gpu = [](size_t off) { return CounterRef{true, uint8_t(off)}; };
  auto one = [](CounterRef r) { return CounterInputs{{r, r}, 1}; };
  auto two = [](CounterRef r0, CounterRef r1) { return CounterInputs{{r0, r1}, 2}; };
  switch (a) {
    case Attr::TBW:
      return one(gpu(offsetof(GpuCounters, ctas_waiting)));
    case Attr::NTF:
      return one(sm(offsetof(SmCounters, ctas_finished)));
    case Attr::NAIPMI:
      return two(sm(offsetof(SmCounters, alu_issued)), sm(offsetof(SmCounters, mem_issued)));
    case Attr::SMNMIE:
      return one(sm(offsetof(SmCounters, mem_in_flight)));
    case Attr::ICMP:
      return two(sm(offsetof(SmCounters, icache_hits)), sm(offsetof(SmCounters, icache_misses)));
    case Attr::L1MP:
      return two(sm(offsetof(SmCounters, l1d_hits)), sm(offsetof(SmCounters, l1d_misses)));
    case Attr::L2MP:
      return two(gpu(offsetof(GpuCounters, l2_hits)), gpu(offsetof(GpuCounters, l2_misses)));
    case Attr::NIPL1M:
      return two(sm(offsetof(SmCounters, insts_issued)), sm(offsetof(SmCounters, l1d_misses)));
    case Attr::AGML:
      return one(gpu(offsetof(GpuCounters, avg_mem_latency)));
    case Attr::GNMIE:
      return one(gpu(offsetof(GpuCounters, mem_in_flight)));
    default:
      return {};
  }
}

const RlBaseline& counter_baseline(rl::Attr a, const AttrInputs& in) {
  return a == rl::Attr::NTF ? *in.kernel : *in.ratios;
}

double counter_attribute(rl::Attr a, const uint64_t now[2], const uint64_t base[2]) {
  using rl::Attr;
  switch (a) {
    case Attr::TBW:
      return now[0] > 0;
    case Attr::NTF:
      return now[0] == base[0];
    case Attr::NAIPMI:
    case Attr::NIPL1M:
      return ratio(now[0] - base[0], now[1] - base[1]);
    case Attr::ICMP:
    case Attr::L1MP:
    case Attr::L2MP: {
      uint64_t h = now[0] - base[0], m = now[1] - base[1];
      return percent(m, h + m);
    }
    case Attr::SMNMIE:
    case Attr::AGML:
    case Attr::GNMIE:
      return double(now[0]);
    default:
      return 0;
  }
}

double attribute_value(rl::Attr a, const SchedulerContext& ctx, const WarpSummaries& ws, const AttrInputs& in) {
  using rl::Attr;
  const SmCounters& sm = ctx.sm();
  const GpuCounters& gpu = ctx.gpu();
  auto all_of = [&](PipeClass p) { return ws.by_pipe[int(p)]; };
  auto busy = [&](PipeClass p) { return ws.count[int(WarpStatus::UnitBusy)][int(p)]; };
  if (CounterInputs c = counter_inputs(a); c.count) {
    uint64_t now[2], at_base[2];
    const RlBaseline& b = counter_baseline(a, in);
    c.read(sm, gpu, now);
    c.read(b.sm, b.gpu, at_base);
    return counter_attribute(a, now, at_base);
  }
  switch (a) {
    case Attr::ATBWB:
    case Attr::ATBWF:
      for (int c = 0; c < ctx.num_ctas_slots(); ++c) {
        const CtaInfo& ci = ctx.cta(c);
        if (!ci.valid) continue;
        if (a == Attr::ATBWB ? ci.at_barrier > 0 && ci.at_barrier + ci.finished < ci.warps : ci.finished > 0) return 1;
      }
      return 0;
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
    default:  // the Counters attributes, above
      break;
  }
  return 0;
}

}  // namespace warpsim

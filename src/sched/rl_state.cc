#include "sched/rl_state.h"

#include <algorithm>

namespace warpsim {

PipeClass pipe_class(const WarpInst& in) {
  if (in.is_mem()) {
    return (in.space == MemSpace::Global || in.space == MemSpace::Local) ? PipeClass::GMEM : PipeClass::STCMEM;
  }
  return in.unit == Unit::SFU ? PipeClass::SFU : PipeClass::SP;
}

int summarize_warps(const SchedulerContext& ctx, WarpSummary* warps) {
  int n = 0;
  for (uint16_t w : ctx.warps()) {
    WarpStatus s = ctx.status(w);
    PipeClass p = PipeClass::None;
    if (s == WarpStatus::Ready || s == WarpStatus::UnitBusy || s == WarpStatus::RAW) p = pipe_class(ctx.next_inst(w));
    warps[n++] = {w, s, p};
  }
  return n;
}

void compute_attributes(const SchedulerContext& ctx, const WarpSummary* warps, int n, const AttrInputs& in,
                        rl::AttrValues& v) {
  const RlBaseline& base = *in.ratios;
  using rl::Attr;
  v.fill(0);
  auto A = [&](Attr a) -> double& { return v[int(a)]; };
  const SmCounters& sm = ctx.sm();
  const GpuCounters& gpu = ctx.gpu();
  int32_t last_cta = sm.last_mem_cta;
  for (int i = 0; i < n; ++i) {
    const WarpSummary& w = warps[i];
    const WarpInfo& info = ctx.warp(w.slot);
    bool ready = w.status == WarpStatus::Ready;
    if (w.status != WarpStatus::Finished && w.status != WarpStatus::Barrier) A(Attr::NWS) += 1;
    if (w.status == WarpStatus::Idle || w.status == WarpStatus::Control) A(Attr::NIW) += 1;
    if (w.status == WarpStatus::RAW) A(Attr::NWI) += 1;
    if (w.pipe != PipeClass::None && (ctx.next_inst(w.slot).flags & kFlagDiverged)) A(Attr::NSW) += 1;
    if (w.pipe == PipeClass::SFU) A(Attr::NFSFI) += 1;
    if (w.pipe == PipeClass::GMEM || w.pipe == PipeClass::STCMEM) A(Attr::NFMI) += 1;
    if (w.status == WarpStatus::UnitBusy) {
      A(Attr::NPS) += 1;
      if (w.pipe == PipeClass::GMEM || w.pipe == PipeClass::STCMEM)
        A(Attr::NMPS) += 1;
      else if (w.pipe == PipeClass::SFU)
        A(Attr::NSFPS) += 1;
      else
        A(Attr::NSPPS) += 1;
    }
    if (!ready) continue;
    A(Attr::NRI) += 1;
    switch (w.pipe) {
      case PipeClass::SP:
        A(Attr::NRSPI) += 1;
        A(Attr::NRAI) += 1;
        break;
      case PipeClass::SFU:
        A(Attr::NRSFI) += 1;
        A(Attr::NRAI) += 1;
        break;
      case PipeClass::GMEM: {
        A(Attr::NRGMI) += 1;
        // Loads from off-chip memory are the long-latency memory instructions (rlmi =
        // global_load), or those of them at a PC observed to be long-latency (observed).
        const WarpInst& mi = ctx.next_inst(w.slot);
        if (mi.op != OpClass::STORE && (!in.long_latency_pcs || std::binary_search(in.long_latency_pcs->begin(),
                                                                                   in.long_latency_pcs->end(), mi.pc)))
          A(Attr::RLMI) = 1;
        if (int32_t(info.cta_slot) == last_cta) A(Attr::STBRMI) += 1;
        break;
      }
      case PipeClass::STCMEM:
        A(Attr::NRSTCMI) += 1;
        if (int32_t(info.cta_slot) == last_cta) A(Attr::STBRMI) += 1;
        break;
      default:
        break;
    }
  }
  A(Attr::RGMI) = A(Attr::NRGMI) > 0;
  A(Attr::RSTCMI) = A(Attr::NRSTCMI) > 0;
  A(Attr::RSFI) = A(Attr::NRSFI) > 0;
  A(Attr::RSPI) = A(Attr::NRSPI) > 0;
  for (int c = 0; c < ctx.num_ctas_slots(); ++c) {
    const CtaInfo& ci = ctx.cta(c);
    if (!ci.valid) continue;
    if (ci.at_barrier > 0 && ci.at_barrier + ci.finished < ci.warps) A(Attr::ATBWB) = 1;
    if (ci.finished > 0) A(Attr::ATBWF) = 1;
  }
  A(Attr::TBW) = gpu.ctas_waiting > 0;
  A(Attr::NTF) = sm.ctas_finished == in.kernel->sm.ctas_finished;
  uint64_t alu = sm.alu_issued - base.sm.alu_issued, mem = sm.mem_issued - base.sm.mem_issued;
  A(Attr::NAIPMI) = mem ? double(alu) / double(mem) : double(alu);
  A(Attr::SMNMIE) = double(sm.mem_in_flight);
  uint64_t ih = sm.icache_hits - base.sm.icache_hits, im = sm.icache_misses - base.sm.icache_misses;
  A(Attr::ICMP) = ih + im ? 100.0 * double(im) / double(ih + im) : 0.0;
  uint64_t lh = sm.l1d_hits - base.sm.l1d_hits, lm = sm.l1d_misses - base.sm.l1d_misses;
  A(Attr::L1MP) = lh + lm ? 100.0 * double(lm) / double(lh + lm) : 0.0;
  uint64_t issued = sm.insts_issued - base.sm.insts_issued;
  A(Attr::NIPL1M) = lm ? double(issued) / double(lm) : double(issued);
  uint64_t gh = gpu.l2_hits - base.gpu.l2_hits, gm = gpu.l2_misses - base.gpu.l2_misses;
  A(Attr::L2MP) = gh + gm ? 100.0 * double(gm) / double(gh + gm) : 0.0;
  A(Attr::AGML) = double(gpu.avg_mem_latency);
  A(Attr::GNMIE) = double(gpu.mem_in_flight);
}

}  // namespace warpsim

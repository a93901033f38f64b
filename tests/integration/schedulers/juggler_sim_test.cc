// Juggler in the timing model: registration and parameters, mode dispatch checked decision by
// decision against the fixed orders, mode residency against the SM's own cycle accounting
// (whole run and per kernel), and the replay of skipped cycles against every-cycle simulation.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "core/error.h"
#include "sched/juggler.h"
#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

// A memory phase (loads whose values are used, plus dependent arithmetic) then a compute
// phase: stalls come in bursts of different kinds, so the predictor has something to do.
synth::SyntheticKernel phased_kernel(uint32_t ctas = 2, uint32_t mem_iters = 12, uint32_t alu_iters = 12) {
  KernelBuilder b("phased");
  b.grid({ctas, 1, 1}).block({256, 1, 1});
  b.loop(mem_iters, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced().at(0x100000), 4, 1, true);
    l.alu(Unit::SP, 3, true);
  });
  b.loop(alu_iters, [](KernelBuilder& l) { l.alu(Unit::SP, 4).alu(Unit::SP, 2, true); });
  return b.build();
}

struct JRun {
  StatsSnapshot stats;
  std::vector<KernelResult> kernels;
  std::vector<IssueRecord> log;
  nlohmann::json report;
};

JRun run(const GpuConfig& cfg, const std::vector<synth::SyntheticKernel>& ks, const std::string& sched,
         const SchedulerParams& p = {}) {
  Gpu gpu(cfg, sched, p);
  JRun r;
  gpu.set_issue_log(&r.log);
  for (const auto& k : ks) gpu.enqueue(k.source(), 0);
  gpu.run_until_idle();
  r.stats = gpu.snapshot();
  r.kernels = gpu.results();
  r.report = gpu.scheduler_report();
  return r;
}

SchedulerParams params(std::initializer_list<std::pair<const char*, std::string>> kv) {
  SchedulerParams p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

const std::string kNever = std::to_string(int64_t(1) << 30);

uint64_t mode_sum(const nlohmann::json& sched, const char* field) {
  uint64_t s = 0;
  for (const char* m : {"UM", "LHM", "FM"}) s += sched[field][m].get<uint64_t>();
  return s;
}

// A per-mode field of the GPU-wide report (summed over every scheduler of every SM), for one
// mode or all.
uint64_t report_sum(const nlohmann::json& report, const char* field, const char* mode = nullptr) {
  return mode ? report[field][mode].get<uint64_t>() : mode_sum(report, field);
}

TEST(JugglerSim, RegisteredWithItsParameters) {
  EXPECT_EQ(find_scheduler("juggler").name, "juggler");
  EXPECT_EQ(find_scheduler("r-juggler").name, "r-juggler");
  GpuConfig cfg = small_gpu();
  EXPECT_NO_THROW(Gpu(cfg, "juggler",
                      params({{"uth", "10"},
                              {"fth", "3"},
                              {"lth", "0"},
                              {"history_bits", "2"},
                              {"order", "r-juggler"},
                              {"stall_count", "window"},
                              {"window", "32"},
                              {"history", "shift"},
                              {"entry", "highest"},
                              {"active", "4"},
                              {"every_cycle", "1"}})));
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"uthh", "10"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"uth", "-1"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"fth", "many"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"history_bits", "0"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"history_bits", "9"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"order", "sideways"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"stall_count", "often"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"window", "0"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"history", "ring"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"entry", "middle"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"active", "0"}})), Error);
  EXPECT_THROW(Gpu(cfg, "juggler", params({{"every_cycle", "2"}})), Error);
}

// A mode the predictor never leaves (or enters at once) schedules exactly as the fixed policy:
// the issue logs agree decision by decision.
TEST(JugglerSim, EachModeSchedulesAsItsFixedPolicy) {
  GpuConfig cfg = small_gpu(1, 2);
  std::vector<synth::SyntheticKernel> ks{phased_kernel()};
  auto same_log = [](const JRun& a, const JRun& b, const char* what) {
    ASSERT_EQ(a.log.size(), b.log.size()) << what;
    for (size_t i = 0; i < a.log.size(); ++i) {
      ASSERT_EQ(a.log[i].cycle, b.log[i].cycle) << what << " record " << i;
      ASSERT_EQ(a.log[i].slot, b.log[i].slot) << what << " record " << i;
    }
  };
  // UM with an unreachable UTH is GTO.
  JRun um = run(cfg, ks, "juggler", params({{"uth", kNever}}));
  same_log(um, run(cfg, ks, "gto"), "UM vs gto");
  EXPECT_EQ(report_sum(um.report, "cycles", "UM"), report_sum(um.report, "cycles"));
  // UTH = 0 leaves UM on the second stall cycle; the first cycles wait for instruction fetch
  // (nothing issued yet), so from the first decision on, LHM (LTH unreachable) is TL and FM
  // (R-Juggler, FTH unreachable) is LRR.
  JRun lhm = run(cfg, ks, "juggler", params({{"uth", "0"}, {"lth", kNever}}));
  same_log(lhm, run(cfg, ks, "tl"), "LHM vs tl");
  EXPECT_EQ(report_sum(lhm.report, "cycles", "UM"), 2u * 2);  // two cycles per scheduler
  EXPECT_EQ(report_sum(lhm.report, "issue_cycles", "UM"), 0u);
  JRun fm = run(cfg, ks, "r-juggler", params({{"uth", "0"}, {"fth", kNever}}));
  same_log(fm, run(cfg, ks, "lrr"), "FM vs lrr");
  EXPECT_EQ(report_sum(fm.report, "cycles", "LHM"), 0u);
  // The TL active set size is passed through.
  JRun lhm4 = run(cfg, ks, "juggler", params({{"uth", "0"}, {"lth", kNever}, {"active", "4"}}));
  same_log(lhm4, run(cfg, ks, "tl", params({{"active", "4"}})), "LHM vs tl, active 4");
}

// LHM's two-level active set never holds every warp of a scheduler, so LHM is never FM's round
// robin: automatic size min(8, warps per scheduler / 2) on every preset.
TEST(JugglerSim, LhmActiveSetIsSmallerThanTheSchedulersWarps) {
  JugglerOptions automatic = juggler_options(SchedulerParams{}, "juggler");
  EXPECT_EQ(automatic.active, 0u);
  EXPECT_EQ(juggler_lhm_active(automatic, 24), 8u);  // gtx480: the tl default
  EXPECT_EQ(juggler_lhm_active(automatic, 16), 8u);  // titanv, h100
  EXPECT_EQ(juggler_lhm_active(automatic, 8), 4u);   // rtx2060
  EXPECT_EQ(juggler_lhm_active(automatic, 1), 1u);
  JugglerOptions six = juggler_options(params({{"active", "6"}}), "juggler");
  EXPECT_EQ(juggler_lhm_active(six, 8), 6u);  // given: used as is
  EXPECT_THROW(juggler_options(params({{"active", "some"}}), "juggler"), Error);
  EXPECT_THROW(juggler_options(params({{"active", "65"}}), "juggler"), Error);
  for (const std::string& preset : list_presets()) {
    GpuConfig c = load_preset(preset);
    int warps = int(c.core.max_warps / c.core.schedulers);
    EXPECT_LT(juggler_lhm_active(automatic, warps), uint32_t(warps)) << preset;
  }
  // In the timing model, with 8 warps per scheduler (rtx2060's 32 per SM over 4 schedulers):
  // LHM schedules as tl with 4 active warps, not as lrr (= tl with all 8 active).
  GpuConfig cfg = small_gpu(1, 2);
  cfg.core.max_warps = 16;
  std::vector<synth::SyntheticKernel> ks{phased_kernel()};
  JRun lhm = run(cfg, ks, "juggler", params({{"uth", "0"}, {"lth", kNever}}));
  auto same = [](const JRun& a, const JRun& b) {
    if (a.log.size() != b.log.size()) return false;
    for (size_t i = 0; i < a.log.size(); ++i)
      if (a.log[i].cycle != b.log[i].cycle || a.log[i].slot != b.log[i].slot) return false;
    return true;
  };
  EXPECT_TRUE(same(lhm, run(cfg, ks, "tl", params({{"active", "4"}}))));
  EXPECT_FALSE(same(lhm, run(cfg, ks, "tl", params({{"active", "8"}}))));
  EXPECT_FALSE(same(lhm, run(cfg, ks, "lrr")));
}

// Small thresholds: the modes switch, and every scheduler cycle the SM counts is in exactly
// one mode; issue and stall cycles match the SM's cycle classes.
TEST(JugglerSim, ModesSwitchAndResidencyMatchesSchedulerCycles) {
  GpuConfig cfg = small_gpu(2, 2);
  std::vector<synth::SyntheticKernel> ks{phased_kernel(4)};
  uint64_t gto_insts = run(cfg, ks, "gto").stats.core.warp_insts;
  struct Variant {
    const char* sched;
    SchedulerParams p;
  };
  std::vector<Variant> variants = {
      {"juggler", params({{"uth", "6"}, {"fth", "3"}, {"lth", "1"}})},
      {"juggler", params({{"uth", "6"}, {"fth", "3"}, {"lth", "1"}, {"every_cycle", "1"}})},
      {"r-juggler", params({{"uth", "6"}, {"fth", "3"}, {"lth", "1"}})},
      {"juggler", params({{"uth", "4"}, {"fth", "2"}, {"lth", "1"}, {"history_bits", "2"}})},
      {"juggler", params({{"uth", "6"}, {"fth", "3"}, {"lth", "1"}, {"stall_count", "consecutive"}})},
      {"juggler", params({{"uth", "2"}, {"fth", "2"}, {"lth", "2"}, {"stall_count", "window"}, {"window", "8"}})},
  };
  for (const auto& v : variants) {
    JRun r = run(cfg, ks, v.sched, v.p);
    SCOPED_TRACE(std::string(v.sched) + " " + r.report.dump().substr(0, 200));
    EXPECT_EQ(r.stats.core.warp_insts, gto_insts);
    const uint64_t* sc = r.stats.core.sched_cycles;
    uint64_t total = 0;
    for (int c = 0; c < kNumCycleClasses; ++c) total += sc[c];
    uint64_t issued = sc[int(CycleClass::Issued)];
    uint64_t no_warp = sc[int(CycleClass::NoWarp)];
    EXPECT_EQ(total, r.stats.cycle * 2 * 2);  // 2 SMs x 2 schedulers
    EXPECT_EQ(report_sum(r.report, "cycles"), total);
    EXPECT_EQ(report_sum(r.report, "issue_cycles"), issued);
    EXPECT_EQ(report_sum(r.report, "stall_cycles"), total - issued - no_warp);
    for (const char* m : {"UM", "LHM", "FM"}) EXPECT_GT(report_sum(r.report, "cycles", m), 0u) << m;
    EXPECT_EQ(r.report["policy"], v.sched);
    EXPECT_EQ(r.report["schedulers"].get<uint64_t>(), 4u);
    EXPECT_EQ(mode_sum(r.report, "final_mode"), 4u);
    EXPECT_EQ(r.report["mode_switches"].get<uint64_t>(), mode_sum(r.report, "switches_to"));
    EXPECT_GE(r.report["mode_switches"].get<uint64_t>(), 2u);
    EXPECT_GT(r.report["confidence_up"].get<uint64_t>(), 0u);
    EXPECT_GT(r.report["confidence_down"].get<uint64_t>(), 0u);
    double share = 0, active_share = 0;
    for (const char* m : {"UM", "LHM", "FM"}) {
      share += r.report["cycle_share"][m].get<double>();
      active_share += r.report["active_share"][m].get<double>();
      uint64_t active = report_sum(r.report, "issue_cycles", m) + report_sum(r.report, "stall_cycles", m);
      EXPECT_DOUBLE_EQ(r.report["active_share"][m].get<double>(), double(active) / double(total - no_warp));
    }
    EXPECT_NEAR(share, 1.0, 1e-9);
    EXPECT_NEAR(active_share, 1.0, 1e-9);
  }
}

// Skipped cycles are replayed into the predictor as repeats of the last simulated cycle. With
// the TL order out of the way (R-Juggler that never leaves FM) decisions cannot depend on
// select() being called on idle cycles, so the replay must give the very same counters as
// simulating every cycle.
TEST(JugglerSim, SkippedCycleReplayEqualsEveryCycleSimulation) {
  GpuConfig cfg = small_gpu(1, 2);
  std::vector<synth::SyntheticKernel> ks{phased_kernel(2, 20, 4)};
  SchedulerParams skip = params({{"uth", "40"}, {"fth", kNever}});
  SchedulerParams every = params({{"uth", "40"}, {"fth", kNever}, {"every_cycle", "1"}});
  JRun a = run(cfg, ks, "r-juggler", skip);
  JRun b = run(cfg, ks, "r-juggler", every);
  EXPECT_EQ(a.stats.cycle, b.stats.cycle);
  // The issue log only has simulated cycles; the decisions that issued are the same.
  auto issued = [](const JRun& r) {
    std::vector<std::pair<uint64_t, int>> v;
    for (const auto& d : r.log)
      if (d.slot >= 0) v.push_back({d.cycle, d.slot});
    return v;
  };
  EXPECT_EQ(issued(a), issued(b));
  EXPECT_LT(a.log.size(), b.log.size());  // cycles were skipped
  EXPECT_EQ(a.report, b.report);
  EXPECT_GT(report_sum(a.report, "cycles", "FM"), 0u);
  EXPECT_GT(report_sum(a.report, "cycles", "UM"), 0u);
}

// Per-kernel residency covers the kernel's cycles from start to end on every scheduler.
TEST(JugglerSim, PerKernelResidency) {
  GpuConfig cfg = small_gpu(1, 2);
  std::vector<synth::SyntheticKernel> ks{phased_kernel(2, 8, 8), phased_kernel(1, 4, 16)};
  JRun r = run(cfg, ks, "juggler", params({{"uth", "5"}, {"fth", "2"}, {"lth", "1"}}));
  ASSERT_EQ(r.kernels.size(), 2u);
  const auto& j = r.report;
  ASSERT_EQ(j["kernels"].size(), 2u);
  uint64_t in_kernels = 0;
  for (const KernelResult& kr : r.kernels) {
    const auto& jk = j["kernels"][std::to_string(kr.launch_index)];
    EXPECT_TRUE(jk["complete"].get<bool>());
    // Two schedulers, each counting every cycle from the kernel's start to its end.
    EXPECT_EQ(mode_sum(jk, "cycles"), 2 * (kr.end_cycle - kr.start_cycle + 1)) << kr.launch_index;
    in_kernels += mode_sum(jk, "cycles");
  }
  EXPECT_LE(in_kernels, mode_sum(j, "cycles"));
  EXPECT_GT(r.kernels[1].start_cycle, r.kernels[0].end_cycle);  // same stream: one after the other
}

TEST(JugglerSim, StallsCountedPerWarpLeaveUtilizationModeSooner) {
  // Fig. 4 counts each stalled warp ("warp w1 also encounters a MEM stall"); one scheduler
  // cycle with 8 stalled warps then adds 8 to the count instead of 1. With the same UM
  // threshold, counting per warp triggers more often: more confidence drops and mode switches
  // (with uth=200 the per-cycle count never leaves UM on this kernel).
  GpuConfig cfg = small_gpu(1, 1);
  for (const char* uth : {"40", "200"}) {
    SCOPED_TRACE(uth);
    auto cyc = run(cfg, {phased_kernel(2)}, "juggler", params({{"uth", uth}, {"every_cycle", "1"}}));
    auto warp = run(cfg, {phased_kernel(2)}, "juggler", params({{"uth", uth}, {"stall_events", "warp"}}));
    EXPECT_GT(warp.report["confidence_down"].get<uint64_t>(), cyc.report["confidence_down"].get<uint64_t>());
    EXPECT_GT(warp.report["mode_switches"].get<uint64_t>(), cyc.report["mode_switches"].get<uint64_t>());
    if (std::string(uth) == "200") {
      EXPECT_EQ(cyc.report["mode_switches"].get<uint64_t>(), 0u);
    }
  }
  auto warp = run(cfg, {phased_kernel(2)}, "juggler", params({{"stall_events", "warp"}}));
  // Issues are still one event per cycle.
  EXPECT_EQ(mode_sum(warp.report, "issue_cycles"), warp.stats.core.sched_cycles[int(CycleClass::Issued)]);
  EXPECT_THROW(run(cfg, {phased_kernel(1)}, "juggler", params({{"stall_events", "both"}})), Error);
}

TEST(JugglerSim, CloneCarriesTheState) {
  const SchedulerFactory& f = find_scheduler("juggler");
  SchedulerParams p = params({{"uth", "0"}});
  auto s = std::move(make_sm_schedulers(f, p, 0, 1).front());
  nlohmann::json a, b;
  s->report(a);
  auto c = s->clone();
  c->report(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a["final_mode"]["UM"], 1);
  EXPECT_FALSE(s->needs_every_cycle());
}

}  // namespace
}  // namespace warpsim::test

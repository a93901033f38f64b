// The phase oracle: what it guarantees (each window's choice is the best candidate for that
// window, from the same starting state) checked against independent runs.
#include "experiment/phase_oracle.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "core/error.h"
#include "synth/synthetic_kernel.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

using experiment::PhaseCandidate;
using synth::AccessPattern;
using synth::KernelBuilder;

synth::SyntheticKernel phased_kernel(const std::string& name, uint32_t ctas, bool memory_bound) {
  KernelBuilder b(name);
  b.grid({ctas, 1, 1}).block({256, 1, 1});
  b.loop(3, [&](KernelBuilder& l) {
    if (memory_bound) {
      l.load(MemSpace::Global, AccessPattern::per_cta(32 * 1024), 4, 3, true);
      l.load(MemSpace::Global, AccessPattern::random(1 << 22, 11), 4, 1, true);
    } else {
      l.alu(Unit::SP, 12, true);
      l.alu(Unit::SFU, 3);
      l.load(MemSpace::Global, AccessPattern::strided(4), 4, 1, true);
    }
    l.barrier();
  });
  return b.build();
}

// A small workload with host waits between its phases: a compute kernel, then a memory-bound
// one, then both at once on two streams.
class PhasedWorkload : public Workload {
 public:
  std::string name() const override { return "phased"; }
  std::string fingerprint() const override { return "phased-1"; }
  WorkloadOutcome run(LaunchTarget& t, const WorkloadOptions&) override {
    t.enqueue(phased_kernel("compute", 24, false).source(), 0);
    t.run_until_idle();
    t.enqueue(phased_kernel("memory", 24, true).source(), 0);
    t.run_until_stream_idle(0);
    t.enqueue(phased_kernel("compute2", 16, false).source(), 0);
    t.enqueue(phased_kernel("memory2", 16, true).source(), 1, 200);
    t.run_until_idle();
    return {};
  }
};

GpuConfig test_gpu() {
  GpuConfig cfg = load_preset("gtx480");
  cfg.core.num_sms = 4;
  cfg.l2.partitions = 2;
  return cfg;
}

PhaseCandidate cand(const char* p, uint64_t insts, uint64_t end, bool fin) { return {p, insts, end, fin, end}; }

TEST(PhaseOracle, ChoiceRule) {
  using experiment::best_phase_candidate;
  EXPECT_EQ(best_phase_candidate({}), -1);
  // Unfinished: most instructions; ties to the earlier candidate.
  EXPECT_EQ(best_phase_candidate({cand("a", 10, 5000, false), cand("b", 12, 5000, false), cand("c", 11, 5003, false)}),
            1);
  EXPECT_EQ(best_phase_candidate({cand("a", 12, 5000, false), cand("b", 12, 5000, false)}), 0);
  // Finishing the awaited kernels beats issuing more; among finishers, the earlier end.
  EXPECT_EQ(best_phase_candidate({cand("a", 99, 5000, false), cand("b", 10, 4000, true), cand("c", 12, 3900, true)}),
            2);
  EXPECT_EQ(best_phase_candidate({cand("a", 10, 3900, true), cand("b", 12, 3900, true)}), 1);
  // A tie goes to the policy in place.
  EXPECT_EQ(best_phase_candidate({cand("a", 12, 5000, false), cand("b", 12, 5000, false)}, 1), 1);
  EXPECT_EQ(best_phase_candidate({cand("a", 13, 5000, false), cand("b", 12, 5000, false)}, 1), 0);
}

TEST(PhaseOracle, RejectsBadOptions) {
  PhasedWorkload wl;
  experiment::PhaseOracleOptions o;
  o.window = 0;
  EXPECT_THROW(experiment::run_phase_oracle(wl, {}, test_gpu(), o), Error);
  o.window = 100;
  o.policies = {"gto", "nope"};
  EXPECT_THROW(experiment::run_phase_oracle(wl, {}, test_gpu(), o), Error);
  o.policies = {"gto", "gto"};
  EXPECT_THROW(experiment::run_phase_oracle(wl, {}, test_gpu(), o), Error);
  o.policies = {};
  EXPECT_THROW(experiment::run_phase_oracle(wl, {}, test_gpu(), o), Error);
}

TEST(PhaseOracle, OnePolicyIsThatPolicyAlone) {
  PhasedWorkload wl;
  const GpuConfig cfg = test_gpu();
  for (const char* p : {"gto", "tl"}) {
    SCOPED_TRACE(p);
    Gpu fixed(cfg, p);
    wl.run(fixed, {});
    experiment::PhaseOracleOptions o;
    o.window = 1500;
    o.policies = {p};
    experiment::PhaseOracleRun r = experiment::run_phase_oracle(wl, {}, cfg, o);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.cycles, fixed.now());
    EXPECT_EQ(r.stats.dump(), fixed.to_json().dump());
    EXPECT_GT(r.windows.size(), fixed.now() / 1500);
  }
}

TEST(PhaseOracle, EachWindowKeepsTheBestCandidate) {
  PhasedWorkload wl;
  const GpuConfig cfg = test_gpu();
  experiment::PhaseOracleOptions o;
  o.window = 2000;
  o.policies = {"lrr", "gto", "tl"};
  experiment::PhaseOracleRun r = experiment::run_phase_oracle(wl, {}, cfg, o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_GT(r.windows.size(), 5u);

  for (size_t i = 0; i < r.windows.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& w = r.windows[i];
    ASSERT_EQ(w.candidates.size(), 3u);
    const PhaseCandidate& best = w.candidates[size_t(w.chosen)];
    EXPECT_EQ(w.chosen, experiment::best_phase_candidate(w.candidates, i ? r.windows[i - 1].chosen : 0));
    for (const PhaseCandidate& c : w.candidates) {
      EXPECT_EQ(c.policy, o.policies[size_t(&c - w.candidates.data())]);
      if (c.finished) {
        EXPECT_TRUE(best.finished);
        EXPECT_LE(best.end_cycle, c.end_cycle);
        EXPECT_LE(c.end_cycle, w.start + o.window + 1000);
      } else {
        EXPECT_GE(c.end_cycle, w.start + o.window);  // an unfinished run covered the whole window
        if (!best.finished) {
          EXPECT_GE(best.insts, c.insts);
        }
      }
    }
    // The next window starts where the chosen run stopped.
    for (const PhaseCandidate& c : w.candidates) EXPECT_EQ(c.stop_cycle, c.end_cycle);
    if (i + 1 < r.windows.size()) {
      EXPECT_EQ(r.windows[i + 1].start, best.stop_cycle);
    }
  }

  // Window 0 starts from the initial state: each candidate's figures are those of a GPU that
  // ran that policy alone for one window.
  for (size_t i = 0; i < o.policies.size(); ++i) {
    SCOPED_TRACE(o.policies[i]);
    Gpu g(cfg, o.policies[i]);
    g.enqueue(phased_kernel("compute", 24, false).source(), 0);
    bool fin = g.run_until_cycle(o.window);
    EXPECT_EQ(r.windows[0].candidates[i].finished, fin);
    EXPECT_EQ(r.windows[0].candidates[i].insts, g.warp_insts());
    EXPECT_EQ(r.windows[0].candidates[i].end_cycle, g.now());
  }

  // The work done does not depend on the schedule.
  Gpu fixed(cfg, "gto");
  wl.run(fixed, {});
  EXPECT_EQ(r.warp_insts, fixed.warp_insts());
  EXPECT_EQ(r.stats["kernels"].size(), 4u);
  EXPECT_EQ(r.cycles, r.stats["total"]["cycles"].get<uint64_t>());
  auto shares = experiment::phase_shares(r, o.policies);
  double sum = 0;
  for (auto& [p, s] : shares) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-9);
  nlohmann::json j = experiment::phase_oracle_json(r, o);
  EXPECT_EQ(j["windows"].size(), r.windows.size());
}

TEST(PhaseOracle, LookAheadJudgesOverALongerRunAndCommitsOneWindow) {
  PhasedWorkload wl;
  const GpuConfig cfg = test_gpu();
  experiment::PhaseOracleOptions o;
  o.window = 2000;
  o.lookahead = 2;
  o.policies = {"lrr", "gto"};
  experiment::PhaseOracleRun r = experiment::run_phase_oracle(wl, {}, cfg, o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_GT(r.windows.size(), 3u);
  for (size_t i = 0; i < r.windows.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& w = r.windows[i];
    EXPECT_EQ(w.chosen, experiment::best_phase_candidate(w.candidates, i ? r.windows[i - 1].chosen : 0));
    for (const PhaseCandidate& c : w.candidates) {
      EXPECT_GE(c.end_cycle, c.stop_cycle);
      if (!c.finished) {
        EXPECT_GE(c.end_cycle, w.start + 3 * o.window);  // judged over three windows
      }
      EXPECT_LE(c.stop_cycle, w.start + o.window + 1000);  // committed one window
    }
    if (i + 1 < r.windows.size()) {
      EXPECT_EQ(r.windows[i + 1].start, w.candidates[size_t(w.chosen)].stop_cycle);
    }
  }
  // Window 0, judged over three windows: the figures of each policy alone for 6000 cycles.
  for (size_t i = 0; i < o.policies.size(); ++i) {
    Gpu g(cfg, o.policies[i]);
    g.enqueue(phased_kernel("compute", 24, false).source(), 0);
    bool fin = g.run_until_cycle(3 * o.window);
    EXPECT_EQ(r.windows[0].candidates[i].finished, fin);
    EXPECT_EQ(r.windows[0].candidates[i].insts, g.warp_insts());
  }
  Gpu fixed(cfg, "gto");
  wl.run(fixed, {});
  EXPECT_EQ(r.warp_insts, fixed.warp_insts());
}

TEST(PhaseOracle, BundledWorkloadStillVerifies) {
  // Every CTA executes functionally once however many candidates run it.
  auto wl = resolve_workload("backprop");
  WorkloadOptions wo;
  wo.size = "small";
  experiment::PhaseOracleOptions o;
  o.window = 5000;
  experiment::PhaseOracleRun r = experiment::run_phase_oracle(*wl, wo, load_preset("gtx480"), o);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.outcome.checked && r.outcome.verified) << r.outcome.message;
  experiment::FixedRun f = experiment::run_fixed_policy(*wl, wo, load_preset("gtx480"), "gto");
  EXPECT_EQ(f.warp_insts, r.warp_insts);
}

}  // namespace
}  // namespace warpsim

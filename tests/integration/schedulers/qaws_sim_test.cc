// QAWS in the timing model: registration and parameters, equal budgets against gto decision by
// decision on concurrent kernels, budgets reaching kernels by name, launch index and stream,
// and the report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "core/error.h"
#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

// Loads whose values are used and dependent arithmetic: every warp stalls often, so the
// scheduler has choices to make between warps of both kernels.
synth::SyntheticKernel stall_kernel(const std::string& name, uint32_t ctas, uint32_t threads, uint32_t iters) {
  KernelBuilder b(name);
  b.grid({ctas, 1, 1}).block({threads, 1, 1});
  b.loop(iters, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::coalesced().at(0x100000), 4, 1, true);
    l.alu(Unit::SP, 3, true);
    l.alu(Unit::SP, 2);
  });
  return b.build();
}

// Short independent runs ended by a dependent op: issue-bound when many warps share a
// scheduler, so the order decides who progresses (the case the paper's budgets are for).
synth::SyntheticKernel compute_kernel(const std::string& name, uint32_t ctas, uint32_t threads, uint32_t iters) {
  KernelBuilder b(name);
  b.grid({ctas, 1, 1}).block({threads, 1, 1});
  b.loop(iters, [](KernelBuilder& l) { l.alu(Unit::SP, 4).alu(Unit::SP, 1, true); });
  return b.build();
}

struct Launch {
  const synth::SyntheticKernel* kernel;
  uint32_t stream;
  uint64_t delay;
};

struct QRun {
  std::vector<KernelResult> kernels;
  std::vector<IssueRecord> log;
  nlohmann::json report;
  uint64_t cycles = 0;
};

QRun run(const GpuConfig& cfg, const std::vector<Launch>& launches, const std::string& sched,
         const SchedulerParams& p = {}) {
  Gpu gpu(cfg, sched, p);
  QRun r;
  gpu.set_issue_log(&r.log);
  for (const Launch& l : launches) gpu.enqueue(l.kernel->source(), l.stream, l.delay);
  gpu.run_until_idle();
  r.kernels = gpu.results();
  r.report = gpu.scheduler_report();
  r.cycles = gpu.now();
  return r;
}

SchedulerParams params(std::initializer_list<std::pair<const char*, std::string>> kv) {
  SchedulerParams p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

void expect_same_run(const QRun& a, const QRun& b, const std::string& what) {
  ASSERT_EQ(a.log.size(), b.log.size()) << what;
  for (size_t i = 0; i < a.log.size(); ++i) {
    const IssueRecord &x = a.log[i], &y = b.log[i];
    if (x.cycle != y.cycle || x.sched != y.sched || x.slot != y.slot || x.ready_mask != y.ready_mask) {
      ADD_FAILURE() << what << ": decision " << i << " differs: cycle " << x.cycle << "/" << y.cycle << " scheduler "
                    << x.sched << "/" << y.sched << " slot " << x.slot << "/" << y.slot;
      return;
    }
  }
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (size_t k = 0; k < a.kernels.size(); ++k) EXPECT_EQ(a.kernels[k].end_cycle, b.kernels[k].end_cycle) << what;
  EXPECT_EQ(a.cycles, b.cycles) << what;
}

// Response time (launch to completion) of launch `index` (results are in completion order).
uint64_t response(const QRun& r, uint32_t index) {
  for (const KernelResult& k : r.kernels)
    if (k.launch_index == index) return k.end_cycle - k.launch_cycle;
  ADD_FAILURE() << "no kernel " << index;
  return 0;
}

TEST(QawsSim, RegisteredWithItsParameters) {
  EXPECT_EQ(find_scheduler("qaws").name, "qaws");
  GpuConfig cfg = small_gpu();
  EXPECT_NO_THROW(Gpu(cfg, "qaws"));
  EXPECT_NO_THROW(Gpu(cfg, "qaws",
                      params({{"budget.k2", "4"},
                              {"budget.default", "1"},
                              {"budget.1", "3"},
                              {"budget.stream.2", "2"},
                              {"decide", "same"}})));
  EXPECT_THROW(Gpu(cfg, "qaws", params({{"decide", "later"}})), Error);
  EXPECT_THROW(Gpu(cfg, "qaws", params({{"budget.k2", "-2"}})), Error);
  EXPECT_THROW(Gpu(cfg, "qaws", params({{"budget.k2", "lots"}})), Error);
  EXPECT_THROW(Gpu(cfg, "qaws", params({{"budgets.k2", "4"}})), Error);  // unknown key
}

// Two kernels on two streams, K2 launched 8 cycles after K1, both resident on every SM.
TEST(QawsSim, EqualBudgetsAreGtoCycleForCycle) {
  synth::SyntheticKernel k1 = stall_kernel("k1", 2, 128, 6), k2 = stall_kernel("k2", 2, 128, 6);
  std::vector<Launch> ls = {{&k1, 0, 0}, {&k2, 1, 8}};
  GpuConfig small = small_gpu(1, 2);
  GpuConfig titanv = load_preset("titanv");
  titanv.core.num_sms = 2;
  synth::SyntheticKernel c1 = compute_kernel("k1", 2, 128, 6), c2 = compute_kernel("k2", 2, 128, 6);
  std::vector<Launch> cs = {{&c1, 0, 0}, {&c2, 1, 8}};
  for (const GpuConfig* cfg : {&small, &titanv})
    for (const std::vector<Launch>* pair : {&ls, &cs}) {
      const std::vector<Launch>& ls = *pair;
      QRun gto = run(*cfg, ls, "gto");
      ASSERT_EQ(gto.kernels.size(), 2u);
      // The kernels overlap: K2 starts before K1 ends.
      ASSERT_LT(std::max(gto.kernels[0].start_cycle, gto.kernels[1].start_cycle),
                std::min(gto.kernels[0].end_cycle, gto.kernels[1].end_cycle));
      for (const char* decide : {"last", "same"}) {
        std::string w = cfg->name + std::string(" decide=") + decide;
        expect_same_run(run(*cfg, ls, "qaws", params({{"decide", decide}})), gto, w + " no budgets");
        expect_same_run(run(*cfg, ls, "qaws", params({{"decide", decide}, {"budget.k1", "4"}, {"budget.k2", "4"}})),
                        gto, w + " budgets 4,4");
        expect_same_run(run(*cfg, ls, "qaws", params({{"decide", decide}, {"budget.default", "0"}})), gto,
                        w + " default budget 0");
      }
    }
}

TEST(QawsSim, KernelsThatNeverOverlapAreGtoWhateverTheirBudgets) {
  synth::SyntheticKernel k1 = stall_kernel("k1", 2, 128, 4), k2 = stall_kernel("k2", 2, 128, 4);
  std::vector<Launch> ls = {{&k1, 0, 0}, {&k2, 0, 0}};  // one stream: one after the other
  GpuConfig cfg = small_gpu(1, 2);
  expect_same_run(run(cfg, ls, "qaws", params({{"budget.k1", "1"}, {"budget.k2", "8"}})), run(cfg, ls, "gto"),
                  "sequential");
}

TEST(QawsSim, ALargerBudgetShortensTheLaterKernel) {
  synth::SyntheticKernel k1 = compute_kernel("k1", 1, 256, 12), k2 = compute_kernel("k2", 1, 256, 12);
  std::vector<Launch> ls = {{&k1, 0, 0}, {&k2, 1, 8}};
  GpuConfig cfg = small_gpu(1, 1);
  QRun gto = run(cfg, ls, "gto");
  for (const char* decide : {"last", "same"}) {
    QRun q = run(cfg, ls, "qaws", params({{"budget.k1", "1"}, {"budget.k2", "8"}, {"decide", decide}}));
    EXPECT_LT(response(q, 1), response(gto, 1)) << decide;
    const nlohmann::json& r = q.report;
    EXPECT_EQ(r["policy"], "qaws");
    EXPECT_EQ(r["decide"], decide);
    EXPECT_EQ(r["schedulers"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["kernels"]["0"]["budget"].get<int64_t>(), 1);
    EXPECT_EQ(r["kernels"]["1"]["budget"].get<int64_t>(), 8);
    EXPECT_EQ(r["kernels"]["1"]["name"], "k2");
    EXPECT_EQ(r["kernels"]["1"]["stream"].get<uint32_t>(), 1u);
    // Both groups switched inside themselves and passed the priority on at their budgets.
    for (const char* g : {"1", "8"}) {
      EXPECT_GT(r["groups"][g]["switches"].get<uint64_t>(), 0u) << g;
      EXPECT_GT(r["groups"][g]["yields"].get<uint64_t>(), 0u) << g;
    }
    EXPECT_EQ(r["budget_yields"].get<uint64_t>(),
              r["groups"]["1"]["yields"].get<uint64_t>() + r["groups"]["8"]["yields"].get<uint64_t>());
    EXPECT_GE(r["priority_changes"].get<uint64_t>(), r["budget_yields"].get<uint64_t>());
    // The same work whatever the order.
    uint64_t qi = 0, gi = 0;
    for (const KernelResult& k : q.kernels) qi += k.warp_insts;
    for (const KernelResult& k : gto.kernels) gi += k.warp_insts;
    EXPECT_EQ(qi, gi);
  }
}

TEST(QawsSim, BudgetsByLaunchIndexAndStream) {
  synth::SyntheticKernel a = stall_kernel("a", 1, 64, 3), b = stall_kernel("b", 1, 64, 3),
                         c = stall_kernel("c", 1, 64, 3);
  std::vector<Launch> ls = {{&a, 0, 0}, {&b, 1, 2}, {&c, 2, 4}};
  GpuConfig cfg = small_gpu(1, 1);
  QRun q =
      run(cfg, ls, "qaws",
          params({{"budget.stream.1", "5"}, {"budget.2", "7"}, {"budget.stream.2", "6"}, {"budget.default", "2"}}));
  const nlohmann::json& k = q.report["kernels"];
  EXPECT_EQ(k["0"]["budget"].get<int64_t>(), 2);  // default
  EXPECT_EQ(k["1"]["budget"].get<int64_t>(), 5);  // its stream
  EXPECT_EQ(k["2"]["budget"].get<int64_t>(), 7);  // launch index before stream
}

TEST(QawsSim, ThreeKernelsWithDistinctBudgets) {
  synth::SyntheticKernel k1 = compute_kernel("k1", 1, 128, 10), k2 = compute_kernel("k2", 1, 128, 10),
                         k3 = compute_kernel("k3", 1, 128, 10);
  std::vector<Launch> ls = {{&k1, 0, 0}, {&k2, 1, 8}, {&k3, 2, 16}};
  GpuConfig cfg = small_gpu(1, 1);
  QRun gto = run(cfg, ls, "gto");
  QRun q = run(cfg, ls, "qaws", params({{"budget.k1", "1"}, {"budget.k2", "2"}, {"budget.k3", "6"}}));
  // The youngest kernel, last under gto, gains most from the largest budget.
  EXPECT_LT(response(q, 2), response(gto, 2));
  const nlohmann::json& g = q.report["groups"];
  for (const char* b : {"1", "2", "6"}) EXPECT_GT(g[b]["gains"].get<uint64_t>(), 0u) << b;
  EXPECT_GT(g["6"]["yields"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace warpsim::test

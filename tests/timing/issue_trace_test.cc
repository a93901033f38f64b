// The issue trace (timing/issue_trace.h, `warpsim run --issue-log`): one row per issued warp
// instruction, with the cycle, SM, scheduler, warp and instruction of the issue, written in cycle
// order; recording it changes no cycle.
#include "timing/issue_trace.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

std::vector<synth::SyntheticKernel> two_kernels() {
  KernelBuilder a("loads");
  a.grid({6, 1, 1}).block({64, 1, 1}).load(MemSpace::Global, AccessPattern::coalesced(), 4, 4).alu(Unit::SP, 6);
  KernelBuilder b("alu");
  b.grid({3, 1, 1}).block({96, 1, 1}).alu(Unit::SP, 10);
  return {a.build(), b.build()};
}

TEST(IssueTrace, HasOneRowPerIssuedInstructionAndChangesNoCycle) {
  const GpuConfig cfg = small_gpu(2, 2);
  const RunResult plain = simulate(cfg, two_kernels());
  Gpu gpu(cfg, "gto");
  gpu.enable_issue_trace();
  for (const auto& k : two_kernels()) gpu.enqueue(k.source(), 0);
  gpu.run_until_idle();
  ASSERT_EQ(gpu.results().size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(gpu.results()[i].start_cycle, plain.kernels[i].start_cycle);
    EXPECT_EQ(gpu.results()[i].end_cycle, plain.kernels[i].end_cycle);
  }
  const std::vector<IssueTraceRow>& rows = gpu.issue_trace()->rows();
  ASSERT_EQ(rows.size(), gpu.snapshot().core.warp_insts);
  std::map<uint32_t, uint64_t> per_launch;
  for (const IssueTraceRow& r : rows) {
    ++per_launch[r.launch];
    const KernelResult& k = gpu.results().at(r.launch);
    EXPECT_GE(r.cycle, k.start_cycle);
    EXPECT_LE(r.cycle, k.end_cycle);
    EXPECT_LT(r.sm, 2u);
    EXPECT_LT(r.sched, 2u);
    EXPECT_GT(r.lanes, 0u);
  }
  EXPECT_EQ(per_launch[0], gpu.results()[0].warp_insts);
  EXPECT_EQ(per_launch[1], gpu.results()[1].warp_insts);

  // The file: a header, then the rows in cycle order, each with its launch's name.
  const std::string path = testing::TempDir() + "issue_trace_test.tsv";
  write_issue_trace_tsv(path, *gpu.issue_trace(), gpu.results());
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "launch\tkernel\tcycle\tlaunch_cycle\tsm\tscheduler\twarp\tpc\top\tlanes");
  uint64_t n = 0, last = 0, loads = 0;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string launch, kernel, cycle, since, sm, sched, warp, pc, op, lanes;
    std::getline(f, launch, '\t');
    std::getline(f, kernel, '\t');
    std::getline(f, cycle, '\t');
    std::getline(f, since, '\t');
    std::getline(f, sm, '\t');
    std::getline(f, sched, '\t');
    std::getline(f, warp, '\t');
    std::getline(f, pc, '\t');
    std::getline(f, op, '\t');
    std::getline(f, lanes, '\t');
    EXPECT_EQ(kernel, launch == "0" ? "loads" : "alu");
    const uint64_t c = std::stoull(cycle);
    EXPECT_GE(c, last);
    EXPECT_EQ(std::stoull(since), c - gpu.results().at(std::stoul(launch)).start_cycle);
    last = c;
    loads += op == "load";
    ++n;
  }
  EXPECT_EQ(n, rows.size());
  EXPECT_EQ(loads, 6u * 2 * 4);  // 6 CTAs x 2 warps x 4 loads
  std::remove(path.c_str());
}

}  // namespace
}  // namespace warpsim::test

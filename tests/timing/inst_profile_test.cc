// The per-instruction profile (timing/inst_profile.h, `warpsim run --inst-stats`): every issued
// instruction is counted once, under its PTX line, and the latency it reports for a dependent
// chain is the time the chain takes per step.
#include "timing/inst_profile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "config/config_loader.h"
#include "runtime/runtime.h"
#include "support/process.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

// One warp: `n` steps of a dependent chain (each step an `ld.shared` of the running value when
// `with_loads`, then an add of it), one line per instruction; the PTX line of the first step's
// add is kFirstAddLine (+1 with loads).
constexpr int kHeaderLines = 10;
std::string chain_ptx(int n, bool with_loads) {
  std::string s =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry chain(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
      ".shared .align 4 .b32 sm[32];\n"
      "mov.u32 %r1, sm;\nmov.u32 %r2, 0;\n";  // lines 9 and 10
  for (int i = 0; i < n; ++i) {
    if (with_loads) s += "ld.shared.u32 %r2, [%r1];\n";
    s += "add.s32 %r1, %r1, %r2;\n";
  }
  s += "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";
  return s;
}

struct ChainRun {
  uint64_t cycles = 0, warp_insts = 0;
  std::vector<InstProfileRow> rows;
};

ChainRun run_chain(const std::string& preset, int n, bool with_loads) {
  GpuConfig cfg = load_preset(preset);
  cfg.icache.perfect = true;  // straight-line code: instruction fetch is not measured here
  Gpu gpu(cfg, "gto");
  gpu.enable_inst_profile();
  Runtime rt(&gpu);
  auto m = rt.load_module(chain_ptx(n, with_loads), "chain.ptx");
  DevPtr out = rt.malloc(4);
  rt.launch(rt.get_kernel(m, "chain"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, KernelArgs().add(out));
  rt.synchronize();
  ChainRun r;
  EXPECT_EQ(gpu.results().size(), 1u);
  if (gpu.results().empty()) return r;
  r.cycles = gpu.results()[0].end_cycle - gpu.results()[0].start_cycle;
  r.warp_insts = gpu.results()[0].warp_insts;
  r.rows = gpu.inst_profile();
  return r;
}

// Average latency per warp instruction of the rows at PTX lines [first, last] with stride.
double avg_latency(const ChainRun& r, int first, int last, int stride) {
  uint64_t lat = 0, threads = 0;
  for (const InstProfileRow& row : r.rows)
    if (row.line >= first && row.line <= last && (row.line - first) % stride == 0) {
      lat += row.e.latency;
      threads += row.e.thread_insts;
    }
  return threads ? double(lat) / double(threads) : -1.0;
}

TEST(InstProfile, CountsEveryIssuedInstructionOnceUnderItsPtxLine) {
  ChainRun r = run_chain("gtx480", 8, true);
  uint64_t warps = 0;
  std::map<int, uint64_t> by_line;
  for (const InstProfileRow& row : r.rows) {
    EXPECT_EQ(row.kernel, "chain");
    EXPECT_EQ(row.launch, 0u);
    warps += row.e.warp_insts;
    by_line[row.line] += row.e.warp_insts;
    EXPECT_EQ(row.e.thread_insts, 32 * row.e.warp_insts) << "line " << row.line;
  }
  EXPECT_EQ(warps, r.warp_insts);
  // 2 moves, 8 x (load, add), 4 closing instructions, each issued once by the one warp.
  ASSERT_EQ(by_line.size(), 2u + 16u + 4u);
  for (int line = kHeaderLines - 1; line < kHeaderLines + 17 + 4; ++line) EXPECT_EQ(by_line[line], 1u) << line;
}

// The chain advances one step per (load latency + add latency): what the profile reports for
// the chain's instructions is the cycles each step adds to the kernel.
TEST(InstProfile, LatencyOfADependentChainIsItsTimePerStep) {
  for (const char* preset : {"gtx480", "titanv"}) {
    SCOPED_TRACE(preset);
    for (bool loads : {false, true}) {
      SCOPED_TRACE(loads ? "ld.shared + add" : "add");
      const ChainRun a = run_chain(preset, 8, loads), b = run_chain(preset, 24, loads);
      const double per_step = (double(b.cycles) - double(a.cycles)) / 16.0;
      const int step = loads ? 2 : 1, first = kHeaderLines + 1, last = first + 24 * step - 1;
      double profiled = avg_latency(b, first + step - 1, last, step);  // the adds
      if (loads) profiled += avg_latency(b, first, last, step);        // and the loads
      EXPECT_DOUBLE_EQ(profiled, per_step);
    }
  }
}

TEST(InstProfile, CsvHasOneRowPerInstructionWithGpgpuSimsRatio) {
  ChainRun r = run_chain("gtx480", 4, true);
  testsupport::ScratchDir dir;
  write_inst_profile_csv(dir / "p.csv", r.rows);
  std::ifstream in(dir / "p.csv");
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header, "kernel,launch,pc,line,warp_insts,thread_insts,timed_warp_insts,latency,avg_latency");
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_EQ(f.size(), 9u) << line;
    const double latency = std::stod(f[7]), threads = std::stod(f[5]);
    EXPECT_NEAR(std::stod(f[8]), threads ? latency / threads : 0.0, 0.006) << line;
  }
  EXPECT_EQ(n, r.rows.size());
}

}  // namespace
}  // namespace warpsim

// One test per class of bad input, through the real `warpsim` binary: each must end with a
// clear "error: ..." line naming the problem (and the file:line:col where there is one), exit
// status 1, and no crash. Inputs are in tests/data/errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.h"

namespace warpsim::errtest {
namespace {

// PTX files run with one 32-thread CTA and one buffer argument.
std::string ptx_run(const std::string& file, const std::string& extra = "") {
  return "run " + quote(data(file)) + " --grid 1 --block 32 --arg 'buffer u32 n=32' -q " + extra;
}

// memory_loop.ptx: 4 CTAs of 64 threads, each thread summing 64 strided loads (valid kernel).
std::string memory_loop(const std::string& extra) {
  return "run " + quote(data("memory_loop.ptx")) + " --grid 4 --block 64 --arg 'buffer u32 n=4096' " + extra;
}

nlohmann::json read_json(const std::string& path) {
  std::string text = read_text(path);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

TEST(CliErrors, MalformedPtxNamesFileLineAndColumn) {
  ScratchDir d;
  CliResult r = run_warpsim(ptx_run("malformed.ptx"), d);
  // Line 14 lacks its ']': the parser finds 'ret' at line 15, column 2 (after a tab).
  expect_user_error(r, "malformed.ptx:15:2: expected ']', found identifier 'ret'");
}

TEST(CliErrors, UnknownInstructionNamesTheOpcode) {
  ScratchDir d;
  CliResult r = run_warpsim(ptx_run("unknown_inst.ptx"), d);
  expect_user_error(r, "unknown_inst.ptx:13:2: unknown instruction 'frobnicate.u32'");
}

TEST(CliErrors, TruncatedTraceNamesTheUnfinishedThreadBlock) {
  ScratchDir d;
  // The file stops in the middle of line 24; the thread block began at line 15.
  CliResult r = run_warpsim("run " + quote(data("truncated_trace")) + " -q", d);
  expect_user_error(r, "kernel-1.traceg:24:1: file ends inside the thread block begun at line 15");
}

TEST(CliErrors, TruncatedCompressedTrace) {
  ScratchDir d;
  CliResult r = run_warpsim("run " + quote(data("truncated_trace_zst")) + " -q", d);
  expect_user_error(r, "kernel-1.traceg.zst': truncated zstd stream");
}

TEST(CliErrors, UnknownConfigKeySuggestsTheNearestOne) {
  ScratchDir d;
  CliResult set = run_warpsim("run dep_chain -q --set l1d.sizee=4096", d);
  expect_user_error(set, "unknown config key 'l1d.sizee'; did you mean 'l1d.size'?");
  CliResult file = run_warpsim("run dep_chain -q --gpu " + quote(data("unknown_key.toml")), d);
  expect_user_error(file, "unknown_key.toml:5:1: unknown config key 'l1d.sizee'; did you mean 'l1d.size'?");
}

// Outputs that cannot be written (their folder is a file): each is named, the run exits 1, and
// the outputs that can be written still are.
TEST(CliErrors, UnwritableIssueLogAndInstructionStatisticsFailTheRun) {
  ScratchDir d("warpsim-cli");
  std::ofstream(d / "file") << "x";
  const std::string log = d / "file/issues.tsv", stats = d / "file/inst.csv", json = d / "out.json";
  CliResult r = run_warpsim(
      "run dep_chain -q --issue-log " + quote(log) + " --inst-stats " + quote(stats) + " --json " + quote(json), d);
  expect_user_error(r, "cannot write the issue log to " + log);
  EXPECT_NE(r.output.find("cannot write instruction statistics to " + stats), std::string::npos) << r.output;
  EXPECT_TRUE(read_json(json).contains("total")) << r.output;
  // Where it can be written: a header and a row per issued warp instruction, exit 0.
  const std::string ok = d / "issues.tsv";
  CliResult good = run_warpsim("run dep_chain -q --issue-log " + quote(ok) + " --json " + quote(json), d);
  EXPECT_EQ(good.rc, 0) << good.output;
  std::ifstream in(ok);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.rfind("launch\tkernel\tcycle\t", 0), 0u) << line;
  uint64_t rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, read_json(json)["total"]["warp_insts"].get<uint64_t>());
}

TEST(CliErrors, OutOfRangeConfigValues) {
  ScratchDir d;
  expect_user_error(run_warpsim("run dep_chain -q --set core.num_sms=0", d),
                    "config key 'core.num_sms': must be at least 1");
  expect_user_error(run_warpsim("run dep_chain -q --set core.num_sms=-3", d),
                    "config key 'core.num_sms': '-3' is not a non-negative integer");
  // gtx480's 16 KB L1 of 128-byte lines has 128 lines: 3 ways do not divide them.
  expect_user_error(run_warpsim("run dep_chain -q --gpu " + quote(data("out_of_range.toml")), d),
                    "out_of_range.toml:5:9: config key 'l1d.assoc': 3 ways do not divide 128 lines");
}

TEST(CliErrors, OutOfBoundsKernelAccessNamesThreadAndAddress) {
  ScratchDir d;
  CliResult r = run_warpsim(ptx_run("oob_store.ptx"), d);
  // Thread 0 stores at buffer + 64 MiB; the first allocation starts at 0xC0000000 (DeviceMemory::kBase).
  expect_user_error(r, "kernel 'oob_store', CTA (0,0,0), thread (0,0,0), pc 0x28 (");
  EXPECT_NE(r.output.find("oob_store.ptx:18): out-of-bounds global write of 4 bytes at address 0xc4000000"),
            std::string::npos)
      << r.output;
}

TEST(CliErrors, ReadBeforeTheBufferSucceedsUnlessMemcheck) {
  ScratchDir d;
  // Thread t reads 512 bytes before element t of the first allocation (0xC0000000): mapped, as on a GPU.
  CliResult ok = run_warpsim(ptx_run("oob_read.ptx"), d);
  EXPECT_EQ(ok.rc, 0) << ok.output;
  CliResult r = run_warpsim(ptx_run("oob_read.ptx", "--memcheck"), d);
  expect_user_error(r, "memcheck: kernel 'oob_read': 32 invalid global accesses (1 distinct)");
  EXPECT_NE(r.output.find("  kernel 'oob_read', CTA (0,0,0), thread (0,0,0), pc 0x28 ("), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("oob_read.ptx:19): out-of-bounds "
                          "global read of 4 bytes at address 0xbffffe00, 512 bytes before the allocation at "
                          "0xc0000000 of 128 bytes [31 more like it]"),
            std::string::npos)
      << r.output;
}

TEST(CliErrors, BarrierDeadlockNamesTheWaitingWarps) {
  ScratchDir d;
  CliResult r =
      run_warpsim("run " + quote(data("barrier_deadlock.ptx")) + " --grid 1 --block 64 --arg 'buffer u32 n=32' -q", d);
  expect_user_error(r, "kernel 'barrier_deadlock': barrier deadlock in CTA (0,0,0)");
  EXPECT_NE(r.output.find("warp 0 waits at barrier 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("warp 1 waits at barrier 0 (pc 0x"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("barrier_deadlock.ptx:"), std::string::npos) << r.output;
}

TEST(CliErrors, WatchdogStopsAStalledRunWithTheStuckWarps) {
  ScratchDir d;
  // 50 cycles is shorter than the first instruction fetch from memory: nothing moves for
  // longer than the watchdog period, which the timing model reports as a deadlock.
  CliResult r = run_warpsim(memory_loop("--set watchdog_cycles=50 --json " + quote(d / "wd.json")), d);
  expect_user_error(r, "deadlock: no warp made progress for 50 cycles");
  EXPECT_NE(r.output.find("running kernels: memory_loop"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stuck warps:"), std::string::npos) << r.output;
  // 4 CTAs of 2 warps on 4 SMs: 8 stuck warps, each with its place, pc and reason.
  size_t lines = 0;
  for (size_t p = r.output.find("  sm "); p != std::string::npos; p = r.output.find("  sm ", p + 1)) ++lines;
  EXPECT_EQ(lines, 8u) << r.output;
  EXPECT_NE(r.output.find("sm 3 warp slot 1 (kernel 0 'memory_loop', cta 3, warp 1): pc 0x"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("waiting for "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("statistics so far written to"), std::string::npos) << r.output;
  nlohmann::json j = read_json(d / "wd.json");
  ASSERT_TRUE(j.is_object()) << r.output;
  EXPECT_EQ(j["error"].get<std::string>().rfind("deadlock: no warp made progress for 50 cycles", 0), 0u);
  EXPECT_GT(j["total"]["cycles"].get<uint64_t>(), 50u);
}

TEST(CliErrors, CycleLimitEndsTheRunWithStatisticsSoFar) {
  ScratchDir d;
  // The unlimited run takes about 18000 cycles (checked: it must not finish early).
  CliResult full = run_warpsim(memory_loop("-q --json " + quote(d / "full.json")), d);
  ASSERT_EQ(full.rc, 0) << full.output;
  uint64_t full_cycles = read_json(d / "full.json")["total"]["cycles"].get<uint64_t>();
  ASSERT_GT(full_cycles, 2000u);

  CliResult r = run_warpsim(memory_loop("--set max_cycles=500 --json " + quote(d / "mc.json")), d);
  expect_user_error(r, "cycle limit reached: ");
  EXPECT_NE(r.output.find("(max_cycles = 500)"), std::string::npos) << r.output;
  nlohmann::json j = read_json(d / "mc.json");
  ASSERT_TRUE(j.is_object()) << r.output;
  EXPECT_EQ(j["error"].get<std::string>().rfind("cycle limit reached", 0), 0u);
  uint64_t cycles = j["total"]["cycles"].get<uint64_t>();
  EXPECT_EQ(cycles, 500u);
  EXPECT_LT(cycles, full_cycles);
  EXPECT_GT(j["total"]["warp_insts"].get<uint64_t>(), 0u);  // work done before the stop
}

TEST(CliErrors, InstructionLimitEndsTheRunWithStatisticsSoFar) {
  ScratchDir d;
  CliResult r = run_warpsim(memory_loop("--set max_insts=100 --json " + quote(d / "mi.json")), d);
  expect_user_error(r, "instruction limit reached: ");
  EXPECT_NE(r.output.find("(max_insts = 100)"), std::string::npos) << r.output;
  nlohmann::json j = read_json(d / "mi.json");
  ASSERT_TRUE(j.is_object()) << r.output;
  EXPECT_EQ(j["error"].get<std::string>().rfind("instruction limit reached", 0), 0u);
  uint64_t insts = j["total"]["warp_insts"].get<uint64_t>();
  EXPECT_GE(insts, 100u);
  // All 4 SMs may issue in the cycle that crosses the limit, at most 2 each on gtx480.
  EXPECT_LE(insts, 100u + 4 * 2);
}

TEST(CliErrors, DeviceMemoryLimit) {
  ScratchDir d;
  // 20e9 four-byte elements: 80 GB, above the 64 GiB a single allocation may have.
  CliResult r = run_warpsim(
      "run " + quote(data("memory_loop.ptx")) + " --grid 1 --block 32 --arg 'buffer u32 n=20000000000' -q", d);
  expect_user_error(r, "device memory: allocation of 80000000000 bytes exceeds the 64 GiB limit per allocation");
}

TEST(CliErrors, ConfiguredDeviceMemoryCapEndsTheRun) {
  ScratchDir d;
  // 4096 u32 elements are 16 KiB (four 4 KiB pages): above a cap of 8 KiB, within 16 KiB.
  CliResult over = run_warpsim(memory_loop("--set global_memory=8192 -q --json " + quote(d / "cap.json")), d);
  expect_user_error(over,
                    "device memory limit: allocating 16384 bytes with 0 already allocated exceeds "
                    "global_memory = 8192");
  nlohmann::json j = read_json(d / "cap.json");
  ASSERT_TRUE(j.is_object()) << over.output;
  EXPECT_EQ(j["error"].get<std::string>().rfind("device memory limit", 0), 0u);
  CliResult within = run_warpsim(memory_loop("--set global_memory=16384 -q"), d);
  EXPECT_EQ(within.rc, 0) << within.output;
}

TEST(CliErrors, UnknownWorkloadSchedulerAndPreset) {
  ScratchDir d;
  expect_user_error(run_warpsim("run no_such_workload_xyz -q", d), "no_such_workload_xyz");
  expect_user_error(run_warpsim("run dep_chain -q --scheduler no_such_sched", d), "no_such_sched");
  expect_user_error(run_warpsim("run dep_chain -q --gpu no_such_gpu", d), "no_such_gpu");
}

TEST(CliErrors, MissingInputFiles) {
  ScratchDir d;
  expect_user_error(run_warpsim("run " + quote(d / "absent.ptx") + " --grid 1 --block 32 -q", d), "absent.ptx");
  expect_user_error(run_warpsim("run " + quote(d / "absent.kern") + " -q", d), "absent.kern");
  expect_user_error(run_warpsim("run dep_chain -q --gpu " + quote(d / "absent.toml"), d), "absent.toml");
}

}  // namespace
}  // namespace warpsim::errtest

// `warpsim bench` through the real binary: its table and CSV columns, counts equal to those of
// `warpsim run` of the same workload (on the preset and with core.num_sms overridden), the
// scaling report, and errors. Host times are never asserted.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"

namespace warpsim {
namespace {

using testsupport::Outcome;
using testsupport::read_file;
using testsupport::run_warpsim_logged;
using testsupport::ScratchDir;

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

// CSV rows (no quoted fields expected) as column -> value maps.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::stringstream in(read_file(path));
  std::string line;
  std::getline(in, line);
  auto header = split(line, ',');
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    auto cells = split(line, ',');
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = i < cells.size() ? cells[i] : "";
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json run_totals(const ScratchDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run", "vectoradd", "--size", "small",  "--gpu",         "gtx480",
                                   "-s",  "gto",       "-q",     "--json", dir / "run.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  Outcome o = run_warpsim_logged(args, dir / "run.log");
  EXPECT_EQ(o.status, 0) << o.output;
  return nlohmann::json::parse(read_file(dir / "run.json")).at("total");
}

TEST(CliBench, CountsEqualThoseOfRunAndColumnsAreComplete) {
  ScratchDir dir("warpsim-bench");
  Outcome o = run_warpsim_logged(
      {"bench", "--workload", "vectoradd", "--size", "small", "--sms", "30,15", "--csv", dir / "bench.csv"},
      dir / "bench.log");
  ASSERT_EQ(o.status, 0) << o.output;
  for (const char* col : {"workload", "gpu", "scheduler", "size", "sms", "cycles", "warp insts", "host s", "Mwinst/s",
                          "Mcyc/s", "ns/winst", "geomean Mwinst/s", "min Mwinst/s"})
    EXPECT_NE(o.output.find(col), std::string::npos) << "missing column " << col << " in\n" << o.output;
  EXPECT_NE(o.output.find("cost per warp instruction against the SM count"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("largest growth:"), std::string::npos) << o.output;

  auto rows = read_csv(dir / "bench.csv");
  ASSERT_EQ(rows.size(), 2u) << read_file(dir / "bench.csv");
  for (const char* col : {"workload", "gpu", "scheduler", "size", "sms", "cycles", "warp_insts", "host_seconds",
                          "warp_insts_per_s", "cycles_per_s", "ns_per_warp_inst", "verification"})
    EXPECT_TRUE(rows[0].count(col)) << "CSV lacks " << col;
  // SM counts run smallest first.
  EXPECT_EQ(rows[0]["sms"], "15");
  EXPECT_EQ(rows[1]["sms"], "30");
  for (auto& r : rows) {
    EXPECT_EQ(r["workload"], "vectoradd");
    EXPECT_EQ(r["gpu"], "gtx480");
    EXPECT_EQ(r["scheduler"], "gto");
    EXPECT_EQ(r["size"], "small");
    EXPECT_EQ(r["verification"], "verified");
    EXPECT_GT(std::stod(r["host_seconds"]), 0.0);
  }
  // gtx480 has 15 SMs: the first row is the preset as `warpsim run` runs it.
  auto preset = run_totals(dir, {});
  EXPECT_EQ(rows[0]["cycles"], std::to_string(preset.at("cycles").get<uint64_t>()));
  EXPECT_EQ(rows[0]["warp_insts"], std::to_string(preset.at("warp_insts").get<uint64_t>()));
  auto wide = run_totals(dir, {"--set", "core.num_sms=30"});
  EXPECT_EQ(rows[1]["cycles"], std::to_string(wide.at("cycles").get<uint64_t>()));
  EXPECT_EQ(rows[1]["warp_insts"], std::to_string(wide.at("warp_insts").get<uint64_t>()));
  // Twice the SMs: the same work, timed on another GPU (64 CTAs of this small grid land on other
  // SMs and memory channels: 1784 cycles on 15 SMs, 2036 on 30, so no order is asserted).
  EXPECT_EQ(rows[0]["warp_insts"], rows[1]["warp_insts"]);
  EXPECT_NE(rows[0]["cycles"], rows[1]["cycles"]);
}

TEST(CliBench, FailedRunGivesNonZeroExitAndTheOthersStillRun) {
  ScratchDir dir("warpsim-bench");
  // 512 bytes of shared memory per SM: reduction's CTAs (1 KiB) cannot be placed; vectoradd's can.
  Outcome o = run_warpsim_logged({"bench", "-w", "reduction", "-w", "vectoradd", "--size", "small", "--set",
                                  "core.shared_mem=512", "--csv", dir / "bench.csv"},
                                 dir / "bench.log");
  EXPECT_EQ(o.status, 3) << o.output;
  EXPECT_NE(o.output.find("does not fit an SM"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("1 of 2 runs failed"), std::string::npos) << o.output;
  auto rows = read_csv(dir / "bench.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["verification"], "error");
  EXPECT_EQ(rows[1]["verification"], "verified");
}

TEST(CliBench, BadOptionsAreRejectedBeforeAnythingRuns) {
  ScratchDir dir("warpsim-bench");
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  for (const Case& c : {Case{{"-w", "no_such_workload"}, "not a bundled workload"},
                        Case{{"-w", "vectoradd", "--size", "huge"}, "has no such size"},
                        Case{{"-w", "vectoradd", "-s", "no_such_scheduler"}, "no_such_scheduler"},
                        Case{{"-w", "vectoradd", "--sms", "15,x"}, "--sms"},
                        Case{{"-w", "vectoradd", "--set", "core.no_such_key=1"}, "no_such_key"}}) {
    std::vector<std::string> args = {"bench"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Outcome o = run_warpsim_logged(args, dir / "bench.log");
    EXPECT_NE(o.status, 0) << o.output;
    EXPECT_NE(o.output.find(c.message), std::string::npos) << o.output;
    EXPECT_EQ(o.output.find("verified"), std::string::npos) << "ran despite a bad option:\n" << o.output;
  }
}

}  // namespace
}  // namespace warpsim

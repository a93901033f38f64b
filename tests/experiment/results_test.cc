// Cache keys, tidy rows, CSV, task chunking and chart helpers of the experiment harness.
#include "experiment/results.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "experiment/report.h"
#include "experiment/slurm.h"
#include "experiment/svg_chart.h"
#include "experiment/sweep.h"

using namespace warpsim::experiment;
using nlohmann::json;

TEST(CacheKey, EveryInputChangesTheKey) {
  SchedulerSpec s{"tl", {{"active", "8"}}};
  auto key = [](const std::string& w, const std::string& fp, const std::string& size, uint64_t seed,
                const SchedulerSpec& sc, const std::string& gpu,
                const std::string& dump) { return hash_hex(cache_key_text(w, fp, size, seed, sc, gpu, dump)); };
  std::string base = key("w", "fp1", "small", 1, s, "gtx480", "a = 1\n");
  EXPECT_EQ(base.size(), 32u);
  EXPECT_EQ(base, key("w", "fp1", "small", 1, s, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("v", "fp1", "small", 1, s, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp2", "small", 1, s, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp1", "default", 1, s, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp1", "small", 2, s, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp1", "small", 1, SchedulerSpec{"tl", {{"active", "4"}}}, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp1", "small", 1, SchedulerSpec{"gto", {}}, "gtx480", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp1", "small", 1, s, "titanv", "a = 1\n"));
  EXPECT_NE(base, key("w", "fp1", "small", 1, s, "gtx480", "a = 2\n"));
  EXPECT_NE(cache_key_text("w", "fp", "s", 1, s, "g", "").find("warpsim "), std::string::npos);
}

// The key names the build that computes the results (the running executable's size and
// modification time), so another build of warpsim never reuses them.
TEST(CacheKey, NamesTheBuild) {
  SchedulerSpec s{"lrr", {}};
  std::string text = cache_key_text("w", "fp", "s", 1, s, "g", "");
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  ASSERT_FALSE(ec);
  std::string size = std::to_string(std::filesystem::file_size(exe));
  EXPECT_NE(text.find("\nbuild " + size + " "), std::string::npos) << text;
}

TEST(CacheKey, PairsRoundTripThroughJson) {
  Pair p;
  p.workload = "/x/y.kern";
  p.workload_name = "y";
  p.fingerprint = "synthetic:y:1";
  p.scheduler = {"tl", {{"active", "6"}}};
  p.size = "small";
  p.seed = 7;
  p.key_text = "text";
  p.key = hash_hex(p.key_text);
  Pair q = pair_from_json(pair_to_json(p));
  EXPECT_EQ(q.workload, p.workload);
  EXPECT_EQ(q.scheduler.params, p.scheduler.params);
  EXPECT_EQ(q.seed, 7u);
  EXPECT_EQ(q.key, p.key);
  json bad = pair_to_json(p);
  bad["key"] = "0000";
  EXPECT_THROW(pair_from_json(bad), warpsim::Error);
  EXPECT_THROW(pair_from_json(json::object()), warpsim::Error);
}

TEST(CacheKey, RunArgumentsCarryTheWholePair) {
  Pair p;
  p.workload = "stream";
  p.scheduler = {"tl", {{"active", "6"}}};
  p.size = "small";
  p.seed = 3;
  auto a = run_arguments(p, "/o/gpu.toml", "/o/work/k.json");
  std::vector<std::string> want = {"run",           "stream",         "--gpu",  "/o/gpu.toml", "--scheduler", "tl",
                                   "--sched-param", "active=6",       "--size", "small",       "--seed",      "3",
                                   "--json",        "/o/work/k.json", "--quiet"};
  EXPECT_EQ(a, want);
}

namespace {

json two_kernel_run() {
  json stalls = {{"issued", 60}, {"raw", 30}, {"idle", 10}, {"scheduler_cycles", 100}};
  json k0 = {{"name", "fwd"},     {"launch", 0}, {"kernel_cycles", 1000}, {"cycles", 1000},
             {"warp_insts", 500}, {"ipc", 0.5},  {"scheduler", stalls},   {"l1d", {{"hits", 3}, {"misses", 1}}},
             {"grid", {4, 1, 1}}};
  json k1 = k0;
  k1["name"] = "bwd";
  k1["launch"] = 1;
  k1["kernel_cycles"] = 2000;
  return {{"gpu", "gtx480"},
          {"kernels", {k0, k1}},
          {"scheduler_report", {{"mode", "UM"}, {"cycles", {{"UM", 7}, {"FM", 3}}}}},
          {"ipc_series", {{"interval", 100}, {"samples", {{100, 1.0}, {200, 2.0}}}}},
          {"total", {{"cycles", 250}, {"warp_insts", 350}, {"ipc", 1.4}}}};
}

}  // namespace

TEST(TidyRows, OneFlatRowPerKernel) {
  Pair p;
  p.workload_name = "net";
  p.scheduler = {"juggler", {{"uth", "3"}}};
  p.size = "small";
  p.seed = 2;
  auto rows = tidy_rows(p, two_kernel_run());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["kernel_id"], "net/fwd");
  EXPECT_EQ(rows[1]["kernel_id"], "net/bwd");
  EXPECT_EQ(rows[1]["cycles"], 2000);
  EXPECT_EQ(rows[0]["stall.raw"], 30);
  EXPECT_EQ(rows[0]["l1d.hits"], 3);
  EXPECT_EQ(rows[0]["grid"], "4x1x1");
  EXPECT_EQ(rows[0]["sched.mode"], "UM");
  EXPECT_EQ(rows[0]["sched.cycles.FM"], 3);
  EXPECT_EQ(rows[0]["sched_params"], "uth=3");
  EXPECT_EQ(rows[0]["scheduler"], "juggler");
  EXPECT_FALSE(rows[0].contains("name"));

  std::string csv = to_csv(rows);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_EQ(csv.substr(0, 28), "workload,kernel_id,kernel,la");
  EXPECT_EQ(csv.find("sched."), std::string::npos);  // the scheduler's report is not in the CSV
  // It is in scheduler_report.csv, once per run although the run has two kernels.
  std::string rep = scheduler_report_csv(rows);
  EXPECT_EQ(rep.substr(0, rep.find('\n')), "workload,scheduler,sched_params,gpu,size,seed,key,value");
  EXPECT_NE(rep.find(",mode,UM\n"), std::string::npos) << rep;
  EXPECT_NE(rep.find(",cycles.FM,3\n"), std::string::npos) << rep;
  EXPECT_EQ(std::count(rep.begin(), rep.end(), '\n'), 1 + 3) << rep;  // header + mode, cycles.UM, cycles.FM

  CycleTable t = cycle_table(rows, {"juggler"});
  EXPECT_EQ(t.kernels, (std::vector<std::string>{"net/fwd", "net/bwd"}));
  EXPECT_EQ(t.cycles[1][0], 2000);
  EXPECT_EQ(stall_classes(rows), (std::vector<std::string>{"issued", "raw", "idle"}));
}

TEST(TidyRows, CsvQuotesFieldsWithCommasAndQuotes) {
  std::vector<json> rows = {{{"workload", "a,b"}, {"kernel", "say \"hi\""}, {"cycles", 5}}};
  std::string csv = to_csv(rows);
  EXPECT_NE(csv.find("\"a,b\""), std::string::npos);
  EXPECT_NE(csv.find("\"say \"\"hi\"\"\""), std::string::npos);
}

TEST(TidyRows, IpcSeriesGetsTheFinalPartialWindow) {
  IpcSeries s = ipc_series_of("net", "gto", two_kernel_run());
  // Full windows hold 100 * 1 + 100 * 2 = 300 instructions; the 50 cycles after 200 hold 50.
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_DOUBLE_EQ(s.points[2].first, 250);
  EXPECT_DOUBLE_EQ(s.points[2].second, 1.0);
  json short_run = {{"total", {{"cycles", 40}, {"warp_insts", 20}, {"ipc", 0.5}}}};
  IpcSeries t = ipc_series_of("w", "lrr", short_run);
  EXPECT_TRUE(t.whole_run_average);
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_DOUBLE_EQ(t.points[1].first, 40);
  EXPECT_DOUBLE_EQ(t.points[1].second, 0.5);
}

TEST(SlurmChunks, EvenChunksOverAtMostMaxTasks) {
  EXPECT_EQ(chunk_bounds(10, 3), (std::vector<size_t>{0, 4, 7, 10}));
  EXPECT_EQ(chunk_bounds(2, 5), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(chunk_bounds(6, 1), (std::vector<size_t>{0, 6}));
  EXPECT_EQ(chunk_bounds(0, 4), (std::vector<size_t>{0}));
  std::string script = slurm_script("/bin/warpsim", "/o/m.json", "/o/logs", "/w", 2);
  EXPECT_NE(script.find("exec '/bin/warpsim' compare --run-task '/o/m.json' --task-index \"$SLURM_ARRAY_TASK_ID\""),
            std::string::npos);
  EXPECT_NE(script.find("#SBATCH --cpus-per-task=2"), std::string::npos);
}

TEST(SvgChart, TicksCoverTheRange) {
  auto t = svg::nice_ticks(0, 1.0);
  EXPECT_DOUBLE_EQ(t.front(), 0);
  EXPECT_GE(t.back(), 1.0);
  EXPECT_NEAR(t[1] - t[0], 0.2, 1e-12);
  auto u = svg::nice_ticks(0.7, 2.6);
  EXPECT_LE(u.front(), 0.7);
  EXPECT_GE(u.back(), 2.6);
  EXPECT_NEAR(u[1] - u[0], 0.5, 1e-12);
}

TEST(SvgChart, ChartsDrawOneShapePerValue) {
  svg::BarChart c;
  c.title = "t <1>";
  c.categories = {"a", "b", "c"};
  c.series = {{"x", {1, 2, 3}}, {"y", {2, NAN, 1}}};
  std::string g = svg::grouped_bars(c);
  EXPECT_EQ(g.rfind("<svg", 0), 0u);
  // One rect for the background, one per legend entry, one per present value.
  size_t rects = 0;
  for (size_t at = g.find("<rect"); at != std::string::npos; at = g.find("<rect", at + 1)) ++rects;
  EXPECT_EQ(rects, 1u + 2u + 5u);
  EXPECT_NE(g.find("t &lt;1&gt;"), std::string::npos);
  std::string s = svg::stacked_bars(c);
  rects = 0;
  for (size_t at = s.find("<rect"); at != std::string::npos; at = s.find("<rect", at + 1)) ++rects;
  EXPECT_EQ(rects, 1u + 2u + 5u);
  svg::LineChart l;
  l.lines = {{"a", {{0, 1}, {10, 2}, {20, 1.5}}}, {"b", {}}};
  std::string ls = svg::line_chart(l);
  size_t lines = 0;
  for (size_t at = ls.find("<polyline"); at != std::string::npos; at = ls.find("<polyline", at + 1)) ++lines;
  EXPECT_EQ(lines, 1u);
}

// report.html and the text summary on hand-made comparisons: the report opens on the answer,
// every group of kernels appears, no chart is wider than the page, and the launches of one
// kernel make one row with a drill-down.
#include "experiment/report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "experiment/report_overview.h"
#include "experiment/results.h"
#include "experiment/svg_chart.h"
#include "support/process.h"

using namespace warpsim::experiment;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A scratch directory to write reports into.
class ScratchReport {
 public:
  std::string dir() const { return d_.path(); }
  std::string write(const Comparison& c) { return warpsim::testsupport::read_file(write_report(c, dir())); }

 private:
  warpsim::testsupport::ScratchDir d_{"warpsim-report"};
};

void add(Comparison& c, const std::string& workload, const std::string& id, const std::string& kernel, int launch,
         const std::string& sched, double cycles) {
  c.rows.push_back({{"workload", workload},
                    {"kernel_id", id},
                    {"kernel", kernel},
                    {"launch", launch},
                    {"scheduler", sched},
                    {"cycles", cycles},
                    {"stall.issued", 60},
                    {"stall.raw", 40}});
}

// Five workloads in five categories; bfs launches "expand" three times (kernel ids as
// tidy_rows makes them), bp runs two kernels once each. Cycles per scheduler lrr, gto, tl:
// gto is fastest on memory, shared and irregular kernels, lrr on compute and divergence.
Comparison sample() {
  Comparison c;
  c.gpu = "gtx480";
  c.size = "small";
  c.baseline = "lrr";
  c.schedulers = {"lrr", "gto", "tl"};
  c.oracle_set = {"lrr", "gto", "tl"};
  c.categories = {
      {"mm", "compute"}, {"stream", "memory"}, {"bfs", "irregular"}, {"bp", "shared"}, {"branchy", "divergence"}};
  auto three = [&](const std::string& w, const std::string& id, const std::string& k, int launch, double l, double g,
                   double t) {
    add(c, w, id, k, launch, "lrr", l);
    add(c, w, id, k, launch, "gto", g);
    add(c, w, id, k, launch, "tl", t);
  };
  three("mm", "mm", "mm", 0, 1000, 1100, 1050);
  three("stream", "stream", "stream", 0, 2000, 1000, 1600);
  for (int i = 0; i < 3; ++i) three("bfs", fmt::format("bfs/expand#{}", i), "expand", i, 100, 80, 90);
  three("bp", "bp/fwd", "fwd", 0, 500, 400, 450);
  three("bp", "bp/bwd", "bwd", 1, 600, 500, 700);
  three("branchy", "branchy", "branchy", 0, 300, 330, 310);
  c.ipc.push_back({"mm", "lrr", {{0, 1.0}, {1000, 1.0}}, true});
  c.finish();
  return c;
}

double geomean_of(const std::vector<double>& s) {
  double log_sum = 0;
  for (double x : s) log_sum += std::log(x);
  return std::exp(log_sum / double(s.size()));
}

// Geometric means of the speedups over lrr per kernel of sample(), bfs's launches added up.
double gto_geomean() { return geomean_of({1000.0 / 1100, 2.0, 300.0 / 240, 500.0 / 400, 600.0 / 500, 300.0 / 330}); }
double tl_geomean() { return geomean_of({1000.0 / 1050, 1.25, 300.0 / 270, 500.0 / 450, 600.0 / 700, 300.0 / 310}); }

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The width attribute of every <svg element.
std::vector<double> svg_widths(const std::string& text) {
  std::vector<double> out;
  std::regex tag("<svg\\b[^>]*>");
  std::regex width("\\bwidth=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
    std::string t = it->str();
    std::smatch m;
    out.push_back(std::regex_search(t, m, width) ? std::stod(m[1]) : -1.0);
  }
  return out;
}

}  // namespace

TEST(KernelLaunches, LaunchesOfOneKernelAddUp) {
  Comparison c = sample();
  const auto& k = c.kernels;
  EXPECT_EQ(k.table.kernels, (std::vector<std::string>{"mm", "stream", "bfs/expand", "bp/fwd", "bp/bwd", "branchy"}));
  EXPECT_EQ(k.launches[2], (std::vector<std::string>{"bfs/expand#0", "bfs/expand#1", "bfs/expand#2"}));
  EXPECT_EQ(k.workloads[2], "bfs");
  EXPECT_DOUBLE_EQ(k.table.cycles[2][0], 300);
  EXPECT_DOUBLE_EQ(k.table.cycles[2][1], 240);
  EXPECT_EQ(c.table.kernels.size(), 8u);  // the per-launch table keeps every launch
  // A scheduler without a result for one launch has no sum for the kernel.
  c.rows.erase(std::remove_if(c.rows.begin(), c.rows.end(),
                              [](const json& r) { return r["kernel_id"] == "bfs/expand#1" && r["scheduler"] == "tl"; }),
               c.rows.end());
  c.finish();
  EXPECT_TRUE(std::isnan(c.kernels.table.cycles[2][2]));
  EXPECT_DOUBLE_EQ(c.kernels.table.cycles[2][1], 240);
  EXPECT_EQ(kernel_of(json{{"kernel_id", "w/k#12"}, {"launch", 12}}), "w/k");
  EXPECT_EQ(kernel_of(json{{"kernel_id", "w/k#12"}, {"launch", 3}}), "w/k#12");
  EXPECT_EQ(kernel_of(json{{"kernel_id", "w"}, {"launch", 0}}), "w");
}

TEST(ReportOverview, AnswerNamesTheFastestSchedulerAndWhere) {
  Overview o = overview(sample());
  ASSERT_TRUE(o.valid);
  EXPECT_EQ(o.columns, (std::vector<std::string>{"lrr", "gto", "tl", "oracle(lrr,gto,tl)"}));
  EXPECT_EQ(o.leader, 1);
  EXPECT_NEAR(o.geomeans[1], gto_geomean(), 1e-12);
  // gto is best or within 2 % on stream, bfs/expand, bp/fwd and bp/bwd.
  EXPECT_EQ(o.answer, fmt::format("gto is fastest overall: geomean speedup {:.3f} over lrr on 6 kernels (next: tl "
                                  "{:.3f}); best or within 2 % on 4 of 6 kernels.",
                                  gto_geomean(), tl_geomean()));
  EXPECT_EQ(o.where.rfind("lrr leads on LRR-friendly, compute and divergence kernels; gto on GTO-friendly, memory, "
                          "shared and irregular.",
                          0),
            0u)
      << o.where;
  std::vector<std::string> names;
  for (const auto& g : o.groups) names.push_back(g.name);
  EXPECT_EQ(names, (std::vector<std::string>{"All kernels", "LRR-friendly", "GTO-friendly", "compute", "memory",
                                             "shared", "irregular", "divergence"}));
  EXPECT_EQ(o.groups[5].kernels.size(), 2u);  // shared: bp/fwd and bp/bwd
}

TEST(ReportOverview, BaselineThatLeadsIsNamedAsSuch) {
  Comparison c;
  c.baseline = "lrr";
  c.schedulers = {"lrr", "gto"};
  add(c, "a", "a", "a", 0, "lrr", 100);
  add(c, "a", "a", "a", 0, "gto", 125);
  c.finish();
  Overview o = overview(c);
  EXPECT_EQ(o.answer,
            "lrr (the baseline) is fastest overall: the next best, gto, has geomean speedup 0.800 over it "
            "on 1 kernel; lrr is best or within 2 % on 1 of 1 kernel.");
  c.baseline = "tl";
  EXPECT_FALSE(overview(c).valid);
  EXPECT_NE(text_summary(c).find("baseline tl has no results"), std::string::npos) << text_summary(c);
}

TEST(Report, OpensOnTheAnswer) {
  ScratchReport r;
  std::string html = r.write(sample());
  size_t h1 = html.find("<h1>");
  ASSERT_NE(h1, std::string::npos);
  // The first heading after the title is the summary, and it holds the answer before any table.
  size_t first_heading = html.find("<h2", h1);
  ASSERT_NE(first_heading, std::string::npos);
  EXPECT_EQ(html.compare(first_heading, 16, "<h2>Summary</h2>"), 0) << html.substr(first_heading, 60);
  EXPECT_EQ(html.find("<h3", h1), html.find("<h3", first_heading));
  size_t answer = html.find(fmt::format("gto is fastest overall: geomean speedup {:.3f} over lrr", gto_geomean()));
  ASSERT_NE(answer, std::string::npos);
  EXPECT_LT(answer, html.find("<table"));
  EXPECT_LT(answer, html.find("<svg"));
  // Then the geomean chart (horizontal bars, the leader first) and table, then the groups, the ranks
  // and the kernels, in that order.
  size_t groups = html.find("<h2 id=\"groups\">"), ranks = html.find("<h2 id=\"ranks\">");
  size_t kernels = html.find("<h2 id=\"kernels\">");
  ASSERT_NE(groups, std::string::npos);
  EXPECT_LT(html.find("<svg"), groups);
  EXPECT_LT(html.find("<table"), groups);
  EXPECT_LT(groups, ranks);
  EXPECT_LT(ranks, kernels);
  EXPECT_LT(html.find("Geomean speedup"), groups);
  EXPECT_LT(html.find("<td><b>gto</b></td>"), html.find("<td>lrr (baseline)</td>"));
  EXPECT_TRUE(fs::exists(r.dir() + "/svg/speedup.svg"));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // The summary links the sections the report has, and only those (no adaptive scheduler: no modes).
  size_t links = html.find("Contents: ");
  EXPECT_LT(links, groups);
  EXPECT_NE(html.find("<a href=\"#kernels\">", links), std::string::npos);
  EXPECT_EQ(html.find("<a href=\"#modes\">"), std::string::npos);
}

TEST(Report, EveryGroupAndCategoryAppears) {
  ScratchReport r;
  std::string html = r.write(sample());
  size_t groups = html.find("<h2 id=\"groups\">"), ranks = html.find("<h2 id=\"ranks\">");
  ASSERT_NE(groups, std::string::npos);
  std::string table = html.substr(groups, ranks - groups);
  for (const char* g :
       {"All kernels", "LRR-friendly", "GTO-friendly", "compute", "memory", "shared", "irregular", "divergence"})
    EXPECT_NE(table.find(fmt::format("<tr><td>{}</td>", g)), std::string::npos) << g;
  // Per kernel, one subsection per category.
  for (const char* cat : {"compute", "memory", "shared", "irregular", "divergence"})
    EXPECT_EQ(count(html, fmt::format("<h3 id=\"kernels-{}\">", cat)), 1u) << cat;
  std::string text = text_summary(sample());
  for (const char* g :
       {"All kernels", "LRR-friendly", "GTO-friendly", "compute", "memory", "shared", "irregular", "divergence"})
    EXPECT_NE(text.find(std::string("\n") + g + " "), std::string::npos) << g << "\n" << text;
}

TEST(Report, LaunchesOfOneKernelMakeOneRowWithADrillDown) {
  ScratchReport r;
  std::string html = r.write(sample());
  std::string kernels = html.substr(html.find("<h2 id=\"kernels\">"));
  // One row for bfs/expand with its summed cycles and speedups, then the three launches.
  EXPECT_EQ(count(kernels, "<tr><td>bfs/expand</td>"), 1u);
  EXPECT_NE(kernels.find("<tr><td>bfs/expand</td><td>3</td><td>300</td><td>1.000</td><td class=\"best\">1.250</td>"),
            std::string::npos);
  size_t details = kernels.find("<details><summary>3 launches of bfs/expand</summary>");
  ASSERT_NE(details, std::string::npos);
  std::string drill = kernels.substr(details, kernels.find("</details>", details) - details);
  for (int i = 0; i < 3; ++i) EXPECT_NE(drill.find(fmt::format("<tr><td>{}</td><td>100</td>", i)), std::string::npos);
  // Kernels launched once have no drill-down.
  EXPECT_EQ(count(kernels, "<details>"), 1u);
  EXPECT_EQ(count(kernels, "<tr><td>bp/fwd</td>"), 1u);
}

TEST(Report, NoChartIsWiderThanThePage) {
  // Many kernels and many schedulers: 130 kernels of 3 categories, 11 schedulers.
  Comparison c;
  c.baseline = "lrr";
  c.schedulers = {"lrr", "gto", "oldest", "youngest", "tl", "ipaws", "juggler", "r-juggler", "rlws", "rlws_ms", "x"};
  c.oracle_set = {"lrr", "gto", "tl"};
  const char* cats[] = {"memory", "irregular", "a-category-with-a-long-name"};
  for (int k = 0; k < 130; ++k) {
    std::string w = fmt::format("workload_with_a_long_name_{}", k);
    c.categories[w] = cats[k % 3];
    for (size_t s = 0; s < c.schedulers.size(); ++s)
      add(c, w, w, w, 0, c.schedulers[s], 1000 + 37.0 * double((k * 7 + int(s) * 13) % 11));
    c.ipc.push_back({w, "lrr", {{0, 1.0}, {500, 2.0}, {1000, 1.5}}, false});
    c.rows.back()["sched.cycles.UM"] = 5;
    c.rows.back()["sched.cycles.FM"] = 3;
  }
  c.finish();
  ScratchReport r;
  std::string html = r.write(c);
  EXPECT_NE(html.find(fmt::format("max-width:{}px", svg::kMaxWidth)), std::string::npos);
  auto widths = svg_widths(html);
  ASSERT_GT(widths.size(), 10u);
  for (double w : widths) {
    EXPECT_GT(w, 0) << "an <svg> without a width";
    EXPECT_LE(w, svg::kMaxWidth);
  }
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(r.dir() + "/svg")) {
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    for (double w : svg_widths(ss.str())) EXPECT_LE(w, svg::kMaxWidth) << e.path();
    ++files;
  }
  EXPECT_EQ(files, widths.size());
  // The per-kernel charts are split: a memory chart holds at most kernels_per_chart kernels.
  EXPECT_TRUE(fs::exists(r.dir() + "/svg/speedup_memory_2.svg"));
  // Charts asked to be wider are drawn at the page width.
  svg::BarChart wide;
  wide.width = 5000;
  wide.categories = {"a"};
  wide.series = {{"s", {1.0}}};
  EXPECT_EQ(svg_widths(svg::grouped_bars(wide)), (std::vector<double>{double(svg::kMaxWidth)}));
}

TEST(Report, TextSummaryStartsWithTheAnswer) {
  std::string text = text_summary(sample());
  EXPECT_EQ(text.rfind(fmt::format("gto is fastest overall: geomean speedup {:.3f} over lrr", gto_geomean()), 0), 0u)
      << text;
  EXPECT_NE(text.find("Speedup over lrr per kernel"), std::string::npos);  // a short suite lists its kernels
  EXPECT_NE(text.find("\nbfs/expand "), std::string::npos);
  EXPECT_EQ(text.find("bfs/expand#"), std::string::npos);
}

TEST(SvgChart, HorizontalBarsKeepTheirWidthAndGrowDown) {
  svg::HBarChart c;
  c.labels = {"a", "b"};
  c.series = {{"s", {1.2, 0.9}}};
  c.reference = 1.0;
  std::string two = svg::horizontal_bars(c);
  c.labels = {"a", "b", "c", "d", "e", "f"};
  c.series[0].values = {1.2, 0.9, 1.0, 1.1, NAN, 0.8};
  std::string six = svg::horizontal_bars(c);
  EXPECT_EQ(svg_widths(two), svg_widths(six));
  std::smatch m2, m6;
  std::regex h("height=\"([0-9.]+)\"");
  ASSERT_TRUE(std::regex_search(two, m2, h));
  ASSERT_TRUE(std::regex_search(six, m6, h));
  EXPECT_GT(std::stod(m6[1]), std::stod(m2[1]));
  // One bar per present value, plus the background.
  EXPECT_EQ(count(six, "<rect"), 1u + 5u);
}

// scripts/report_screenshot.sh renders the report 1400 px wide (skipped without Chromium).
TEST(Report, ScreenshotScriptRendersThePage) {
  ScratchReport r;
  r.write(sample());
  std::string png = r.dir() + "/shot.png";
  using warpsim::testsupport::quote;
  std::string script = std::string(WARPSIM_SOURCE_DIR) + "/scripts/report_screenshot.sh";
  int st = warpsim::testsupport::shell("HEIGHT=900 " + quote(script) + " " + quote(r.dir() + "/report.html") + " " +
                                       quote(png) + " >/dev/null 2>&1");
  if (st == 77) GTEST_SKIP() << "no Chromium";
  ASSERT_EQ(st, 0);
  std::string bytes = warpsim::testsupport::read_file(png);
  ASSERT_GT(bytes.size(), 24u);
  ASSERT_EQ(bytes.substr(1, 3), "PNG");
  auto be32 = [&](size_t at) {
    return (uint32_t(uint8_t(bytes[at])) << 24) | (uint32_t(uint8_t(bytes[at + 1])) << 16) |
           (uint32_t(uint8_t(bytes[at + 2])) << 8) | uint32_t(uint8_t(bytes[at + 3]));
  };
  EXPECT_EQ(be32(16), 1400u);  // IHDR: width, height
  EXPECT_EQ(be32(20), 900u);
}

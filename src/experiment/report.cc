#include "experiment/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>
#include <tuple>

#include "core/json_file.h"
#include "experiment/report_overview.h"
#include "experiment/report_sections.h"
#include "experiment/results.h"
#include "experiment/svg_chart.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;
using nlohmann::json;
using report_html::escape;
using report_html::num;

namespace {

bool has_lrr_and_gto(const CycleTable& t) { return t.scheduler_index("lrr") >= 0 && t.scheduler_index("gto") >= 0; }

size_t launch_count(const Comparison& c) {
  size_t n = 0;
  for (const auto& l : c.kernels.launches) n += l.size();
  return n;
}

// How often ipaws committed to the better of LRR and GTO (per kernel launch, the policy most of
// its schedulers' decisions chose; no decision counts as GTO, the order it samples under), with
// `f` the split of the per-launch table. Launches where LRR and GTO take the same cycles have no
// better policy and are counted apart.
std::string ipaws_choices(const Comparison& c, const FriendlySplit& f) {
  if (c.table.scheduler_index("ipaws") < 0) return "";
  std::set<std::string> lrr_friendly(f.lrr_friendly.begin(), f.lrr_friendly.end());
  std::set<std::string> gto_friendly(f.gto_friendly.begin(), f.gto_friendly.end());
  std::map<std::string, size_t> index;
  for (size_t k = 0; k < c.table.kernels.size(); ++k) index[c.table.kernels[k]] = k;
  size_t li = size_t(c.table.scheduler_index("lrr")), gi = size_t(c.table.scheduler_index("gto"));
  int right_l = 0, right_g = 0, seen_l = 0, seen_g = 0, ties = 0;
  for (const auto& r : c.rows) {
    if (r.value("scheduler", std::string()) != "ipaws") continue;
    std::string id = r.value("kernel_id", std::string());
    std::string key = fmt::format("sched.kernels.{}.decisions.", r.value("launch", uint64_t(0)));
    bool chose_lrr = r.value(key + "lrr", 0.0) > r.value(key + "gto", 0.0);
    if (lrr_friendly.count(id)) {
      ++seen_l;
      right_l += chose_lrr;
    } else if (gto_friendly.count(id)) {
      const auto& cyc = c.table.cycles[index[id]];
      if (cyc[li] == cyc[gi]) {
        ++ties;
        continue;
      }
      ++seen_g;
      right_g += !chose_lrr;
    }
  }
  return fmt::format(
      "ipaws committed to the better policy on {} of {} LRR-friendly and {} of {} GTO-friendly "
      "kernel launches ({} with LRR = GTO not counted)\n",
      right_l, seen_l, right_g, seen_g, ties);
}

// Columns of the overview, fastest first (NaN last), the oracles after the schedulers.
std::vector<size_t> by_geomean(const Overview& o) {
  std::vector<size_t> order(o.columns.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (o.oracle[a] != o.oracle[b]) return !o.oracle[a];
    double x = o.geomeans[a], y = o.geomeans[b];
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    return x > y;
  });
  return order;
}

// The first screen: the answer, what it rests on, and the geometric mean of every scheduler as a
// chart beside a table.
std::string summary_section(const Comparison& c, const Overview& o, report_html::Charts& charts) {
  const CycleTable& t = c.kernels.table;
  std::string html = "<section id=\"summary\">\n<h2>Summary</h2>\n";
  html += "<p class=\"answer\">" + escape(o.answer) + "</p>\n";
  if (!o.where.empty()) html += "<p>" + escape(o.where) + "</p>\n";
  if (!c.failures.empty())
    html += fmt::format(
        "<p class=\"warn\">{} run{} failed; their results are missing from every table "
        "(<a href=\"#failures\">list</a>).</p>\n",
        c.failures.size(), c.failures.size() == 1 ? "" : "s");
  html += fmt::format(
      "<p class=\"note\">GPU <b>{}</b>, size <b>{}</b>, inputs seed {}, baseline <b>{}</b>; {} kernels "
      "({} launches), {} schedulers. Speedup of a scheduler on a kernel: cycles of the baseline / its "
      "cycles, a kernel's launches added up; geometric means over the kernels with results.</p>\n",
      escape(c.gpu), escape(c.size), c.seed, escape(c.baseline), t.kernels.size(), launch_count(c),
      t.schedulers.size());
  if (!o.valid) return html + "</section>\n";

  auto order = by_geomean(o);
  svg::HBarChart hb;
  hb.x_label = fmt::format("geomean speedup over {}", c.baseline);
  hb.series.push_back({"geomean speedup", {}});
  for (size_t s : order) {
    hb.labels.push_back(o.columns[s]);
    hb.series[0].values.push_back(o.geomeans[s]);
    hb.colours.push_back(int(s) == o.leader           ? "#59a14f"
                         : o.columns[s] == c.baseline ? "#9e9e9e"
                         : o.oracle[s]                ? "#c9c9c9"
                                                      : "#4e79a7");
  }
  hb.width = 520;
  hb.reference = 1.0;
  hb.x_min = report_html::axis_start(hb.series);
  hb.title = hb.x_min > 0 ? fmt::format("Geomean speedup (axis from {:.1f})", hb.x_min) : "Geomean speedup";
  charts.emplace_back("speedup.svg", svg::horizontal_bars(hb));
  html += "<div class=\"lead\">\n" + charts.back().second;
  html += fmt::format(
      "<table><tr><th>scheduler</th><th>geomean speedup</th><th>kernels</th>"
      "<th title=\"of the {} kernels with every result\">best or &le;2 %</th>"
      "<th title=\"kernels where it takes the fewest cycles\">rank 1</th></tr>\n",
      o.complete);
  for (size_t s : order) {
    bool real = s < t.schedulers.size();
    std::string name = escape(o.columns[s]);
    if (int(s) == o.leader) name = "<b>" + name + "</b>";
    if (o.columns[s] == c.baseline) name += " (baseline)";
    html += fmt::format("<tr><td>{}</td><td{}>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", name,
                        int(s) == o.leader ? " class=\"best\"" : "", num(o.geomeans[s]), o.counted[s],
                        real ? std::to_string(o.best_within[s]) : "-",
                        real ? std::to_string(rank_rows(t, o.columns[s]).front().kernels) : "-");
  }
  html += "</table>\n</div>\n";
  std::string oracles;
  for (size_t s = 0; s < o.columns.size(); ++s) {
    if (!o.oracle[s]) continue;
    oracles += oracles.empty() ? "" : "; ";
    if (o.columns[s] == "ipaws_oracle")
      oracles += "ipaws_oracle: ipaws told the better of LRR and GTO per launch";
    else if (o.columns[s] == oracle_column(c))
      oracles += escape(o.columns[s]) + ": per kernel the fewest cycles of those schedulers";
    else
      oracles += escape(o.columns[s]);
  }
  html += "<p class=\"note\">Green: the fastest scheduler; grey: the baseline" +
          (oracles.empty()
               ? std::string(".")
               : " and the oracles, which know per kernel which policy is better (" + oracles + "), for reference.") +
          "</p>\n";
  return html + "</section>\n";
}

// Links to the sections below the summary that the report has: (id, title, the section's HTML).
std::string contents(const std::vector<std::tuple<const char*, const char*, const std::string*>>& sections) {
  std::string links;
  for (const auto& [id, title, html] : sections)
    if (!html->empty()) links += fmt::format("{}<a href=\"#{}\">{}</a>", links.empty() ? "" : " &middot; ", id, title);
  return links.empty() ? "" : "<p class=\"note\">Contents: " + links + "</p>\n";
}

// Geometric means per group of kernels: LRR-/GTO-friendly (RLWS Table VII) and each category.
std::string group_section(const Comparison& c, const Overview& o, report_html::Charts& charts) {
  const CycleTable& t = c.kernels.table;
  std::string html = fmt::format(
      "<h2 id=\"groups\">By group of kernels</h2>\n<p class=\"note\">Geometric-mean speedup "
      "over {} of the kernels of each group. LRR-friendly: LRR takes fewer cycles than GTO "
      "(RLWS Table VII); the others are GTO-friendly. Then each workload category. Bold: the "
      "fastest scheduler of the group.</p>\n<div class=\"wide\"><table><tr><th>group</th><th>kernels</th>",
      escape(c.baseline));
  for (const auto& col : o.columns) html += "<th>" + escape(col) + "</th>";
  html += "<th>fastest</th></tr>\n";
  svg::BarChart gb;
  gb.y_label = "geomean speedup";
  for (const auto& col : o.columns) gb.series.push_back({col, {}});
  for (const auto& g : o.groups) {
    html += fmt::format("<tr><td>{}</td><td>{}</td>", escape(g.name), g.kernels.size());
    for (size_t s = 0; s < o.columns.size(); ++s)
      html += fmt::format("<td{}>{}</td>", int(s) == g.leader ? " class=\"best\"" : "", num(g.geomeans[s]));
    html += fmt::format("<td>{}</td></tr>\n", g.leader >= 0 ? escape(o.columns[size_t(g.leader)]) : "-");
    if (g.kernels.empty()) continue;
    gb.categories.push_back(g.name);
    for (size_t s = 0; s < o.columns.size(); ++s) gb.series[s].values.push_back(g.geomeans[s]);
  }
  html += "</table></div>\n";
  gb.reference = 1.0;
  gb.y_min = report_html::axis_start(gb.series);
  gb.title = fmt::format("Geomean speedup over {} per group{}", c.baseline,
                         gb.y_min > 0 ? fmt::format(" (y axis from {:.1f})", gb.y_min) : "");
  gb.width = std::clamp(214 + int(gb.categories.size() * (o.columns.size() * 9 + 16)), 520, 1100);
  charts.emplace_back("groups.svg", svg::grouped_bars(gb));
  html += charts.back().second;
  if (has_lrr_and_gto(t)) {
    std::string lrr, gto;
    for (const auto& g : o.groups) {
      std::string& list = g.name == "LRR-friendly" ? lrr : gto;
      if (g.name != "LRR-friendly" && g.name != "GTO-friendly") continue;
      for (size_t k : g.kernels) list += (list.empty() ? "" : ", ") + t.kernels[k];
    }
    html += fmt::format("<p class=\"note\">{}LRR-friendly: {}. GTO-friendly: {}.</p>\n",
                        escape(ipaws_choices(c, friendly_split(c.table, c.baseline))),
                        escape(lrr.empty() ? "none" : lrr), escape(gto.empty() ? "none" : gto));
  }
  return html;
}

std::string rank_section(const Comparison& c, const Overview& o, report_html::Charts& charts) {
  const CycleTable& t = c.kernels.table;
  size_t n = t.schedulers.size();
  svg::BarChart rb;
  rb.title = "Kernels at each rank (1 = fewest cycles)";
  rb.y_label = "kernels";
  rb.categories = t.schedulers;
  for (size_t r = 1; r <= n; ++r) rb.series.push_back({fmt::format("rank {}", r), {}});
  std::string html = fmt::format(
      "<h2 id=\"ranks\">Ranks</h2>\n<p class=\"note\">Per kernel with results for every "
      "scheduler ({} of {}), schedulers ranked by cycles; equal cycles share a rank.</p>\n"
      "<table><tr><th>scheduler</th>",
      o.complete, t.kernels.size());
  for (size_t r = 1; r <= n; ++r) html += fmt::format("<th>rank {}</th>", r);
  html += "<th>best or within 2%</th><th>geomean speedup</th></tr>\n";
  for (size_t s = 0; s < n; ++s) {
    const auto& name = t.schedulers[s];
    html += "<tr><td>" + escape(name) + "</td>";
    for (const auto& row : rank_rows(t, name)) {
      html += fmt::format("<td>{}</td>", row.kernels);
      rb.series[size_t(row.rank - 1)].values.push_back(row.kernels);
    }
    html += fmt::format("<td>{}</td><td>{}</td></tr>\n", o.best_within[s], num(o.geomeans[s]));
  }
  html += "</table>\n";
  rb.width = std::clamp(214 + int(n * (n * 9 + 16)), 520, 1100);
  charts.emplace_back("ranks.svg", svg::grouped_bars(rb));
  html += charts.back().second;
  // RLWS Table VI: the leader's open, the other schedulers' behind a drill-down.
  auto table_vi = [&](const std::string& x) {
    std::string h = "<div class=\"wide\"><table><tr><th>" + escape(x) + ": rank</th><th>kernels</th>";
    for (const auto& other : t.schedulers)
      if (other != x) h += "<th>over " + escape(other) + "</th>";
    h += "</tr>\n";
    for (const auto& row : rank_rows(t, x)) {
      h += fmt::format("<tr><td>{}</td><td>{}</td>", row.rank, row.kernels);
      for (const auto& other : t.schedulers)
        if (other != x) h += "<td>" + num(row.speedup_over.at(other)) + "</td>";
      h += "</tr>\n";
    }
    return h + "</table></div>\n";
  };
  const std::string& lead = o.columns[size_t(o.leader)];
  html +=
      "<h3>Rank tables (RLWS Table VI)</h3>\n<p class=\"note\">For scheduler X and rank r: the kernels where X "
      "has rank r, and on those kernels the geometric-mean speedup of X over each other scheduler.</p>\n";
  html += table_vi(lead);
  if (n > 1) {
    html += fmt::format("<details><summary>Rank tables of the other {} schedulers</summary>\n", n - 1);
    for (const auto& x : t.schedulers)
      if (x != lead) html += table_vi(x);
    html += "</details>\n";
  }
  return html;
}

const char* kStyle =
    "<style>body{font-family:Helvetica,Arial,sans-serif;margin:24px auto;padding:0 24px;max-width:1200px;color:#222}"
    "table{border-collapse:collapse;margin:8px 0 20px;font-size:14px}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}table.kernels{font-size:13px}"
    "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}td.best{font-weight:bold;background:#e8f3e0}"
    "h2{margin-top:32px;border-bottom:1px solid #ddd}.answer{font-size:20px;font-weight:bold;margin:8px 0}"
    ".warn{color:#a40000;font-weight:bold}.note{color:#666;font-size:13px}.wide{overflow-x:auto}"
    ".lead{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}.lead>*{flex:0 0 auto}"
    ".pair{display:flex;flex-wrap:wrap;gap:12px}"
    "svg{max-width:100%;height:auto}table.small{font-size:12px}table.small td{white-space:nowrap}"
    "tr.launches>td{text-align:left;border-top:none;background:#fafafa;font-size:13px}"
    "tr.launches table{margin:6px 0 6px 16px}summary{cursor:pointer;color:#335}pre{background:#f8f8f8;padding:8px}"
    "</style>";

}  // namespace

void Comparison::finish() {
  table = cycle_table(rows, schedulers);
  kernels = kernel_launches(rows, schedulers);
}

std::string Comparison::category_of(const std::string& workload) const {
  auto it = categories.find(workload);
  return it == categories.end() || it->second.empty() ? "other" : it->second;
}

IpcSeries ipc_series_of(const std::string& workload, const std::string& scheduler, const json& run) {
  IpcSeries s{workload, scheduler, {}, false};
  double interval = 0;
  if (run.contains("ipc_series") && run["ipc_series"].is_object()) {
    interval = run["ipc_series"].value("interval", 0.0);
    if (run["ipc_series"].contains("samples"))
      for (const auto& p : run["ipc_series"]["samples"])
        if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
          s.points.emplace_back(p[0].get<double>(), p[1].get<double>());
  }
  if (!run.contains("total") || !run["total"].is_object()) return s;
  double cycles = run["total"].value("cycles", 0.0), insts = run["total"].value("warp_insts", 0.0);
  if (s.points.empty()) {
    // Shorter than one window: the whole-run average, drawn across the run.
    double ipc = run["total"].value("ipc", 0.0);
    s.points = {{0.0, ipc}, {cycles, ipc}};
    s.whole_run_average = true;
  } else if (interval > 0 && cycles > s.points.back().first) {
    // The last, partial window: what the full windows do not account for.
    double counted = 0;
    for (const auto& [x, ipc] : s.points) counted += ipc * interval;
    double tail = std::max(0.0, (insts - counted) / (cycles - s.points.back().first));
    s.points.emplace_back(cycles, tail);
  }
  return s;
}

std::string text_summary(const Comparison& c) {
  Overview o = overview(c);
  if (!o.valid) return o.answer + "\n";
  const CycleTable& t = c.kernels.table;
  std::string out = o.answer + "\n";
  if (!o.where.empty()) out += o.where + "\n";
  out += fmt::format("GPU {}, size {}, seed {}: {} kernels ({} launches; the launches of one kernel are added up)\n",
                     c.gpu, c.size, c.seed, t.kernels.size(), launch_count(c));
  if (!c.failures.empty()) out += fmt::format("{} runs failed; their results are missing\n", c.failures.size());

  auto width = [](const std::string& s) { return std::max<size_t>(8, s.size()); };
  out +=
      fmt::format("\nGeomean speedup over {} per group of kernels (LRR-/GTO-friendly: RLWS Table VII)\n", c.baseline);
  out += fmt::format("{:<14} {:>7}", "group", "kernels");
  for (const auto& col : o.columns) out += fmt::format(" {:>{}}", col, width(col));
  out += "  fastest\n";
  for (const auto& g : o.groups) {
    out += fmt::format("{:<14} {:>7}", g.name, g.kernels.size());
    for (size_t s = 0; s < o.columns.size(); ++s)
      out += fmt::format(" {:>{}}", num(g.geomeans[s]), width(o.columns[s]));
    out += fmt::format("  {}\n", g.leader >= 0 ? o.columns[size_t(g.leader)] : "-");
  }
  if (has_lrr_and_gto(c.table)) out += ipaws_choices(c, friendly_split(c.table, c.baseline));

  size_t n = t.schedulers.size();
  out +=
      fmt::format("\nRanks by cycles over {} kernels with every result (1 = fastest, ties share a rank)\n", o.complete);
  out += fmt::format("{:<12}", "scheduler");
  for (size_t r = 1; r <= n; ++r) out += fmt::format(" {:>5}", fmt::format("#{}", r));
  out += fmt::format(" {:>12}\n", "best/<=2%");
  for (size_t s = 0; s < n; ++s) {
    out += fmt::format("{:<12}", t.schedulers[s]);
    for (const auto& row : rank_rows(t, t.schedulers[s])) out += fmt::format(" {:>5}", row.kernels);
    out += fmt::format(" {:>12}\n", o.best_within[s]);
  }
  if (n > 1 && size_t(o.leader) < n) {
    const std::string& lead = t.schedulers[size_t(o.leader)];
    out += fmt::format("\nRank table for {} (RLWS Table VI): geomean speedup of {} over each scheduler\n", lead, lead);
    out += fmt::format("{:>5} {:>8}", "rank", "kernels");
    for (const auto& s : t.schedulers)
      if (s != lead) out += fmt::format(" {:>9}", s);
    out += "\n";
    for (const auto& row : rank_rows(t, lead)) {
      out += fmt::format("{:>5} {:>8}", row.rank, row.kernels);
      for (const auto& s : t.schedulers)
        if (s != lead) out += fmt::format(" {:>9}", num(row.speedup_over.at(s)));
      out += "\n";
    }
  }

  // Per kernel only for a short suite; the report and results.csv have them all.
  constexpr size_t kShortSuite = 20;
  if (t.kernels.size() > kShortSuite) {
    out += fmt::format("\nSpeedups of the {} kernels: report.html (per kernel, with their launches), results.csv\n",
                       t.kernels.size());
    return out;
  }
  size_t kw = 12;
  for (const auto& k : t.kernels) kw = std::max(kw, std::min<size_t>(k.size(), 40));
  out += fmt::format("\nSpeedup over {} per kernel (baseline cycles / cycles)\n{:<{}}", c.baseline, "kernel", kw);
  for (const auto& col : o.columns) out += fmt::format(" {:>{}}", col, width(col));
  out += "\n";
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    out += fmt::format("{:<{}}", t.kernels[k].substr(0, 40), kw);
    for (size_t s = 0; s < o.columns.size(); ++s)
      out += fmt::format(" {:>{}}", num(o.speedups[k][s]), width(o.columns[s]));
    out += "\n";
  }
  return out;
}

std::string write_report(const Comparison& c, const std::string& dir) {
  fs::create_directories(fs::path(dir) / "svg");
  report_html::Charts charts;
  Overview o = overview(c);
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>warpsim scheduler "
      "comparison</title>\n{}</head><body>\n<h1>Warp scheduler comparison</h1>\n",
      kStyle);
  std::string summary = summary_section(c, o, charts), groups, ranks, kernels;
  if (o.valid) {
    groups = group_section(c, o, charts);
    ranks = rank_section(c, o, charts);
    kernels = report_html::kernel_section(c, o, charts);
  }
  std::string stalls = report_html::stall_section(c, charts), ipc = report_html::ipc_section(c, charts);
  std::string modes = report_html::mode_section(c, charts), counters = report_html::counters_section(c);
  std::string failures;
  if (!c.failures.empty()) {
    failures = "<h2 id=\"failures\">Failed runs</h2><pre>";
    for (const auto& f : c.failures) failures += escape(f) + "\n";
    failures += "</pre>\n";
  }
  const std::string end = "</section>\n";
  summary.insert(summary.size() - end.size(), contents({{"groups", "by group of kernels", &groups},
                                                        {"ranks", "ranks", &ranks},
                                                        {"kernels", "per kernel", &kernels},
                                                        {"stalls", "stall breakdown", &stalls},
                                                        {"ipc", "IPC over time", &ipc},
                                                        {"modes", "modes of adaptive schedulers", &modes},
                                                        {"counters", "scheduler counters", &counters},
                                                        {"failures", "failed runs", &failures}}));
  html += summary + groups + ranks + kernels + stalls + ipc + modes + counters + failures;
  html +=
      "<p class=\"note\">Tidy results: results.csv and results.jsonl; charts as SVG files in svg/.</p>\n"
      "</body></html>\n";

  for (const auto& [name, svg_text] : charts)
    write_file_atomic((fs::path(dir) / "svg" / name).string(),
                      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg_text);
  std::string path = (fs::path(dir) / "report.html").string();
  write_file_atomic(path, html);
  return path;
}

}  // namespace warpsim::experiment

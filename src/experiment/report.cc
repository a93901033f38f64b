#include "experiment/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/json_file.h"
#include "experiment/results.h"
#include "experiment/svg_chart.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string num(double v, int prec = 3) { return std::isnan(v) ? "-" : fmt::format("{:.{}f}", v, prec); }

std::string oracle_name(const Comparison& c) {
  std::string s;
  for (const auto& o : c.oracle_set)
    if (c.table.scheduler_index(o) >= 0) {
      if (!s.empty()) s += ',';
      s += o;
    }
  return s.empty() ? "" : "oracle(" + s + ")";
}

bool has_baseline(const Comparison& c) { return c.table.scheduler_index(c.baseline) >= 0; }

// Speedup matrix with the oracle as an extra last column (when it has members).
struct SpeedupView {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> values;  // [kernel][column]
  std::vector<double> geomeans;
};

SpeedupView speedup_view(const Comparison& c) {
  SpeedupView v;
  v.columns = c.table.schedulers;
  auto sp = speedups(c.table, c.baseline);
  std::string on = oracle_name(c);
  auto oracle = best_static_oracle(c.table, c.oracle_set);
  int b = c.table.scheduler_index(c.baseline);
  for (size_t k = 0; k < c.table.kernels.size(); ++k) {
    auto row = sp[k];
    if (!on.empty()) {
      double base = c.table.cycles[k][size_t(b)];
      row.push_back(!std::isnan(oracle[k]) && base > 0 ? base / oracle[k] : NAN);
    }
    v.values.push_back(row);
  }
  if (!on.empty()) v.columns.push_back(on);
  for (size_t s = 0; s < v.columns.size(); ++s) {
    std::vector<double> col;
    for (const auto& row : v.values)
      if (!std::isnan(row[s]) && row[s] > 0) col.push_back(row[s]);
    v.geomeans.push_back(geomean(col));
  }
  return v;
}

// The non-baseline scheduler with the best geometric-mean speedup (the one the summary's
// Table VI is printed for).
std::string leading_scheduler(const Comparison& c, const SpeedupView& v) {
  std::string best;
  double best_g = -1;
  for (size_t s = 0; s < c.table.schedulers.size(); ++s) {
    if (c.table.schedulers[s] == c.baseline && c.table.schedulers.size() > 1) continue;
    if (!std::isnan(v.geomeans[s]) && v.geomeans[s] > best_g) best_g = v.geomeans[s], best = c.table.schedulers[s];
  }
  return best;
}

std::vector<std::map<std::string, double>> stall_inputs(const Comparison& c, const std::string& sched,
                                                         const std::vector<std::string>& classes) {
  std::vector<std::map<std::string, double>> out;
  for (const auto& r : c.rows) {
    if (r.value("scheduler", std::string()) != sched) continue;
    std::map<std::string, double> m;
    for (const auto& cls : classes) m[cls] = r.value("stall." + cls, 0.0);
    out.push_back(m);
  }
  return out;
}

std::string html_escape(const std::string& s) { return svg::xml_escape(s); }

std::string safe_file_name(const std::string& s) {
  std::string o;
  for (char ch : s) o += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  return o;
}

// One row per (workload, scheduler) run: the first kernel row of each.
std::vector<const json*> run_rows(const Comparison& c) {
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<const json*> out;
  for (const auto& r : c.rows)
    if (seen.insert({r.value("workload", std::string()), r.value("scheduler", std::string())}).second)
      out.push_back(&r);
  return out;
}

// Scheduler counter key without per-kernel indices ("sched.rlws.kernels.0.actions.X" ->
// "sched.rlws.actions.X"), so that runs of several kernels add up.
std::string strip_kernel_index(const std::string& key) {
  std::string out;
  size_t start = 0;
  std::vector<std::string> parts;
  while (start <= key.size()) {
    size_t dot = key.find('.', start);
    if (dot == std::string::npos) dot = key.size();
    parts.push_back(key.substr(start, dot - start));
    start = dot + 1;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == "kernels" && i + 1 < parts.size() &&
        std::all_of(parts[i + 1].begin(), parts[i + 1].end(), ::isdigit) && !parts[i + 1].empty()) {
      ++i;
      continue;
    }
    if (!out.empty()) out += '.';
    out += parts[i];
  }
  return out;
}

struct ModeShare {
  std::string scheduler, group;  // group: e.g. "cycles" or "rlws.actions"
  std::vector<std::string> workloads;
  std::map<std::string, std::vector<double>> shares;  // mode -> share per workload
};

// Counter groups named "...cycles.MODE" or "...actions.ACTION" with numeric values, per
// scheduler, as shares per workload.
std::vector<ModeShare> mode_shares(const Comparison& c) {
  // scheduler -> group -> workload -> mode -> value
  std::map<std::string, std::map<std::string, std::map<std::string, std::map<std::string, double>>>> acc;
  std::vector<std::string> workloads;
  for (const json* r : run_rows(c)) {
    std::string w = r->value("workload", std::string()), sch = r->value("scheduler", std::string());
    if (std::find(workloads.begin(), workloads.end(), w) == workloads.end()) workloads.push_back(w);
    for (auto it = r->begin(); it != r->end(); ++it) {
      if (it.key().rfind("sched.", 0) != 0 || !it->is_number()) continue;
      std::string k = strip_kernel_index(it.key().substr(6));
      auto dot = k.rfind('.');
      if (dot == std::string::npos) continue;
      std::string group = k.substr(0, dot), mode = k.substr(dot + 1);
      std::string last = group.substr(group.rfind('.') == std::string::npos ? 0 : group.rfind('.') + 1);
      if (last != "cycles" && last != "actions") continue;
      acc[sch][group][w][mode] += it->get<double>();
    }
  }
  std::vector<ModeShare> out;
  for (const auto& sched : c.schedulers) {
    auto si = acc.find(sched);
    if (si == acc.end()) continue;
    for (const auto& [group, per_w] : si->second) {
      ModeShare m{sched, group, {}, {}};
      std::set<std::string> names;
      for (const auto& [w, mv] : per_w)
        for (const auto& [mode, v] : mv) names.insert(mode);
      for (const auto& w : workloads) {
        auto wi = per_w.find(w);
        if (wi == per_w.end()) continue;
        double total = 0;
        for (const auto& [mode, v] : wi->second) total += v;
        if (total <= 0) continue;
        m.workloads.push_back(w);
        for (const auto& n : names) {
          auto mi = wi->second.find(n);
          m.shares[n].push_back(mi == wi->second.end() ? 0.0 : mi->second / total);
        }
      }
      if (!m.workloads.empty()) out.push_back(std::move(m));
    }
  }
  return out;
}

// One table per scheduler with its own counters (the shallowest keys first, at most 16; the
// full set is in results.csv).
std::string counters_tables(const Comparison& c) {
  std::string html;
  auto rows = run_rows(c);
  for (const auto& sched : c.schedulers) {
    std::set<std::string> cols;
    for (const json* r : rows)
      if (r->value("scheduler", std::string()) == sched)
        for (auto it = r->begin(); it != r->end(); ++it)
          if (it.key().rfind("sched.", 0) == 0) cols.insert(it.key());
    if (cols.empty()) continue;
    std::vector<std::string> shown(cols.begin(), cols.end());
    std::stable_sort(shown.begin(), shown.end(), [](const std::string& a, const std::string& b) {
      return std::count(a.begin(), a.end(), '.') < std::count(b.begin(), b.end(), '.');
    });
    size_t all = shown.size();
    if (shown.size() > 16) shown.resize(16);
    std::sort(shown.begin(), shown.end());
    if (html.empty()) html += "<h2>Scheduler-specific counters</h2>\n";
    html += fmt::format("<h3>{}</h3>\n", html_escape(sched));
    if (all > shown.size())
      html += fmt::format("<p class=\"note\">{} of {} counters; all of them are in results.csv.</p>\n", shown.size(), all);
    html += "<div class=\"wide\"><table class=\"small\"><tr><th>workload</th>";
    for (const auto& col : shown) html += "<th>" + html_escape(col.substr(6)) + "</th>";
    html += "</tr>\n";
    for (const json* r : rows) {
      if (r->value("scheduler", std::string()) != sched) continue;
      html += "<tr><td>" + html_escape(r->value("workload", std::string())) + "</td>";
      for (const auto& col : shown) {
        auto it = r->find(col);
        std::string v;
        if (it != r->end()) v = it->is_string() ? it->get<std::string>() : it->is_number_float() ? num(it->get<double>()) : it->dump();
        for (char& ch : v)
          if (ch == '\n') ch = ' ';
        if (v.size() > 24) {
          html += "<td title=\"" + html_escape(v) + "\">" + html_escape(v.substr(0, 22)) + "&hellip;</td>";
          continue;
        }
        html += "<td>" + html_escape(v) + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</table></div>\n";
  }
  return html;
}

// How often ipaws committed to the better of LRR and GTO (per kernel, the policy most of its
// schedulers' decisions chose; no decision counts as GTO, the order it samples under). Kernels
// where LRR and GTO take the same cycles have no better policy and are counted apart.
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
  return fmt::format("ipaws committed to the better policy on {} of {} LRR-friendly and {} of {} GTO-friendly "
                     "kernels ({} with LRR = GTO not counted)\n",
                     right_l, seen_l, right_g, seen_g, ties);
}

}  // namespace

void Comparison::finish() { table = cycle_table(rows, schedulers); }

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
  std::string out;
  if (c.table.kernels.empty()) return "no results\n";
  if (!has_baseline(c)) return fmt::format("baseline '{}' has no results; no speedups to show\n", c.baseline);
  SpeedupView v = speedup_view(c);
  size_t kw = 12;
  for (const auto& k : c.table.kernels) kw = std::max(kw, std::min<size_t>(k.size(), 40));
  out += fmt::format("Speedup over {} (baseline cycles / cycles), GPU {}, size {}, seed {}\n", c.baseline, c.gpu,
                     c.size, c.seed);
  out += fmt::format("{:<{}}", "kernel", kw);
  for (const auto& col : v.columns) out += fmt::format(" {:>{}}", col, std::max<size_t>(8, col.size()));
  out += "\n";
  for (size_t k = 0; k < c.table.kernels.size(); ++k) {
    out += fmt::format("{:<{}}", c.table.kernels[k].substr(0, 40), kw);
    for (size_t s = 0; s < v.columns.size(); ++s)
      out += fmt::format(" {:>{}}", num(v.values[k][s]), std::max<size_t>(8, v.columns[s].size()));
    out += "\n";
  }
  out += fmt::format("{:<{}}", "geomean", kw);
  for (size_t s = 0; s < v.columns.size(); ++s)
    out += fmt::format(" {:>{}}", num(v.geomeans[s]), std::max<size_t>(8, v.columns[s].size()));
  out += "\n\n";

  size_t n = c.table.schedulers.size();
  size_t complete = 0;
  for (size_t k = 0; k < c.table.kernels.size(); ++k) complete += c.table.complete(k);
  out += fmt::format("Ranks by cycles over {} kernels with every result (1 = fastest, ties share a rank)\n",
                     complete);
  out += fmt::format("{:<12}", "scheduler");
  for (size_t r = 1; r <= n; ++r) out += fmt::format(" {:>5}", fmt::format("#{}", r));
  out += fmt::format(" {:>12}\n", "best/<=2%");
  for (const auto& s : c.table.schedulers) {
    out += fmt::format("{:<12}", s);
    for (const auto& row : rank_rows(c.table, s)) out += fmt::format(" {:>5}", row.kernels);
    out += fmt::format(" {:>12}\n", best_or_within(c.table, s, 0.02));
  }
  std::string lead = leading_scheduler(c, v);
  if (!lead.empty() && n > 1) {
    out += fmt::format("\nRank table for {} (RLWS Table VI): geomean speedup of {} over each scheduler\n", lead, lead);
    out += fmt::format("{:>5} {:>8}", "rank", "kernels");
    for (const auto& s : c.table.schedulers)
      if (s != lead) out += fmt::format(" {:>9}", s);
    out += "\n";
    for (const auto& row : rank_rows(c.table, lead)) {
      out += fmt::format("{:>5} {:>8}", row.rank, row.kernels);
      for (const auto& s : c.table.schedulers)
        if (s != lead) out += fmt::format(" {:>9}", num(row.speedup_over.at(s)));
      out += "\n";
    }
  }
  if (c.table.scheduler_index("lrr") >= 0 && c.table.scheduler_index("gto") >= 0) {
    FriendlySplit f = friendly_split(c.table, c.baseline);
    out += fmt::format("\nLRR-friendly kernels: {}, GTO-friendly kernels: {} (RLWS Table VII)\n",
                       f.lrr_friendly.size(), f.gto_friendly.size());
    out += fmt::format("{:<14}", "group");
    for (const auto& s : c.table.schedulers) out += fmt::format(" {:>9}", s);
    out += "\n" + fmt::format("{:<14}", "LRR-friendly");
    for (double g : f.lrr_geomean) out += fmt::format(" {:>9}", num(g));
    out += "\n" + fmt::format("{:<14}", "GTO-friendly");
    for (double g : f.gto_geomean) out += fmt::format(" {:>9}", num(g));
    out += "\n" + fmt::format("{:<14}", "All kernels");
    for (double g : f.all_geomean) out += fmt::format(" {:>9}", num(g));
    out += "\n";
    out += ipaws_choices(c, f);
  }
  return out;
}

std::string write_report(const Comparison& c, const std::string& dir) {
  fs::create_directories(fs::path(dir) / "svg");
  std::vector<std::pair<std::string, std::string>> charts;  // file name, svg
  std::string html;
  html += "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>warpsim scheduler comparison</title>\n"
          "<style>body{font-family:Helvetica,Arial,sans-serif;margin:24px;max-width:1200px;color:#222}"
          "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;"
          "text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
          "td.best{font-weight:bold;background:#e8f3e0}h2{margin-top:32px;border-bottom:1px solid #ddd}"
          ".note{color:#666;font-size:13px}.wide{overflow-x:auto}table.small{font-size:12px}table.small td{white-space:nowrap}pre{background:#f8f8f8;padding:8px}</style></head><body>\n";
  html += "<h1>Warp scheduler comparison</h1>\n";
  html += fmt::format("<p>GPU <b>{}</b>, size <b>{}</b>, inputs seed {}, baseline <b>{}</b>; {} kernels, "
                      "{} schedulers ({}).</p>\n",
                      html_escape(c.gpu), html_escape(c.size), c.seed, html_escape(c.baseline), c.table.kernels.size(),
                      c.table.schedulers.size(), html_escape(fmt::format("{}", fmt::join(c.table.schedulers, ", "))));
  if (!c.failures.empty()) {
    html += "<h2>Failed runs</h2><pre>";
    for (const auto& f : c.failures) html += html_escape(f) + "\n";
    html += "</pre>\n";
  }
  if (c.table.kernels.empty() || !has_baseline(c)) {
    html += fmt::format("<p>No results to compare{}.</p>\n",
                        has_baseline(c) ? "" : " (the baseline " + html_escape(c.baseline) + " has none)");
  } else {
    SpeedupView v = speedup_view(c);
    // Speedup bars per kernel, plus the geometric mean.
    svg::BarChart sb;
    sb.title = fmt::format("Speedup over {} per kernel", c.baseline);
    sb.y_label = "speedup";
    sb.categories = c.table.kernels;
    sb.categories.push_back("geomean");
    for (size_t s = 0; s < v.columns.size(); ++s) {
      svg::Series se{v.columns[s], {}};
      for (const auto& row : v.values) se.values.push_back(row[s]);
      se.values.push_back(v.geomeans[s]);
      sb.series.push_back(se);
    }
    sb.reference = 1.0;
    double lowest = 1.0;
    for (const auto& se : sb.series)
      for (double x : se.values)
        if (!std::isnan(x) && x > 0) lowest = std::min(lowest, x);
    if (lowest >= 0.5) sb.y_min = std::max(0.0, std::floor(lowest * 10 - 1e-9) / 10 - 0.1);
    sb.width = std::max(900, int(sb.categories.size() * (v.columns.size() * 9 + 16)) + 230);
    charts.emplace_back("speedup.svg", svg::grouped_bars(sb));
    html += "<h2>Speedup per kernel</h2>\n";
    if (sb.y_min > 0) html += fmt::format("<p class=\"note\">The y axis starts at {:.1f}.</p>\n", sb.y_min);
    html += charts.back().second;
    html += "<table><tr><th>kernel</th>";
    for (const auto& col : v.columns) html += "<th>" + html_escape(col) + "</th>";
    html += "</tr>\n";
    for (size_t k = 0; k <= c.table.kernels.size(); ++k) {
      bool gm = k == c.table.kernels.size();
      const auto& vals = gm ? v.geomeans : v.values[k];
      double best = 0;
      for (size_t s = 0; s < c.table.schedulers.size(); ++s)
        if (!std::isnan(vals[s])) best = std::max(best, vals[s]);
      html += "<tr><td>" + (gm ? std::string("<b>geomean</b>") : html_escape(c.table.kernels[k])) + "</td>";
      for (size_t s = 0; s < v.columns.size(); ++s)
        html += fmt::format("<td{}>{}</td>", s < c.table.schedulers.size() && vals[s] == best ? " class=\"best\"" : "",
                            num(vals[s]));
      html += "</tr>\n";
    }
    html += "</table>\n";

    // Ranks.
    size_t n = c.table.schedulers.size();
    svg::BarChart rb;
    rb.title = "Kernels at each rank (1 = fewest cycles)";
    rb.y_label = "kernels";
    rb.categories = c.table.schedulers;
    for (size_t r = 1; r <= n; ++r) rb.series.push_back({fmt::format("rank {}", r), {}});
    html += "<h2>Ranks</h2>\n<p class=\"note\">Per kernel with results for every scheduler, schedulers ranked by "
            "cycles; equal cycles share a rank.</p>\n<table><tr><th>scheduler</th>";
    for (size_t r = 1; r <= n; ++r) html += fmt::format("<th>rank {}</th>", r);
    html += "<th>best or within 2%</th><th>geomean speedup</th></tr>\n";
    for (size_t s = 0; s < n; ++s) {
      const auto& name = c.table.schedulers[s];
      auto rows = rank_rows(c.table, name);
      html += "<tr><td>" + html_escape(name) + "</td>";
      for (const auto& row : rows) {
        html += fmt::format("<td>{}</td>", row.kernels);
        rb.series[size_t(row.rank - 1)].values.push_back(row.kernels);
      }
      html += fmt::format("<td>{}</td><td>{}</td></tr>\n", best_or_within(c.table, name, 0.02), num(v.geomeans[s]));
    }
    html += "</table>\n";
    charts.emplace_back("ranks.svg", svg::grouped_bars(rb));
    html += charts.back().second;
    html += "<h3>Rank tables (RLWS Table VI)</h3>\n<p class=\"note\">For scheduler X and rank r: the kernels where X "
            "has rank r, and on those kernels the geometric-mean speedup of X over each other scheduler.</p>\n";
    for (const auto& x : c.table.schedulers) {
      html += "<table><tr><th>" + html_escape(x) + ": rank</th><th>kernels</th>";
      for (const auto& o : c.table.schedulers)
        if (o != x) html += "<th>over " + html_escape(o) + "</th>";
      html += "</tr>\n";
      for (const auto& row : rank_rows(c.table, x)) {
        html += fmt::format("<tr><td>{}</td><td>{}</td>", row.rank, row.kernels);
        for (const auto& o : c.table.schedulers)
          if (o != x) html += "<td>" + num(row.speedup_over.at(o)) + "</td>";
        html += "</tr>\n";
      }
      html += "</table>\n";
    }

    if (c.table.scheduler_index("lrr") >= 0 && c.table.scheduler_index("gto") >= 0) {
      FriendlySplit f = friendly_split(c.table, c.baseline);
      html += "<h2>LRR-friendly and GTO-friendly kernels (RLWS Table VII)</h2>\n<table><tr><th>group</th>"
              "<th>kernels</th>";
      for (const auto& s : c.table.schedulers) html += "<th>" + html_escape(s) + "</th>";
      html += "</tr>\n";
      auto group = [&](const char* name, const std::vector<std::string>& ks, const std::vector<double>& g) {
        html += fmt::format("<tr><td>{}</td><td>{}</td>", name, ks.size());
        for (double x : g) html += "<td>" + num(x) + "</td>";
        html += "</tr>\n";
      };
      group("LRR-friendly", f.lrr_friendly, f.lrr_geomean);
      group("GTO-friendly", f.gto_friendly, f.gto_geomean);
      std::vector<std::string> all = f.lrr_friendly;
      all.insert(all.end(), f.gto_friendly.begin(), f.gto_friendly.end());
      group("All kernels", all, f.all_geomean);
      html += fmt::format("</table>\n<p class=\"note\">{}LRR-friendly: {}. GTO-friendly: {}. Values are geometric-mean "
                          "speedups over {}.</p>\n",
                          html_escape(ipaws_choices(c, f)),
                          html_escape(fmt::format("{}", fmt::join(f.lrr_friendly, ", "))),
                          html_escape(fmt::format("{}", fmt::join(f.gto_friendly, ", "))), html_escape(c.baseline));
    }
  }

  // Stall breakdown per scheduler.
  auto classes = stall_classes(c.rows);
  if (!classes.empty() && !c.schedulers.empty()) {
    svg::BarChart st;
    st.title = "Scheduler cycles by class (all kernels)";
    st.y_label = "fraction of scheduler cycles";
    st.categories = c.schedulers;
    for (const auto& cls : classes) st.series.push_back({cls, {}});
    html += "<h2>Stall breakdown</h2>\n<table><tr><th>scheduler</th>";
    for (const auto& cls : classes) html += "<th>" + html_escape(cls) + "</th>";
    html += "</tr>\n";
    for (const auto& s : c.schedulers) {
      auto frac = stall_fractions(stall_inputs(c, s, classes));
      html += "<tr><td>" + html_escape(s) + "</td>";
      for (size_t i = 0; i < classes.size(); ++i) {
        double f = frac.count(classes[i]) ? frac[classes[i]] : 0.0;
        st.series[i].values.push_back(f);
        html += fmt::format("<td>{:.1f}%</td>", 100 * f);
      }
      html += "</tr>\n";
    }
    html += "</table>\n";
    charts.emplace_back("stalls.svg", svg::stacked_bars(st));
    html += charts.back().second;
  }

  // IPC over time, one chart per workload.
  std::vector<std::string> workloads;
  for (const auto& s : c.ipc)
    if (std::find(workloads.begin(), workloads.end(), s.workload) == workloads.end()) workloads.push_back(s.workload);
  if (!workloads.empty()) {
    html += "<h2>IPC over time</h2>\n<p class=\"note\">Warp instructions per cycle over the whole GPU in each "
            "sample window (the last point covers the final, partial window); a flat line marks a run shorter "
            "than one window (its average IPC).</p>\n";
    for (const auto& w : workloads) {
      svg::LineChart lc;
      lc.title = "IPC over time: " + w;
      lc.x_label = "cycle";
      lc.y_label = "IPC";
      for (const auto& s : c.ipc)
        if (s.workload == w) lc.lines.push_back({s.scheduler, s.points});
      charts.emplace_back("ipc_" + safe_file_name(w) + ".svg", svg::line_chart(lc));
      html += charts.back().second;
    }
  }

  // Adaptive schedulers: share of time in each mode or action, then their other counters.
  auto modes = mode_shares(c);
  if (!modes.empty()) {
    html += "<h2>Modes and actions of adaptive schedulers</h2>\n<p class=\"note\">Share of each mode's cycles "
            "or each action's decisions per workload, from the schedulers' own counters.</p>\n";
    for (const auto& m : modes) {
      svg::BarChart mc;
      mc.title = fmt::format("{}: {}", m.scheduler, m.group);
      mc.y_label = "share";
      mc.categories = m.workloads;
      for (const auto& [name, vals] : m.shares) mc.series.push_back({name, vals});
      charts.emplace_back("modes_" + safe_file_name(m.scheduler + "_" + m.group) + ".svg", svg::stacked_bars(mc));
      html += charts.back().second;
    }
  }
  html += counters_tables(c);
  html += "<p class=\"note\">Tidy results: results.csv and results.jsonl; charts as SVG files in svg/.</p>\n"
          "</body></html>\n";

  for (const auto& [name, svg_text] : charts)
    write_file_atomic((fs::path(dir) / "svg" / name).string(), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg_text);
  std::string path = (fs::path(dir) / "report.html").string();
  write_file_atomic(path, html);
  return path;
}

}  // namespace warpsim::experiment

// The report's sections below the per-kernel detail (report_sections.h): stall breakdown, IPC
// over time, modes and actions of adaptive schedulers, and their counters.
#include "experiment/report_sections.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "experiment/results.h"
#include "experiment/svg_chart.h"

namespace warpsim::experiment::report_html {

using nlohmann::json;

namespace {

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
    if (html.empty()) html += "<h2 id=\"counters\">Scheduler-specific counters</h2>\n";
    html += fmt::format("<h3>{}</h3>\n", escape(sched));
    if (all > shown.size())
      html +=
          fmt::format("<p class=\"note\">{} of {} counters; all of them are in results.csv.</p>\n", shown.size(), all);
    html += "<div class=\"wide\"><table class=\"small\"><tr><th>workload</th>";
    for (const auto& col : shown) html += "<th>" + escape(col.substr(6)) + "</th>";
    html += "</tr>\n";
    for (const json* r : rows) {
      if (r->value("scheduler", std::string()) != sched) continue;
      html += "<tr><td>" + escape(r->value("workload", std::string())) + "</td>";
      for (const auto& col : shown) {
        auto it = r->find(col);
        std::string v;
        if (it != r->end())
          v = it->is_string() ? it->get<std::string>() : it->is_number_float() ? num(it->get<double>()) : it->dump();
        for (char& ch : v)
          if (ch == '\n') ch = ' ';
        if (v.size() > 24) {
          html += "<td title=\"" + escape(v) + "\">" + escape(v.substr(0, 22)) + "&hellip;</td>";
          continue;
        }
        html += "<td>" + escape(v) + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</table></div>\n";
  }
  return html;
}

}  // namespace

std::string escape(const std::string& s) { return svg::xml_escape(s); }

std::string num(double v, int prec) { return std::isnan(v) ? "-" : fmt::format("{:.{}f}", v, prec); }

std::string safe_name(const std::string& s) {
  std::string o;
  for (char ch : s) o += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  return o;
}

std::string stall_section(const Comparison& c, Charts& charts) {
  // Stall breakdown per scheduler.
  std::string html;
  auto classes = stall_classes(c.rows);
  if (!classes.empty() && !c.schedulers.empty()) {
    svg::BarChart st;
    st.title = "Scheduler cycles by class (all kernels)";
    st.y_label = "fraction of scheduler cycles";
    st.categories = c.schedulers;
    for (const auto& cls : classes) st.series.push_back({cls, {}});
    html += "<h2 id=\"stalls\">Stall breakdown</h2>\n<table><tr><th>scheduler</th>";
    for (const auto& cls : classes) html += "<th>" + escape(cls) + "</th>";
    html += "</tr>\n";
    for (const auto& s : c.schedulers) {
      auto frac = stall_fractions(stall_inputs(c, s, classes));
      html += "<tr><td>" + escape(s) + "</td>";
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

  return html;
}

std::string ipc_section(const Comparison& c, Charts& charts) {
  // IPC over time, one chart per workload, two charts abreast.
  std::string html;
  std::vector<std::string> workloads;
  for (const auto& s : c.ipc)
    if (std::find(workloads.begin(), workloads.end(), s.workload) == workloads.end()) workloads.push_back(s.workload);
  if (!workloads.empty()) {
    html +=
        "<h2 id=\"ipc\">IPC over time</h2>\n<p class=\"note\">Warp instructions per cycle over the whole GPU in each "
        "sample window (the last point covers the final, partial window); a flat line marks a run shorter "
        "than one window (its average IPC).</p>\n<div class=\"pair\">\n";
    for (const auto& w : workloads) {
      svg::LineChart lc;
      lc.title = "IPC over time: " + w;
      lc.x_label = "cycle";
      lc.y_label = "IPC";
      lc.width = 590;
      lc.height = 280;
      for (const auto& s : c.ipc)
        if (s.workload == w) lc.lines.push_back({s.scheduler, s.points});
      charts.emplace_back("ipc_" + safe_name(w) + ".svg", svg::line_chart(lc));
      html += charts.back().second;
    }
    html += "</div>\n";
  }
  return html;
}

std::string mode_section(const Comparison& c, Charts& charts) {
  std::string html;
  // Adaptive schedulers: share of time in each mode or action, then their other counters.
  auto modes = mode_shares(c);
  if (!modes.empty()) {
    html +=
        "<h2 id=\"modes\">Modes and actions of adaptive schedulers</h2>\n<p class=\"note\">Share of each mode's cycles "
        "or each action's decisions per workload, from the schedulers' own counters.</p>\n";
    for (const auto& m : modes) {
      svg::BarChart mc;
      mc.title = fmt::format("{}: {}", m.scheduler, m.group);
      mc.y_label = "share";
      mc.categories = m.workloads;
      mc.width = std::clamp(214 + 28 * int(m.workloads.size()), 520, 1100);
      for (const auto& [name, vals] : m.shares) mc.series.push_back({name, vals});
      charts.emplace_back("modes_" + safe_name(m.scheduler + "_" + m.group) + ".svg", svg::stacked_bars(mc));
      html += charts.back().second;
    }
  }
  return html;
}

std::string counters_section(const Comparison& c) { return counters_tables(c); }

}  // namespace warpsim::experiment::report_html

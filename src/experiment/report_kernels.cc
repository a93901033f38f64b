// The per-kernel detail of report.html (report_sections.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "experiment/report_sections.h"
#include "experiment/svg_chart.h"

namespace warpsim::experiment::report_html {

namespace {

constexpr int kChartWidth = 1100;     // within svg::kMaxWidth
constexpr double kPlotMargins = 214;  // the bar chart's left and right margins (axis, legend)

double band_per_kernel(size_t columns) { return double(columns) * 6 + 12; }

std::string speedup_cells(const std::vector<double>& vals, size_t schedulers) {
  double best = 0;
  for (size_t s = 0; s < schedulers; ++s)
    if (!std::isnan(vals[s])) best = std::max(best, vals[s]);
  std::string html;
  for (size_t s = 0; s < vals.size(); ++s)
    html += fmt::format("<td{}>{}</td>", s < schedulers && vals[s] == best ? " class=\"best\"" : "", num(vals[s]));
  return html;
}

// The launches of kernel k: one row each, speedups from the per-launch table.
std::string launch_rows(const Comparison& c, size_t k, size_t span) {
  const auto& t = c.table;
  int b = t.scheduler_index(c.baseline);
  auto sp = speedups(t, c.baseline);
  const std::string& kernel = c.kernels.table.kernels[k];
  std::string html = fmt::format(
      "<tr class=\"launches\"><td colspan=\"{}\"><details><summary>{} launches of {}"
      "</summary>\n<table class=\"small\"><tr><th>launch</th><th>{} cycles</th>",
      span, c.kernels.launches[k].size(), escape(kernel), escape(c.baseline));
  for (const auto& s : t.schedulers) html += "<th>" + escape(s) + "</th>";
  html += "</tr>\n";
  for (const auto& id : c.kernels.launches[k]) {
    auto it = std::find(t.kernels.begin(), t.kernels.end(), id);
    if (it == t.kernels.end()) continue;
    size_t li = size_t(it - t.kernels.begin());
    std::string label =
        id.size() > kernel.size() && id.compare(0, kernel.size(), kernel) == 0 && id[kernel.size()] == '#'
            ? id.substr(kernel.size() + 1)
            : id;
    html += fmt::format("<tr><td>{}</td><td>{}</td>", escape(label), num(t.cycles[li][size_t(b)], 0));
    html += speedup_cells(sp[li], t.schedulers.size()) + "</tr>\n";
  }
  return html + "</table></details></td></tr>\n";
}

}  // namespace

double axis_start(const std::vector<svg::Series>& series) {
  double lowest = 1.0;
  for (const auto& se : series)
    for (double x : se.values)
      if (!std::isnan(x) && x > 0) lowest = std::min(lowest, x);
  return lowest >= 0.5 ? std::max(0.0, std::floor(lowest * 10 - 1e-9) / 10 - 0.1) : 0.0;
}

size_t kernels_per_chart(size_t columns) {
  double plot = kChartWidth - kPlotMargins;
  return std::clamp<size_t>(size_t(plot / band_per_kernel(columns)), 4, 30);
}

std::string kernel_section(const Comparison& c, const Overview& o, Charts& charts) {
  const auto& t = c.kernels.table;
  size_t launches = 0;
  for (const auto& l : c.kernels.launches) launches += l.size();
  std::string html = fmt::format(
      "<h2 id=\"kernels\">Per kernel</h2>\n<p class=\"note\">Speedup over {} per kernel, by workload category: "
      "{} kernels, {} launches. A kernel launched more than once counts once, with the cycles of its launches "
      "added up; the line below its row opens the speedups of each launch. Bold: the fastest scheduler.</p>\n",
      escape(c.baseline), t.kernels.size(), launches);
  size_t ncols = o.columns.size(), n_sched = t.schedulers.size();
  size_t per_chart = kernels_per_chart(ncols);
  int b = t.scheduler_index(c.baseline);
  for (const auto& g : o.groups) {
    if (g.kernels.empty() || g.name == "All kernels" || g.name == "LRR-friendly" || g.name == "GTO-friendly") continue;
    html += fmt::format("<h3 id=\"kernels-{}\">{} ({} kernel{})</h3>\n", safe_name(g.name), escape(g.name),
                        g.kernels.size(), g.kernels.size() == 1 ? "" : "s");
    // Charts of at most per_chart kernels each, evenly filled; the group's geometric mean ends the last.
    size_t parts = (g.kernels.size() + per_chart - 1) / per_chart;
    size_t each = (g.kernels.size() + parts - 1) / parts;
    for (size_t p = 0; p < parts; ++p) {
      size_t from = p * each, to = std::min(g.kernels.size(), from + each);
      svg::BarChart sb;
      sb.y_label = "speedup";
      for (size_t i = from; i < to; ++i) sb.categories.push_back(t.kernels[g.kernels[i]]);
      bool last = p + 1 == parts;
      if (last) sb.categories.push_back("geomean");
      for (size_t s = 0; s < ncols; ++s) {
        svg::Series se{o.columns[s], {}};
        for (size_t i = from; i < to; ++i) se.values.push_back(o.speedups[g.kernels[i]][s]);
        if (last) se.values.push_back(g.geomeans[s]);
        sb.series.push_back(se);
      }
      sb.reference = 1.0;
      sb.y_min = axis_start(sb.series);
      sb.title = fmt::format("{}: speedup over {}{}{}", g.name, c.baseline,
                             parts > 1 ? fmt::format(" ({} of {})", p + 1, parts) : "",
                             sb.y_min > 0 ? fmt::format(", y axis from {:.1f}", sb.y_min) : "");
      sb.width =
          std::clamp(int(kPlotMargins + double(sb.categories.size()) * band_per_kernel(ncols)), 520, kChartWidth);
      std::string file = fmt::format("speedup_{}{}.svg", safe_name(g.name), parts > 1 ? fmt::format("_{}", p + 1) : "");
      charts.emplace_back(file, svg::grouped_bars(sb));
      html += charts.back().second;
    }
    html += fmt::format(
        "<div class=\"wide\"><table class=\"kernels\"><tr><th>kernel</th><th>launches</th><th>{} cycles</th>",
        escape(c.baseline));
    for (const auto& col : o.columns) html += "<th>" + escape(col) + "</th>";
    html += "</tr>\n";
    for (size_t k : g.kernels) {
      html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td>", escape(t.kernels[k]), c.kernels.launches[k].size(),
                          num(t.cycles[k][size_t(b)], 0));
      html += speedup_cells(o.speedups[k], n_sched) + "</tr>\n";
      if (c.kernels.launches[k].size() > 1) html += launch_rows(c, k, 3 + ncols);
    }
    html += fmt::format("<tr><td><b>geomean</b></td><td></td><td></td>{}</tr>\n</table></div>\n",
                        speedup_cells(g.geomeans, n_sched));
  }
  return html;
}

}  // namespace warpsim::experiment::report_html

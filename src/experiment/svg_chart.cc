#include "experiment/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace warpsim::experiment::svg {

namespace {

struct Frame {
  double left = 64, right = 150, top = 34, bottom = 90;
  double w, h;  // whole chart
  double x0() const { return left; }
  double x1() const { return w - right; }
  double y0() const { return h - bottom; }  // bottom of the plot area
  double y1() const { return top; }
};

std::string fmt_tick(double v) {
  if (v == 0) return "0";
  double a = std::fabs(v);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.4g}", v);
}

std::string header(const Frame& f, const std::string& title) {
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      f.w, f.h);
  s += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", f.left,
                   xml_escape(title));
  return s;
}

// Y axis with grid lines; returns the mapping value -> pixel.
struct YAxis {
  double lo, hi, y0, y1;
  double px(double v) const { return hi > lo ? y0 - (v - lo) / (hi - lo) * (y0 - y1) : y0; }
};

std::string draw_y_axis(const Frame& f, const YAxis& y, const std::vector<double>& ticks, const std::string& label) {
  std::string s;
  for (double t : ticks) {
    double py = y.px(t);
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e0e0e0\"/>\n", f.x0(), py,
                     f.x1(), py);
    s +=
        fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", f.x0() - 6, py + 4, fmt_tick(t));
  }
  s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", f.x0(),
                   f.y0(), f.y1());
  s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", f.x0(),
                   f.x1(), f.y0());
  double cy = (f.y0() + f.y1()) / 2;
  s += fmt::format(
      "<text x=\"16\" y=\"{0:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0:.1f})\">{1}</text>\n", cy,
      xml_escape(label));
  return s;
}

std::string legend(const Frame& f, const std::vector<std::string>& names) {
  std::string s;
  double x = f.x1() + 14, y = f.y1() + 4;
  for (size_t i = 0; i < names.size(); ++i) {
    s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n", x,
                     y + 18.0 * double(i), colour(i));
    std::string n = names[i].size() > 18 ? names[i].substr(0, 17) + "…" : names[i];
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", x + 17, y + 18.0 * double(i) + 10, xml_escape(n));
  }
  return s;
}

std::string category_labels(const Frame& f, const std::vector<std::string>& cats, double band) {
  std::string s;
  for (size_t i = 0; i < cats.size(); ++i) {
    double cx = f.x0() + band * (double(i) + 0.5);
    double ty = f.y0() + 12;
    std::string n = cats[i].size() > 22 ? cats[i].substr(0, 21) + "…" : cats[i];
    s += fmt::format(
        "<text x=\"{0:.1f}\" y=\"{1:.1f}\" text-anchor=\"end\" transform=\"rotate(-35 {0:.1f} {1:.1f})\">{2}</text>\n",
        cx, ty, xml_escape(n));
  }
  return s;
}

bool finite(double v) { return std::isfinite(v); }

// Widens the left margin so that the category labels, rotated below the axis towards the left,
// stay inside the chart (the first ones reach furthest).
void fit_category_labels(Frame& f, const std::vector<std::string>& cats) {
  for (int pass = 0; pass < 2; ++pass) {
    double band = (f.x1() - f.x0()) / double(std::max<size_t>(1, cats.size()));
    double need = f.left;
    for (size_t i = 0; i < cats.size() && i < 8; ++i) {
      double reach = 5.4 * double(std::min<size_t>(cats[i].size(), 22));  // 12 px text at -35 degrees
      need = std::max(need, reach + 6 - band * (double(i) + 0.5));
    }
    f.left = std::min(need, f.w / 3);
  }
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string colour(size_t i) {
  static const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                                  "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b"};
  return palette[i % (sizeof palette / sizeof palette[0])];
}

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo)) hi = lo + 1;
  double raw = (hi - lo) / std::max(1, count);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  std::vector<double> t;
  double start = std::floor(lo / step + 1e-9) * step;
  for (int i = 0; i < 1000; ++i) {
    double v = start + step * i;
    t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    if (v >= hi - step * 1e-6) break;
  }
  return t;
}

namespace {

// Ticks of a value axis covering every finite value and `reference`, from `from` when that is
// above 0 and below the highest value, else from 0.
std::vector<double> value_ticks(const std::vector<Series>& series, double reference, double from) {
  double hi = reference;
  for (const auto& se : series)
    for (double v : se.values)
      if (finite(v)) hi = std::max(hi, v);
  if (hi <= 0) hi = 1;
  double lo = from > 0 && from < hi ? from : 0.0;
  return nice_ticks(lo, hi + (hi - lo) * 0.03);
}

}  // namespace

std::string grouped_bars(const BarChart& c) {
  Frame f;
  f.w = std::min(c.width, kMaxWidth);
  f.h = c.height;
  fit_category_labels(f, c.categories);
  auto ticks = value_ticks(c.series, c.reference, c.y_min);
  YAxis y{ticks.front(), ticks.back(), f.y0(), f.y1()};
  std::string s = header(f, c.title) + draw_y_axis(f, y, ticks, c.y_label);
  size_t n = std::max<size_t>(1, c.categories.size());
  double band = (f.x1() - f.x0()) / double(n);
  double bw = band * 0.8 / double(std::max<size_t>(1, c.series.size()));
  for (size_t k = 0; k < c.categories.size(); ++k) {
    for (size_t si = 0; si < c.series.size(); ++si) {
      double v = k < c.series[si].values.size() ? c.series[si].values[k] : NAN;
      if (!finite(v)) continue;
      double x = f.x0() + band * double(k) + band * 0.1 + bw * double(si);
      double top = y.px(std::max(v, y.lo));
      s += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
          "<title>{} / {}: {:.4g}</title></rect>\n",
          x, top, std::max(bw - 1, 1.0), std::max(f.y0() - top, 0.0), colour(si), xml_escape(c.categories[k]),
          xml_escape(c.series[si].name), v);
    }
  }
  if (c.reference > 0) {
    double py = y.px(c.reference);
    s += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#222\" "
        "stroke-dasharray=\"5,3\"/>\n",
        f.x0(), py, f.x1(), py);
  }
  std::vector<std::string> names;
  for (const auto& se : c.series) names.push_back(se.name);
  s += category_labels(f, c.categories, band) + legend(f, names) + "</svg>\n";
  return s;
}

std::string stacked_bars(const BarChart& c) {
  Frame f;
  f.w = std::min(c.width, kMaxWidth);
  f.h = c.height;
  fit_category_labels(f, c.categories);
  double hi = 0;
  for (size_t k = 0; k < c.categories.size(); ++k) {
    double sum = 0;
    for (const auto& se : c.series)
      if (k < se.values.size() && finite(se.values[k]) && se.values[k] > 0) sum += se.values[k];
    hi = std::max(hi, sum);
  }
  if (hi <= 0) hi = 1;
  auto ticks = nice_ticks(0, hi);
  YAxis y{0, ticks.back(), f.y0(), f.y1()};
  std::string s = header(f, c.title) + draw_y_axis(f, y, ticks, c.y_label);
  size_t n = std::max<size_t>(1, c.categories.size());
  double band = (f.x1() - f.x0()) / double(n);
  double bw = std::min(band * 0.7, 80.0);
  for (size_t k = 0; k < c.categories.size(); ++k) {
    double base = 0;
    double x = f.x0() + band * (double(k) + 0.5) - bw / 2;
    for (size_t si = 0; si < c.series.size(); ++si) {
      double v = k < c.series[si].values.size() ? c.series[si].values[k] : NAN;
      if (!finite(v) || v <= 0) continue;
      double top = y.px(base + v), bottom = y.px(base);
      s += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
          "<title>{} / {}: {:.4g}</title></rect>\n",
          x, top, bw, std::max(bottom - top, 0.0), colour(si), xml_escape(c.categories[k]),
          xml_escape(c.series[si].name), v);
      base += v;
    }
  }
  std::vector<std::string> names;
  for (const auto& se : c.series) names.push_back(se.name);
  s += category_labels(f, c.categories, band) + legend(f, names) + "</svg>\n";
  return s;
}

std::string horizontal_bars(const HBarChart& c) {
  size_t ns = std::max<size_t>(1, c.series.size());
  size_t longest = 0;
  for (const auto& l : c.labels) longest = std::max(longest, std::min<size_t>(l.size(), 24));
  Frame f;
  f.w = std::min(c.width, kMaxWidth);
  f.left = 12 + 7.0 * double(longest);
  f.right = c.series.size() > 1 ? 150 : 56;  // the legend, or room for the last value label
  f.bottom = 46;
  double row = std::max(c.row_height, int(ns) * 8 + 6);
  f.h = f.top + f.bottom + row * double(std::max<size_t>(1, c.labels.size()));
  auto ticks = value_ticks(c.series, c.reference, c.x_min);
  double xlo = ticks.front(), xhi = ticks.back();
  auto px = [&](double v) { return f.x0() + (std::clamp(v, xlo, xhi) - xlo) / (xhi - xlo) * (f.x1() - f.x0()); };
  std::string s = header(f, c.title);
  for (double t : ticks) {
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e0e0e0\"/>\n", px(t),
                     f.y1(), f.y0());
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", px(t), f.y0() + 16,
                     fmt_tick(t));
  }
  double bh = (row - 6) / double(ns);
  for (size_t k = 0; k < c.labels.size(); ++k) {
    double ry = f.y1() + row * double(k);
    std::string n = c.labels[k].size() > 24 ? c.labels[k].substr(0, 23) + "…" : c.labels[k];
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", f.x0() - 6, ry + row / 2 + 4,
                     xml_escape(n));
    for (size_t si = 0; si < c.series.size(); ++si) {
      double v = k < c.series[si].values.size() ? c.series[si].values[k] : NAN;
      if (!finite(v)) continue;
      std::string fill = c.series.size() == 1 && k < c.colours.size() ? c.colours[k] : colour(si);
      double y = ry + 3 + bh * double(si), x1 = px(v);
      s += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
          "<title>{} / {}: {:.4g}</title></rect>\n",
          f.x0(), y, std::max(x1 - f.x0(), 1.0), std::max(bh - 1, 1.0), fill, xml_escape(c.labels[k]),
          xml_escape(c.series[si].name), v);
      if (c.series.size() == 1)
        s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{:.3f}</text>\n", x1 + 4, y + bh / 2 + 4, v);
    }
  }
  s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", f.x0(),
                   f.y0(), f.y1());
  s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", f.x0(),
                   f.x1(), f.y0());
  if (c.reference > 0)
    s += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#222\" "
        "stroke-dasharray=\"5,3\"/>\n",
        px(c.reference), f.y1() - 4, f.y0());
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", (f.x0() + f.x1()) / 2, f.h - 8,
                   xml_escape(c.x_label));
  if (c.series.size() > 1) {
    std::vector<std::string> names;
    for (const auto& se : c.series) names.push_back(se.name);
    s += legend(f, names);
  }
  return s + "</svg>\n";
}

std::string line_chart(const LineChart& c) {
  Frame f;
  f.w = std::min(c.width, kMaxWidth);
  f.h = c.height;
  f.bottom = 50;
  double xlo = INFINITY, xhi = -INFINITY, yhi = 0;
  for (const auto& l : c.lines)
    for (auto [x, v] : l.points) {
      if (!finite(x) || !finite(v)) continue;
      xlo = std::min(xlo, x);
      xhi = std::max(xhi, x);
      yhi = std::max(yhi, v);
    }
  if (!(xhi >= xlo)) xlo = 0, xhi = 1;
  xlo = std::min(xlo, 0.0);
  if (xhi <= xlo) xhi = xlo + 1;
  if (yhi <= 0) yhi = 1;
  auto yt = nice_ticks(0, yhi * 1.03);
  YAxis y{0, yt.back(), f.y0(), f.y1()};
  auto xt = nice_ticks(xlo, xhi, 6);
  xhi = xt.back();
  auto px = [&](double x) { return f.x0() + (x - xlo) / (xhi - xlo) * (f.x1() - f.x0()); };
  std::string s = header(f, c.title) + draw_y_axis(f, y, yt, c.y_label);
  for (double t : xt) {
    if (t > xhi) continue;
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", px(t),
                     f.y0(), f.y0() + 4);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", px(t), f.y0() + 17,
                     fmt_tick(t));
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", (f.x0() + f.x1()) / 2,
                   f.h - 10, xml_escape(c.x_label));
  for (size_t i = 0; i < c.lines.size(); ++i) {
    std::string pts;
    size_t npts = 0;
    for (auto [x, v] : c.lines[i].points)
      if (finite(x) && finite(v)) {
        pts += fmt::format("{:.1f},{:.1f} ", px(x), y.px(v));
        ++npts;
      }
    if (npts == 0) continue;
    if (npts < 3) {  // too few points to read as a line: mark them
      for (auto [x, v] : c.lines[i].points)
        if (finite(x) && finite(v))
          s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"/>\n", px(x), y.px(v), colour(i));
    }
    s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\" points=\"{}\"/>\n", colour(i), pts);
  }
  std::vector<std::string> names;
  for (const auto& l : c.lines) names.push_back(l.name);
  s += legend(f, names) + "</svg>\n";
  return s;
}

std::string scatter_loglog(const ScatterChart& c) {
  Frame f;
  f.w = std::min(c.width, kMaxWidth);
  f.h = c.height;
  f.bottom = 50;
  double lo = INFINITY, hi = 0;
  for (const auto& s : c.series)
    for (const auto& p : s.points)
      if (p.x > 0 && p.y > 0 && finite(p.x) && finite(p.y)) {
        lo = std::min({lo, p.x, p.y});
        hi = std::max({hi, p.x, p.y});
      }
  if (!(hi > 0)) lo = 1, hi = 10;
  // Whole decades on both axes (the same range, so that y = x is the diagonal).
  double dlo = std::floor(std::log10(lo)), dhi = std::ceil(std::log10(hi));
  if (dhi <= dlo) dhi = dlo + 1;
  double side = std::min(f.x1() - f.x0(), f.y0() - f.y1());
  auto px = [&](double v) { return f.x0() + (std::log10(v) - dlo) / (dhi - dlo) * side; };
  auto py = [&](double v) { return f.y0() - (std::log10(v) - dlo) / (dhi - dlo) * side; };
  std::string s = header(f, c.title);
  double vlo = std::pow(10.0, dlo), vhi = std::pow(10.0, dhi);
  for (double d = dlo; d <= dhi; d += 1) {
    double v = std::pow(10.0, d);
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e0e0e0\"/>\n", px(v),
                     f.y0(), f.y0() - side);
    s += fmt::format("<line x1=\"{1:.1f}\" y1=\"{0:.1f}\" x2=\"{2:.1f}\" y2=\"{0:.1f}\" stroke=\"#e0e0e0\"/>\n", py(v),
                     f.x0(), f.x0() + side);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", px(v), f.y0() + 17,
                     fmt_tick(v));
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", f.x0() - 6, py(v) + 4,
                     fmt_tick(v));
  }
  // The +-band around y = x, clipped to the plot square, then the diagonal.
  double b = std::clamp(c.band, 0.0, 0.9);
  auto clip = [&](double v) { return std::clamp(v, vlo, vhi); };
  std::string band;
  for (auto [x, y] : {std::pair{vlo, clip(vlo * (1 + b))}, std::pair{clip(vhi / (1 + b)), vhi}, std::pair{vhi, vhi},
                      std::pair{vhi, clip(vhi * (1 - b))}, std::pair{clip(vlo / (1 - b)), vlo}, std::pair{vlo, vlo}})
    band += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
  s += fmt::format(
      "<polygon points=\"{}\" fill=\"#2ca02c\" fill-opacity=\"0.12\" stroke=\"none\">"
      "<title>within {:.0f} %</title></polygon>\n",
      band, b * 100);
  s += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#555\" "
      "stroke-dasharray=\"4 3\"/>\n",
      px(vlo), py(vlo), px(vhi), py(vhi));
  s += fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#333\"/>\n", f.x0(),
      f.y0() - side, side, side);
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", f.x0() + side / 2, f.h - 10,
                   xml_escape(c.x_label));
  double cy = f.y0() - side / 2;
  s += fmt::format(
      "<text x=\"16\" y=\"{0:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0:.1f})\">{1}</text>\n", cy,
      xml_escape(c.y_label));
  std::vector<std::string> names;
  for (size_t i = 0; i < c.series.size(); ++i) {
    names.push_back(c.series[i].name);
    for (const auto& p : c.series[i].points)
      if (p.x > 0 && p.y > 0 && finite(p.x) && finite(p.y))
        s += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.8\"><title>{}</title></circle>\n",
            px(p.x), py(p.y), colour(i), xml_escape(p.label));
  }
  Frame lf = f;
  lf.right = f.w - (f.x0() + side) - 4;
  s += legend(lf, names) + "</svg>\n";
  return s;
}

}  // namespace warpsim::experiment::svg

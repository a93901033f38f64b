// A small SVG chart writer for reports and papers: grouped bars, stacked bars and lines, each
// a self-contained <svg> element with axes, ticks, a legend and a title.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace warpsim::experiment::svg {

// Widest chart in pixels, the content width of the reports' pages (their body max-width): every
// chart is drawn at most this wide, whatever width it asks for.
constexpr int kMaxWidth = 1200;

struct Series {
  std::string name;
  std::vector<double> values;  // one per category; NaN draws nothing
};

struct BarChart {
  std::string title, y_label;
  std::vector<std::string> categories;
  std::vector<Series> series;
  double reference = 0;  // horizontal reference line at this y (0: none), e.g. 1.0 for speedups
  double y_min = 0;      // grouped bars: lowest value of the y axis (0 unless set above 0)
  int width = 900, height = 360;
};

// Bars of every series side by side within each category.
std::string grouped_bars(const BarChart& c);
// Series stacked on top of each other within each category (e.g. stall fractions).
std::string stacked_bars(const BarChart& c);

// Horizontal bars: one row per label, the series side by side within a row. The width is fixed
// and the height follows the rows, so that long lists stay within the page.
struct HBarChart {
  std::string title, x_label;
  std::vector<std::string> labels;
  std::vector<Series> series;        // values one per label; NaN draws nothing
  std::vector<std::string> colours;  // one series: a colour per label (empty: the series colour)
  double reference = 0;              // vertical reference line at this x (0: none), e.g. 1.0
  double x_min = 0;                  // lowest value of the x axis (0 unless set above 0)
  int width = 560;
  int row_height = 22;
};

std::string horizontal_bars(const HBarChart& c);

struct Line {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y)
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<Line> lines;
  int width = 900, height = 320;
};

std::string line_chart(const LineChart& c);

struct ScatterPoint {
  double x, y;
  std::string label;  // tooltip (<title>)
};

struct ScatterSeries {
  std::string name;
  std::vector<ScatterPoint> points;
};

// Log-log scatter plot of positive (x, y) points with the line y = x and a band of +-`band`
// around it (correlation plots: x reference, y simulated); non-positive points are not drawn.
struct ScatterChart {
  std::string title, x_label, y_label;
  std::vector<ScatterSeries> series;
  double band = 0.15;
  int width = 620, height = 520;
};

std::string scatter_loglog(const ScatterChart& c);

// "Nice" axis ticks covering [lo, hi]: about `count` round values (1, 2, 2.5, 5 x 10^k steps),
// the first at or below lo, the last at or above hi.
std::vector<double> nice_ticks(double lo, double hi, int count = 5);

// Colour of series i (a fixed palette that stays distinguishable in print).
std::string colour(size_t i);

// Escapes &, <, >, " for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace warpsim::experiment::svg

// The sections of report.html below its summary, groups and ranks (report.cc writes those and
// the page): the per-kernel detail (report_kernels.cc), then the stall breakdown, IPC over time,
// modes and actions of adaptive schedulers and their counters (report_sections.cc).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "experiment/report.h"
#include "experiment/report_overview.h"
#include "experiment/svg_chart.h"

namespace warpsim::experiment::report_html {

// The report's charts: file name under svg/, SVG text.
using Charts = std::vector<std::pair<std::string, std::string>>;

std::string escape(const std::string& s);
std::string num(double v, int prec = 3);
// A name usable as a file name or an HTML id: letters, digits, '-' and '_' kept, others '_'.
std::string safe_name(const std::string& s);

// Where the value axis of a speedup chart starts: 0, or a tenth below the lowest bar rounded
// down to a tenth when every bar is at least 0.5 (so that differences of a few percent show).
double axis_start(const std::vector<svg::Series>& series);

// Speedups per kernel, one subsection per workload category: bar charts of at most
// kernels_per_chart() kernels each, and a table with one row per kernel whose launches open
// below it (<details>) when it has several.
std::string kernel_section(const Comparison& c, const Overview& o, Charts& charts);
// How many kernels one per-kernel chart shows with `columns` bars each, so that it fits the page.
size_t kernels_per_chart(size_t columns);

std::string stall_section(const Comparison& c, Charts& charts);
std::string ipc_section(const Comparison& c, Charts& charts);
std::string mode_section(const Comparison& c, Charts& charts);
std::string counters_section(const Comparison& c);

}  // namespace warpsim::experiment::report_html

// Microbenchmark figures from per-launch cycles: bench/gpu/microbench.cu prints one line per
// kernel launch ("launch<TAB>index<TAB>figure<TAB>units<TAB>kind"); with each launch's cycles,
// as Nsight Compute (gpc__cycles_elapsed.max) or warpsim (--json) reports them, every figure
// follows from the two launches that measure it. docs/presets.md shows the H100 side by side.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace warpsim::experiment {

struct MicrobenchLaunch {
  size_t index = 0;
  std::string figure;
  double units = 0;  // work of the launch: operations, loads, warp instructions per SM, bytes
  std::string kind;  // latency | rate | rate_ghz | once
};

// The launch lines of the program's output (other lines are skipped). Throws Error naming
// `name` and the line on a malformed launch line, an unknown kind or indices out of order.
std::vector<MicrobenchLaunch> parse_microbench_launches(const std::string& text, const std::string& name);

// Figures from the launches and `cycles[i]`, the cycles of launch i. Each figure takes its last
// two measuring launches, a (less work) and b (more): latency = (cycles_b - cycles_a) /
// (units_b - units_a); rate = the inverse; rate_ghz = rate x clock_ghz (bytes per cycle ->
// GB/s); NaN when the launch with more work took no more cycles (the first warmed the caches
// for the second). Throws Error when the counts differ or a figure lacks its two launches.
struct MicrobenchFigure {
  double value = 0;
  std::string kind;  // of its launches: latency | rate | rate_ghz
};
std::map<std::string, MicrobenchFigure> microbench_figures(const std::vector<MicrobenchLaunch>& launches,
                                                           const std::vector<double>& cycles, double clock_ghz);

// The unit of a figure of `kind`: "cycles" (latency), "per cycle" (rate), "GB/s" (rate_ghz).
const char* microbench_unit(const std::string& kind);

// Figure table "name<TAB>value<TAB>unit" (the program's own output format) into name -> value;
// lines that are not figures (launch lines, device facts without a number) are skipped.
std::map<std::string, double> parse_microbench_figures(const std::string& text);

}  // namespace warpsim::experiment

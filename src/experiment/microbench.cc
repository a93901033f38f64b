#include "experiment/microbench.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "core/error.h"

namespace warpsim::experiment {

namespace {

std::vector<std::string> tab_fields(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string item;
  while (std::getline(ss, item, '\t')) f.push_back(item);
  return f;
}

bool to_double(const std::string& s, double& v) {
  try {
    size_t used = 0;
    v = std::stod(s, &used);
    return used == s.size();
  } catch (...) {
    return false;
  }
}

}  // namespace

std::vector<MicrobenchLaunch> parse_microbench_launches(const std::string& text, const std::string& name) {
  std::vector<MicrobenchLaunch> out;
  std::stringstream ss(text);
  std::string line;
  for (size_t n = 1; std::getline(ss, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("launch\t", 0) != 0) continue;
    auto f = tab_fields(line);
    MicrobenchLaunch l;
    double index = -1;
    if (f.size() != 5 || !to_double(f[1], index) || !to_double(f[3], l.units))
      throw Error(fmt::format("{}:{}: expected 'launch<TAB>index<TAB>figure<TAB>units<TAB>kind'", name, n));
    l.index = size_t(index);
    l.figure = f[2];
    l.kind = f[4];
    if (l.kind != "latency" && l.kind != "rate" && l.kind != "rate_ghz" && l.kind != "once")
      throw Error(fmt::format("{}:{}: unknown kind '{}' (latency, rate, rate_ghz or once)", name, n, l.kind));
    if (l.index != out.size())
      throw Error(fmt::format("{}:{}: launch {} out of order (expected {})", name, n, l.index, out.size()));
    out.push_back(l);
  }
  if (out.empty()) throw Error(fmt::format("{}: no launch lines", name));
  return out;
}

const char* microbench_unit(const std::string& kind) {
  return kind == "latency" ? "cycles" : kind == "rate_ghz" ? "GB/s" : "per cycle";
}

std::map<std::string, MicrobenchFigure> microbench_figures(const std::vector<MicrobenchLaunch>& launches,
                                                           const std::vector<double>& cycles, double clock_ghz) {
  if (launches.size() != cycles.size())
    throw Error(fmt::format("microbenchmark: {} launches printed, {} kernel launches measured", launches.size(),
                            cycles.size()));
  std::map<std::string, std::vector<size_t>> measuring;
  std::vector<std::string> order;
  for (size_t i = 0; i < launches.size(); ++i) {
    if (launches[i].kind == "once") continue;
    if (!measuring.count(launches[i].figure)) order.push_back(launches[i].figure);
    measuring[launches[i].figure].push_back(i);
  }
  std::map<std::string, MicrobenchFigure> out;
  for (const auto& fig : order) {
    const auto& idx = measuring[fig];
    if (idx.size() < 2)
      throw Error(fmt::format("microbenchmark: figure {} has {} measuring launch(es), needs 2", fig, idx.size()));
    const auto &a = launches[idx[idx.size() - 2]], &b = launches[idx.back()];
    double du = b.units - a.units, dc = cycles[b.index] - cycles[a.index];
    if (du <= 0)
      throw Error(fmt::format("microbenchmark: figure {}: launch {} has no more work than {}", fig, b.index, a.index));
    double v = a.kind == "latency" ? dc / du : du / dc;
    if (a.kind == "rate_ghz") v *= clock_ghz;
    // dc <= 0: the first launch warmed what the second used, no figure.
    out[fig] = {dc > 0 ? v : std::nan(""), a.kind};
  }
  return out;
}

std::map<std::string, double> parse_microbench_figures(const std::string& text) {
  std::map<std::string, double> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto f = tab_fields(line);
    double v;
    if (f.size() == 3 && f[0] != "launch" && to_double(f[1], v)) out[f[0]] = v;
  }
  return out;
}

}  // namespace warpsim::experiment

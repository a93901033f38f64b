#include "experiment/report_overview.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace warpsim::experiment {

namespace {

constexpr double kWithin = 0.02;

bool is_oracle_name(const std::string& s) {
  return s.rfind("oracle(", 0) == 0 || (s.size() > 7 && s.compare(s.size() - 7, 7, "_oracle") == 0);
}

std::string num(double v) { return std::isnan(v) ? "-" : fmt::format("{:.3f}", v); }

std::string kernels(size_t n) { return fmt::format("{} kernel{}", n, n == 1 ? "" : "s"); }

// Column with the highest value among those that are no oracle; -1 when none has a value.
int fastest(const Overview& o, const std::vector<double>& values) {
  int best = -1;
  for (size_t s = 0; s < values.size(); ++s)
    if (!o.oracle[s] && !std::isnan(values[s]) && (best < 0 || values[s] > values[size_t(best)])) best = int(s);
  return best;
}

std::vector<double> group_geomeans(const Overview& o, const std::vector<size_t>& kernels) {
  std::vector<double> out;
  for (size_t s = 0; s < o.columns.size(); ++s) {
    std::vector<double> v;
    for (size_t k : kernels)
      if (!std::isnan(o.speedups[k][s]) && o.speedups[k][s] > 0) v.push_back(o.speedups[k][s]);
    out.push_back(geomean(v));
  }
  return out;
}

std::string answer_of(const Comparison& c, const Overview& o) {
  const auto& t = c.kernels.table;
  size_t b = size_t(t.scheduler_index(c.baseline));
  size_t real = 0;
  for (size_t s = 0; s < t.schedulers.size(); ++s) real += !o.oracle[s];
  if (real < 2) return fmt::format("Only {} ran: there is nothing to compare it with.", c.baseline);
  size_t l = size_t(o.leader);
  std::string within = fmt::format("best or within 2 % on {} of {}", o.best_within[l], kernels(o.complete));
  // The runner-up (other than the baseline when the leader is not the baseline).
  int next = -1;
  for (size_t s = 0; s < t.schedulers.size(); ++s)
    if (s != l && (s != b || l == b) && !o.oracle[s] && !std::isnan(o.geomeans[s]) &&
        (next < 0 || o.geomeans[s] > o.geomeans[size_t(next)]))
      next = int(s);
  if (l != b)
    return fmt::format(
        "{} is fastest overall: geomean speedup {} over {} on {}{}; {}.", o.columns[l], num(o.geomeans[l]), c.baseline,
        kernels(o.counted[l]),
        next < 0 ? "" : fmt::format(" (next: {} {})", o.columns[size_t(next)], num(o.geomeans[size_t(next)])), within);
  if (next < 0) return fmt::format("{} (the baseline) is the only scheduler with results; {}.", c.baseline, within);
  return fmt::format(
      "{} (the baseline) is fastest overall: the next best, {}, has geomean speedup {} over it on {}; "
      "{} is {}.",
      c.baseline, o.columns[size_t(next)], num(o.geomeans[size_t(next)]), kernels(o.counted[size_t(next)]), c.baseline,
      within);
}

// "gto leads on GTO-friendly, memory and irregular kernels; lrr on LRR-friendly and compute."
std::string where_of(const Overview& o) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_leader;
  for (const auto& g : o.groups) {
    if (g.name == "All kernels" || g.leader < 0) continue;
    const std::string& name = o.columns[size_t(g.leader)];
    auto it = std::find_if(by_leader.begin(), by_leader.end(), [&](const auto& p) { return p.first == name; });
    if (it == by_leader.end()) it = by_leader.insert(by_leader.end(), {name, {}});
    it->second.push_back(g.name);
  }
  if (by_leader.empty()) return "";
  std::string out;
  for (size_t i = 0; i < by_leader.size(); ++i) {
    const auto& [name, groups] = by_leader[i];
    std::string list;
    for (size_t j = 0; j < groups.size(); ++j)
      list += (j == 0 ? "" : j + 1 == groups.size() ? " and " : ", ") + groups[j];
    out += i == 0 ? fmt::format("{} leads on {} kernels", name, list) : fmt::format("; {} on {}", name, list);
  }
  std::string oracles;
  for (size_t s = 0; s < o.columns.size(); ++s)
    if (o.oracle[s] && !std::isnan(o.geomeans[s]))
      oracles += fmt::format("{}{} {}", oracles.empty() ? "" : ", ", o.columns[s], num(o.geomeans[s]));
  out += ".";
  if (!oracles.empty()) out += " Oracles, for reference: " + oracles + ".";
  return out;
}

}  // namespace

bool category_before(const std::string& a, const std::string& b) {
  static const std::vector<std::string> order = {"compute",    "memory",    "shared", "irregular", "divergence",
                                                 "persistent", "synthetic", "ptx",    "trace"};
  auto rank = [](const std::string& s) {
    auto it = std::find(order.begin(), order.end(), s);
    if (it != order.end()) return int(it - order.begin());
    return s == "other" ? int(order.size()) + 1 : int(order.size());
  };
  int ra = rank(a), rb = rank(b);
  return ra != rb ? ra < rb : a < b;
}

std::string oracle_column(const Comparison& c) {
  std::string s;
  for (const auto& o : c.oracle_set)
    if (c.kernels.table.scheduler_index(o) >= 0) {
      if (!s.empty()) s += ',';
      s += o;
    }
  return s.empty() ? "" : "oracle(" + s + ")";
}

Overview overview(const Comparison& c) {
  Overview o;
  const CycleTable& t = c.kernels.table;
  if (t.kernels.empty()) {
    o.answer = "No results.";
    return o;
  }
  int b = t.scheduler_index(c.baseline);
  if (b < 0) {
    o.answer = fmt::format("The baseline {} has no results: no speedups to show.", c.baseline);
    return o;
  }
  o.valid = true;
  o.columns = t.schedulers;
  std::string on = oracle_column(c);
  auto sp = speedups(t, c.baseline);
  auto best = best_static_oracle(t, c.oracle_set);
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    auto row = sp[k];
    if (!on.empty()) {
      double base = t.cycles[k][size_t(b)];
      row.push_back(!std::isnan(best[k]) && base > 0 ? base / best[k] : NAN);
    }
    o.speedups.push_back(row);
    o.category.push_back(c.category_of(c.kernels.workloads[k]));
    o.complete += t.complete(k);
  }
  if (!on.empty()) o.columns.push_back(on);
  for (const auto& col : o.columns) o.oracle.push_back(is_oracle_name(col));
  for (size_t s = 0; s < o.columns.size(); ++s) {
    size_t n = 0;
    for (const auto& row : o.speedups) n += !std::isnan(row[s]) && row[s] > 0;
    o.counted.push_back(n);
  }
  for (const auto& s : t.schedulers) o.best_within.push_back(best_or_within(t, s, kWithin));

  std::vector<size_t> all(t.kernels.size());
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  o.groups.push_back({"All kernels", all, {}, -1});
  int li = t.scheduler_index("lrr"), gi = t.scheduler_index("gto");
  if (li >= 0 && gi >= 0) {
    // RLWS Table VII: LRR-friendly when LRR takes fewer cycles than GTO, else GTO-friendly.
    GroupRow lrr{"LRR-friendly", {}, {}, -1}, gto{"GTO-friendly", {}, {}, -1};
    for (size_t k = 0; k < t.kernels.size(); ++k) {
      double lc = t.cycles[k][size_t(li)], gc = t.cycles[k][size_t(gi)];
      if (std::isnan(lc) || std::isnan(gc) || !(lc > 0) || !(gc > 0)) continue;
      (lc < gc ? lrr : gto).kernels.push_back(k);
    }
    o.groups.push_back(lrr);
    o.groups.push_back(gto);
  }
  std::vector<std::string> cats;
  for (const auto& cat : o.category)
    if (std::find(cats.begin(), cats.end(), cat) == cats.end()) cats.push_back(cat);
  std::sort(cats.begin(), cats.end(), category_before);
  for (const auto& cat : cats) {
    GroupRow g{cat, {}, {}, -1};
    for (size_t k = 0; k < o.category.size(); ++k)
      if (o.category[k] == cat) g.kernels.push_back(k);
    o.groups.push_back(g);
  }
  for (auto& g : o.groups) {
    g.geomeans = group_geomeans(o, g.kernels);
    g.leader = g.kernels.empty() ? -1 : fastest(o, g.geomeans);
  }
  o.geomeans = o.groups.front().geomeans;
  o.leader = fastest(o, o.geomeans);
  if (o.leader < 0) o.leader = b;
  o.answer = answer_of(c, o);
  o.where = where_of(o);
  return o;
}

}  // namespace warpsim::experiment

#include "experiment/correlate.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <tuple>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/comparison_spread.h"
#include "experiment/results.h"
#include "experiment/runner.h"
#include "experiment/svg_chart.h"
#include "sched/scheduler.h"
#include "timing/gpgpusim_names.h"
#include "workloads/workload.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;
using nlohmann::json;

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  size_t n = std::min(x.size(), y.size());
  if (n < 2) return NAN;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n);
  my /= double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx <= 0 || syy <= 0) return NAN;
  return sxy / std::sqrt(sxx * syy);
}

ErrorStats error_stats(const std::vector<std::pair<double, double>>& ref_sim) {
  ErrorStats s;
  std::vector<double> lx, ly;
  for (auto [r, w] : ref_sim) {
    if (!(r > 0) || !(w >= 0)) continue;
    double e = (w - r) / r;
    ++s.n;
    s.mae_pct += std::fabs(e) * 100;
    s.signed_pct += e * 100;
    // 15 % with a little slack for rounding of exactly-15 % cases (e.g. 115 / 100).
    if (std::fabs(e) <= 0.15 + 1e-12) ++s.within15;
    if (w > 0) {
      lx.push_back(std::log(r));
      ly.push_back(std::log(w));
    }
  }
  if (s.n) {
    s.mae_pct /= double(s.n);
    s.signed_pct /= double(s.n);
    s.within15_share = double(s.within15) / double(s.n);
  }
  s.pearson_log = pearson(lx, ly);
  return s;
}

std::string scheduler_base(const std::string& spec) { return spec.substr(0, spec.find(':')); }

SchedulerSpec parse_scheduler_spec(const std::string& spec) {
  SchedulerSpec s;
  auto colon = spec.find(':');
  s.name = spec.substr(0, colon);
  if (colon == std::string::npos) return s;
  std::string rest = spec.substr(colon + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find(';', start);
    if (end == std::string::npos) end = rest.size();
    std::string item = rest.substr(start, end - start);
    if (!item.empty()) {
      auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Error(fmt::format("scheduler '{}': expected NAME or NAME:key=value;key=value", spec));
      s.params[item.substr(0, eq)] = item.substr(eq + 1);
    }
    start = end + 1;
  }
  return s;
}

std::optional<double> warpsim_counter(const json& row, const std::string& name) {
  auto get = [&](const char* k) -> std::optional<double> {
    auto it = row.find(k);
    if (it == row.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  };
  // Counters GPGPU-Sim prints: the sum of warpsim statistics declared with them.
  if (const GpgpusimCounter* c = find_gpgpusim_counter(name))
    return gpgpusim_counter_value(*c, [&](const std::string& stat) { return get(stat.c_str()); });
  if (auto v = get(name.c_str())) return v;
  auto us = name.find('_');  // l2_reads -> l2.reads
  if (us != std::string::npos) {
    std::string dotted = name;
    dotted[us] = '.';
    return get(dotted.c_str());
  }
  return std::nullopt;
}

namespace {

using SimKey = std::tuple<std::string, std::string, std::string, std::string, std::string, uint64_t>;

bool finite(double v) { return std::isfinite(v); }

std::string pct(double v) { return finite(v) ? fmt::format("{:+.1f}", v) : "-"; }
std::string num(double v, const char* f = "{:.3f}") { return finite(v) ? fmt::format(fmt::runtime(f), v) : "-"; }

PresetSummary summarize(const std::string& gpu, const std::vector<const Matched*>& ms,
                        const std::vector<const Agreement*>& as, const std::vector<std::string>& counters) {
  PresetSummary p;
  p.gpu = gpu;
  std::vector<std::pair<double, double>> v;
  for (const auto* m : ms) v.emplace_back(m->ref.cycles, m->sim_cycles);
  p.cycles = error_stats(v);
  for (const auto& c : counters) {
    std::vector<std::pair<double, double>> cv;
    for (const auto* m : ms) {
      auto it = m->counters.find(c);
      if (it != m->counters.end() && it->second.first > 0) cv.push_back(it->second);
    }
    if (!cv.empty()) p.counters[c] = error_stats(cv);
  }
  for (const auto* a : as) {
    ++p.agreement_cases;
    p.sim_runs = std::max(p.sim_runs, a->sim_runs);
    p.ref_runs = std::max(p.ref_runs, a->ref_runs);
    if (a->decisive) {
      ++p.agreement_decisive;
      p.agreement_agree += a->agrees;
      p.agreement_agree_some += a->agrees_in_some_run;
    }
    if (finite(a->ref_gto_lrr) && finite(a->sim_gto_lrr)) {
      p.gto_lrr_max_diff = std::max(p.gto_lrr_max_diff, std::fabs(a->sim_gto_lrr - a->ref_gto_lrr));
      ++p.gto_lrr_cases;
      p.gto_lrr_within += std::fabs(a->sim_gto_lrr - a->ref_gto_lrr) <= kSpeedupTolerance + 1e-12;
      p.gto_lrr_ranges_meet += ranges_meet(a->sim_gto_range, a->ref_gto_range, kSpeedupTolerance);
      p.gto_lrr_sim_wide += a->sim_gto_range.width() > kSpeedupTolerance;
      p.gto_lrr_ref_wide += a->ref_gto_range.width() > kSpeedupTolerance;
    }
    if (finite(a->ref_tl_lrr) && finite(a->sim_tl_lrr)) {
      ++p.tl_lrr_cases;
      p.tl_lrr_within += std::fabs(a->sim_tl_lrr - a->ref_tl_lrr) <= kSpeedupTolerance + 1e-12;
      p.tl_lrr_ranges_meet += ranges_meet(a->sim_tl_range, a->ref_tl_range, kSpeedupTolerance);
      p.tl_lrr_sim_wide += a->sim_tl_range.width() > kSpeedupTolerance;
      p.tl_lrr_ref_wide += a->ref_tl_range.width() > kSpeedupTolerance;
    }
  }
  return p;
}

std::string csv_num(double v) { return finite(v) ? fmt::format("{}", v) : ""; }

}  // namespace

std::vector<Agreement> scheduler_agreement(const std::vector<Matched>& matched) {
  std::map<std::tuple<std::string, std::string, std::string, std::string, uint64_t>, Agreement> by;
  for (const auto& m : matched) {
    std::string s = scheduler_base(m.ref.scheduler);
    if (s != "lrr" && s != "gto" && s != "tl") continue;
    auto& a = by[{m.ref.gpu, m.ref.workload, m.ref.size, kernel_match_name(m.ref.kernel), m.ref.launch}];
    a.workload = m.ref.workload;
    a.size = m.ref.size;
    a.gpu = m.ref.gpu;
    a.kernel = kernel_match_name(m.ref.kernel);
    a.launch = m.ref.launch;
    a.ref[s] = m.ref.cycles;
    a.sim[s] = m.sim_cycles;
    auto add = [&](std::vector<std::map<std::string, double>>& runs, const std::vector<double>& cycles) {
      if (runs.size() < cycles.size()) runs.resize(cycles.size());
      for (size_t k = 0; k < cycles.size(); ++k)
        if (finite(cycles[k])) runs[k][s] = cycles[k];
    };
    add(a.sim_perturbed, m.perturbed);
    add(a.ref_perturbed, m.ref_perturbed);
  }
  auto speedup = [](const std::map<std::string, double>& c, const char* x) {
    auto l = c.find("lrr"), o = c.find(x);
    return l != c.end() && o != c.end() && o->second > 0 ? l->second / o->second : NAN;
  };
  auto fastest = [](const std::map<std::string, double>& c) {
    std::string best;
    for (const char* s : {"lrr", "gto", "tl"})  // ties go to the first of this order
      if (best.empty() || c.at(s) < c.at(best)) best = s;
    return best;
  };
  std::vector<Agreement> out;
  for (auto& [k, a] : by) {
    if (a.ref.size() < 2) continue;  // nothing to compare
    a.ref_gto_lrr = speedup(a.ref, "gto");
    a.sim_gto_lrr = speedup(a.sim, "gto");
    a.ref_tl_lrr = speedup(a.ref, "tl");
    a.sim_tl_lrr = speedup(a.sim, "tl");
    // Each run widens the ranges of the speedups it has both schedulers of; a run counts when it
    // has LRR and another scheduler.
    auto runs_of = [](const std::map<std::string, double>& base, const std::vector<std::map<std::string, double>>& p) {
      std::vector<const std::map<std::string, double>*> runs{&base};
      for (const auto& r : p)
        if (r.count("lrr") && r.size() >= 2) runs.push_back(&r);
      return runs;
    };
    const auto sim_runs = runs_of(a.sim, a.sim_perturbed), ref_runs = runs_of(a.ref, a.ref_perturbed);
    a.sim_runs = sim_runs.size();
    a.ref_runs = ref_runs.size();
    for (const auto* r : sim_runs) {
      a.sim_gto_range.add(speedup(*r, "gto"));
      a.sim_tl_range.add(speedup(*r, "tl"));
    }
    for (const auto* r : ref_runs) {
      a.ref_gto_range.add(speedup(*r, "gto"));
      a.ref_tl_range.add(speedup(*r, "tl"));
    }
    a.ref_gap = NAN;
    if (a.ref.size() == 3 && a.sim.size() == 3) {
      a.ref_fastest = fastest(a.ref);
      a.sim_fastest = fastest(a.sim);
      std::vector<double> rc;
      for (const auto& [s, c] : a.ref) rc.push_back(c);
      std::sort(rc.begin(), rc.end());
      a.ref_gap = rc[1] / rc[0] - 1;
      a.decisive = a.ref_gap > 0.03;
      a.agrees = a.ref_fastest == a.sim_fastest;
      // Pairs of runs that have all three schedulers.
      for (const auto* r : ref_runs)
        for (const auto* w : sim_runs)
          if (r->size() == 3 && w->size() == 3) a.agrees_in_some_run |= fastest(*r) == fastest(*w);
    }
    out.push_back(std::move(a));
  }
  return out;
}

Correlation correlate(const ReferenceTable& ref, const std::vector<json>& sim_rows, std::vector<Skipped> skipped,
                      const std::vector<std::vector<json>>& perturbed_rows,
                      const std::vector<ReferenceTable>& perturbed_refs) {
  Correlation c;
  c.skipped = std::move(skipped);
  c.counter_names = ref.counter_names;
  auto index = [](const std::vector<json>& rows) {
    std::map<SimKey, const json*> sim;
    for (const auto& r : rows) {
      std::string sched = r.value("scheduler", std::string());
      std::string params = r.value("sched_params", std::string());
      if (!params.empty()) sched += ":" + params;
      sim[{r.value("workload", std::string()), r.value("size", std::string()), r.value("gpu", std::string()), sched,
           kernel_match_name(r.value("kernel", std::string())), r.value("launch", uint64_t(0))}] = &r;
    }
    return sim;
  };
  const std::map<SimKey, const json*> sim = index(sim_rows);
  std::vector<std::map<SimKey, const json*>> perturbed;
  for (const auto& rows : perturbed_rows) perturbed.push_back(index(rows));
  std::vector<std::map<SimKey, double>> ref_perturbed(perturbed_refs.size());
  for (size_t i = 0; i < perturbed_refs.size(); ++i)
    for (const auto& r : perturbed_refs[i].rows)
      ref_perturbed[i][{r.workload, r.size, r.gpu, r.scheduler, kernel_match_name(r.kernel), r.launch}] = r.cycles;
  for (const auto& row : ref.rows) {
    SimKey k{row.workload, row.size, row.gpu, row.scheduler, kernel_match_name(row.kernel), row.launch};
    auto it = sim.find(k);
    if (it == sim.end()) continue;  // the caller lists runs that did not happen; see below
    Matched m;
    m.ref = row;
    m.sim_cycles = it->second->value("cycles", 0.0);
    for (const auto& [name, v] : row.counters)
      if (auto w = warpsim_counter(*it->second, name)) m.counters[name] = {v, *w};
    for (const auto& p : perturbed) {
      auto pt = p.find(k);
      m.perturbed.push_back(pt == p.end() ? NAN : pt->second->value("cycles", 0.0));
    }
    for (const auto& p : ref_perturbed) {
      auto pt = p.find(k);
      m.ref_perturbed.push_back(pt == p.end() ? NAN : pt->second);
    }
    c.matched.push_back(std::move(m));
  }
  c.agreement = scheduler_agreement(c.matched);
  std::vector<std::string> gpus;
  for (const auto& m : c.matched)
    if (std::find(gpus.begin(), gpus.end(), m.ref.gpu) == gpus.end()) gpus.push_back(m.ref.gpu);
  std::vector<std::string> counters;
  for (const auto& n : ref.counter_names)
    if (std::any_of(c.matched.begin(), c.matched.end(), [&](const Matched& m) { return m.counters.count(n); }))
      counters.push_back(n);
  std::vector<const Matched*> all_m;
  std::vector<const Agreement*> all_a;
  for (const auto& g : gpus) {
    std::vector<const Matched*> ms;
    std::vector<const Agreement*> as;
    for (const auto& m : c.matched)
      if (m.ref.gpu == g) ms.push_back(&m), all_m.push_back(&m);
    for (const auto& a : c.agreement)
      if (a.gpu == g) as.push_back(&a), all_a.push_back(&a);
    c.presets.push_back(summarize(g, ms, as, counters));
  }
  c.presets.push_back(summarize("all", all_m, all_a, counters));
  return c;
}

std::string correlation_text(const Correlation& c) {
  std::string s;
  s += "Per kernel launch (ratio = warpsim / reference cycles):\n";
  s += fmt::format("{:<10} {:<16} {:<8} {:<24} {:>6} {:<8} {:>12} {:>12} {:>7}\n", "gpu", "workload", "size", "kernel",
                   "launch", "sched", "reference", "warpsim", "ratio");
  for (const auto& m : c.matched)
    s += fmt::format("{:<10} {:<16} {:<8} {:<24} {:>6} {:<8} {:>12} {:>12} {:>7.3f}\n", m.ref.gpu, m.ref.workload,
                     m.ref.size, kernel_match_name(m.ref.kernel), m.ref.launch, m.ref.scheduler, m.ref.cycles,
                     m.sim_cycles, m.sim_cycles / m.ref.cycles);
  const bool perturbed = std::any_of(c.agreement.begin(), c.agreement.end(),
                                     [](const Agreement& a) { return a.sim_runs > 1 || a.ref_runs > 1; });
  if (!c.agreement.empty()) {
    s += "\nScheduler agreement (speedup over LRR, reference vs warpsim; fastest of lrr/gto/tl";
    s += perturbed ? "; ranges over the perturbed runs):\n" : "):\n";
    const std::string agree_col = perturbed ? "{:<19}" : "{}";
    s += fmt::format(
        fmt::runtime("{:<10} {:<16} {:<24} {:>6} {:>8} {:>8} {:>7} {:>8} {:>8} {:>7} {:>6} {:>6} {:>7} " + agree_col),
        "gpu", "workload", "kernel", "launch", "GTO ref", "GTO sim", "diff", "TL ref", "TL sim", "diff", "best", "sim",
        "gap%", "agree");
    s += perturbed
             ? fmt::format(" {:>13} {:>13} {:>13} {:>13}\n", "GTO ref rng", "GTO sim rng", "TL ref rng", "TL sim rng")
             : "\n";
    auto range = [](const SpeedupRange& r) {
      return finite(r.lo) ? fmt::format("{:.3f}-{:.3f}", r.lo, r.hi) : std::string("-");
    };
    for (const auto& a : c.agreement) {
      s += fmt::format(
          fmt::runtime("{:<10} {:<16} {:<24} {:>6} {:>8} {:>8} {:>7} {:>8} {:>8} {:>7} {:>6} {:>6} {:>7} " + agree_col),
          a.gpu, a.workload, a.kernel, a.launch, num(a.ref_gto_lrr), num(a.sim_gto_lrr),
          num(a.sim_gto_lrr - a.ref_gto_lrr, "{:+.3f}"), num(a.ref_tl_lrr), num(a.sim_tl_lrr),
          num(a.sim_tl_lrr - a.ref_tl_lrr, "{:+.3f}"), a.ref_fastest.empty() ? "-" : a.ref_fastest,
          a.sim_fastest.empty() ? "-" : a.sim_fastest, num(a.ref_gap * 100, "{:.1f}"),
          a.ref_fastest.empty()  ? "-"
          : !a.decisive          ? "(gap <= 3%)"
          : a.agrees             ? "yes"
          : a.agrees_in_some_run ? "NO (perturbed: yes)"
                                 : "NO");
      s += perturbed ? fmt::format(" {:>13} {:>13} {:>13} {:>13}\n", range(a.ref_gto_range), range(a.sim_gto_range),
                                   range(a.ref_tl_range), range(a.sim_tl_range))
                     : "\n";
    }
  }
  s += "\nSummary (error = (warpsim - reference) / reference):\n";
  s += fmt::format("{:<10} {:>7} {:>8} {:>9} {:>9} {:>10} {:>8} {:>14} {:>14}\n", "preset", "kernels", "MAE%",
                   "signed%", "r(log)", "within15", "share", "fastest agree", "max|dGTO/LRR|");
  for (const auto& p : c.presets)
    s += fmt::format("{:<10} {:>7} {:>8.1f} {:>9} {:>9} {:>10} {:>7.0f}% {:>14} {:>14}\n", p.gpu, p.cycles.n,
                     p.cycles.mae_pct, pct(p.cycles.signed_pct), num(p.cycles.pearson_log, "{:.4f}"), p.cycles.within15,
                     p.cycles.within15_share * 100, fmt::format("{}/{}", p.agreement_agree, p.agreement_decisive),
                     num(p.gto_lrr_max_diff));
  if (!c.agreement.empty()) {
    s += fmt::format("\nSpeedups over LRR within {} of the reference's:\n", kSpeedupTolerance);
    for (const auto& p : c.presets) {
      s += fmt::format("  {:<8} GTO/LRR {}/{}, TL/LRR {}/{}\n", p.gpu, p.gto_lrr_within, p.gto_lrr_cases,
                       p.tl_lrr_within, p.tl_lrr_cases);
      if (p.sim_runs > 1 || p.ref_runs > 1)
        s += fmt::format(
            "           perturbed ({} warpsim runs, {} reference runs): ranges within {}: GTO/LRR {}/{}, TL/LRR {}/{}; "
            "ranges wider than {}: warpsim GTO/LRR {} TL/LRR {}, reference GTO/LRR {} TL/LRR {}; fastest agrees "
            "for some pair of runs {}/{}\n",
            p.sim_runs, p.ref_runs, kSpeedupTolerance, p.gto_lrr_ranges_meet, p.gto_lrr_cases, p.tl_lrr_ranges_meet,
            p.tl_lrr_cases, kSpeedupTolerance, p.gto_lrr_sim_wide, p.tl_lrr_sim_wide, p.gto_lrr_ref_wide,
            p.tl_lrr_ref_wide, p.agreement_agree_some, p.agreement_decisive);
    }
  }
  for (const auto& p : c.presets)
    for (const auto& [name, e] : p.counters)
      s += fmt::format("  {:<8} {:<14} n={:<4} MAE {:.1f}%  signed {}%\n", p.gpu, name, e.n, e.mae_pct,
                       pct(e.signed_pct));
  if (!c.skipped.empty()) {
    s += fmt::format("\nSkipped ({}):\n", c.skipped.size());
    for (const auto& k : c.skipped) s += fmt::format("  {}: {}\n", k.what, k.reason);
  }
  return s;
}

std::string correlation_csv(const Correlation& c) {
  std::string s = "gpu,workload,size,scheduler,kernel,launch,ref_cycles,warpsim_cycles,ratio,error_pct";
  for (const auto& n : c.counter_names) s += fmt::format(",ref_{0},warpsim_{0},error_pct_{0}", n);
  s += "\n";
  for (const auto& m : c.matched) {
    s += fmt::format("{},{},{},{},{},{},{},{},{},{}", csv_quote(m.ref.gpu), csv_quote(m.ref.workload),
                     csv_quote(m.ref.size), csv_quote(m.ref.scheduler), csv_quote(m.ref.kernel), m.ref.launch,
                     csv_num(m.ref.cycles), csv_num(m.sim_cycles), csv_num(m.sim_cycles / m.ref.cycles),
                     csv_num((m.sim_cycles - m.ref.cycles) / m.ref.cycles * 100));
    for (const auto& n : c.counter_names) {
      auto it = m.counters.find(n);
      if (it == m.counters.end()) {
        s += ",,,";
        continue;
      }
      auto [r, w] = it->second;
      s += fmt::format(",{},{},{}", csv_num(r), csv_num(w), r > 0 ? csv_num((w - r) / r * 100) : "");
    }
    s += "\n";
  }
  return s;
}

std::string schedulers_csv(const Correlation& c) {
  std::string s =
      "gpu,workload,size,kernel,launch,ref_lrr,ref_gto,ref_tl,warpsim_lrr,warpsim_gto,warpsim_tl,ref_gto_lrr,"
      "warpsim_gto_lrr,diff_gto_lrr,ref_tl_lrr,warpsim_tl_lrr,diff_tl_lrr,ref_fastest,warpsim_fastest,ref_gap_pct,"
      "decisive,agrees,warpsim_runs,ref_runs,warpsim_gto_lrr_lo,warpsim_gto_lrr_hi,ref_gto_lrr_lo,ref_gto_lrr_hi,"
      "warpsim_tl_lrr_lo,warpsim_tl_lrr_hi,ref_tl_lrr_lo,ref_tl_lrr_hi,agrees_in_some_run\n";
  auto at = [](const std::map<std::string, double>& m, const char* k) {
    auto it = m.find(k);
    return it == m.end() ? std::string() : csv_num(it->second);
  };
  for (const auto& a : c.agreement)
    s += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_quote(a.gpu), csv_quote(a.workload), csv_quote(a.size), csv_quote(a.kernel), a.launch, at(a.ref, "lrr"),
        at(a.ref, "gto"), at(a.ref, "tl"), at(a.sim, "lrr"), at(a.sim, "gto"), at(a.sim, "tl"), csv_num(a.ref_gto_lrr),
        csv_num(a.sim_gto_lrr), csv_num(a.sim_gto_lrr - a.ref_gto_lrr), csv_num(a.ref_tl_lrr), csv_num(a.sim_tl_lrr),
        csv_num(a.sim_tl_lrr - a.ref_tl_lrr), a.ref_fastest, a.sim_fastest, csv_num(a.ref_gap * 100),
        a.ref_fastest.empty() ? ""
        : a.decisive          ? "1"
                              : "0",
        a.ref_fastest.empty() ? ""
        : a.agrees            ? "1"
                              : "0",
        a.sim_runs, a.ref_runs, csv_num(a.sim_gto_range.lo), csv_num(a.sim_gto_range.hi), csv_num(a.ref_gto_range.lo),
        csv_num(a.ref_gto_range.hi), csv_num(a.sim_tl_range.lo), csv_num(a.sim_tl_range.hi), csv_num(a.ref_tl_range.lo),
        csv_num(a.ref_tl_range.hi),
        a.ref_fastest.empty()  ? ""
        : a.agrees_in_some_run ? "1"
                               : "0");
  return s;
}

std::string summary_csv(const Correlation& c) {
  std::string s =
      "preset,metric,n,mae_pct,signed_pct,pearson_log,within15,within15_share,fastest_decisive,fastest_agree,"
      "gto_lrr_max_abs_diff,gto_lrr_cases,gto_lrr_within,tl_lrr_cases,tl_lrr_within,warpsim_runs,ref_runs,"
      "gto_lrr_ranges_meet,tl_lrr_ranges_meet,gto_lrr_warpsim_wide,tl_lrr_warpsim_wide,gto_lrr_ref_wide,"
      "tl_lrr_ref_wide,fastest_agree_some\n";
  for (const auto& p : c.presets) {
    s += fmt::format("{},cycles,{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_quote(p.gpu),
                     p.cycles.n, csv_num(p.cycles.mae_pct), csv_num(p.cycles.signed_pct), csv_num(p.cycles.pearson_log),
                     p.cycles.within15, csv_num(p.cycles.within15_share), p.agreement_decisive, p.agreement_agree,
                     csv_num(p.gto_lrr_max_diff), p.gto_lrr_cases, p.gto_lrr_within, p.tl_lrr_cases, p.tl_lrr_within,
                     p.sim_runs, p.ref_runs, p.gto_lrr_ranges_meet, p.tl_lrr_ranges_meet, p.gto_lrr_sim_wide,
                     p.tl_lrr_sim_wide, p.gto_lrr_ref_wide, p.tl_lrr_ref_wide, p.agreement_agree_some);
    for (const auto& [name, e] : p.counters)
      s += fmt::format("{},{},{},{},{},{},{},{},,,,,,,,,,,,,,,,\n", csv_quote(p.gpu), csv_quote(name), e.n,
                       csv_num(e.mae_pct), csv_num(e.signed_pct), csv_num(e.pearson_log), e.within15,
                       csv_num(e.within15_share));
  }
  return s;
}

std::string correlation_html(const Correlation& c) {
  using svg::xml_escape;
  std::string h =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>warpsim correlation</title>\n"
      "<style>body{font-family:Helvetica,Arial,sans-serif;margin:24px;max-width:1200px;color:#222}"
      "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
      "th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}.note{color:#666}</style></head><body>\n"
      "<h1>warpsim correlation</h1>\n"
      "<p class=\"note\">error = (warpsim &minus; reference) / reference per kernel launch; docs/correlate.md "
      "defines every column.</p>\n<h2>Summary</h2>\n<table><tr><th>preset</th><th>kernels</th><th>MAE %</th>"
      "<th>signed %</th><th>Pearson r (log)</th><th>within 15 %</th><th>fastest agrees</th>"
      "<th>max |&Delta; GTO/LRR|</th><th>GTO/LRR within 0.03</th><th>TL/LRR within 0.03</th></tr>\n";
  for (const auto& p : c.presets)
    h += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{:.1f}</td><td>{}</td><td>{}</td><td>{} ({:.0f} %)</td>"
        "<td>{}/{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td></tr>\n",
        xml_escape(p.gpu), p.cycles.n, p.cycles.mae_pct, pct(p.cycles.signed_pct), num(p.cycles.pearson_log, "{:.4f}"),
        p.cycles.within15, p.cycles.within15_share * 100, p.agreement_agree, p.agreement_decisive,
        num(p.gto_lrr_max_diff), p.gto_lrr_within, p.gto_lrr_cases, p.tl_lrr_within, p.tl_lrr_cases);
  h += "</table>\n";
  if (std::any_of(c.presets.begin(), c.presets.end(),
                  [](const PresetSummary& p) { return p.sim_runs > 1 || p.ref_runs > 1; })) {
    h += "<h2>Perturbed runs</h2>\n"
         "<p class=\"note\">Each kernel started 1, 2, ... cycles later; a speedup's range spans its runs "
         "(docs/correlate.md, &ldquo;Perturbed runs&rdquo;).</p>\n"
         "<table><tr><th>preset</th><th>warpsim runs</th><th>reference runs</th>"
         "<th>GTO/LRR ranges within 0.03</th><th>TL/LRR ranges within 0.03</th>"
         "<th>GTO/LRR ranges wider than 0.03 (warpsim, reference)</th>"
         "<th>fastest agrees in some pair of runs</th></tr>\n";
    for (const auto& p : c.presets)
      h += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td><td>{}, {}</td><td>{}/{}</td></tr>\n",
          xml_escape(p.gpu), p.sim_runs, p.ref_runs, p.gto_lrr_ranges_meet, p.gto_lrr_cases, p.tl_lrr_ranges_meet,
          p.tl_lrr_cases, p.gto_lrr_sim_wide, p.gto_lrr_ref_wide, p.agreement_agree_some, p.agreement_decisive);
    h += "</table>\n";
  }
  for (const auto& p : c.presets) {
    if (p.gpu == "all") continue;
    svg::ScatterChart sc;
    sc.title = fmt::format("{}: {} kernel launches, MAE {:.1f} %, r {}", p.gpu, p.cycles.n, p.cycles.mae_pct,
                           num(p.cycles.pearson_log, "{:.3f}"));
    sc.x_label = "reference cycles";
    sc.y_label = "warpsim cycles";
    std::vector<std::string> scheds;
    for (const auto& m : c.matched)
      if (m.ref.gpu == p.gpu && std::find(scheds.begin(), scheds.end(), m.ref.scheduler) == scheds.end())
        scheds.push_back(m.ref.scheduler);
    for (const auto& s : scheds) {
      svg::ScatterSeries ser;
      ser.name = s;
      for (const auto& m : c.matched)
        if (m.ref.gpu == p.gpu && m.ref.scheduler == s)
          ser.points.push_back(
              {m.ref.cycles, m.sim_cycles,
               fmt::format("{} {} #{}: {:.0f} vs {:.0f}", m.ref.workload, kernel_match_name(m.ref.kernel), m.ref.launch,
                           m.ref.cycles, m.sim_cycles)});
      sc.series.push_back(std::move(ser));
    }
    h += fmt::format("<h2>{}</h2>\n", xml_escape(p.gpu)) + svg::scatter_loglog(sc);
  }
  if (!c.skipped.empty()) {
    h += "<h2>Skipped</h2>\n<ul>\n";
    for (const auto& k : c.skipped) h += "<li>" + xml_escape(k.what) + ": " + xml_escape(k.reason) + "</li>\n";
    h += "</ul>\n";
  }
  h += "</body></html>\n";
  return h;
}

CorrelateResult run_correlate(const CorrelateOptions& opts) {
  if (opts.backend != "local" && opts.backend != "slurm")
    throw Error(fmt::format("unknown backend '{}': expected local or slurm", opts.backend));
  auto keep = [](const std::vector<std::string>& filter, const std::string& v, bool base) {
    if (filter.empty()) return true;
    for (const auto& f : filter)
      if (f == v || (base && f == scheduler_base(v))) return true;
    return false;
  };
  ReferenceTable ref;
  ref.counter_names = opts.reference.counter_names;
  for (const auto& r : opts.reference.rows)
    if (keep(opts.gpus, r.gpu, false) && keep(opts.schedulers, r.scheduler, true)) ref.rows.push_back(r);
  if (ref.rows.empty()) throw Error("no reference rows (after --gpu/--scheduler filters)");

  // The perturbed references, filtered as the reference is, their added cycles taken off. One
  // that shares no launch with the reference (another reference, a wrong path) is an error here,
  // before anything runs, rather than ranges that silently stay single points.
  std::set<std::tuple<std::string, std::string, std::string, std::string, std::string, uint64_t>> ref_keys;
  for (const auto& r : ref.rows)
    ref_keys.insert({r.workload, r.size, r.gpu, r.scheduler, kernel_match_name(r.kernel), r.launch});
  std::vector<ReferenceTable> perturbed_refs;
  for (const auto& [offset, table] : opts.perturbed_references) {
    ReferenceTable t;
    size_t shared = 0;
    for (auto r : table.rows)
      if (keep(opts.gpus, r.gpu, false) && keep(opts.schedulers, r.scheduler, true)) {
        shared += ref_keys.count({r.workload, r.size, r.gpu, r.scheduler, kernel_match_name(r.kernel), r.launch});
        r.cycles -= double(offset);
        t.rows.push_back(std::move(r));
      }
    if (shared == 0)
      throw Error(fmt::format(
          "--perturbed-reference {}=...: none of its {} launches (after --gpu/--scheduler filters) is a launch of "
          "the reference (workload, size, GPU, scheduler, kernel, launch index)",
          offset, t.rows.size()));
    perturbed_refs.push_back(std::move(t));
  }

  // One run per (workload, size, gpu, scheduler) of the reference.
  // Runs with offset k > 0 are the perturbed ones (--perturb): the GPU's kernel launch
  // latency raised by k cycles.
  struct Run {
    std::string workload, size, gpu, scheduler;
    Pair pair;
    uint32_t offset = 0;
  };
  std::vector<Run> runs;
  std::vector<Skipped> skipped;
  std::map<std::string, GpuConfig> gpus;
  std::map<std::string, std::string> gpu_errors;
  std::map<std::string, WorkloadIdentity> workloads;
  std::map<std::string, std::string> workload_errors;
  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
  for (const auto& [name, file] : opts.presets)
    if (std::none_of(ref.rows.begin(), ref.rows.end(), [&](const ReferenceRow& r) { return r.gpu == name; }))
      throw Error(fmt::format("--preset {}={}: the reference has no GPU '{}'", name, file, name));
  for (const auto& r : ref.rows) {
    if (!seen.insert({r.workload, r.size, r.gpu, r.scheduler}).second) continue;
    std::string what = fmt::format("{} {} {} {}", r.workload, r.size, r.gpu, r.scheduler);
    if (!gpus.count(r.gpu) && !gpu_errors.count(r.gpu)) {
      auto p = opts.presets.find(r.gpu);
      if (p != opts.presets.end()) {
        gpus[r.gpu] = load_preset(p->second);  // a bad file is the user's error: it stops the command
      } else {
        try {
          gpus[r.gpu] = load_preset(r.gpu);
        } catch (const std::exception& e) {
          gpu_errors[r.gpu] = e.what();
        }
      }
      // A bad override is the user's error, not the reference's: it stops the command.
      if (gpus.count(r.gpu)) apply_overrides(gpus[r.gpu], opts.overrides);
    }
    if (gpu_errors.count(r.gpu)) {
      skipped.push_back({what, "unknown GPU preset: " + gpu_errors[r.gpu]});
      continue;
    }
    if (!workloads.count(r.workload) && !workload_errors.count(r.workload)) {
      try {
        if (!opts.programs_dir.empty()) {
          // The program itself is the fingerprint: a rebuilt binary runs again.
          const fs::path prog = fs::absolute(fs::path(opts.programs_dir) / r.workload).lexically_normal();
          std::error_code ec;
          if (!fs::is_regular_file(prog, ec) || ::access(prog.c_str(), X_OK) != 0)
            throw Error(fmt::format("no executable program '{}' (--programs)", prog.string()));
          workloads[r.workload] = {prog.string(), hash_hex(read_text(prog.string()))};
        } else {
          auto w = resolve_workload(r.workload);
          workloads[r.workload] = {w->name(), w->fingerprint()};
        }
      } catch (const std::exception& e) {
        workload_errors[r.workload] = e.what();
      }
    }
    if (workload_errors.count(r.workload)) {
      skipped.push_back({what, "warpsim cannot run this workload: " + workload_errors[r.workload]});
      continue;
    }
    SchedulerSpec sched;
    try {
      sched = parse_scheduler_spec(r.scheduler == "hw" ? opts.hw_scheduler : r.scheduler);
      find_scheduler(sched.name);
    } catch (const std::exception& e) {
      skipped.push_back({what, fmt::format("scheduler: {}", e.what())});
      continue;
    }
    for (uint32_t k = 0; k <= opts.perturb; ++k) {
      SweepSpec spec;
      spec.workloads = {r.workload};
      spec.schedulers = {sched};
      spec.gpu = started_later(gpus[r.gpu], k);
      spec.size = r.size;
      const auto id = workloads[r.workload];
      if (!opts.programs_dir.empty()) {
        Pair p;
        p.workload = p.program = id.name;
        p.workload_name = r.workload;
        p.fingerprint = id.fingerprint;
        p.scheduler = sched;
        p.size = r.size;
        p.key_text =
            cache_key_text(p.workload_name, p.fingerprint, p.size, p.seed, sched, spec.gpu.name, dump_toml(spec.gpu)) +
            fmt::format("program {}\n", p.program);
        p.key = hash_hex(p.key_text);
        runs.push_back({r.workload, r.size, r.gpu, r.scheduler, std::move(p), k});
        continue;
      }
      auto pairs = plan_pairs(spec, [&](const std::string&) { return id; });
      runs.push_back({r.workload, r.size, r.gpu, r.scheduler, pairs.at(0), k});
    }
  }

  Layout layout(opts.cache_dir);
  layout.create_dirs();
  std::string exe = opts.exe.empty() ? self_executable() : opts.exe;
  int jobs = opts.jobs > 0 ? opts.jobs : int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  CorrelateResult res;
  std::vector<std::string> failures;
  for (const auto& [gname, base_cfg] : gpus)
    for (uint32_t k = 0; k <= opts.perturb; ++k) {
      const GpuConfig cfg = started_later(base_cfg, k);
      std::vector<Pair> pending;
      std::vector<const Run*> pending_runs;
      std::set<std::string> keys;  // a run is made once even when two rows name it (hw and gto)
      size_t n = 0;
      for (const auto& r : runs)
        if (r.gpu == gname && r.offset == k && keys.insert(r.pair.key).second) {
          ++n;
          if (!load_cached(layout, r.pair)) {
            pending.push_back(r.pair);
            pending_runs.push_back(&r);
          }
        }
      if (n == 0) continue;
      res.pairs += n;
      res.cached += n - pending.size();
      fmt::print(opts.progress_out, "{}{}: {} runs, {} cached, {} to run\n", gname,
                 k ? fmt::format(" (kernel launch latency +{})", k) : "", n, n - pending.size(), pending.size());
      std::fflush(opts.progress_out);
      if (pending.empty()) continue;
      std::string gpu_file = layout.write_gpu_config(cfg);
      Progress progress(n, n - pending.size(), opts.tty, opts.progress_out);
      auto outcomes = opts.backend == "slurm" ? run_pairs_slurm(pending, layout, gpu_file, exe, opts.slurm, &progress)
                                              : run_pairs_local(pending, layout, gpu_file, exe, jobs, &progress);
      progress.done();
      res.ran += pending.size();
      for (size_t i = 0; i < pending.size(); ++i)
        if (!outcomes[i].ok) {
          ++res.failed;
          std::string msg = outcomes[i].message;
          while (!msg.empty() && msg.back() == '\n') msg.pop_back();
          const Run* r = pending_runs[i];
          skipped.push_back({fmt::format("{} {} {} {}{}", r->workload, r->size, r->gpu, r->scheduler,
                                         k ? fmt::format(" (perturbed +{})", k) : ""),
                             fmt::format("warpsim run failed (log: {}): {}", layout.log_file(pending[i]), msg)});
        }
    }

  // warpsim's rows, labelled with the reference's names (workload as written in the
  // reference, GPU preset, scheduler spec) so that they match.
  // A perturbed run's launches each started k cycles later: those k cycles come off again.
  std::vector<json> sim_rows;
  std::vector<std::vector<json>> perturbed_rows(opts.perturb);
  for (const auto& r : runs) {
    auto run = load_cached(layout, r.pair);
    if (!run) continue;
    for (auto& row : tidy_rows(r.pair, *run)) {
      row["workload"] = r.workload;
      row["size"] = r.size;
      row["gpu"] = r.gpu;
      row["scheduler"] = r.scheduler;
      row["sched_params"] = "";
      if (r.offset == 0) {
        sim_rows.push_back(std::move(row));
        continue;
      }
      row["cycles"] = row.value("cycles", 0.0) - double(r.offset);
      perturbed_rows[r.offset - 1].push_back(std::move(row));
    }
  }
  // Reference launches warpsim ran the workload for but did not produce.
  std::set<SimKey> sim_keys;
  std::set<std::tuple<std::string, std::string, std::string, std::string>> ran;
  for (const auto& row : sim_rows) {
    auto str = [&](const char* k) { return row.value(k, std::string()); };
    sim_keys.insert({str("workload"), str("size"), str("gpu"), str("scheduler"), kernel_match_name(str("kernel")),
                     row.value("launch", uint64_t(0))});
    ran.insert({str("workload"), str("size"), str("gpu"), str("scheduler")});
  }
  for (const auto& r : ref.rows) {
    if (!ran.count({r.workload, r.size, r.gpu, r.scheduler})) continue;  // the whole run is listed already
    if (!sim_keys.count({r.workload, r.size, r.gpu, r.scheduler, kernel_match_name(r.kernel), r.launch}))
      skipped.push_back(
          {fmt::format("{} {} {} {} kernel {} launch {}", r.workload, r.size, r.gpu, r.scheduler, r.kernel, r.launch),
           fmt::format("warpsim's run has no launch {} of kernel '{}' ({})", r.launch, kernel_match_name(r.kernel),
                       r.origin)});
  }
  res.correlation = correlate(ref, sim_rows, std::move(skipped), perturbed_rows, perturbed_refs);
  res.text = correlation_text(res.correlation);
  if (!opts.out_dir.empty()) {
    fs::create_directories(opts.out_dir);
    fs::path o(opts.out_dir);
    write_file_atomic((o / "correlate.csv").string(), correlation_csv(res.correlation));
    write_file_atomic((o / "schedulers.csv").string(), schedulers_csv(res.correlation));
    write_file_atomic((o / "summary.csv").string(), summary_csv(res.correlation));
    write_file_atomic((o / "correlate.html").string(), correlation_html(res.correlation));
    write_file_atomic((o / "summary.txt").string(), res.text);
  }
  return res;
}

}  // namespace warpsim::experiment

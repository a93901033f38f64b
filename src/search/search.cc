#include "search/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/results.h"
#include "experiment/svg_chart.h"

namespace warpsim::search {

namespace fs = std::filesystem;

rl::RlConfig scheduler_defaults(const std::string& scheduler) {
  if (scheduler == "rlws") return rl::RlConfig::rlws_defaults();
  if (scheduler == "rlws_ms") return rl::RlConfig::rlws_ms_defaults();
  throw Error(fmt::format("the search covers rlws and rlws_ms, not '{}'", scheduler));
}

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string num(double v, int digits = 4) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : std::string("-");
}

using experiment::csv_quote;

// Everything the fitness of a chromosome depends on besides its genes.
std::string search_identity(const SearchOptions& o) {
  std::string t = fmt::format("scheduler {}\n", o.eval.scheduler);
  t += fmt::format("baseline {}", o.eval.baseline.name);
  for (const auto& [k, v] : o.eval.baseline.params) t += fmt::format(" {}={}", k, v);
  t += fmt::format("\ngpu {} {}\n", o.eval.gpu.name, experiment::hash_hex(dump_toml(o.eval.gpu)));
  t += fmt::format("size {}\ninput_seed {}\ntrain", o.eval.size, o.eval.input_seed);
  for (const auto& w : o.train) t += " " + w;
  t += "\ngenes";
  for (int p = 0; p < kNumParams; ++p) {
    t += fmt::format(" {}:", param_name(Param(p)));
    for (double v : param_values(Param(p))) t += fmt::format("{},", v);
  }
  rl::RlConfig base = scheduler_defaults(o.eval.scheduler);
  base.attrs.clear();
  t += fmt::format("\nbase decide_every={} keep_theta={} fixed_point={} optimistic={} decay_cycles={} seed={}\n",
                   base.decide_every, base.keep_theta, base.fixed_point, base.optimistic, base.decay_cycles, base.seed);
  return t;
}

std::string generations_csv(const std::vector<GenerationStats>& st) {
  std::string s = "generation,best,median,mean,best_so_far,new_evaluations\n";
  for (const auto& g : st)
    s += fmt::format("{},{},{},{},{},{}\n", g.generation, g.best, g.median, g.mean, g.best_so_far, g.new_evaluations);
  return s;
}

std::string fitness_svg(const std::vector<GenerationStats>& st, const std::string& scheduler) {
  experiment::svg::LineChart c;
  c.title = fmt::format("{} genetic search: fitness per generation", scheduler);
  c.x_label = "generation";
  c.y_label = "geomean speedup over baseline";
  experiment::svg::Line best{"best", {}}, median{"median", {}}, so_far{"best so far", {}};
  for (const auto& g : st) {
    best.points.push_back({double(g.generation), g.best});
    median.points.push_back({double(g.generation), g.median});
    so_far.points.push_back({double(g.generation), g.best_so_far});
  }
  c.lines = {best, median, so_far};
  return experiment::svg::line_chart(c);
}

std::string final_csv(const std::vector<FinalRow>& rows) {
  std::string s = "rank,genes,train_fitness,suite,train,heldout,ok,configuration\n";
  for (const auto& r : rows)
    s += fmt::format("{},{},{},{},{},{},{},{}\n", r.label, r.genes, r.train_fitness, r.suite, r.train, r.heldout,
                     r.ok ? 1 : 0, csv_quote(r.description));
  return s;
}

std::string report_html(const SearchOptions& o, const SearchResult& r, const std::string& svg,
                        const std::string& best_toml) {
  using experiment::svg::xml_escape;
  std::string h =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>warpsim search</title>\n"
      "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
      "td.l{text-align:left}pre{background:#f4f4f4;padding:8px}</style></head><body>\n";
  h += fmt::format("<h1>Genetic search of the {} design space</h1>\n", xml_escape(o.eval.scheduler));
  std::string train;
  for (const auto& w : o.train) train += (train.empty() ? "" : ", ") + w;
  h += fmt::format(
      "<p>GPU {}, size {}, baseline {}, training workloads: {}.<br>Population {}, {} of {} generations, "
      "{} newcomers per generation (best so far every {}th), mutation rate {}, attribute probability {}, "
      "seed {}.</p>\n",
      xml_escape(o.eval.gpu.name), xml_escape(o.eval.size), xml_escape(o.eval.baseline.name), xml_escape(train),
      o.ga.population, r.generations.size(), o.ga.generations, o.ga.newcomers, o.ga.elite_period, o.ga.mutation_rate,
      o.ga.attr_probability, o.ga.seed);
  h += fmt::format(
      "<p>Simulations run by this invocation: {} ({} failed), {:.1f} s of simulation in total ({:.3f} s each); "
      "{} found in the cache.</p>\n",
      r.runs, r.failed_runs, r.run_seconds, r.runs ? r.run_seconds / double(r.runs) : 0.0, r.cache_hits);
  h += svg + "\n";
  h += fmt::format("<p>Best training fitness {} (the paper's defaults: {}).</p>\n", num(r.best_train_fitness),
                   num(r.defaults_train_fitness));
  if (!r.final_rows.empty()) {
    h += "<h2>Top candidates on the final suite</h2>\n<table><tr><th>rank</th><th>training fitness</th>"
         "<th>suite</th><th>training part</th><th>held-out part</th><th>configuration</th></tr>\n";
    for (const auto& f : r.final_rows)
      h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>\n",
                       xml_escape(f.label), num(f.train_fitness), f.ok ? num(f.suite) : "failed", num(f.train),
                       num(f.heldout), xml_escape(f.description));
    h += "</table>\n";
  }
  h += "<h2>Best configuration (best.toml)</h2>\n<pre>" + xml_escape(best_toml) + "</pre>\n</body></html>\n";
  return h;
}

}  // namespace

std::vector<GenerationStats> generation_stats(const GeneticSearch& s) {
  std::vector<GenerationStats> out;
  double so_far = 0;
  std::vector<std::string> sorted_seen;
  for (size_t g = 0; g < s.generations().size(); ++g) {
    GenerationStats st;
    st.generation = uint32_t(g);
    std::vector<double> f;
    double sum = 0;
    for (const auto& c : s.generations()[g]) {
      f.push_back(c.fitness);
      sum += c.fitness;
      st.best = std::max(st.best, c.fitness);
      if (!c.chromosome.valid()) continue;
      std::string k = c.chromosome.key();
      auto it = std::lower_bound(sorted_seen.begin(), sorted_seen.end(), k);
      if (it == sorted_seen.end() || *it != k) {
        sorted_seen.insert(it, k);
        ++st.new_evaluations;
      }
    }
    st.median = median_of(f);
    st.mean = f.empty() ? NAN : sum / double(f.size());
    so_far = std::max(so_far, st.best);
    st.best_so_far = so_far;
    out.push_back(st);
  }
  return out;
}

std::string history_csv(const GeneticSearch& s) {
  std::string out =
      "generation,index,origin,fitness,genes,attributes,alpha,epsilon,gamma,reward,penalty,configuration\n";
  for (size_t g = 0; g < s.generations().size(); ++g) {
    const auto& gen = s.generations()[g];
    for (size_t i = 0; i < gen.size(); ++i) {
      const Chromosome& c = gen[i].chromosome;
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", g, i, origin_name(gen[i].origin), gen[i].fitness,
                         c.key(), c.attribute_count(), c.param(Param::Alpha), c.param(Param::Epsilon),
                         c.param(Param::Gamma), c.param(Param::Reward), c.param(Param::Penalty),
                         csv_quote(describe_attributes(c)));
    }
  }
  return out;
}

SearchResult run_search(const SearchOptions& o, int max_new_generations) {
  auto t0 = std::chrono::steady_clock::now();
  if (o.train.empty()) throw Error("the search needs at least one training workload");
  if (o.top == 0) throw Error("--top must be at least 1");
  o.ga.validate();
  const rl::RlConfig base = scheduler_defaults(o.eval.scheduler);
  EvaluatorSetup es = o.eval;
  HarnessEvaluator ev(es);
  const std::string dir = ev.setup().dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("cannot create '{}': {}", dir, ec.message()));
  const std::string state_file = dir + "/state.json";
  const std::string identity = search_identity(o);

  GeneticSearch search(o.ga, identity);
  if (fs::exists(state_file)) {
    if (!o.resume)
      throw Error(
          fmt::format("'{}' holds a search already: pass --resume to continue it, or choose another --out", dir));
    std::ifstream in(state_file);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) throw Error(fmt::format("{}: not valid JSON", state_file));
    try {
      search = GeneticSearch::from_json(j, o.ga, identity);
    } catch (const Error& e) {
      throw Error(fmt::format("cannot resume from {}: {}", state_file, e.what()));
    }
    if (o.log)
      fmt::print(o.log, "resuming {} after {} generation{}\n", state_file, search.generations().size(),
                 search.generations().size() == 1 ? "" : "s");
  }

  auto write_outputs = [&](const GeneticSearch& s) {
    auto st = generation_stats(s);
    write_file_atomic(dir + "/history.csv", history_csv(s));
    write_file_atomic(dir + "/generations.csv", generations_csv(st));
    write_file_atomic(dir + "/fitness.svg", fitness_svg(st, o.eval.scheduler));
  };
  auto fitness_of = [&](const std::vector<Chromosome>& batch) {
    std::vector<rl::RlConfig> cfgs;
    for (const auto& c : batch) cfgs.push_back(to_rl_config(c, base));
    auto evals = ev.evaluate(cfgs, o.train);
    std::vector<double> f;
    for (size_t i = 0; i < evals.size(); ++i) {
      if (!evals[i].ok && o.log)
        fmt::print(o.log, "  candidate {} gets fitness 0: {}\n", batch[i].key(), evals[i].failure);
      f.push_back(evals[i].fitness);
    }
    return f;
  };
  auto after = [&](const GeneticSearch& s) {
    write_json_atomic(state_file, s.to_json());
    write_outputs(s);
    if (o.log) {
      auto st = generation_stats(s).back();
      double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      fmt::print(o.log, "generation {:>3}/{}: best {:.4f}  median {:.4f}  best so far {:.4f}  ({} new, {:.0f} s)\n",
                 st.generation + 1, s.params().generations, st.best, st.median, st.best_so_far, st.new_evaluations, el);
      std::fflush(o.log);
    }
  };
  search.run(fitness_of, after, max_new_generations);

  SearchResult r;
  r.generations = generation_stats(search);
  r.finished = search.finished();
  write_outputs(search);
  if (search.generations().empty()) throw Error("the search made no generation");

  auto defaults_train = ev.evaluate({base}, o.train);
  r.defaults_train_fitness = defaults_train[0].fitness;

  std::vector<Candidate> top = search.best(o.top);
  r.best = top.front().chromosome;
  r.best_train_fitness = top.front().fitness;
  if (r.finished && !o.final_suite.empty()) {
    std::vector<rl::RlConfig> cfgs;
    for (const auto& c : top) cfgs.push_back(to_rl_config(c.chromosome, base));
    cfgs.push_back(base);
    if (o.log)
      fmt::print(o.log, "re-evaluating the top {} and the defaults on {} workloads\n", top.size(),
                 o.final_suite.size());
    if (o.log) std::fflush(o.log);
    auto evals = ev.evaluate(cfgs, o.final_suite);
    // Training workloads by the names the runs report.
    std::vector<std::string> train_names, heldout_names;
    for (const auto& k : defaults_train[0].kernels)
      if (std::find(train_names.begin(), train_names.end(), k.workload) == train_names.end())
        train_names.push_back(k.workload);
    for (const auto& e : evals)
      for (const auto& k : e.kernels)
        if (std::find(train_names.begin(), train_names.end(), k.workload) == train_names.end() &&
            std::find(heldout_names.begin(), heldout_names.end(), k.workload) == heldout_names.end())
          heldout_names.push_back(k.workload);
    double best_suite = -1;
    for (size_t i = 0; i < cfgs.size(); ++i) {
      FinalRow row;
      bool is_default = i == top.size();
      row.label = is_default ? "defaults" : std::to_string(i + 1);
      if (!is_default) {
        row.genes = top[i].chromosome.key();
        row.description = describe(top[i].chromosome);
        row.train_fitness = top[i].fitness;
      } else {
        row.train_fitness = r.defaults_train_fitness;
        try {
          Chromosome d = from_rl_config(base);
          row.genes = d.key();
          row.description = describe(d);
        } catch (const Error&) {
          row.description = "paper defaults";
        }
      }
      row.ok = evals[i].ok;
      row.suite = evals[i].ok ? evals[i].fitness : NAN;
      row.train = evals[i].ok ? geomean_speedup(evals[i].kernels, train_names) : NAN;
      row.heldout = evals[i].ok && !heldout_names.empty() ? geomean_speedup(evals[i].kernels, heldout_names) : NAN;
      if (!is_default && row.ok && row.suite > best_suite) {
        best_suite = row.suite;
        r.best = top[i].chromosome;
        r.best_train_fitness = top[i].fitness;
      }
      r.final_rows.push_back(row);
    }
    write_file_atomic(dir + "/final.csv", final_csv(r.final_rows));
  }

  std::string best_toml = rl::rl_config_to_toml(to_rl_config(r.best, base));
  r.best_file = dir + "/best.toml";
  write_file_atomic(r.best_file, best_toml);
  r.runs = ev.runs();
  r.cache_hits = ev.cache_hits();
  r.failed_runs = ev.failed_runs();
  r.run_seconds = ev.run_seconds();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string svg = fitness_svg(r.generations, o.eval.scheduler);
  r.report_file = dir + "/report.html";
  write_file_atomic(r.report_file, report_html(o, r, svg, best_toml));
  return r;
}

}  // namespace warpsim::search

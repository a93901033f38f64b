#include "experiment/compare.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/results.h"
#include "experiment/runner.h"
#include "sched/scheduler.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;

std::vector<std::string> all_schedulers() {
  std::vector<std::string> out;
  for (const auto& f : scheduler_registry()) out.push_back(f.name);
  return out;
}

std::string ipaws_oracle_force(const nlohmann::json& lrr_run, const nlohmann::json& gto_run) {
  // launch index -> kernel cycles
  auto cycles_by_launch = [](const nlohmann::json& run) {
    std::map<uint64_t, double> m;
    if (!run.contains("kernels") || !run["kernels"].is_array()) return m;
    for (const auto& k : run["kernels"]) {
      if (!k.is_object()) continue;
      m[k.value("launch", uint64_t(0))] = k.value("kernel_cycles", k.value("cycles", 0.0));
    }
    return m;
  };
  auto l = cycles_by_launch(lrr_run), g = cycles_by_launch(gto_run);
  if (l.empty() || l.size() != g.size()) return "";
  std::string out;
  uint64_t expect = 0;
  for (const auto& [launch, lc] : l) {
    auto it = g.find(launch);
    if (it == g.end() || launch != expect++) return "";
    if (!out.empty()) out += ',';
    out += lc < it->second ? "lrr" : "gto";
  }
  return out;
}

namespace {

// The iPAWS_Oracle pairs: per workload with cached LRR and GTO results, the ipaws pair with
// force set to the better policy of each launch.
std::vector<Pair> ipaws_oracle_pairs(const CompareOptions& opts, const std::vector<Pair>& pairs, const Layout& layout) {
  std::vector<Pair> out;
  if (!opts.ipaws_oracle) return out;
  auto find = [&](const std::string& workload, const char* sched) -> const Pair* {
    for (const auto& p : pairs)
      if (p.workload == workload && p.scheduler.name == sched) return &p;
    return nullptr;
  };
  std::string dump = dump_toml(opts.spec.gpu);
  for (const auto& p : pairs) {
    if (p.scheduler.name != "ipaws") continue;
    const Pair* lp = find(p.workload, "lrr");
    const Pair* gp = find(p.workload, "gto");
    if (!lp || !gp) continue;
    auto lrun = load_cached(layout, *lp), grun = load_cached(layout, *gp);
    if (!lrun || !grun) continue;
    std::string force = ipaws_oracle_force(*lrun, *grun);
    if (force.empty()) continue;
    Pair q = p;
    q.scheduler.params["force"] = force;
    q.key_text = cache_key_text(q.workload_name, q.fingerprint, q.size, q.seed, q.scheduler, opts.spec.gpu.name, dump);
    q.key = hash_hex(q.key_text);
    out.push_back(std::move(q));
  }
  return out;
}

// Category of each workload of the sweep: the catalog's (`warpsim list workloads`), else from
// what the spec names: a .kern file is synthetic, a PTX launch ptx, a directory a trace.
std::map<std::string, std::string> workload_categories(const std::vector<Pair>& pairs) {
  std::map<std::string, std::string> catalog;
  for (const auto& e : workload_catalog()) catalog[e.name] = e.category;
  std::map<std::string, std::string> out;
  for (const auto& p : pairs) {
    if (out.count(p.workload_name)) continue;
    auto it = catalog.find(p.workload_name);
    std::string cat = it != catalog.end() ? it->second : "other";
    if (it == catalog.end()) {
      std::error_code ec;
      if (p.workload.size() > 5 && p.workload.compare(p.workload.size() - 5, 5, ".kern") == 0)
        cat = "synthetic";
      else if (p.workload.find(".ptx") != std::string::npos)
        cat = "ptx";
      else if (fs::is_directory(p.workload, ec))
        cat = "trace";
    }
    out[p.workload_name] = cat;
  }
  return out;
}

}  // namespace

CompareSummary run_compare(const CompareOptions& opts) {
  if (opts.backend != "local" && opts.backend != "slurm")
    throw Error(fmt::format("unknown backend '{}': expected local or slurm", opts.backend));
  for (const auto& s : opts.spec.schedulers) find_scheduler(s.name);
  Layout layout(opts.out_dir);
  layout.create_dirs();
  std::vector<Pair> pairs = plan_pairs(opts.spec, opts.resolve);
  std::string gpu_file = layout.write_gpu_config(opts.spec.gpu);
  std::string exe = opts.exe.empty() ? self_executable() : opts.exe;
  int jobs = opts.jobs > 0 ? opts.jobs : int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));

  // Runs pairs with the GPU of `file`, on the chosen backend.
  auto run_pairs = [&](const std::vector<Pair>& todo, const std::string& file, Progress* progress) {
    return opts.backend == "slurm" ? run_pairs_slurm(todo, layout, file, exe, opts.slurm, progress)
                                   : run_pairs_local(todo, layout, file, exe, jobs, progress);
  };

  CompareSummary sum;
  sum.total = pairs.size();
  std::vector<Pair> pending;
  for (const auto& p : pairs)
    if (!load_cached(layout, p)) pending.push_back(p);
  sum.cached = pairs.size() - pending.size();
  fmt::print(opts.progress_out, "{} pairs ({} workloads x {} schedulers): {} cached, {} to run on {}\n", pairs.size(),
             opts.spec.workloads.size(), opts.spec.schedulers.size(), sum.cached, pending.size(),
             opts.backend == "local" ? fmt::format("{} local job{}", jobs, jobs == 1 ? "" : "s") : "Slurm");
  std::fflush(opts.progress_out);

  Progress progress(pairs.size(), sum.cached, opts.tty, opts.progress_out);
  std::vector<PairOutcome> outcomes;
  if (!pending.empty()) {
    outcomes = run_pairs(pending, gpu_file, &progress);
    progress.done();
  }
  sum.ran = pending.size();

  // Second stage: iPAWS_Oracle needs the LRR and GTO results of the first.
  std::vector<Pair> oracle_pairs = ipaws_oracle_pairs(opts, pairs, layout);
  std::vector<Pair> oracle_pending;
  for (const auto& p : oracle_pairs)
    if (!load_cached(layout, p)) oracle_pending.push_back(p);
  std::vector<PairOutcome> oracle_outcomes;
  if (!oracle_pairs.empty()) {
    fmt::print(opts.progress_out, "ipaws_oracle: {} pairs, {} cached, {} to run\n", oracle_pairs.size(),
               oracle_pairs.size() - oracle_pending.size(), oracle_pending.size());
    std::fflush(opts.progress_out);
  }
  if (!oracle_pending.empty()) {
    Progress oracle_progress(oracle_pairs.size(), oracle_pairs.size() - oracle_pending.size(), opts.tty,
                             opts.progress_out);
    oracle_outcomes = run_pairs(oracle_pending, gpu_file, &oracle_progress);
    oracle_progress.done();
  }
  sum.total += oracle_pairs.size();
  sum.cached += oracle_pairs.size() - oracle_pending.size();
  sum.ran += oracle_pending.size();

  // Third stage (--perturb N): the sweep again with every kernel started k cycles later.
  struct Perturbed {
    uint32_t k;
    std::vector<Pair> pairs, pending;
    std::vector<PairOutcome> outcomes;
  };
  std::vector<Perturbed> perturbed;
  for (uint32_t k = 1; k <= opts.perturb; ++k) {
    Perturbed run{k, {}, {}, {}};
    SweepSpec spec = opts.spec;
    spec.gpu = started_later(opts.spec.gpu, k);
    run.pairs = plan_pairs(spec, opts.resolve);
    for (const auto& p : run.pairs)
      if (!load_cached(layout, p)) run.pending.push_back(p);
    fmt::print(opts.progress_out, "started +{}: {} pairs, {} cached, {} to run\n", k, run.pairs.size(),
               run.pairs.size() - run.pending.size(), run.pending.size());
    std::fflush(opts.progress_out);
    if (!run.pending.empty()) {
      Progress p(run.pairs.size(), run.pairs.size() - run.pending.size(), opts.tty, opts.progress_out);
      run.outcomes = run_pairs(run.pending, layout.write_gpu_config(spec.gpu), &p);
      p.done();
    }
    sum.total += run.pairs.size();
    sum.cached += run.pairs.size() - run.pending.size();
    sum.ran += run.pending.size();
    perturbed.push_back(std::move(run));
  }

  Comparison& c = sum.comparison;
  c.gpu = opts.spec.gpu.name;
  c.size = opts.spec.size;
  c.seed = opts.spec.seed;
  c.baseline = opts.baseline;
  c.oracle_set = opts.oracle;
  c.categories = workload_categories(pairs);
  for (const auto& s : opts.spec.schedulers)
    if (std::find(c.schedulers.begin(), c.schedulers.end(), s.name) == c.schedulers.end()) {
      c.schedulers.push_back(s.name);
      if (s.name == "ipaws" && !oracle_pairs.empty()) c.schedulers.push_back("ipaws_oracle");
    }
  // Each failed run as "workload / what: why (log)".
  auto report_failures = [&](const std::vector<Pair>& ran, const std::vector<PairOutcome>& outs,
                             const std::string& what, const std::string& suffix) {
    for (size_t i = 0; i < ran.size(); ++i) {
      if (outs[i].ok) continue;
      ++sum.failed;
      std::string msg = outs[i].message;
      while (!msg.empty() && msg.back() == '\n') msg.pop_back();
      c.failures.push_back(fmt::format("{} / {}{}: {}\n  (log: {})", ran[i].workload_name,
                                       what.empty() ? ran[i].scheduler.name : what, suffix, msg,
                                       layout.log_file(ran[i])));
    }
  };
  report_failures(pending, outcomes, "", "");
  report_failures(oracle_pending, oracle_outcomes, "ipaws_oracle", "");
  for (const auto& run : perturbed)
    report_failures(run.pending, run.outcomes, "", fmt::format(" (started +{})", run.k));
  for (const auto& p : pairs) {
    auto run = load_cached(layout, p);
    if (!run) continue;
    for (auto& row : tidy_rows(p, *run)) c.rows.push_back(std::move(row));
    c.ipc.push_back(ipc_series_of(p.workload_name, p.scheduler.name, *run));
  }
  for (const auto& p : oracle_pairs) {
    auto run = load_cached(layout, p);
    if (!run) continue;
    for (auto& row : tidy_rows(p, *run)) {
      row["scheduler"] = "ipaws_oracle";
      c.rows.push_back(std::move(row));
    }
    c.ipc.push_back(ipc_series_of(p.workload_name, "ipaws_oracle", *run));
  }
  c.finish();

  write_file_atomic((fs::path(layout.dir()) / "results.csv").string(), to_csv(c.rows));
  write_file_atomic((fs::path(layout.dir()) / "results.jsonl").string(), to_jsonl(c.rows));
  write_file_atomic((fs::path(layout.dir()) / "scheduler_report.csv").string(), scheduler_report_csv(c.rows));
  sum.summary = text_summary(c);
  if (!perturbed.empty()) {
    // Each perturbed run's launches, the k cycles they started later taken off, in tables of the
    // sweep's schedulers.
    std::vector<std::string> scheds;
    for (const auto& s : opts.spec.schedulers)
      if (std::find(scheds.begin(), scheds.end(), s.name) == scheds.end()) scheds.push_back(s.name);
    std::vector<nlohmann::json> base_rows;
    for (const auto& row : c.rows)
      if (row.value("scheduler", std::string()) != "ipaws_oracle") base_rows.push_back(row);
    std::vector<CycleTable> tables;
    for (const auto& run : perturbed) {
      std::vector<nlohmann::json> rows;
      for (const auto& p : run.pairs) {
        auto result = load_cached(layout, p);
        if (!result) continue;
        for (auto& row : tidy_rows(p, *result)) {
          row["cycles"] = row.value("cycles", 0.0) - double(run.k);
          rows.push_back(std::move(row));
        }
      }
      tables.push_back(cycle_table(rows, scheds));
    }
    sum.spread = comparison_spread(cycle_table(base_rows, scheds), tables, opts.baseline);
    sum.summary += "\n" + spread_summary(sum.spread);
    write_file_atomic((fs::path(layout.dir()) / "spread.csv").string(), spread_csv(sum.spread));
  }
  write_file_atomic((fs::path(layout.dir()) / "summary.txt").string(), sum.summary);
  sum.report = write_report(c, layout.dir());
  return sum;
}

}  // namespace warpsim::experiment

// `warpsim qos`: multikernel (QoS) experiments. Pairs of kernels K1:K2 share every SM (K1 on
// stream 1, K2 on stream 2 `--delay` cycles later) under each scheduler; schedulers that take
// budgets (QAWS) are swept over K2's budget. Writes tidy results, the paper's three plots and
// an HTML report; with --target-response, the smallest K2 budget meeting a response time.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "cli/options.h"
#include "core/error.h"
#include "core/json_file.h"
#include "core/strings.h"
#include "experiment/budget_search.h"
#include "experiment/qos_output.h"
#include "experiment/qos_sweep.h"
#include "experiment/svg_chart.h"
#include "sched/scheduler.h"

namespace warpsim::cli {

namespace {

namespace fs = std::filesystem;

// The paper's kernels (QAWS Table Ib) as persistent-thread workloads.
const std::vector<std::string> kPaperKernels = {"pc_pt",     "pathfinder_pt", "conv2d_pt",
                                                "dxtc_pt",   "binomial_pt",   "vectoradd_pt",
                                                "matmul_pt", "histogram_pt",  "atax_pt"};
// Heterogeneous pairs: kernels whose isolated response times are within a factor of 1.4 of
// each other (titanv, small size), as the paper chooses them, mixing compute- and
// memory-intensive kernels.
const std::vector<std::pair<std::string, std::string>> kHeterogeneous = {
    {"pc_pt", "histogram_pt"},     {"pathfinder_pt", "dxtc_pt"},  {"binomial_pt", "atax_pt"},
    {"conv2d_pt", "vectoradd_pt"}, {"matmul_pt", "histogram_pt"}, {"dxtc_pt", "binomial_pt"}};

struct QosArgs {
  std::vector<std::string> pairs;
  std::string schedulers = "lrr,gto,qaws";
  std::string budgets;
  std::vector<std::string> budget_items;
  std::string baseline = "lrr";
  GpuOptions gpu;
  uint64_t delay = 8;
  std::string size = "small";
  uint64_t seed = 1;
  double target_response = 0;
  std::string out = "results/qos";
  int jobs = 0;
  bool no_cache = false;
  std::string cache;
};

uint32_t parse_budget(const std::string& text, const std::string& what) {
  try {
    size_t used = 0;
    long long v = std::stoll(text, &used);
    if (used == text.size() && v >= 1 && v <= 1000000) return uint32_t(v);
  } catch (const std::exception&) {
  }
  throw Error(fmt::format("{}: '{}' is not a budget (an integer in 1..1000000)", what, text));
}

std::vector<std::pair<std::string, std::string>> parse_pairs(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& item : items) {
    if (item == "homogeneous") {
      for (const auto& k : kPaperKernels) pairs.emplace_back(k, k);
      continue;
    }
    if (item == "heterogeneous") {
      for (const auto& p : kHeterogeneous) pairs.push_back(p);
      continue;
    }
    size_t colon = item.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size() ||
        item.find(':', colon + 1) != std::string::npos)
      throw Error(
          fmt::format("pair '{}': expected K1:K2 (two workload names), 'homogeneous' or 'heterogeneous'", item));
    pairs.emplace_back(item.substr(0, colon), item.substr(colon + 1));
  }
  if (pairs.empty()) throw Error("qos: no pair given");
  return pairs;
}

std::string html_report(const experiment::QosSweepResult& r, const experiment::QosCharts& charts,
                        const std::string& summary, const std::string& command) {
  std::string h =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>warpsim qos</title>\n"
      "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}</style></head><body>\n";
  h += "<h1>Multikernel QoS experiment</h1>\n<pre>" + experiment::svg::xml_escape(command) + "</pre>\n";
  h += "<h2>Response times</h2>\n" + charts.response + "\n<h2>K2 speedup</h2>\n" + charts.speedup +
       "\n<h2>Average execution time</h2>\n" + charts.avg_exec + "\n";
  h += "<h2>Summary</h2>\n<pre>" + experiment::svg::xml_escape(summary) + "</pre>\n";
  h += "<h2>All runs</h2>\n<table><tr><th>pair</th><th>scheduler</th><th>K2 budget</th><th>K1 cycles</th>"
       "<th>K2 cycles</th><th>K1 alone</th><th>K2 alone</th><th>K2 speedup</th><th>STP</th><th>ANTT</th>"
       "<th>shared SMs</th><th>verified</th></tr>\n";
  for (const auto& row : r.rows)
    h += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3f}</td>"
        "<td>{:.3f}</td><td>{:.3f}</td><td>{}/{}</td><td>{}</td></tr>\n",
        experiment::svg::xml_escape(row.pair), row.scheduler, row.budget ? std::to_string(row.budget) : "-", row.rt1,
        row.rt2, row.alone1, row.alone2, row.k2_speedup, row.stp, row.antt, row.shared_sms, row.sms,
        row.verified ? "yes" : "NO");
  h += "</table>\n</body></html>\n";
  return h;
}

int qos(QosArgs& a, const std::string& command) {
  experiment::QosSweepSpec spec;
  spec.pairs = parse_pairs(a.pairs);
  spec.schedulers = split_items(a.schedulers);
  if (spec.schedulers.empty()) throw Error("--schedulers names no scheduler");
  for (const auto& s : spec.schedulers) find_scheduler(s);
  spec.baseline = a.baseline;
  bool target_mode = a.target_response > 0;
  std::string budgets = a.budgets.empty() ? (target_mode ? "1,2,3,4,6,8,12,16" : "2,4,8") : a.budgets;
  for (const auto& b : split_items(budgets)) spec.budgets.push_back(parse_budget(b, "--budgets"));
  for (const auto& [key, value] : split_kv(a.budget_items, "--budget")) {
    uint32_t b = parse_budget(value, "--budget " + key);
    if (key == "k1" || key == "K1")
      spec.k1_budget = b;
    else if (key == "k2" || key == "K2")
      spec.budgets = {b};
    else
      spec.extra_budgets["budget." + key] = std::to_string(b);
  }
  spec.gpu = a.gpu.load();
  spec.size = a.size;
  spec.seed = a.seed;
  spec.delay = a.delay;
  spec.jobs = a.jobs > 0 ? a.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  fs::create_directories(a.out);
  if (!a.no_cache) spec.cache_dir = a.cache.empty() ? (fs::path(a.out) / "cache").string() : a.cache;

  bool tty = ::isatty(2);
  experiment::QosSweepResult r = experiment::run_qos_sweep(spec, {}, [tty](size_t done, size_t total) {
    if (tty)
      fmt::print(stderr, "\rruns: {}/{}", done, total);
    else if (done == total)
      fmt::print(stderr, "runs: {}/{}\n", done, total);
  });
  if (tty) fmt::print(stderr, "\n");

  // Text summary: the best budget of each scheduler per pair.
  std::string s =
      fmt::format("{:<28} {:<6} {:>6} {:>9} {:>9} {:>7} {:>7} {:>8} {:>7} {:>6} {:>6} {:>7}\n", "pair", "sched",
                  "budget", "K1 cyc", "K2 cyc", "K1 norm", "K2 norm", "K2 spdup", "avg", "STP", "ANTT", "shared");
  for (const auto& row : r.rows)
    if (row.best)
      s += fmt::format(
          "{:<28} {:<6} {:>6} {:>9} {:>9} {:>7.3f} {:>7.3f} {:>8.3f} {:>7.3f} {:>6.3f} {:>6.3f} {:>3}/{:<3}{}\n",
          row.pair, row.scheduler, row.budget ? std::to_string(row.budget) : "-", row.rt1, row.rt2, row.norm_rt1,
          row.norm_rt2, row.k2_speedup, row.norm_avg_exec, row.stp, row.antt, row.shared_sms, row.sms,
          row.verified ? "" : " UNVERIFIED");
  s += "\ngeometric mean over pairs (best budget):\n";
  for (const auto& sched : spec.schedulers)
    s += fmt::format("  {:<6} K2 speedup {:.3f}  avg exec {:.3f}  STP {:.3f}  ANTT {:.3f}\n", sched,
                     experiment::mean_over_pairs(r.rows, sched, &experiment::QosRow::k2_speedup),
                     experiment::mean_over_pairs(r.rows, sched, &experiment::QosRow::norm_avg_exec),
                     experiment::mean_over_pairs(r.rows, sched, &experiment::QosRow::stp),
                     experiment::mean_over_pairs(r.rows, sched, &experiment::QosRow::antt));

  nlohmann::json targets = nlohmann::json::array();
  if (target_mode) {
    s += fmt::format("\nsmallest K2 budget with K2 response <= {} cycles:\n", a.target_response);
    for (const auto& sched : r.budgeted)
      for (const auto& [k1, k2] : spec.pairs) {
        std::string pair = k1 + ":" + k2;
        auto response = [&](uint32_t b) {
          for (const auto& row : r.rows)
            if (row.pair == pair && row.scheduler == sched && row.budget == b) return row.rt2;
          throw Error(fmt::format("internal: no run of {} with budget {}", pair, b));
        };
        uint32_t found = experiment::smallest_budget(spec.budgets, response, a.target_response);
        s += fmt::format("  {:<28} {:<6} {}\n", pair, sched, found ? std::to_string(found) : "none of the budgets");
        targets.push_back({{"pair", pair},
                           {"scheduler", sched},
                           {"target", a.target_response},
                           {"budget", found ? nlohmann::json(found) : nlohmann::json(nullptr)}});
      }
    if (r.budgeted.empty()) s += "  (no scheduler in --schedulers takes budgets)\n";
  }
  bool unshared = false, unverified = false;
  for (const auto& row : r.rows) {
    unshared |= row.shared_sms != row.sms;
    unverified |= !row.verified;
  }
  if (unshared) s += "\nwarning: in some runs K1 and K2 did not share every SM (see the shared column)\n";

  experiment::QosCharts charts = experiment::qos_charts(r.rows, spec.schedulers, spec.baseline);
  fs::path out(a.out);
  write_file_atomic((out / "qos.csv").string(), experiment::rows_to_csv(r.rows));
  nlohmann::json j;
  j["command"] = command;
  j["gpu"] = spec.gpu.name;
  j["size"] = spec.size;
  j["seed"] = spec.seed;
  j["delay"] = spec.delay;
  j["k1_budget"] = spec.k1_budget;
  j["budgets"] = spec.budgets;
  j["budgeted_schedulers"] = r.budgeted;
  j["rows"] = experiment::rows_to_json(r.rows);
  if (target_mode) j["target_response"] = targets;
  write_json_atomic((out / "qos.json").string(), j);
  write_file_atomic((out / "response.svg").string(), charts.response);
  write_file_atomic((out / "speedup.svg").string(), charts.speedup);
  write_file_atomic((out / "avg_exec.svg").string(), charts.avg_exec);
  write_file_atomic((out / "report.html").string(), html_report(r, charts, s, command));
  fmt::print("{}", s);
  std::string dir = fs::absolute(out).lexically_normal().string();
  fmt::print("\nruns: {} ({} cached)\nresults: {}/qos.csv, {}/qos.json\nreport: {}/report.html\n", r.runs, r.cached,
             dir, dir, dir);
  if (unverified) {
    fmt::print(stderr, "error: some workloads failed their verification\n");
    return 1;
  }
  return 0;
}

void add_qos_command(CLI::App& app) {
  auto a = std::make_shared<QosArgs>();
  auto* cmd = app.add_subcommand("qos", "multikernel QoS experiments: kernel pairs sharing every SM");
  cmd->add_option("pairs", a->pairs,
                  "K1:K2 workload pairs (K2 launched --delay cycles after K1); 'homogeneous' = the nine "
                  "paper kernels with themselves, 'heterogeneous' = six mixed pairs")
      ->required();
  cmd->add_option("--schedulers", a->schedulers, "comma-separated schedulers")->capture_default_str();
  cmd->add_option("--budgets", a->budgets,
                  "K2 budgets swept for schedulers that take budgets (K1 keeps 1) [2,4,8; with "
                  "--target-response 1,2,3,4,6,8,12,16]");
  cmd->add_option("--budget", a->budget_items,
                  "KERNEL=B: k1=B sets K1's budget, k2=B fixes K2's; any other key is passed as the "
                  "scheduler parameter budget.KERNEL=B (kernel name, launch index, stream.ID) (repeatable)");
  cmd->add_option("--baseline", a->baseline, "scheduler response times are normalised to")->capture_default_str();
  a->gpu.gpu = "titanv";
  a->gpu.add(*cmd);
  cmd->add_option("--delay", a->delay, "cycles between K1's and K2's launch")->capture_default_str();
  cmd->add_option("--size", a->size, "problem size: small | default | paper")->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--target-response", a->target_response,
                  "report the smallest K2 budget (of --budgets) whose K2 response time is at most CYCLES")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", a->out, "output directory (results, cache, plots, report)")->capture_default_str();
  cmd->add_option("--jobs,-j", a->jobs, "runs at a time (default: number of cores)");
  cmd->add_option("--cache", a->cache, "directory of cached runs (default: DIR/cache); sweeps may share one");
  cmd->add_flag("--no-cache", a->no_cache, "run everything again (ignore and do not write DIR/cache)");
  cmd->callback([a] {
    std::string command = "warpsim qos";
    for (const auto& p : a->pairs) command += " " + p;
    command += " --schedulers " + a->schedulers;
    if (!a->budgets.empty()) command += " --budgets " + a->budgets;
    for (const auto& b : a->budget_items) command += " --budget " + b;
    command += fmt::format(" --gpu {} --size {} --delay {}", a->gpu.gpu, a->size, a->delay);
    if (a->target_response > 0) command += fmt::format(" --target-response {}", a->target_response);
    int rc = qos(*a, command);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const CommandRegistrar reg{"qos", add_qos_command};

}  // namespace

}  // namespace warpsim::cli

// `warpsim bench`: simulation speed of the bundled workloads on one thread, with the scaling
// of the cost per warp instruction with the SM count and the problem size. docs/performance.md.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/options.h"
#include "core/error.h"
#include "experiment/bench.h"

namespace warpsim::cli {

namespace {

// A cost per warp instruction more than this many times that of the smallest point is flagged.
constexpr double kScalingLimit = 1.5;

struct BenchArgs {
  experiment::BenchOptions o;
  std::vector<std::string> workloads, gpus, schedulers, sizes;
  std::string sms;
  std::string csv;
};

std::vector<uint32_t> parse_sms(const std::string& text) {
  std::vector<uint32_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t used = 0;
    unsigned long n = 0;
    try {
      n = std::stoul(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || n == 0 || n > 4096)
      throw Error(
          fmt::format("--sms '{}': expected a comma-separated list of SM counts (1-4096), got '{}'", text, item));
    out.push_back(uint32_t(n));
  }
  if (out.empty()) throw Error("--sms: expected a comma-separated list of SM counts");
  std::sort(out.begin(), out.end());
  return out;
}

int report_scaling(const std::vector<experiment::BenchRow>& rows, const std::string& axis,
                   const std::vector<std::string>& order) {
  auto groups = experiment::bench_scaling(rows, axis, order);
  if (groups.empty()) return 0;
  size_t over = 0;
  fmt::print("\n{}", experiment::bench_scaling_text(groups, axis, kScalingLimit, &over));
  double worst = 0;
  for (const auto& g : groups) worst = std::max(worst, g.max_ratio);
  fmt::print("largest growth: {:.2f}x ({} of {} above {}x)\n", worst, over, groups.size(), kScalingLimit);
  return int(over);
}

int bench(BenchArgs& a) {
  a.o.workloads = a.workloads;
  if (!a.gpus.empty()) a.o.gpus = a.gpus;
  if (!a.schedulers.empty()) a.o.schedulers = a.schedulers;
  if (!a.sizes.empty()) a.o.sizes = a.sizes;
  if (!a.sms.empty()) a.o.sms = parse_sms(a.sms);
  auto cases = experiment::bench_cases(a.o);

  std::vector<experiment::BenchRow> rows;
  fmt::print("{}", experiment::bench_table_header());
  std::fflush(stdout);
  for (const auto& c : cases) {
    rows.push_back(experiment::run_bench_case(c, a.o.overrides, a.o.repeat, a.o.seed));
    fmt::print("{}", experiment::bench_table_line(rows.back()));
    std::fflush(stdout);
  }
  if (!a.csv.empty()) {
    std::ofstream out(a.csv);
    out << experiment::bench_csv(rows);
    if (!out) throw Error(fmt::format("--csv {}: cannot write", a.csv));
  }
  auto summary = experiment::bench_summary(rows);
  if (!summary.empty()) fmt::print("\n{}", experiment::bench_summary_text(summary));

  std::vector<std::string> sms_order;
  for (uint32_t n : a.o.sms) sms_order.push_back(std::to_string(n));
  report_scaling(rows, "sms", sms_order);
  report_scaling(rows, "size", a.o.sizes);

  size_t failed = 0;
  for (const auto& r : rows) failed += r.failed();
  if (failed) {
    fmt::print(stderr, "bench: {} of {} runs failed verification or stopped with an error\n", failed, rows.size());
    return 3;
  }
  return 0;
}

void add_bench_command(CLI::App& app) {
  auto a = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand(
      "bench", "simulation speed (warp instructions and cycles per host second) of bundled workloads, single-threaded");
  cmd->add_option("--workload,-w", a->workloads, "bundled workload (repeatable; default: every bundled workload)")
      ->allow_extra_args(false);
  cmd->add_option("--gpu", a->gpus, "GPU preset name or TOML file (repeatable; default gtx480)")
      ->allow_extra_args(false);
  cmd->add_option("--scheduler,-s", a->schedulers,
                  "warp scheduler, NAME or NAME:key=value;key=value (repeatable; default gto)")
      ->allow_extra_args(false);
  cmd->add_option("--size", a->sizes,
                  "problem size: small | default | paper (repeatable; several give the growth with size)")
      ->allow_extra_args(false);
  cmd->add_option("--set", a->o.overrides, "override a configuration key of every GPU: --set l1d.size=32K (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--sms", a->sms,
                  "SM counts, e.g. 15,30,80,132: run each case with core.num_sms set to each and report the cost "
                  "per warp instruction relative to the smallest");
  cmd->add_option("--repeat", a->o.repeat, "runs of each case; the fastest counts")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", a->o.seed, "seed of the generated inputs")->capture_default_str();
  cmd->add_option("--csv", a->csv, "also write every run as CSV to this file");
  cmd->callback([a] {
    int rc = bench(*a);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

static const CommandRegistrar reg{"bench", add_bench_command};

}  // namespace

}  // namespace warpsim::cli

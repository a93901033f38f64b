#include "search/evaluator.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/json_file.h"
#include "experiment/results.h"
#include "experiment/runner.h"

namespace warpsim::search {

namespace fs = std::filesystem;
using experiment::Pair;

double geomean_speedup(const std::vector<KernelCycles>& k, const std::vector<std::string>& workloads) {
  double log_sum = 0;
  size_t n = 0;
  for (const auto& r : k) {
    if (!workloads.empty() && std::find(workloads.begin(), workloads.end(), r.workload) == workloads.end()) continue;
    if (!(r.cycles > 0) || !(r.baseline_cycles > 0)) return NAN;
    log_sum += std::log(r.baseline_cycles / r.cycles);
    ++n;
  }
  return n ? std::exp(log_sum / double(n)) : NAN;
}

HarnessEvaluator::HarnessEvaluator(EvaluatorSetup setup) : s_(std::move(setup)) {
  if (s_.dir.empty()) throw Error("the evaluator needs a directory");
  if (!s_.resolve) throw Error("the evaluator needs a workload resolver");
  if (s_.backend != "local" && s_.backend != "slurm")
    throw Error(fmt::format("unknown backend '{}': expected local or slurm", s_.backend));
  s_.dir = experiment::Layout(s_.dir).dir();
  if (s_.jobs <= 0) s_.jobs = int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
}

experiment::WorkloadIdentity HarnessEvaluator::identity_of(const std::string& spec) {
  for (const auto& [k, id] : identities_)
    if (k == spec) return id;
  experiment::WorkloadIdentity id = s_.resolve(spec);
  identities_.push_back({spec, id});
  return id;
}

std::string HarnessEvaluator::config_file(const rl::RlConfig& cfg) const {
  std::string text = rl::rl_config_to_toml(cfg);
  std::string path = fmt::format("{}/candidates/{}.toml", s_.dir, experiment::hash_hex(text).substr(0, 16));
  std::ifstream in(path);
  std::stringstream ss;
  if (in) ss << in.rdbuf();
  if (!in || ss.str() != text) write_file_atomic(path, text);
  return path;
}

std::vector<Evaluation> HarnessEvaluator::evaluate(const std::vector<rl::RlConfig>& configs,
                                                   const std::vector<std::string>& workloads) {
  if (workloads.empty()) throw Error("no workload to evaluate on");
  experiment::Layout layout(s_.dir);
  layout.create_dirs();
  std::error_code ec;
  fs::create_directories(fs::path(s_.dir) / "candidates", ec);
  if (ec) throw Error(fmt::format("cannot create '{}/candidates': {}", s_.dir, ec.message()));

  // Scheduler 0 is the baseline; configuration i runs as scheduler spec_of[i].
  experiment::SweepSpec spec;
  spec.workloads = workloads;
  spec.gpu = s_.gpu;
  spec.size = s_.size;
  spec.seed = s_.input_seed;
  spec.schedulers.push_back(s_.baseline);
  std::vector<size_t> spec_of;
  std::map<std::string, size_t> by_file;
  for (const auto& c : configs) {
    std::string file = config_file(c);
    auto [it, fresh] = by_file.emplace(file, spec.schedulers.size());
    if (fresh) spec.schedulers.push_back({s_.scheduler, {{"rl_config", file}}});
    spec_of.push_back(it->second);
  }
  auto pairs = experiment::plan_pairs(spec, [this](const std::string& w) { return identity_of(w); });
  std::string gpu_file = layout.write_gpu_config(s_.gpu);

  std::vector<Pair> pending;
  for (const auto& p : pairs)
    if (!experiment::load_cached(layout, p)) pending.push_back(p);
  hits_ += pairs.size() - pending.size();
  std::map<std::string, std::string> failure;  // pair key -> message
  std::set<std::string> ran;                   // keys of the pairs run now
  if (!pending.empty()) {
    std::string exe = s_.exe.empty() ? experiment::self_executable() : s_.exe;
    std::unique_ptr<experiment::Progress> progress;
    if (s_.progress_out) progress = std::make_unique<experiment::Progress>(pending.size(), 0, s_.tty, s_.progress_out);
    auto outcomes = s_.backend == "slurm"
                        ? experiment::run_pairs_slurm(pending, layout, gpu_file, exe, s_.slurm, progress.get())
                        : experiment::run_pairs_local(pending, layout, gpu_file, exe, s_.jobs, progress.get());
    if (progress) progress->done();
    runs_ += pending.size();
    for (size_t i = 0; i < pending.size(); ++i) {
      ran.insert(pending[i].key);
      if (!outcomes[i].ok) {
        ++failed_;
        std::string msg = outcomes[i].message;
        while (!msg.empty() && msg.back() == '\n') msg.pop_back();
        failure[pending[i].key] =
            fmt::format("{} failed (log: {}): {}", pending[i].workload_name, layout.log_file(pending[i]), msg);
      }
    }
  }

  // Kernel cycles of every pair, workload-major as plan_pairs orders them.
  const size_t n_sched = spec.schedulers.size();
  std::vector<std::vector<std::pair<std::string, double>>> cycles(pairs.size());
  std::vector<std::string> missing(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto run = experiment::load_cached(layout, pairs[i]);
    if (!run) {
      auto f = failure.find(pairs[i].key);
      missing[i] = f != failure.end() ? f->second : fmt::format("{}: no result", pairs[i].workload_name);
      continue;
    }
    // The run's own time, as the harness recorded it (the Slurm backend reports no times).
    if (ran.count(pairs[i].key) && run->contains("harness"))
      run_seconds_ += (*run)["harness"].value("run_seconds", 0.0);
    for (const auto& row : experiment::tidy_rows(pairs[i], *run))
      cycles[i].push_back({row.value("kernel_id", std::string()), row.value("cycles", 0.0)});
    if (cycles[i].empty()) missing[i] = fmt::format("{}: the run has no kernel", pairs[i].workload_name);
  }
  for (size_t w = 0; w < workloads.size(); ++w)
    if (!missing[w * n_sched].empty())
      throw Error(fmt::format("the baseline {} has no result, so no fitness can be computed: {}", s_.baseline.name,
                              missing[w * n_sched]));

  std::vector<Evaluation> out(configs.size());
  for (size_t c = 0; c < configs.size(); ++c) {
    Evaluation& e = out[c];
    e.ok = true;
    for (size_t w = 0; w < workloads.size() && e.ok; ++w) {
      size_t bi = w * n_sched, ci = w * n_sched + spec_of[c];
      if (!missing[ci].empty()) {
        e.ok = false;
        e.failure = missing[ci];
        break;
      }
      const auto& base = cycles[bi];
      const auto& mine = cycles[ci];
      if (base.size() != mine.size()) {
        e.ok = false;
        e.failure = fmt::format("{}: {} kernels under the baseline, {} under the candidate", pairs[bi].workload_name,
                                base.size(), mine.size());
        break;
      }
      for (size_t k = 0; k < base.size(); ++k) {
        if (base[k].first != mine[k].first || !(mine[k].second > 0) || !(base[k].second > 0)) {
          e.ok = false;
          e.failure = fmt::format("{}: kernel {} has no cycle count", pairs[bi].workload_name, base[k].first);
          break;
        }
        e.kernels.push_back({pairs[bi].workload_name, base[k].first, base[k].second, mine[k].second});
      }
    }
    e.fitness = e.ok ? geomean_speedup(e.kernels) : 0.0;
    if (!std::isfinite(e.fitness)) e.fitness = 0;
  }
  return out;
}

}  // namespace warpsim::search

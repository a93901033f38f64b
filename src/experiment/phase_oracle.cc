#include "experiment/phase_oracle.h"

#include <fmt/format.h>

#include <ctime>
#include <memory>

#include "core/error.h"
#include "timing/gpu.h"
#include "timing/windowed_target.h"

namespace warpsim::experiment {

namespace {

bool better(const PhaseCandidate& a, const PhaseCandidate& b) {
  if (a.finished != b.finished) return a.finished;
  if (a.finished && a.end_cycle != b.end_cycle) return a.end_cycle < b.end_cycle;
  return a.insts > b.insts;
}

SchedulerParams params_for(const PhaseOracleOptions& o, const std::string& policy) {
  auto it = o.params.find(policy);
  return it == o.params.end() ? SchedulerParams{} : it->second;
}

void check_options(const PhaseOracleOptions& o) {
  if (o.window == 0) throw Error("phase oracle: the window must be at least 1 cycle");
  if (o.policies.empty()) throw Error("phase oracle: no candidate policy");
  if (o.lookahead > 1000) throw Error("phase oracle: look-ahead is limited to 1000 windows");
  for (size_t i = 0; i < o.policies.size(); ++i) {
    find_scheduler(o.policies[i]);  // unknown names fail with the list of valid ones
    for (size_t j = 0; j < i; ++j)
      if (o.policies[j] == o.policies[i])
        throw Error(fmt::format("phase oracle: policy '{}' listed twice", o.policies[i]));
  }
}

// The window controller: runs every candidate from a copy of the state at the window start and
// keeps the best. The policy in place continues with its own scheduler state; the others
// start from fresh schedulers.
class PhaseStepper {
 public:
  PhaseStepper(const PhaseOracleOptions& o, PhaseOracleRun& run) : o_(o), run_(run) {}

  void operator()(std::unique_ptr<Gpu>& gpu, int stream) {
    PhaseWindow w;
    w.start = gpu->now();
    w.stream = stream;
    const uint64_t until = w.start + o_.window, insts0 = gpu->warp_insts();
    const size_t n = o_.policies.size();
    // Candidates run in order; the best so far is kept, the others dropped at once. A tie goes
    // to the policy in place (best_phase_candidate with prefer = current_).
    std::vector<std::unique_ptr<Gpu>> runs(n);
    for (size_t i = 0; i < n; ++i) {
      // The last candidate runs on the original: one copy fewer per window.
      std::unique_ptr<Gpu> g;
      if (i + 1 < n) {
        std::clock_t t0 = std::clock();  // processor time: the host may be shared
        g = gpu->clone();
        run_.checkpoint_seconds += double(std::clock() - t0) / CLOCKS_PER_SEC;
        ++run_.checkpoints;
      } else {
        g = std::move(gpu);
      }
      if (int(i) != current_) g->set_scheduler(o_.policies[i], params_for(o_, o_.policies[i]));
      PhaseCandidate c;
      c.policy = o_.policies[i];
      c.finished = g->run_until_cycle(until, stream);
      c.insts = g->warp_insts() - insts0;
      c.end_cycle = c.stop_cycle = g->now();
      if (o_.lookahead > 0 && !c.finished) {
        // Judge the policy over a longer horizon on a copy; the window's own state is kept.
        std::clock_t t0 = std::clock();
        std::unique_ptr<Gpu> probe = g->clone();
        run_.checkpoint_seconds += double(std::clock() - t0) / CLOCKS_PER_SEC;
        ++run_.checkpoints;
        c.finished = probe->run_until_cycle(until + o_.window * o_.lookahead, stream);
        c.insts = probe->warp_insts() - insts0;
        c.end_cycle = probe->now();
      }
      w.candidates.push_back(c);
      runs[i] = std::move(g);
      int b = best_phase_candidate(w.candidates, current_);
      for (size_t k = 0; k <= i; ++k)
        if (int(k) != b) runs[k].reset();
    }
    w.chosen = best_phase_candidate(w.candidates, current_);
    current_ = w.chosen;
    gpu = std::move(runs[size_t(w.chosen)]);
    run_.windows.push_back(std::move(w));
  }

  // The policy in place at the start: the first candidate.
  int current_ = 0;

 private:
  const PhaseOracleOptions& o_;
  PhaseOracleRun& run_;
};

}  // namespace

int best_phase_candidate(const std::vector<PhaseCandidate>& c, int prefer) {
  int best = prefer >= 0 && size_t(prefer) < c.size() ? prefer : -1;
  for (size_t i = 0; i < c.size(); ++i)
    if (best < 0 || better(c[i], c[size_t(best)])) best = int(i);
  return best;
}

PhaseOracleRun run_phase_oracle(Workload& workload, const WorkloadOptions& wopts, const GpuConfig& cfg,
                                const PhaseOracleOptions& opts) {
  check_options(opts);
  PhaseOracleRun run;
  auto stepper = std::make_shared<PhaseStepper>(opts, run);
  auto gpu = std::make_unique<Gpu>(cfg, opts.policies[0], params_for(opts, opts.policies[0]));
  WindowedTarget target(std::move(gpu), [stepper](std::unique_ptr<Gpu>& g, int stream) { (*stepper)(g, stream); });
  try {
    run.outcome = workload.run(target, wopts);
  } catch (const Error& e) {
    run.error = e.what();
  }
  run.cycles = target.gpu().now();
  run.warp_insts = target.gpu().warp_insts();
  run.stats = target.gpu().to_json();
  return run;
}

FixedRun run_fixed_policy(Workload& workload, const WorkloadOptions& wopts, const GpuConfig& cfg,
                          const std::string& policy, const SchedulerParams& params) {
  FixedRun r;
  r.policy = policy;
  Gpu gpu(cfg, policy, params);
  try {
    workload.run(gpu, wopts);
  } catch (const Error& e) {
    r.error = e.what();
  }
  r.cycles = gpu.now();
  r.warp_insts = gpu.warp_insts();
  return r;
}

std::map<std::string, double> phase_shares(const PhaseOracleRun& run, const std::vector<std::string>& policies) {
  std::map<std::string, double> share;
  for (const auto& p : policies) share[p] = 0;
  if (run.windows.empty()) return share;
  for (const PhaseWindow& w : run.windows) share[w.candidates[size_t(w.chosen)].policy] += 1;
  for (auto& [p, v] : share) v /= double(run.windows.size());
  return share;
}

nlohmann::json phase_oracle_json(const PhaseOracleRun& run, const PhaseOracleOptions& opts) {
  using nlohmann::json;
  json j;
  j["window"] = opts.window;
  j["lookahead"] = opts.lookahead;
  j["policies"] = opts.policies;
  j["cycles"] = run.cycles;
  j["warp_insts"] = run.warp_insts;
  j["checkpoints"] = run.checkpoints;
  j["checkpoint_seconds"] = run.checkpoint_seconds;
  j["share"] = phase_shares(run, opts.policies);
  json ws = json::array();
  for (const PhaseWindow& w : run.windows) {
    json c = json::array();
    for (const PhaseCandidate& k : w.candidates)
      c.push_back({{"policy", k.policy},
                   {"insts", k.insts},
                   {"end_cycle", k.end_cycle},
                   {"finished", k.finished},
                   {"stop_cycle", k.stop_cycle}});
    ws.push_back({{"start", w.start},
                  {"stream", w.stream},
                  {"chosen", w.candidates[size_t(w.chosen)].policy},
                  {"candidates", c}});
  }
  j["windows"] = ws;
  if (!run.error.empty()) j["error"] = run.error;
  return j;
}

}  // namespace warpsim::experiment

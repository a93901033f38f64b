// QAWS as a warp scheduler: one QawsCore per sub-core; each kernel's budget is resolved from the
// scheduler parameters when the kernel starts (on_kernel_launch).
#include "sched/qaws.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "sched/scheduler.h"

namespace warpsim {
namespace {

// Options read once per SM from the scheduler parameters and shared, read-only, by the SM's
// schedulers; nothing writes them after make_qaws_options, so snapshots share them as they are.
struct QawsOptions : SmSharedState {
  QawsBudgets budgets;
  QawsDecide decide = QawsDecide::LastCycle;
};

void add(nlohmann::json& j, const char* key, uint64_t v) {
  j[key] = (j.contains(key) ? j[key].get<uint64_t>() : 0) + v;
}

class Qaws final : public WarpScheduler {
 public:
  explicit Qaws(std::shared_ptr<const QawsOptions> opt) : opt_(std::move(opt)), core_(opt_->decide) {
    core_.set_unregistered_budget(opt_->budgets.default_budget);
  }

  int select(const SchedulerContext& ctx) override { return core_.select(ctx); }
  void on_issue(const SchedulerContext& ctx, int slot, const WarpInst&) override {
    core_.issued(ctx.now(), slot, ctx.warp(slot).kernel);
  }
  void on_warp_added(int slot) override { core_.warp_added(slot); }
  void on_warp_removed(int slot) override { core_.warp_removed(slot); }
  void on_kernel_launch(const KernelLaunch& k) override {
    int64_t b = opt_->budgets.budget_of(k);
    core_.set_kernel_budget(k.id, b);
    kernels_.push_back({k.id, k.name, k.stream, b});
  }

  void report(nlohmann::json& out) const override {
    out["policy"] = "qaws";
    out["decide"] = qaws_decide_name(core_.decide());
    add(out, "schedulers", 1);
    add(out, "priority_changes", core_.priority_changes());
    // Per budget group (kernels of equal budget), summed over sub-cores.
    nlohmann::json& groups = out["groups"];
    uint64_t yields = 0;
    for (int g = 0; g < core_.num_groups(); ++g) {
      const QawsGroupCounters& c = core_.counters(g);
      nlohmann::json& o = groups[std::to_string(core_.group_budget(g))];
      add(o, "switches", c.switches);
      add(o, "yields", c.yields);
      add(o, "gains", c.gains);
      yields += c.yields;
    }
    add(out, "budget_yields", yields);
    // The same on every sub-core: set, not added.
    nlohmann::json& ks = out["kernels"];
    for (const KernelRecord& r : kernels_)
      ks[std::to_string(r.id)] = {{"name", r.name}, {"stream", r.stream}, {"budget", r.budget}};
  }

  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<Qaws>(*this); }

 private:
  struct KernelRecord {
    uint32_t id;
    std::string name;
    uint32_t stream;
    int64_t budget;
  };
  std::shared_ptr<const QawsOptions> opt_;
  QawsCore core_;
  std::vector<KernelRecord> kernels_;
};

}  // namespace

static std::shared_ptr<SmSharedState> make_qaws_options(const SchedulerParams& params, int) {
  auto opt = std::make_shared<QawsOptions>();
  opt->budgets = QawsBudgets::from_params(params);
  std::string d = params.get_string("decide", "last");
  if (d == "last")
    opt->decide = QawsDecide::LastCycle;
  else if (d == "same")
    opt->decide = QawsDecide::SameCycle;
  else
    throw Error(fmt::format("scheduler parameter 'decide': '{}' is not one of last|same", d));
  return opt;
}

static std::unique_ptr<WarpScheduler> make_qaws(const SchedulerSetup& setup) {
  return std::make_unique<Qaws>(setup.shared_state<const QawsOptions>());
}

namespace {
const SchedulerRegistration kRegistered{{"qaws",
                                         "QoS-aware: warps grouped by kernel budget (budget.KERNEL=B, "
                                         "budget.stream.S=B, budget.default=B, decide=last|same)",
                                         make_qaws,
                                         make_qaws_options,
                                         {{"budget.<kernel>", "",
                                           "issue budget of a kernel: <kernel> is its name, its launch index, "
                                           "stream.<S> (every kernel of stream S) or default (0: no budget)"},
                                          {"decide", "last",
                                           "when the priority moves: last (Algorithm 1: from the previous cycle's "
                                           "issue) or same (in the cycle of the head's stall; docs/qaws.md)"}}}};
}  // namespace

}  // namespace warpsim

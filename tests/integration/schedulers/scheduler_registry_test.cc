// The scheduler registry: policies register themselves from their own file, a factory gets a
// named setup, and the schedulers of one SM share one typed object.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/error.h"
#include "core/strings.h"
#include "experiment/reference.h"
#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

using synth::KernelBuilder;

// A policy defined entirely in this file, as a plug-in would be: it counts how many schedulers
// of its SM share the per-SM object and issues from the oldest ready warp.
struct CountingShared : SmSharedState {
  int schedulers_made = 0;  // written by each scheduler of the SM as it is made
};

class Counting final : public WarpScheduler {
 public:
  Counting(std::shared_ptr<CountingShared> shared, int sched_id) : shared_(std::move(shared)), sched_id_(sched_id) {
    ++shared_->schedulers_made;
  }
  int select(const SchedulerContext& ctx) override {
    for (uint16_t slot : ctx.warps())
      if (ctx.status(slot) == WarpStatus::Ready) return slot;
    return -1;
  }
  std::unique_ptr<WarpScheduler> clone() const override { return std::make_unique<Counting>(*this); }
  const CountingShared& shared() const { return *shared_; }
  int sched_id() const { return sched_id_; }

 private:
  std::shared_ptr<CountingShared> shared_;
  int sched_id_;
};

std::unique_ptr<WarpScheduler> make_counting(const SchedulerSetup& setup) {
  return std::make_unique<Counting>(setup.shared_state<CountingShared>(), setup.sched_id);
}
std::shared_ptr<SmSharedState> make_counting_shared(const SchedulerParams&, int) {
  return std::make_shared<CountingShared>();
}

const SchedulerRegistration kCounting{
    {"test-counting", "oldest ready, counting its SM's schedulers", make_counting, make_counting_shared, {}}};

TEST(SchedulerRegistry, APolicyRegistersItselfFromItsOwnFile) {
  const SchedulerFactory& f = find_scheduler("test-counting");
  EXPECT_EQ(f.description, "oldest ready, counting its SM's schedulers");
  // It runs a kernel like a built-in policy.
  GpuConfig cfg = small_gpu(2, 2);
  KernelBuilder b("k");
  b.grid({4, 1, 1}).block({128, 1, 1}).alu(Unit::SP, 8);
  RunResult r = simulate(cfg, b.build(), "test-counting");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_GT(r.kernels[0].end_cycle, r.kernels[0].start_cycle);
  EXPECT_EQ(r.kernels[0].warp_insts, 4u * 4 * 9);  // 4 CTAs x 4 warps x (8 ALU + EXIT)
}

TEST(SchedulerRegistry, TheBuiltInPoliciesAreRegisteredOnceInNameOrder) {
  std::vector<std::string> names;
  for (const auto& f : scheduler_registry()) {
    names.push_back(f.name);
    EXPECT_FALSE(f.description.empty()) << f.name;
    EXPECT_NE(f.make, nullptr) << f.name;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const char* n :
       {"lrr", "gto", "oldest", "youngest", "tl", "juggler", "r-juggler", "rlws", "rlws_ms", "ipaws", "qaws"})
    EXPECT_NO_THROW(find_scheduler(n)) << n;
  try {
    find_scheduler("nonesuch");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gto|ipaws"), std::string::npos) << e.what();
  }
}

TEST(SchedulerRegistry, TheSchedulersOfOneSmShareOneObjectAndSmsDoNot) {
  const SchedulerFactory& f = find_scheduler("test-counting");
  SchedulerParams p;
  auto sm0 = make_sm_schedulers(f, p, 0, 4);
  auto sm1 = make_sm_schedulers(f, p, 1, 4);
  ASSERT_EQ(sm0.size(), 4u);
  const auto& a = dynamic_cast<const Counting&>(*sm0[0]);
  const auto& d = dynamic_cast<const Counting&>(*sm0[3]);
  const auto& e = dynamic_cast<const Counting&>(*sm1[0]);
  EXPECT_EQ(&a.shared(), &d.shared());
  EXPECT_NE(&a.shared(), &e.shared());
  EXPECT_EQ(a.shared().schedulers_made, 4);
  EXPECT_EQ(a.sched_id(), 0);
  EXPECT_EQ(d.sched_id(), 3);
}

TEST(SchedulerRegistry, ASharedObjectOfAnotherPolicyIsRefused) {
  // RLWS's factory given QAWS's per-SM object (or none) says so instead of misreading it.
  const SchedulerFactory& rlws = find_scheduler("rlws");
  const SchedulerFactory& qaws = find_scheduler("qaws");
  SchedulerParams p;
  ASSERT_NE(qaws.make_sm_state, nullptr);
  std::shared_ptr<SmSharedState> options = qaws.make_sm_state(p, 0);
  EXPECT_THROW(rlws.make({p, 0, 0, 1, options}), Error);
  EXPECT_THROW(rlws.make({p, 0, 0, 1, nullptr}), Error);
  EXPECT_NO_THROW(qaws.make({p, 0, 0, 1, options}));
}

TEST(SchedulerRegistry, EveryParameterAPolicyReadsIsDeclaredWithItsDefault) {
  for (const auto& f : scheduler_registry()) {
    if (f.name == "test-counting") continue;
    SCOPED_TRACE(f.name);
    SchedulerParams p;
    make_sm_schedulers(f, p, 0, 2);
    std::map<std::string, std::string> declared;
    for (const auto& d : f.params)
      if (d.name.find('<') == std::string::npos) declared[d.name] = d.default_value;
    // What the policy read with no parameters given, and the defaults it read them with.
    EXPECT_EQ(p.defaults_read(), declared);
  }
  // A family of keys is read when given (QAWS budgets).
  SchedulerParams q;
  q.set("budget.k1", "3");
  make_sm_schedulers(find_scheduler("qaws"), q, 0, 1);
  EXPECT_TRUE(q.defaults_read().count("budget.k1"));
  EXPECT_NO_THROW(q.check_all_used("qaws"));
}

TEST(SchedulerRegistry, DocsTableTheDeclaredParameters) {
  std::string doc = experiment::read_text(std::string(WARPSIM_SOURCE_DIR) + "/docs/schedulers.md");
  std::string table = scheduler_params_markdown();
  // The test policy of this file is not in the docs.
  std::string built_in;
  for (const auto& line : split(table, '\n'))
    if (line.find("`test-counting`") == std::string::npos && !line.empty()) built_in += line + "\n";
  EXPECT_NE(doc.find(built_in), std::string::npos)
      << "docs/schedulers.md differs from the declarations; its table should read:\n"
      << built_in;
}

}  // namespace
}  // namespace warpsim::test

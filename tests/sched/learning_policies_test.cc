// The reinforcement-learning policies decision by decision against a fake SM: whatever action
// the agent chooses (read back from the policy's report), the warp issued must be the one that
// action names (rlws: Table I pipelines; rlws_ms: Table IX orderings), and an action is only
// chosen when it has a warp.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "fake_sm.h"
#include "sched/order_policies.h"

namespace warpsim::test {
namespace {

using WS = WarpStatus;

// Times each action was chosen so far (kernel 0), in `names` order.
std::vector<double> action_counts(const WarpScheduler& p, const char* key, const std::vector<std::string>& names) {
  nlohmann::json j;
  p.report(j);
  std::vector<double> v;
  for (const std::string& n : names) {
    const nlohmann::json* a = nullptr;
    if (j.contains(key) && j[key]["kernels"].contains("0")) a = &j[key]["kernels"]["0"]["actions"];
    v.push_back(a && a->contains(n) ? (*a)[n].get<double>() : 0.0);
  }
  return v;
}

// The action chosen between two readings (exactly one), or -1 when none.
int chosen(const std::vector<double>& before, const std::vector<double>& after) {
  int a = -1;
  for (size_t i = 0; i < before.size(); ++i) {
    if (after[i] == before[i]) continue;
    EXPECT_EQ(after[i], before[i] + 1);
    EXPECT_EQ(a, -1) << "two actions in one decision";
    a = int(i);
  }
  return a;
}

const std::vector<std::pair<std::string, std::string>> kExplore = {
    {"epsilon", "1"}, {"decide_every", "1"}, {"seed", "7"}};

TEST(Rlws, IssuesAWarpOfThePipelineTheAgentChose) {
  const std::vector<std::string> names = {"NO_INSTR", "SP_INSTR", "SFU_INSTR", "GMEM_INSTR", "STCMEM_INSTR"};
  FakeSm sm(8);
  auto p = make_policy("rlws", kExplore);
  sm.attach(*p);
  sm.start_kernel(0);
  // Two ALU warps (slot 4 the older), an SFU warp, a global load, and a shared load that waits.
  sm.add_warp(0, 1);
  sm.add_warp(4, 0);
  sm.add_warp(1, 2);
  sm.add_warp(2, 3);
  sm.add_warp(3, 4);
  sm.set_next_inst(0, alu_inst());
  sm.set_next_inst(4, alu_inst());
  sm.set_next_inst(1, sfu_inst());
  sm.set_next_inst(2, global_load());
  sm.set_next_inst(3, shared_load());
  sm.set_status(3, WS::RAW);
  std::vector<int> times(names.size(), 0);
  int last_issued = -1, last_action = -1;
  for (int c = 0; c < 300; ++c) {
    // The older ALU warp is sometimes not ready, so that both ALU warps issue.
    sm.set_status(4, c % 5 == 0 ? WS::RAW : WS::Ready);
    auto before = action_counts(*p, "rlws", names);
    int got = sm.cycle();
    int a = chosen(before, action_counts(*p, "rlws", names));
    ASSERT_GE(a, 0) << "cycle " << c << ": no decision";
    ++times[size_t(a)];
    switch (a) {
      case 0:  // NO_INSTR: nothing, and never twice in a row while a warp could issue
        EXPECT_EQ(got, -1) << "cycle " << c;
        EXPECT_NE(last_action, 0) << "cycle " << c;
        break;
      case 1: {  // SP: the warp issued last if it is an ALU warp and ready, else the oldest ready
        bool keep = (last_issued == 0 || last_issued == 4) && sm.status(last_issued) == WS::Ready;
        int oldest = sm.status(4) == WS::Ready ? 4 : 0;
        EXPECT_EQ(got, keep ? last_issued : oldest) << "cycle " << c;
        break;
      }
      case 2:
        EXPECT_EQ(got, 1) << "cycle " << c;
        break;
      case 3:
        EXPECT_EQ(got, 2) << "cycle " << c;
        break;
      default:
        ADD_FAILURE() << "cycle " << c << ": STCMEM chosen with no ready shared-memory warp";
    }
    if (got >= 0) last_issued = got;
    last_action = a;
  }
  for (int a = 0; a < 4; ++a) EXPECT_GT(times[size_t(a)], 20) << names[size_t(a)];
}

TEST(RlwsMs, IssuesTheWarpTheChosenOrderingNames) {
  const std::vector<std::string> names = {"GTO", "YOUNGEST", "LRR", "YOUNGEST_BARRIER", "YOUNGEST_FINISH"};
  FakeSm sm(4);
  auto p = make_policy("rlws_ms", kExplore);
  sm.attach(*p);
  sm.start_kernel(0);
  // Ages out of slot order; CTA 0 (slots 0, 1) has a warp at a barrier, CTA 1 (2, 3) a finished one.
  const uint64_t age[4] = {2, 0, 3, 1};
  for (int s = 0; s < 4; ++s) sm.add_warp(s, age[s], 0, s < 2 ? 0 : 1);
  sm.cta_info(0) = CtaInfo{0, 0, 4, 1, 0, true};
  sm.cta_info(1) = CtaInfo{0, 1, 4, 0, 1, true};
  std::vector<int> times(names.size(), 0);
  int last = -1;
  uint32_t rng = 99;
  for (int c = 0; c < 400; ++c) {
    bool any_ready = false, ready_in[2] = {false, false};
    for (int s = 0; s < 4; ++s) {
      rng = rng * 1103515245u + 12345u;
      bool ready = (rng >> 16) % 2 == 0;
      sm.set_status(s, ready ? WS::Ready : WS::RAW);
      any_ready |= ready;
      ready_in[s < 2 ? 0 : 1] |= ready;
    }
    // What each ordering names now.
    int youngest_in[2] = {-1, -1};
    for (int s : sm.warps())
      if (sm.status(s) == WS::Ready) youngest_in[s < 2 ? 0 : 1] = s;
    const int expect[5] = {first_ready_gto(sm, last), first_ready_youngest(sm), first_ready_lrr(sm, last),
                           youngest_in[0], youngest_in[1]};
    auto before = action_counts(*p, "rlws_ms", names);
    int got = sm.cycle();
    int a = chosen(before, action_counts(*p, "rlws_ms", names));
    if (!any_ready) {
      EXPECT_EQ(a, -1) << "cycle " << c << ": a decision with no ready warp";
      EXPECT_EQ(got, -1);
      continue;
    }
    ASSERT_GE(a, 0) << "cycle " << c;
    ++times[size_t(a)];
    EXPECT_EQ(got, expect[a]) << "cycle " << c << " action " << names[size_t(a)];
    if (a == 3) {
      EXPECT_TRUE(ready_in[0]) << "cycle " << c << ": YOUNGEST_BARRIER without a ready warp in CTA 0";
    }
    if (a == 4) {
      EXPECT_TRUE(ready_in[1]) << "cycle " << c << ": YOUNGEST_FINISH without a ready warp in CTA 1";
    }
    if (got >= 0) last = got;
  }
  for (size_t a = 0; a < names.size(); ++a) EXPECT_GT(times[a], 20) << names[a];
}

// Cycles in each kernel's record of `p`'s report under `key`, by kernel.
std::map<std::string, double> kernel_cycles(const WarpScheduler& p, const char* key) {
  nlohmann::json j;
  p.report(j);
  std::map<std::string, double> m;
  for (const auto& [k, r] : j[key]["kernels"].items()) m[k] = r["cycles"].get<double>();
  return m;
}

// A snapshot goes on from a copy and drops the original, and the next snapshot copies the copy
// (Gpu::clone): each copy counts its cycles in its own record of the running kernel, whichever
// ancestors are gone. A copy that had not counted since it was made once kept its original's
// record and passed it on to its own copy, which, made in the storage of that freed original,
// took the pointer for its own and counted into freed memory or into another kernel's record
// (with glibc's allocator the second copy below reuses the first original's storage, and its
// three copied records take the freed ones' storage in another order).
TEST(RlPolicies, CopiesOfCopiesCountTheirCyclesInTheirOwnRecord) {
  for (const char* name : {"rlws", "rlws_ms"}) {
    SCOPED_TRACE(name);
    std::unique_ptr<WarpScheduler> p = make_policy(name);
    uint64_t now = 0;
    for (uint32_t k = 0; k < 3; ++k) {
      p->on_kernel_start(k);
      p->on_empty_cycles(now, 10);
      now += 10;
    }
    for (int round = 0; round < 8; ++round) {
      p = p->clone();  // counts nothing before it is copied again
      p = p->clone();
      p->on_empty_cycles(now, 10);
      now += 10;
      const std::map<std::string, double> expect = {{"0", 10.0}, {"1", 10.0}, {"2", 10.0 * (round + 2)}};
      ASSERT_EQ(kernel_cycles(*p, name), expect) << "round " << round;
    }
  }
}

}  // namespace
}  // namespace warpsim::test

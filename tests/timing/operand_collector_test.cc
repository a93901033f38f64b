// Physics of the operand collector (oc.*): collector-unit allocation, register-bank conflicts,
// write-back priority and the issue-to-unit delay, each against a figure worked out by hand
// from the model in docs/timing-model.md ("Operand collector").
#include "timing/operand_collector.h"

#include <gtest/gtest.h>

#include "support/sim_helpers.h"

namespace warpsim::test {
namespace {

GpuConfig oc_gpu(uint32_t steps, uint32_t collectors, bool subcore = false, uint32_t schedulers = 1) {
  GpuConfig c = small_gpu(1, schedulers);
  c.core.subcore = subcore;
  c.oc.enabled = true;
  c.oc.banks = 8;
  c.oc.port_throughput = steps;
  c.oc.collectors = collectors;  // one general set, no specialized ones
  c.oc.collectors_sp = c.oc.collectors_sfu = c.oc.collectors_mem = 0;
  c.oc.writeback_latency = 2;
  return c;
}

TEST(OperandCollector, UncontendedDelayFollowsTheSteps) {
  // One step per cycle: allocated in cycle 1, read in 2, dispatched in 3, in the unit in 4.
  uint64_t conflicts = 0;
  const RegId a[] = {1, 2};
  OperandCollector one(oc_gpu(1, 4));
  EXPECT_EQ(one.collect(0, 0, Unit::SP, a, 2, 0, &conflicts), 4u);
  EXPECT_EQ(one.base_delay(), 4u);
  // Two steps per cycle: allocation and reads in cycle 1, dispatched in 2, in the unit in 3.
  OperandCollector two(oc_gpu(2, 4));
  EXPECT_EQ(two.collect(0, 0, Unit::SP, a, 2, 0, &conflicts), 3u);
  EXPECT_EQ(two.base_delay(), 3u);
  EXPECT_EQ(conflicts, 0u);
}

TEST(OperandCollector, TwoReadsOfOneBankTakeTwoSteps) {
  uint64_t conflicts = 0;
  OperandCollector oc(oc_gpu(1, 4));
  const RegId same_bank[] = {3, 11};  // 3 and 11 are both bank 3 of 8 for warp slot 0
  EXPECT_EQ(oc.collect(0, 0, Unit::SP, same_bank, 2, 0, &conflicts), 5u);
  EXPECT_EQ(conflicts, 1u);
  // A register read twice by one instruction is read once.
  const RegId twice[] = {4, 4, kNoReg, 4};
  EXPECT_EQ(oc.collect(0, 0, Unit::SP, twice, 4, 10, &conflicts), 4u);
  EXPECT_EQ(conflicts, 1u);
  // The warp slot shifts the bank: register 3 of warp 1 is bank 4, free of warp 0's register 11.
  const RegId r3[] = {3}, r11[] = {11};
  oc.collect(0, 0, Unit::SP, r11, 1, 20, &conflicts);
  EXPECT_EQ(oc.collect(0, 1, Unit::SP, r3, 1, 20, &conflicts), 4u);
  EXPECT_EQ(conflicts, 1u);
}

TEST(OperandCollector, WriteBacksTakeTheBankFirst) {
  uint64_t conflicts = 0;
  OperandCollector oc(oc_gpu(1, 4));
  const RegId r5[] = {5};
  oc.write_back(0, 0, r5, 1, 2);  // a result for register 5 written in cycle 2, the read's step
  EXPECT_EQ(oc.collect(0, 0, Unit::SP, r5, 1, 0, &conflicts), 5u);
  EXPECT_EQ(conflicts, 1u);
}

TEST(OperandCollector, IssueWaitsForACollectorUnit) {
  uint64_t conflicts = 0;
  OperandCollector oc(oc_gpu(1, 2));
  const RegId r[] = {1};
  // Units are held from allocation (step 1) to dispatch (step 3): two instructions in cycle 0
  // take both; a third may still issue into the waiting slot and gets a unit at step 3.
  oc.collect(0, 0, Unit::SP, r, 1, 0, &conflicts);
  oc.collect(0, 1, Unit::SP, r, 1, 0, &conflicts);
  EXPECT_EQ(oc.accept_cycle(0, Unit::SP, 0), 0u);
  EXPECT_EQ(oc.collect(0, 2, Unit::SP, r, 1, 0, &conflicts), 6u);  // allocated 3, read 4, dispatched 5
  // Now both units are held and the waiting slot is taken until step 3: the next instruction
  // can issue in cycle 2, to be allocated a unit in cycle 3.
  EXPECT_EQ(oc.accept_cycle(0, Unit::SP, 0), 2u);
}

TEST(OperandCollector, SubCoresHaveTheirOwnUnitsAndBanks) {
  uint64_t conflicts = 0;
  OperandCollector oc(oc_gpu(1, 4, true, 2));  // 2 units and 4 banks per scheduler
  const RegId r[] = {1};
  oc.collect(0, 0, Unit::SP, r, 1, 0, &conflicts);
  oc.collect(0, 0, Unit::SP, r, 1, 0, &conflicts);
  EXPECT_EQ(conflicts, 1u);                                        // same bank, same scheduler
  EXPECT_EQ(oc.collect(1, 1, Unit::SP, r, 1, 0, &conflicts), 4u);  // the other scheduler's bank
  EXPECT_EQ(conflicts, 1u);
  EXPECT_EQ(oc.accept_cycle(0, Unit::SP, 0), 0u);  // both units held, but the waiting slot is free
}

TEST(OperandCollector, DependentChainPaysTheDelayOnEveryInstruction) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  synth::KernelBuilder b("chain");
  const uint32_t n = 50;
  b.grid({1, 1, 1}).block({32, 1, 1}).alu(Unit::SP, n, true);
  RunResult off = simulate(cfg, b.build());
  cfg.oc = oc_gpu(2, 8).oc;
  RunResult on = simulate(cfg, b.build());
  // Each dependent instruction waits 3 cycles to reach its unit and 2 more for write-back; the
  // warp exits without waiting for the last result.
  EXPECT_EQ(on.stats.cycle - off.stats.cycle, uint64_t(n - 1) * 5);
}

TEST(OperandCollector, ConfigNeedsCollectorsForSpInstructions) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.oc.enabled = true;
  cfg.oc.collectors = 0;
  cfg.oc.collectors_sp = 0;
  cfg.oc.collectors_sfu = 4;
  EXPECT_THROW(validate(cfg), Error);  // SP instructions (and the units borrowing their set) have none
  cfg.oc.collectors_sp = 4;
  EXPECT_NO_THROW(validate(cfg));
  cfg.core.subcore = true;
  cfg.core.schedulers = 4;
  cfg.units[int(Unit::SP)] = uniform_unit(4, 4, 1);
  EXPECT_NO_THROW(validate(cfg));
  cfg.oc.banks = 2;
  EXPECT_THROW(validate(cfg), Error);  // fewer banks than schedulers
  cfg.oc.banks = 8;
  cfg.oc.collectors_sp = 2;
  EXPECT_THROW(validate(cfg), Error);  // not one SP collector unit per scheduler
}

}  // namespace
}  // namespace warpsim::test

namespace warpsim::test {
namespace {

// oc.queued_dispatch: GPGPU-Sim's path from issue to a unit is a queue (issue slot, collector
// units, collector-to-unit slot), so a busy unit stops issue only once the queue is full. One
// warp of independent SP instructions on one SP unit with an initiation interval of 8 and two
// SP collectors: the unit takes one instruction every 8 cycles either way. Issuing only into a
// free unit spaces every issue 8 cycles apart; queued, the first five issue on consecutive
// cycles (the issue slot, two collectors and the collector-to-unit slot fill up behind the unit)
// and the rest follow the unit, so the unit's timeline is the same.
TEST(OperandCollector, QueuedDispatchIssuesAheadOfABusyUnit) {
  GpuConfig cfg = small_gpu(1, 1);
  cfg.icache.perfect = true;
  cfg.core.ibuffer = 8;
  cfg.core.decode_width = 8;
  cfg.units[int(Unit::SP)] = uniform_unit(1, 1, 8);
  cfg.oc.enabled = true;
  cfg.oc.banks = 8;
  cfg.oc.collectors_sp = 2;
  synth::KernelBuilder b("independent");
  b.grid({1, 1, 1}).block({32, 1, 1}).alu(Unit::SP, 12);
  const synth::SyntheticKernel k = b.build();
  auto issues = [&](RunResult& r) {
    r = simulate(cfg, k, "gto", {}, /*log=*/true);
    std::vector<uint64_t> at;
    for (const auto& d : r.log)
      if (d.slot >= 0) at.push_back(d.cycle);
    return at;
  };
  RunResult unit_free, queued;
  const std::vector<uint64_t> a = issues(unit_free);
  ASSERT_GE(a.size(), 12u);
  for (size_t i = 1; i < 12; ++i) EXPECT_EQ(a[i], a[i - 1] + 8) << "instruction " << i;
  cfg.oc.queued_dispatch = true;
  const std::vector<uint64_t> q = issues(queued);
  ASSERT_GE(q.size(), 12u);
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(q[i], q[0] + i) << "instruction " << i;
  EXPECT_GE(q[5], q[0] + 8);
  EXPECT_EQ(q[11] - q[5], 6u * 8);  // behind the unit, one every 8 cycles
  // The last instruction reaches the unit when it would have issued in the other model plus the
  // four cycles from issue to the unit, and its result comes one cycle later; the queued warp
  // exits only after it (the other model lets EXIT issue the cycle after the last instruction).
  EXPECT_EQ(queued.stats.cycle, unit_free.stats.cycle + 4);
}

}  // namespace
}  // namespace warpsim::test

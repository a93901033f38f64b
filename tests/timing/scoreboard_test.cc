// The per-warp scoreboard: a register with a write in flight blocks the instructions that read
// or write it until it is ready; at most kCapacity writes are outstanding at once.
#include "timing/scoreboard.h"

#include <gtest/gtest.h>

namespace warpsim {
namespace {

WarpInst reading(RegId r) {
  WarpInst in{};
  for (auto& s : in.src) s = kNoReg;
  for (auto& d : in.dst) d = kNoReg;
  in.src[0] = r;
  return in;
}

TEST(Scoreboard, PendingLoadBlocksItsReaderUntilReleased) {
  Scoreboard sb;
  sb.reserve(RegId(5), Scoreboard::kPending, 10, /*long_op=*/true);
  uint64_t until = 0;
  EXPECT_TRUE(sb.blocks(reading(RegId(5)), 11, &until));
  EXPECT_EQ(until, Scoreboard::kPending);
  EXPECT_TRUE(sb.reads_long_op(reading(RegId(5)), 11));
  EXPECT_FALSE(sb.blocks(reading(RegId(6)), 11, &until));
  sb.release(RegId(5), 20);
  EXPECT_TRUE(sb.blocks(reading(RegId(5)), 19, &until));
  EXPECT_EQ(until, 20u);
  EXPECT_FALSE(sb.blocks(reading(RegId(5)), 20, &until));
}

TEST(Scoreboard, FullScoreboardBlocksEveryInstructionUntilAnEntryFrees) {
  Scoreboard sb;
  for (int r = 0; r < Scoreboard::kCapacity; ++r) sb.reserve(RegId(r + 1), Scoreboard::kPending, 1, true);
  uint64_t until = 0;
  // An instruction touching none of the pending registers still waits: no entry is free.
  EXPECT_TRUE(sb.blocks(reading(RegId(100)), 2, &until));
  EXPECT_EQ(until, 3u);
  sb.release(RegId(1), 5);
  EXPECT_TRUE(sb.blocks(reading(RegId(100)), 4, &until));
  EXPECT_FALSE(sb.blocks(reading(RegId(100)), 5, &until));
}

// A warp that filled the scoreboard with loads must go on once they have all returned, even
// though nothing has removed their (ready) entries yet: the next reserve frees them.
TEST(Scoreboard, FullOfReturnedLoadsDoesNotBlock) {
  Scoreboard sb;
  for (int r = 0; r < Scoreboard::kCapacity; ++r) sb.reserve(RegId(r + 1), Scoreboard::kPending, 1, true);
  for (int r = 0; r < Scoreboard::kCapacity; ++r) sb.release(RegId(r + 1), 50);
  uint64_t until = 0;
  EXPECT_FALSE(sb.blocks(reading(RegId(100)), 60, &until));
  sb.reserve(RegId(100), 70, 60);
  EXPECT_TRUE(sb.blocks(reading(RegId(100)), 61, &until));
  EXPECT_EQ(until, 70u);
  EXPECT_TRUE(sb.empty_at(70));
}

// Long-op marks (core.long_op_marks_persist): a pending long-op write and a mark make a reader
// "long op"; an execution unit's write takes the mark off but keeps the register long op until
// that write is ready; marks survive clear() (a warp slot's next warp inherits them).
TEST(Scoreboard, LongOpMarksLastUntilAnExecutionUnitOverwritesTheRegister) {
  Scoreboard sb;
  sb.reserve(RegId(7), Scoreboard::kPending, 1, /*long_op=*/true);
  EXPECT_TRUE(sb.reads_long_op_mark(reading(RegId(7)), 2));
  EXPECT_FALSE(sb.reads_long_op_mark(reading(RegId(8)), 2));
  sb.release(RegId(7), 10);
  EXPECT_FALSE(sb.reads_long_op_mark(reading(RegId(7)), 10));  // returned, not marked
  sb.mark_long_op(RegId(7));
  EXPECT_TRUE(sb.reads_long_op_mark(reading(RegId(7)), 100));
  sb.clear();
  EXPECT_TRUE(sb.reads_long_op_mark(reading(RegId(7)), 100));
  sb.mark_long_op(RegId(300));  // beyond the first word of marks
  EXPECT_TRUE(sb.reads_long_op_mark(reading(RegId(300)), 100));
  EXPECT_TRUE(sb.unmark_long_op(RegId(7)));
  EXPECT_FALSE(sb.unmark_long_op(RegId(7)));
  sb.reserve(RegId(7), 110, 100, false, /*over_mark=*/true);
  EXPECT_TRUE(sb.reads_long_op_mark(reading(RegId(7)), 109));
  EXPECT_FALSE(sb.reads_long_op_mark(reading(RegId(7)), 110));
  EXPECT_FALSE(sb.unmark_long_op(RegId(1000)));  // never marked, past the marks' end
}

}  // namespace
}  // namespace warpsim

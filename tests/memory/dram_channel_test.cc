#include "memory/dram_channel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.h"

namespace warpsim {
namespace {

DramConfig dram_cfg(const char* sched = "frfcfs") {
  DramConfig d;
  d.banks = 16;
  d.row_bytes = 2048;
  d.tCL = 12;
  d.tRCD = 12;
  d.tRP = 12;
  d.tRAS = 28;
  d.tCCD = 2;
  d.tWR = 12;
  d.bytes_per_cycle = 32.0;
  d.queue = 8;
  d.scheduler = sched;
  d.latency = 20;
  return d;
}

DramRequest req(uint64_t tag, uint32_t bank, uint32_t row, bool write = false,
                uint32_t bytes = 128) {
  DramRequest r;
  r.addr = tag;
  r.bank = bank;
  r.row = row;
  r.bytes = bytes;
  r.write = write;
  return r;
}

struct Served {
  uint64_t cycle, tag;
};

// Ticks [from, to) and collects returns.
void run(DramChannel& ch, uint64_t from, uint64_t to, MemoryStats& st, std::vector<Served>& out) {
  for (uint64_t t = from; t < to; ++t) {
    DramReturn r;
    while (ch.pop_return(t, r)) out.push_back({t, r.addr});
    ch.tick(t, st);
  }
}

TEST(DramChannel, ClosedBankReadTiming) {
  DramChannel ch(dram_cfg());
  MemoryStats st;
  std::vector<Served> out;
  ch.enqueue(req(1, 0, 0));
  ch.tick(0, st);                   // activate at 0
  EXPECT_EQ(ch.next_event(), 12u);  // column after tRCD
  run(ch, 1, 100, st, out);
  // activate 0, column 12, data 24..28 (128 B at 32 B/cycle), + 20 fixed latency.
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cycle, 0u + 12 + 12 + 4 + 20);
  EXPECT_EQ(st.dram_activates, 1u);
  EXPECT_EQ(st.dram_row_hits, 0u);
  EXPECT_EQ(st.dram_bytes, 128u);
  EXPECT_DOUBLE_EQ(ch.busy_cycles(), 4.0);
}

TEST(DramChannel, RowConflictPaysPrechargeAfterTras) {
  DramChannel ch(dram_cfg());
  MemoryStats st;
  std::vector<Served> out;
  ch.enqueue(req(1, 0, 0));
  ch.enqueue(req(2, 0, 1));
  run(ch, 0, 200, st, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].cycle, 48u);
  // Precharge at max(tRAS after activate 0 = 28, cycle after the column 13) = 28, activate 40,
  // column 52, data 64..68, +20.
  EXPECT_EQ(out[1].cycle, 28u + 12 + 12 + 12 + 4 + 20);
  EXPECT_EQ(st.dram_activates, 2u);
}

TEST(DramChannel, WriteRecoveryDelaysPrecharge) {
  DramChannel ch(dram_cfg());
  MemoryStats st;
  std::vector<Served> out;
  ch.enqueue(req(1, 0, 0, true));
  ch.enqueue(req(2, 0, 1));
  run(ch, 0, 200, st, out);
  // Write: column 12, data 24..28; precharge at 28 + tWR = 40, activate 52, column 64,
  // data 76..80, +20.
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tag, 2u);
  EXPECT_EQ(out[0].cycle, 40u + 12 + 12 + 12 + 4 + 20);
  EXPECT_EQ(st.dram_writes, 1u);
  EXPECT_EQ(st.dram_reads, 1u);
}

// X opens row 0 of bank 0. Then A (row 1) arrives before B (row 0) while tRAS still holds the
// row open: FR-FCFS serves the younger row hit B first, FCFS keeps arrival order.
std::vector<Served> hit_versus_older_miss(const char* sched, MemoryStats& st) {
  DramConfig cfg = dram_cfg(sched);
  cfg.tRAS = 100;
  DramChannel ch(cfg);
  std::vector<Served> out;
  ch.enqueue(req(100, 0, 0));
  run(ch, 0, 50, st, out);
  EXPECT_EQ(out.size(), 1u);
  ch.enqueue(req(1, 0, 1));  // A: older, row miss
  ch.enqueue(req(2, 0, 0));  // B: younger, row hit
  run(ch, 50, 600, st, out);
  EXPECT_EQ(out.size(), 3u);
  return out;
}

TEST(DramChannel, FrFcfsServesRowHitBeforeOlderRowMiss) {
  MemoryStats st;
  std::vector<Served> out = hit_versus_older_miss("frfcfs", st);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].tag, 2u);
  EXPECT_EQ(out[1].cycle, 50u + 12 + 4 + 20);  // column at once
  EXPECT_EQ(out[2].tag, 1u);
  // Precharge at tRAS = 100, activate 112, column 124, data 136..140, +20.
  EXPECT_EQ(out[2].cycle, 100u + 12 + 12 + 12 + 4 + 20);
  EXPECT_EQ(st.dram_row_hits, 1u);
  EXPECT_EQ(st.dram_activates, 2u);
}

TEST(DramChannel, FcfsKeepsArrivalOrder) {
  MemoryStats st;
  std::vector<Served> out = hit_versus_older_miss("fcfs", st);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].tag, 1u);
  EXPECT_EQ(out[1].cycle, 160u);
  EXPECT_EQ(out[2].tag, 2u);
  // Row 0 again: precharge at activate(112) + tRAS = 212, activate 224, column 236, +36.
  EXPECT_EQ(out[2].cycle, 212u + 12 + 12 + 12 + 4 + 20);
  EXPECT_EQ(st.dram_row_hits, 0u);
  EXPECT_EQ(st.dram_activates, 3u);
}

TEST(DramChannel, RowHitStreamIsBusLimitedAtPeak) {
  // 42 B/cycle: a 128-byte burst takes 3.047 cycles, longer than tCCD, so the bus is the limit.
  DramConfig cfg = dram_cfg();
  cfg.bytes_per_cycle = 42.0;
  cfg.queue = 64;
  DramChannel ch(cfg);
  MemoryStats st;
  std::vector<Served> out;
  const int n = 64;  // 4 rows of one bank would conflict; use 16 lines of a row in 4 banks
  for (int i = 0; i < n; ++i) ch.enqueue(req(uint64_t(i), uint32_t(i / 16), 0));
  run(ch, 0, 1000, st, out);
  ASSERT_EQ(out.size(), size_t(n));
  // Activates happen in parallel in the four banks; the first column at 12, data from 24.
  // n bursts back to back end at 24 + n * 128 / 42; the last return is that (rounded up) + 20.
  double end = 24.0 + n * 128.0 / 42.0;
  EXPECT_EQ(out.back().cycle, uint64_t(std::ceil(end)) + 20);
  EXPECT_EQ(st.dram_row_hits, uint64_t(n - 4));
  for (size_t i = 1; i < out.size(); ++i) EXPECT_GE(out[i].cycle, out[i - 1].cycle);
}

// dram.atom: each sector of a request is moved in whole atoms. On a 64-byte-atom channel a
// 128-byte line of 32-byte sectors takes the bus for 4 x 64 bytes; the same line as one piece,
// or in 64-byte pieces, for 128 bytes.
TEST(DramChannel, EverySectorTakesAWholeAtom) {
  auto busy = [](uint32_t atom, uint32_t piece) {
    DramConfig cfg = dram_cfg();
    cfg.atom = atom;
    DramChannel ch(cfg);
    MemoryStats st;
    std::vector<Served> out;
    DramRequest r = req(1, 0, 0);
    r.piece = piece;
    ch.enqueue(r);
    run(ch, 0, 200, st, out);
    EXPECT_EQ(st.dram_bytes, 128u);  // useful bytes
    return ch.busy_cycles();
  };
  EXPECT_DOUBLE_EQ(busy(64, 32), 256.0 / 32.0);
  EXPECT_DOUBLE_EQ(busy(64, 0), 128.0 / 32.0);
  EXPECT_DOUBLE_EQ(busy(64, 64), 128.0 / 32.0);
  EXPECT_DOUBLE_EQ(busy(32, 32), 128.0 / 32.0);
  EXPECT_DOUBLE_EQ(busy(0, 32), 128.0 / 32.0);  // no atom: bytes as they are
}

TEST(DramChannel, BadConfigThrows) {
  DramConfig c = dram_cfg("random");
  EXPECT_THROW(DramChannel{c}, Error);
  c = dram_cfg();
  c.bytes_per_cycle = 0;
  EXPECT_THROW(DramChannel{c}, Error);
}

}  // namespace
}  // namespace warpsim

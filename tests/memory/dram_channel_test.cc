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

DramRequest req(uint64_t tag, uint32_t bank, uint32_t row, bool write = false, uint32_t bytes = 128) {
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

// dram.page_policy: a lone read leaves its row open (open) or closes it once tRAS allows
// (closed). A later read of the same row is a hit only under open; a later read of another row
// pays precharge + activate under open, only the activate under closed.
TEST(DramChannel, ClosedPagePrechargesARowNoQueuedRequestWants) {
  auto second_read = [](const char* policy, uint32_t row, MemoryStats& st) {
    DramConfig c = dram_cfg();
    c.page_policy = policy;
    DramChannel ch(c);
    std::vector<Served> out;
    ch.enqueue(req(1, 0, 0));
    run(ch, 0, 100, st, out);  // activate 0, column 12, returned at 48; tRAS ends at 28
    ch.enqueue(req(2, 0, row));
    run(ch, 100, 300, st, out);
    EXPECT_EQ(out.size(), 2u);
    return out.back().cycle - 100;
  };
  MemoryStats open_same, closed_same, open_other, closed_other;
  EXPECT_EQ(second_read("open", 0, open_same), 12u + 4 + 20);             // column only
  EXPECT_EQ(second_read("closed", 0, closed_same), 12u + 12 + 4 + 20);    // activate, column
  EXPECT_EQ(second_read("open", 1, open_other), 12u + 12 + 12 + 4 + 20);  // precharge, activate, column
  EXPECT_EQ(second_read("closed", 1, closed_other), 12u + 12 + 4 + 20);   // activate, column
  EXPECT_EQ(open_same.dram_row_hits, 1u);
  EXPECT_EQ(closed_same.dram_row_hits, 0u);
  EXPECT_EQ(closed_same.dram_activates, 2u);
}

// Under closed, a request for the open row that is already queued keeps the row open: a
// stream of hits to one row is served as hits, with one activate.
TEST(DramChannel, ClosedPageKeepsARowOpenForQueuedHits) {
  DramConfig c = dram_cfg();
  c.page_policy = "closed";
  DramChannel ch(c);
  MemoryStats st;
  std::vector<Served> out;
  for (uint64_t i = 0; i < 4; ++i) ch.enqueue(req(i, 0, 0));
  run(ch, 0, 200, st, out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(st.dram_activates, 1u);
  EXPECT_EQ(st.dram_row_hits, 3u);
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

// dram.read_atoms / write_atoms count as GPGPU-Sim's `total dram reads/writes`: per request (one
// per sector of a sectored L2) its bytes over the atom, rounded down.
TEST(DramChannel, AtomCountersCountAsGpgpuSim) {
  auto atoms = [](uint32_t atom, uint32_t piece, bool write) {
    DramConfig cfg = dram_cfg();
    cfg.atom = atom;
    DramChannel ch(cfg);
    MemoryStats st;
    std::vector<Served> out;
    DramRequest r = req(1, 0, 0, write);
    r.piece = piece;
    ch.enqueue(r);
    run(ch, 0, 200, st, out);
    EXPECT_EQ(write ? st.dram_writes : st.dram_reads, 1u);
    EXPECT_EQ(write ? st.dram_read_atoms : st.dram_write_atoms, 0u);
    return write ? st.dram_write_atoms : st.dram_read_atoms;
  };
  EXPECT_EQ(atoms(32, 32, false), 4u);  // four 32-byte sectors, one atom each
  EXPECT_EQ(atoms(32, 32, true), 4u);
  EXPECT_EQ(atoms(64, 0, false), 2u);   // one 128-byte request, two 64-byte atoms
  EXPECT_EQ(atoms(64, 32, false), 0u);  // a 32-byte sector is less than one 64-byte atom
  EXPECT_EQ(atoms(0, 32, false), 1u);   // no atom size: one per request
}

// Cycle of each activate and column command, from the channel's counters tick by tick.
struct Commands {
  std::vector<uint64_t> activates, columns;
};
Commands commands(DramChannel& ch, uint64_t to) {
  Commands c;
  MemoryStats st;
  uint64_t acts = 0, cols = 0;
  for (uint64_t t = 0; t < to; ++t) {
    DramReturn r;
    while (ch.pop_return(t, r)) {
    }
    ch.tick(t, st);
    if (st.dram_activates != acts) c.activates.push_back(t), acts = st.dram_activates;
    if (st.dram_reads + st.dram_writes != cols) c.columns.push_back(t), cols = st.dram_reads + st.dram_writes;
  }
  return c;
}

TEST(DramChannel, ActivatesOfDifferentBanksAreTrrdApart) {
  DramConfig cfg = dram_cfg();
  cfg.tRRD = 7;
  DramChannel ch(cfg);
  for (uint32_t b = 0; b < 3; ++b) ch.enqueue(req(b, b, 0));
  Commands c = commands(ch, 200);
  EXPECT_EQ(c.activates, (std::vector<uint64_t>{0, 7, 14}));
  cfg.tRRD = 0;  // without it all three banks open at once
  DramChannel free_ch(cfg);
  for (uint32_t b = 0; b < 3; ++b) free_ch.enqueue(req(b, b, 0));
  EXPECT_EQ(commands(free_ch, 200).activates.size(), 3u);
}

TEST(DramChannel, ActivatesOfOneBankAreTrcApart) {
  DramConfig cfg = dram_cfg();
  cfg.tRC = 60;  // longer than tRAS + tRP = 40
  DramChannel ch(cfg);
  ch.enqueue(req(1, 0, 0));
  ch.enqueue(req(2, 0, 1));
  MemoryStats st;
  std::vector<Served> out;
  run(ch, 0, 300, st, out);
  ASSERT_EQ(out.size(), 2u);
  // The second activate waits for tRC (60) instead of precharge at 28 + tRP = 40: column 72,
  // data 84..88, +20.
  EXPECT_EQ(out[1].cycle, 60u + 12 + 12 + 4 + 20);
}

// A write's data follows its column by tWL; a read of the same open row waits tCDLR after the
// end of that data (write-to-read turnaround).
TEST(DramChannel, ReadAfterWriteWaitsForTheTurnaround) {
  DramConfig cfg = dram_cfg();
  cfg.tWL = 4;
  cfg.tCDLR = 6;
  DramChannel ch(cfg);
  ch.enqueue(req(1, 0, 0, true));
  ch.enqueue(req(2, 0, 0));
  MemoryStats st;
  std::vector<Served> out;
  run(ch, 0, 300, st, out);
  ASSERT_EQ(out.size(), 1u);
  // Write column 12 (tRCD), data 16..20; read column at 20 + 6 = 26, data 38..42, +20.
  EXPECT_EQ(out[0].cycle, 26u + 12 + 4 + 20);
  cfg.tCDLR = 0;
  DramChannel quick(cfg);
  quick.enqueue(req(1, 0, 0, true));
  quick.enqueue(req(2, 0, 0));
  out.clear();
  run(quick, 0, 300, st, out);
  ASSERT_EQ(out.size(), 1u);
  // Even without tCDLR the read column waits until the write's data is out (20): data 32..36.
  EXPECT_EQ(out[0].cycle, 20u + 12 + 4 + 20);
}

// tCCDL spaces column commands within one bank group; banks of different groups only keep
// tCCD. With 4 groups selected by the low bank bits, banks 0 and 4 share a group, 0 and 1 do not.
TEST(DramChannel, ColumnsOfOneBankGroupAreTccdlApart) {
  auto columns = [](uint32_t second_bank, const char* select) {
    DramConfig cfg = dram_cfg();
    cfg.bank_groups = 4;
    cfg.bank_group_select = select;
    cfg.tCCDL = 9.5;
    cfg.bytes_per_cycle = 1024;  // the bus never limits
    DramChannel ch(cfg);
    for (int i = 0; i < 2; ++i) {
      ch.enqueue(req(uint64_t(i), 0, 0));
      ch.enqueue(req(uint64_t(10 + i), second_bank, 0));
    }
    return commands(ch, 300).columns;
  };
  // Same group: 12, then 12 + 9.5 -> 21 (the cycle in which it falls), 31, 40.
  EXPECT_EQ(columns(4, "low"), (std::vector<uint64_t>{12, 21, 31, 40}));
  // Different groups: both banks alternate at tCCD (2); each group every 9.5.
  std::vector<uint64_t> mixed = columns(1, "low");
  ASSERT_EQ(mixed.size(), 4u);
  EXPECT_EQ(mixed[0], 12u);
  EXPECT_EQ(mixed[1], 14u);
  EXPECT_LT(mixed[3], 40u);
  // Selected by the high bits (groups of 4 consecutive banks) 0 and 1 share a group.
  EXPECT_EQ(columns(1, "high"), (std::vector<uint64_t>{12, 21, 31, 40}));
}

// tRTPL: after a read in a bank group, no bank of that group precharges for tRTPL.
TEST(DramChannel, ReadToPrechargeWithinABankGroup) {
  auto second_return = [](uint32_t rtpl) {
    DramConfig cfg = dram_cfg();
    cfg.bank_groups = 4;
    cfg.tRTPL = rtpl;
    cfg.tRAS = 1;
    DramChannel ch(cfg);
    ch.enqueue(req(1, 4, 0));  // opens bank 4, read column at 12
    MemoryStats st;
    std::vector<Served> out;
    run(ch, 0, 5, st, out);
    ch.enqueue(req(2, 0, 0));  // bank 0 (same group): closed, activates at once
    run(ch, 5, 11, st, out);
    ch.enqueue(req(3, 0, 1));  // bank 0 row conflict: precharge after tRAS and tRTPL
    run(ch, 11, 400, st, out);
    EXPECT_EQ(out.size(), 3u);
    return out.empty() ? 0 : out.back().cycle;
  };
  uint64_t base = second_return(0), held = second_return(40);
  EXPECT_GT(held, base);
}

// dram.command_rate: one command slot every 1 / rate cycles. A stream of row hits with a free
// data bus is limited by it, and without dual_command_bus activates take slots from columns.
TEST(DramChannel, CommandBusLimitsCommands) {
  auto last_column = [](double rate, bool dual) {
    DramConfig cfg = dram_cfg();
    cfg.tCCD = 1;
    cfg.bytes_per_cycle = 1024;
    cfg.queue = 64;
    cfg.command_rate = rate;
    cfg.dual_command_bus = dual;
    DramChannel ch(cfg);
    for (int i = 0; i < 32; ++i) ch.enqueue(req(uint64_t(i), uint32_t(i % 8), 0));
    Commands c = commands(ch, 1000);
    EXPECT_EQ(c.columns.size(), 32u);
    return c.columns.empty() ? 0 : c.columns.back();
  };
  uint64_t unlimited = last_column(0, true);
  uint64_t half = last_column(0.5, true);
  EXPECT_GE(half, 12u + 2 * 31);  // 32 columns at one every two cycles from the first
  EXPECT_LT(unlimited, half);
  EXPECT_GT(last_column(0.5, false), half);  // the 8 activates share the bus
}

// The kinds of the column commands in issue order.
std::string column_kinds(DramChannel& ch, uint64_t to) {
  std::string out;
  MemoryStats st;
  uint64_t r = 0, w = 0;
  for (uint64_t t = 0; t < to; ++t) {
    DramReturn ret;
    while (ch.pop_return(t, ret)) {
    }
    ch.tick(t, st);
    for (; r < st.dram_reads; ++r) out += 'R';
    for (; w < st.dram_writes; ++w) out += 'W';
  }
  return out;
}

// dram.write_queue: writes wait apart until write_drain_start of them are queued, then only
// writes are served until fewer than write_drain_stop remain; with no read waiting, writes go.
TEST(DramChannel, SeparateWriteQueueDrainsInBursts) {
  DramConfig cfg = dram_cfg();
  cfg.write_queue = 8;
  cfg.write_drain_start = 4;
  cfg.write_drain_stop = 2;
  {
    DramChannel ch(cfg);  // 3 writes (older) and 3 reads: below the start, reads first
    for (int i = 0; i < 3; ++i) ch.enqueue(req(uint64_t(i), 0, 0, true));
    for (int i = 0; i < 3; ++i) ch.enqueue(req(uint64_t(10 + i), 1, 0));
    EXPECT_EQ(column_kinds(ch, 400), "RRRWWW");
  }
  {
    DramChannel ch(cfg);  // 4 writes: a drain down to 1 write, then the reads, then the last write
    for (int i = 0; i < 4; ++i) ch.enqueue(req(uint64_t(i), 0, 0, true));
    for (int i = 0; i < 3; ++i) ch.enqueue(req(uint64_t(10 + i), 1, 0));
    EXPECT_EQ(column_kinds(ch, 400), "WWWRRRW");
  }
  cfg.write_queue = 0;  // one queue: oldest ready first
  DramChannel shared(cfg);
  for (int i = 0; i < 3; ++i) shared.enqueue(req(uint64_t(i), 0, 0, true));
  for (int i = 0; i < 3; ++i) shared.enqueue(req(uint64_t(10 + i), 1, 0));
  EXPECT_EQ(column_kinds(shared, 400).substr(0, 1), "W");
}

TEST(DramChannel, BadConfigThrows) {
  DramConfig c = dram_cfg("random");
  EXPECT_THROW(DramChannel{c}, Error);
  c = dram_cfg();
  c.bytes_per_cycle = 0;
  EXPECT_THROW(DramChannel{c}, Error);
  c = dram_cfg();
  c.page_policy = "adaptive";
  EXPECT_THROW(DramChannel{c}, Error);
  c = dram_cfg();
  c.tREFI = 100;
  c.tRFC = 100;
  EXPECT_THROW(DramChannel{c}, Error);
  c = dram_cfg();
  c.refresh = "same_bank";
  EXPECT_THROW(DramChannel{c}, Error);
  c = dram_cfg();
  c.tREFI = 1000;
  c.tRFC = 100;
  c.refresh_postpone = 900;
  EXPECT_THROW(DramChannel{c}, Error);
}

// dram.tREFI: a refresh closes the bank's row, and the bank takes no activate for tRFC after it.
// Per bank, bank b of 16 refreshes at tREFI + b * tREFI / 16 (bank 8 at 1500 with tREFI 1000);
// all-bank, every bank at tREFI.
TEST(DramChannel, RefreshClosesRowsAndBlocksActivates) {
  // Read (bank, row 0) at 0, then the same row again at `second`; returns that read's latency.
  auto second_read = [](uint32_t refi, const char* mode, uint32_t bank, uint64_t second, MemoryStats& st,
                        uint32_t postpone = 0) {
    DramConfig c = dram_cfg();
    c.tREFI = refi;
    c.tRFC = 50;
    c.refresh_postpone = postpone;
    c.refresh = mode;
    DramChannel ch(c);
    std::vector<Served> out;
    ch.enqueue(req(1, bank, 0));
    run(ch, 0, second, st, out);
    ch.enqueue(req(2, bank, 0));
    run(ch, second, second + 400, st, out);
    EXPECT_EQ(out.size(), 2u);
    return out.back().cycle - second;
  };
  const uint64_t hit = 12 + 4 + 20, closed = 12 + 12 + 4 + 20;
  MemoryStats none, after, blocked, staggered, together;
  EXPECT_EQ(second_read(0, "per_bank", 0, 1500, none), hit);  // no refresh: the row stays open
  EXPECT_EQ(second_read(1000, "per_bank", 0, 1500, after), closed);
  MemoryStats idle_postponed;  // the bank was idle at its slot: postponement changes nothing
  EXPECT_EQ(second_read(1000, "per_bank", 0, 1500, idle_postponed, 400), closed);
  EXPECT_EQ(second_read(1000, "per_bank", 0, 1010, idle_postponed, 400), 52 + closed);
  // The open row is precharged at 1000, the refresh runs from 1012 (tRP), the activate at 1062.
  EXPECT_EQ(second_read(1000, "per_bank", 0, 1010, blocked), 52 + closed);
  EXPECT_EQ(second_read(1000, "per_bank", 8, 1200, staggered), hit);  // bank 8 refreshes at 1500
  EXPECT_EQ(second_read(1000, "all_bank", 8, 1200, together), closed);
  EXPECT_EQ(none.dram_row_hits, 1u);
  EXPECT_EQ(after.dram_row_hits, 0u);
  EXPECT_EQ(after.dram_activates, 2u);
}

// dram.refresh_postpone: a bank whose open row has queued hits at its refresh slot (1000) serves
// them first, as hits, and refreshes after the last one, so a later read of the row activates.
// Without postponement the refresh closes the row under them at 1000: the rest wait for an
// activate after tRFC (one of them pays it), and that row stays open for the later read.
TEST(DramChannel, RefreshWaitsForQueuedRequestsWhenPostponed) {
  auto hits_at_slot = [](uint32_t postpone, MemoryStats& queued, MemoryStats& later) {
    DramConfig c = dram_cfg();
    c.tREFI = 1000;
    c.tRFC = 50;
    c.refresh_postpone = postpone;
    DramChannel ch(c);
    std::vector<Served> out;
    ch.enqueue(req(1, 0, 0));
    run(ch, 0, 999, later, out);
    for (uint64_t i = 0; i < 8; ++i) ch.enqueue(req(10 + i, 0, 0));  // row 0 hits, queued at the slot
    run(ch, 999, 1400, queued, out);
    ch.enqueue(req(99, 0, 0));
    run(ch, 1400, 1600, later, out);
    EXPECT_EQ(out.size(), 10u);
    return out.back().cycle - 1400;
  };
  MemoryStats q0, l0, q400, l400;
  EXPECT_EQ(hits_at_slot(0, q0, l0), 12u + 4 + 20);             // a hit: the row reopened at 1062
  EXPECT_EQ(hits_at_slot(400, q400, l400), 12u + 12 + 4 + 20);  // closed by the postponed refresh
  EXPECT_EQ(q400.dram_row_hits, 8u);
  EXPECT_EQ(q400.dram_activates, 0u);
  EXPECT_EQ(q0.dram_row_hits, 7u);
  EXPECT_EQ(q0.dram_activates, 1u);
}

// With refresh on, ticking only at next_event() and after each arrival (as the memory system
// does) serves a bursty request stream at exactly the cycles that ticking every cycle does.
// (That a refresh applied late equals one applied at its cycle is checked by the hand-computed
// cases above: the second reads arrive after a refresh of an idle channel.)
TEST(DramChannel, RefreshByEventsMatchesEveryCycle) {
  for (const char* mode : {"per_bank", "all_bank"})
    for (const char* policy : {"open", "closed"})
      for (uint32_t postpone : {0u, 300u}) {
        auto serve = [&](bool every_cycle) {
          DramConfig c = dram_cfg();
          c.tREFI = 700;
          c.tRFC = 60;
          c.refresh_postpone = postpone;
          c.refresh = mode;
          c.page_policy = policy;
          DramChannel ch(c);
          MemoryStats st;
          std::vector<Served> out;
          uint64_t seed = 12345, next_arrival = 0, tag = 0;
          for (uint64_t t = 0; t < 60000; ++t) {
            bool arrived = false;
            if (t >= next_arrival && ch.has_room(1)) {
              seed = seed * 6364136223846793005ull + 1442695040888963407ull;
              ch.enqueue(req(++tag, uint32_t(seed >> 33) % 16, uint32_t(seed >> 40) % 3, (seed >> 50) % 4 == 0));
              next_arrival =
                  t + 1 + (seed % 7 == 0 ? 300 + (seed >> 24) % 1500 : (seed >> 20) % 9);  // bursts and idle gaps
              arrived = true;
            }
            DramReturn r;
            while (ch.pop_return(t, r)) out.push_back({t, r.addr});
            if (every_cycle || arrived || ch.next_event() <= t) ch.tick(t, st);
          }
          EXPECT_GT(out.size(), 100u);
          EXPECT_GT(st.dram_activates, 0u);
          return out;
        };
        std::vector<Served> a = serve(true), b = serve(false);
        ASSERT_EQ(a.size(), b.size()) << mode << " " << policy;
        for (size_t i = 0; i < a.size(); ++i) {
          EXPECT_EQ(a[i].cycle, b[i].cycle) << mode << " " << policy << " return " << i;
          EXPECT_EQ(a[i].tag, b[i].tag) << mode << " " << policy << " return " << i;
        }
      }
}

}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {

// dram.return_queue (GPGPU-Sim -gpgpu_dram_return_queue_size): a channel takes requests only
// while its queued requests and the reads whose data is on its way to the L2 number fewer than
// queue + return_queue + 1. Queue 8, return queue 2: 11 credits. Eight reads of one row leave the
// queue within 100 cycles; their data takes latency 200 to reach the L2 and holds 8 credits
// meanwhile: 3 more requests fit, not 4, though the scheduler queue is empty.
TEST(DramChannel, ReturnQueueCreditsBoundRequestsInFlight) {
  DramConfig cfg = dram_cfg();
  cfg.latency = 200;
  cfg.return_queue = 2;
  DramChannel ch(cfg);
  MemoryStats st;
  std::vector<Served> out;
  for (uint64_t i = 0; i < 8; ++i) ch.enqueue(req(i, 0, 0));
  run(ch, 0, 100, st, out);
  ASSERT_EQ(ch.queued(), 0u);
  ASSERT_EQ(ch.returns_pending(), 8u);
  EXPECT_TRUE(ch.has_room(3));
  EXPECT_FALSE(ch.has_room(4));
  // Without the return queue only the scheduler queue bounds it.
  cfg.return_queue = 0;
  DramChannel free(cfg);
  for (uint64_t i = 0; i < 8; ++i) free.enqueue(req(i, 0, 0));
  run(free, 0, 100, st, out);
  ASSERT_EQ(free.returns_pending(), 8u);
  EXPECT_TRUE(free.has_room(8));
  // Once the data is back the credits are too.
  run(ch, 100, 400, st, out);
  EXPECT_EQ(ch.returns_pending(), 0u);
  EXPECT_TRUE(ch.has_room(8));
}

}  // namespace
}  // namespace warpsim

#include "memory/memory_system.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "core/error.h"
#include "memory/cache.h"

namespace warpsim {
namespace {

// One partition, one slice, one SM, one flit per cycle everywhere, round numbers.
GpuConfig tiny_cfg() {
  GpuConfig c;
  c.core.num_sms = 1;
  c.l2.partitions = 1;
  c.l2.slices_per_partition = 1;
  c.l2.hash = "linear";
  c.icnt.latency = 8;
  c.icnt.flit = 32;
  c.icnt.sm_flits_per_cycle = 1;
  c.icnt.slice_flits_per_cycle = 1;
  c.l2.cache.latency = 10;
  c.dram.tRCD = 12;
  c.dram.tCL = 12;
  c.dram.tRP = 12;
  c.dram.tRAS = 28;
  c.dram.tCCD = 2;
  c.dram.bytes_per_cycle = 32.0;
  c.dram.latency = 20;
  return c;
}

MemRequest read_req(uint64_t addr, uint16_t sm = 0, uint32_t token = 0) {
  MemRequest r;
  r.addr = addr;
  r.sectors = 0xf;
  r.bytes = 128;
  r.kind = MemKind::Read;
  r.sm = sm;
  r.token = token;
  return r;
}

// Sends `r` at cycle `at` (ticking every cycle from `at`) and returns the cycle its response is
// popped.
uint64_t round_trip(MemorySystem& m, MemRequest r, uint64_t at) {
  m.tick(at);
  EXPECT_TRUE(m.can_send(r.sm, at));
  r.issue_cycle = at;
  m.send(r, at);
  for (uint64_t t = at + 1; t < at + 10000; ++t) {
    m.tick(t);
    MemRequest out;
    if (m.pop_response(r.sm, t, out)) {
      EXPECT_EQ(out.token, r.token);
      EXPECT_EQ(out.addr, r.addr);
      return t;
    }
  }
  ADD_FAILURE() << "no response";
  return 0;
}

TEST(MemorySystem, UnloadedLatenciesAreSumsOfConfiguredLatencies) {
  GpuConfig c = tiny_cfg();
  MemorySystem m(c);
  const uint64_t L = 8, l2 = 10, down = 128 / 32 - 1;  // response: 4 flits, 3 behind the head
  // Read miss, bank closed: up, activate->column (tRCD), tCL, 4-cycle burst, DRAM latency,
  // L2 latency, down.
  EXPECT_EQ(round_trip(m, read_req(0), 0), L + 12 + 12 + 4 + 20 + l2 + L + down);
  // Same line again: L2 hit.
  EXPECT_EQ(round_trip(m, read_req(0), 100) - 100, L + l2 + L + down);
  // Next line of the open row: L2 miss, DRAM row hit.
  EXPECT_EQ(round_trip(m, read_req(128), 200) - 200, L + 12 + 4 + 20 + l2 + L + down);
  // Same bank, next row (16 banks * 2048 bytes further): precharge + activate.
  EXPECT_EQ(round_trip(m, read_req(16 * 2048), 300) - 300, L + 12 + 12 + 12 + 4 + 20 + l2 + L + down);
  // A 128-byte write: 4 flits up, acknowledged by the write-back L2 with one flit.
  MemRequest w = read_req(3 * 128);
  w.kind = MemKind::Write;
  EXPECT_EQ(round_trip(m, w, 400) - 400, L + 3 + l2 + L);
  EXPECT_EQ(m.stats().dram_writes, 0u);  // allocated dirty in L2
  // A 4-byte atomic to a closed row of bank 0 (row 2): fetches one 32-byte sector.
  MemRequest a = read_req(2 * 16 * 2048);
  a.kind = MemKind::Atomic;
  a.sectors = 0x1;
  a.bytes = 4;
  EXPECT_EQ(round_trip(m, a, 500) - 500, L + 12 + 12 + 12 + 1 + 20 + l2 + L);
  // The atomic left the sector valid in L2: a read of it hits.
  MemRequest r = read_req(2 * 16 * 2048);
  r.sectors = 0x1;
  r.bytes = 32;
  EXPECT_EQ(round_trip(m, r, 600) - 600, L + l2 + L);
  const MemoryStats& s = m.stats();
  EXPECT_EQ(s.l2_reads, 6u);
  EXPECT_EQ(s.l2_read_hits, 2u);
  EXPECT_EQ(s.l2_writes, 1u);
  EXPECT_EQ(s.dram_reads, 4u);
  EXPECT_EQ(s.dram_activates, 3u);
  EXPECT_EQ(s.dram_row_hits, 1u);
  EXPECT_EQ(s.dram_bytes, 3u * 128 + 32);
  EXPECT_EQ(s.reads_returned, 5u);
  EXPECT_EQ(m.in_flight(), 0u);
  EXPECT_EQ(m.next_event(1000), UINT64_MAX);
}

TEST(MemorySystem, AverageReadLatency) {
  MemorySystem m(tiny_cfg());
  round_trip(m, read_req(0), 0);    // 77
  round_trip(m, read_req(0), 100);  // 29
  EXPECT_EQ(m.stats().read_latency_sum, 77u + 29u);
  EXPECT_EQ(m.average_read_latency(), (77u + 29u) / 2);
}

TEST(MemorySystem, L2MergesReadsOfALineInFlight) {
  GpuConfig c = tiny_cfg();
  c.core.num_sms = 2;
  MemorySystem m(c);
  m.tick(0);
  m.send(read_req(0, 0, 1), 0);
  m.send(read_req(0, 1, 2), 0);
  std::vector<uint64_t> got(2, 0);
  for (uint64_t t = 1; t < 500; ++t) {
    m.tick(t);
    MemRequest out;
    for (int sm = 0; sm < 2; ++sm)
      while (m.pop_response(sm, t, out)) got[out.token - 1] = t;
  }
  EXPECT_EQ(m.stats().dram_reads, 1u);
  EXPECT_EQ(m.stats().l2_reads, 2u);
  // The second request arrives one cycle later at the slice (its port takes one flit per cycle)
  // and merges; both answers come back on different SM ports, the second one slice-port
  // cycles (4 flits) behind.
  EXPECT_EQ(got[0], 77u);
  EXPECT_EQ(got[1], 77u + 4);
}

TEST(MemorySystem, DirtyEvictionsBecomeDramWrites) {
  GpuConfig c = tiny_cfg();
  c.l2.cache.size = 512;  // one set of four 128-byte ways
  c.l2.cache.assoc = 4;
  MemorySystem m(c);
  uint64_t t = 0;
  for (int i = 0; i < 8; ++i) {
    MemRequest w = read_req(uint64_t(i) * 128);
    w.kind = MemKind::Write;
    t = round_trip(m, w, t) + 1;
  }
  // Lines 0-3 were written back when lines 4-7 took their ways.
  for (; t < 2000; ++t) m.tick(t);
  EXPECT_EQ(m.stats().dram_writes, 4u);
  EXPECT_EQ(m.stats().dram_bytes, 4u * 128);
  EXPECT_EQ(m.stats().l2_write_hits, 0u);
  EXPECT_EQ(m.l2_slice_cache(0).writebacks, 4u);
}

TEST(MemorySystem, InjectionPortSerializesFlits) {
  GpuConfig c = tiny_cfg();
  MemorySystem m(c);
  m.tick(0);
  MemRequest w = read_req(0);
  w.kind = MemKind::Write;
  m.send(w, 0);  // 4 flits: the port is busy in cycles 0..3
  EXPECT_FALSE(m.can_send(0, 0));
  EXPECT_EQ(m.next_send_cycle(0, 0), 4u);
  for (uint64_t t = 1; t < 4; ++t) {
    m.tick(t);
    EXPECT_FALSE(m.can_send(0, t));
  }
  m.tick(4);
  EXPECT_TRUE(m.can_send(0, 4));
  EXPECT_EQ(m.next_send_cycle(0, 4), 4u);
}

TEST(MemorySystem, InputQueueBackPressure) {
  GpuConfig c = tiny_cfg();
  c.core.num_sms = 3;
  c.icnt.input_queue = 2;
  MemorySystem m(c);
  m.tick(0);
  MemRequest w = read_req(0);
  w.kind = MemKind::Write;
  m.send(w, 0);                 // 4 flits: at the slice at 8 + 3 = 11
  m.send(read_req(128, 1), 0);  // behind it on the slice port: 12
  // Occupancy is sampled by tick(): SM 2 may still send in cycle 0 ...
  EXPECT_TRUE(m.can_send(2, 0));
  // ... but from cycle 1 the full queue holds every SM back (and the addressed check agrees).
  m.tick(1);
  EXPECT_FALSE(m.can_send(2, 1));
  EXPECT_FALSE(m.can_send(2, 256, 1));
  for (uint64_t t = 2; t <= 10; ++t) m.tick(t);
  EXPECT_FALSE(m.can_send(2, 10));
  m.tick(11);  // the write is looked up: one slot frees
  EXPECT_TRUE(m.can_send(2, 11));
  EXPECT_TRUE(m.can_send(2, 256, 11));
  EXPECT_FALSE(m.can_send(5, 11));  // no such SM
  EXPECT_FALSE(m.can_send(-1, 11));
  EXPECT_THROW(m.send(read_req(0, 7), 11), Error);
}

TEST(MemorySystem, FlitRatesScaleSerialization) {
  GpuConfig c = tiny_cfg();
  c.icnt.sm_flits_per_cycle = 2;
  c.icnt.slice_flits_per_cycle = 4;
  MemorySystem m(c);
  round_trip(m, read_req(0), 0);
  // L2 hit, 4 response flits: the slice sends them in one cycle, the SM takes 2 per cycle, so
  // the last one is through one cycle after the head.
  EXPECT_EQ(round_trip(m, read_req(0), 100) - 100, 8u + 10 + 8 + 1);
}

TEST(MemorySystem, NextEventVisitsEachStepOfAMiss) {
  MemorySystem m(tiny_cfg());
  EXPECT_EQ(m.next_event(0), UINT64_MAX);
  m.tick(0);
  m.send(read_req(0), 0);
  // Lookup at 8, column at 8 + tRCD = 20, data at the L2 at 20 + 12 + 4 + 20 = 56, response head
  // at the SM at 56 + 10 + 8 = 74, last flit at 77.
  std::vector<uint64_t> visits;
  MemRequest out;
  uint64_t now = 0;
  bool got = false;
  while (!got) {
    uint64_t t = m.next_event(now);
    ASSERT_NE(t, UINT64_MAX);
    visits.push_back(t);
    now = t;
    m.tick(now);
    got = m.pop_response(0, now, out);
  }
  EXPECT_EQ(visits, (std::vector<uint64_t>{8, 20, 56, 74, 77}));
  EXPECT_EQ(m.next_event(now), UINT64_MAX);
}

TEST(MemorySystem, SmEjectionPortSerializesResponsesFromTwoSlices) {
  GpuConfig c = tiny_cfg();
  c.l2.slices_per_partition = 2;
  MemorySystem m(c);
  ASSERT_NE(m.slice_of(0), m.slice_of(128));
  round_trip(m, read_req(0), 0);
  round_trip(m, read_req(128), 200);
  // Both lines now hit in their slices. Send one per cycle from the same SM.
  m.tick(400);
  m.send(read_req(0, 0, 1), 400);
  std::vector<uint64_t> got(2, 0);
  for (uint64_t t = 401; t < 500; ++t) {
    m.tick(t);
    if (t == 401) {
      ASSERT_TRUE(m.can_send(0, t));
      m.send(read_req(128, 0, 2), t);
    }
    MemRequest out;
    while (m.pop_response(0, t, out)) got[out.token - 1] = t;
  }
  // First: 400 + 29. Second: its head reaches the SM at 401 + 26 = 427 while the port still
  // takes the first packet's flits (slots 426..429), so its flits pass in 430..433.
  EXPECT_EQ(got[0], 429u);
  EXPECT_EQ(got[1], 433u);
}

// Replies from two slices to two SMs through the input-queued crossbar (icnt.input_queued):
// slice A answers SM 0; slice B answers SM 0 and then SM 1. SM 0 takes A first (round robin
// from slice 0), so B's head waits for SM 0's port, and B's packet for SM 1 waits behind it
// although SM 1 is idle: head-of-line blocking. Without it the SM 1 packet leaves slice B
// right after the first one.
TEST(MemorySystem, InputQueuedCrossbarBlocksBehindABusySm) {
  auto run = [](bool iq) {
    GpuConfig c = tiny_cfg();
    c.core.num_sms = 2;
    c.l2.slices_per_partition = 2;
    c.icnt.input_queued = iq;
    MemorySystem m(c);
    // Lines 0 and 128 live in different slices (A and B); 384 in B.
    EXPECT_NE(m.slice_of(0), m.slice_of(128));
    EXPECT_EQ(m.slice_of(128), m.slice_of(384));
    round_trip(m, read_req(0), 0);
    round_trip(m, read_req(128), 200);
    round_trip(m, read_req(384), 400);
    // All hit now: SM 0 reads 0 (A) then 128 (B); SM 1 reads 384 (B) a cycle later.
    std::vector<uint64_t> got(3, 0);
    for (uint64_t t = 1000; t < 1200; ++t) {
      m.tick(t);
      if (t == 1000) m.send(read_req(0, 0, 1), t);
      if (t == 1001) m.send(read_req(128, 0, 2), t);
      if (t == 1002) m.send(read_req(384, 1, 3), t);
      MemRequest out;
      for (uint16_t sm = 0; sm < 2; ++sm)
        while (m.pop_response(sm, t, out)) got[out.token - 1] = t;
    }
    return got;
  };
  std::vector<uint64_t> oq = run(false), iq = run(true);
  for (int i = 0; i < 3; ++i) {
    EXPECT_GT(oq[i], 0u);
    EXPECT_GT(iq[i], 0u);
  }
  EXPECT_EQ(iq[0], oq[0]);  // the first packet crosses at once either way
  // B's packet for SM 0 waits for A's packet at SM 0's port (4 flits) ...
  EXPECT_EQ(iq[1], iq[0] + 4);
  // ... and B's packet for the idle SM 1 waits behind it, until B's port has sent it.
  EXPECT_EQ(iq[2], iq[1] + 4);
  EXPECT_GT(iq[2], oq[2]);
}

// l2.sector_replies: a hit on four 32-byte sectors answers as four one-flit packets (64-byte
// flits: two flits as one packet otherwise), each after its own lookup, and a write of four
// sectors is acknowledged four times; the request completes with its last packet.
TEST(MemorySystem, SectorRepliesAnswerSectorBySector) {
  auto run = [](bool sector_replies) {
    GpuConfig c = tiny_cfg();
    c.icnt.flit = 64;
    c.l2.sector_lookups = true;
    c.l2.sector_replies = sector_replies;
    MemorySystem m(c);
    round_trip(m, read_req(0), 0);  // a miss: the line is in the L2 from now on
    uint64_t down0 = m.stats().icnt_flits_down;
    uint64_t hit = round_trip(m, read_req(0), 500) - 500;
    uint64_t read_flits = m.stats().icnt_flits_down - down0;
    MemRequest w = read_req(0);
    w.kind = MemKind::Write;
    down0 = m.stats().icnt_flits_down;
    round_trip(m, w, 1000);
    uint64_t ack_flits = m.stats().icnt_flits_down - down0;
    return std::vector<uint64_t>{hit, read_flits, ack_flits};
  };
  std::vector<uint64_t> one = run(false), each = run(true);
  EXPECT_EQ(one[1], 2u);
  EXPECT_EQ(each[1], 4u);
  EXPECT_EQ(one[2], 1u);
  EXPECT_EQ(each[2], 4u);
  // One packet leaves after the last lookup (3 cycles after the first) and takes 2 flit slots;
  // four packets leave one per lookup, the last at the same time, one flit each.
  EXPECT_EQ(each[0], one[0] - 1);
}

// Sends `reqs` (one per SM, SM i's at index i) at cycle 0 and ticks until all are answered;
// returns the cycle each SM got its answer.
std::vector<uint64_t> answer_cycles(MemorySystem& m, const std::vector<MemRequest>& reqs) {
  m.tick(0);
  for (const MemRequest& r : reqs) {
    EXPECT_TRUE(m.can_send(r.sm, 0));
    m.send(r, 0);
  }
  std::vector<uint64_t> done(reqs.size(), 0);
  size_t pops = 0;
  for (uint64_t t = 1; t < 5000 && pops < reqs.size(); ++t) {
    m.tick(t);
    for (uint16_t sm = 0; sm < reqs.size(); ++sm) {
      MemRequest out;
      while (m.pop_response(sm, t, out)) {
        done[sm] = t;
        ++pops;
      }
    }
  }
  EXPECT_EQ(pops, reqs.size());
  return done;
}

// l2.sector_requests: a read of four sectors that misses is four sector requests at the slice,
// each with its own MSHR entry and DRAM read, and one response once the last sector is answered
// (four one-flit packets either way). Four SMs reading the line at once merge per sector; with a
// merge limit of 2, the third SM's read waits for the fill in both cases, and the second
// read of each sector adds no DRAM read.
TEST(MemorySystem, SectorRequestsFetchAndAnswerEachSectorAlone) {
  auto run = [](bool split, uint16_t sms) {
    GpuConfig c = tiny_cfg();
    c.core.num_sms = sms;
    c.l2.sector_lookups = true;
    c.l2.sector_replies = true;
    c.l2.sector_requests = split;
    c.l2.cache.mshr_merge = 2;
    MemorySystem m(c);
    std::vector<MemRequest> reqs;
    for (uint16_t sm = 0; sm < sms; ++sm) reqs.push_back(read_req(0, sm, sm));
    const std::vector<uint64_t> done = answer_cycles(m, reqs);
    return std::make_tuple(done, m.stats().dram_reads, m.stats().icnt_flits_down, m.stats().l2_reads);
  };
  const auto [one_done, one_dram, one_flits, one_reads] = run(false, 1);
  const auto [split_done, split_dram, split_flits, split_reads] = run(true, 1);
  EXPECT_EQ(one_dram, 1u);
  EXPECT_EQ(split_dram, 4u);
  EXPECT_EQ(one_flits, split_flits);
  EXPECT_EQ(one_reads, split_reads);
  EXPECT_GT(split_done[0], 0u);
  const auto [four_done, four_dram, four_flits, four_reads] = run(true, 4);
  EXPECT_EQ(four_dram, 4u);  // SM 1 merges into every sector's entry; SMs 2 and 3 hit later
  EXPECT_EQ(four_reads, 16u);
  EXPECT_LT(four_done[1], four_done[2]);
}

// l2.fill_replies_per_cycle: four SMs' reads of one sector merge into one MSHR entry. The fill
// hands the four replies out one a cycle, from the cycle after it, so each SM gets its answer a
// cycle after the one before; without the key all four leave at the fill and the crossbar port
// of the slice (one flit a cycle) spaces them the same way, a cycle earlier.
TEST(MemorySystem, FilledMshrEntryHandsOutOneReplyPerCycle) {
  auto run = [](bool paced) {
    GpuConfig c = tiny_cfg();
    c.core.num_sms = 4;
    c.l2.sector_lookups = true;
    c.l2.sector_replies = true;
    c.l2.fill_replies_per_cycle = paced;
    MemorySystem m(c);
    std::vector<MemRequest> reqs;
    for (uint16_t sm = 0; sm < 4; ++sm) {
      reqs.push_back(read_req(0, sm, sm));
      reqs.back().sectors = 0x1;
      reqs.back().bytes = 32;
    }
    return answer_cycles(m, reqs);
  };
  const std::vector<uint64_t> at_once = run(false), paced = run(true);
  for (int sm = 0; sm < 4; ++sm) {
    SCOPED_TRACE(sm);
    EXPECT_GT(at_once[sm], 0u);
    EXPECT_EQ(paced[sm], at_once[sm] + 1);
    if (sm) {
      EXPECT_EQ(paced[sm], paced[sm - 1] + 1);
    }
  }
}

// l2.half_line_shared_mshr: twelve SMs miss on the same 64-byte constant line at once. Both
// halves of each fetch find the MSHR entry of the first sector, so that entry takes the halves
// of two SMs (merge limit 4) and brings the first sector only; the third SM's fetch waits at the
// head until the fill. While the filled entry hands out its waiters, one per cycle, a few more
// SMs' second halves join it; after that the second half misses again and a second DRAM read
// answers the rest. Without the key one read brings both sectors and answers all together.
TEST(MemorySystem, HalfLineFetchesShareTheFirstSectorsMshrEntry) {
  constexpr uint16_t kSms = 12;
  auto run = [](bool shared) {
    GpuConfig c = tiny_cfg();
    c.core.num_sms = kSms;
    c.l2.sector_lookups = true;
    c.l2.sector_replies = true;
    c.l2.half_line_shared_mshr = shared;
    c.l2.cache.mshr_merge = 4;
    MemorySystem m(c);
    std::vector<MemRequest> reqs;
    for (uint16_t sm = 0; sm < kSms; ++sm) {
      reqs.push_back(read_req(0, sm, sm));
      reqs.back().sectors = 0x3;
      reqs.back().bytes = 64;
      reqs.back().half_line = true;
    }
    const std::vector<uint64_t> done = answer_cycles(m, reqs);
    return std::make_pair(done, m.stats().dram_reads);
  };
  const auto [on, on_reads] = run(true);
  const auto [off, off_reads] = run(false);
  EXPECT_EQ(off_reads, 1u);
  EXPECT_EQ(on_reads, 2u);
  // SMs 0 and 1 in the entry and 3 joining it while it drains (each SM's first half hits and its
  // second joins: the entry shrinks by one every two cycles) are answered no later than without
  // the key; the other 7 a DRAM read after them (its latency alone is 20 cycles; the row is open).
  const uint64_t off_last = *std::max_element(off.begin(), off.end());
  const uint64_t first_wave = *std::max_element(on.begin(), on.begin() + 5);
  EXPECT_LE(first_wave, off_last);
  for (uint16_t sm = 5; sm < kSms; ++sm) {
    SCOPED_TRACE(sm);
    EXPECT_GE(on[sm], first_wave + 20);
  }
}

// A dirty line the L2 evicts goes to DRAM as one request of its dirty bytes in whole atoms
// (128 B: two 64-byte atoms), as GPGPU-Sim writes back an evicted block; a write the L2 forwards
// (write-through) goes sector by sector, each 32-byte sector a whole atom.
TEST(MemorySystem, WriteBacksMoveWholeAtomsForwardedWritesSectors) {
  auto busy_per_write = [](bool write_back) {
    GpuConfig c = tiny_cfg();
    c.l2.cache.size = 4 * 1024;  // 32 lines: the writes below evict
    c.l2.cache.sector = 32;
    c.l2.cache.write_policy = write_back ? "write_back" : "write_through";
    c.l2.cache.write_allocate = write_back ? "allocate" : "no_allocate";
    c.dram.atom = 64;
    MemorySystem m(c);
    for (uint64_t i = 0; i < 96; ++i) {
      MemRequest w = read_req(i * 128, 0, uint32_t(i));
      w.kind = MemKind::Write;
      round_trip(m, w, i * 400);
    }
    for (uint64_t t = 96 * 400; t < 96 * 400 + 2000; ++t) m.tick(t);
    EXPECT_GT(m.stats().dram_writes, 0u);
    return m.stats().dram_busy_cycles / double(m.stats().dram_writes);
  };
  EXPECT_DOUBLE_EQ(busy_per_write(true), 128.0 / 32.0);      // 2 atoms at 32 B/cycle
  EXPECT_DOUBLE_EQ(busy_per_write(false), 4 * 64.0 / 32.0);  // 4 sectors, an atom each
}

// Two slices keep answering one SM: it takes them in turn (one packet at a time, round robin).
TEST(MemorySystem, InputQueuedCrossbarAlternatesBetweenSlices) {
  GpuConfig c = tiny_cfg();
  c.l2.slices_per_partition = 2;
  c.icnt.input_queued = true;
  MemorySystem m(c);
  uint64_t lines[2] = {0, 128};
  ASSERT_NE(m.slice_of(lines[0]), m.slice_of(lines[1]));
  round_trip(m, read_req(lines[0]), 0);
  round_trip(m, read_req(lines[1]), 200);
  std::vector<std::pair<uint64_t, uint32_t>> order;
  uint32_t token = 0, sent = 0;
  for (uint64_t t = 400; t < 800; ++t) {
    m.tick(t);
    if (sent < 8 && m.can_send(0, t)) {
      m.send(read_req(lines[sent % 2], 0, ++token), t);
      ++sent;
    }
    MemRequest out;
    while (m.pop_response(0, t, out)) order.push_back({t, out.token});
  }
  ASSERT_EQ(order.size(), 8u);
  // Each reply is 4 flits; the SM port takes one at a time, so deliveries are >= 4 cycles apart.
  for (size_t i = 1; i < order.size(); ++i) EXPECT_GE(order[i].first, order[i - 1].first + 4);
  // Both slices are served throughout: no slice's replies all come before the other's.
  int switches = 0;
  for (size_t i = 1; i < order.size(); ++i) switches += (order[i].second % 2) != (order[i - 1].second % 2);
  EXPECT_GE(switches, 4);
}

TEST(MemorySystem, WriteThroughL2ForwardsWritesToDram) {
  GpuConfig c = tiny_cfg();
  c.l2.cache.write_policy = "write_through";
  c.l2.cache.write_allocate = "no_allocate";
  MemorySystem m(c);
  MemRequest w = read_req(0);
  w.kind = MemKind::Write;
  w.sectors = 0x3;
  w.bytes = 64;
  // 2 flits up, acknowledged after the L2 latency without waiting for DRAM.
  EXPECT_EQ(round_trip(m, w, 0), 8u + 1 + 10 + 8);
  for (uint64_t t = 28; t < 200; ++t) m.tick(t);
  EXPECT_EQ(m.stats().dram_writes, 1u);
  EXPECT_EQ(m.stats().dram_bytes, 64u);
  EXPECT_EQ(m.stats().l2_writes, 1u);
  EXPECT_EQ(m.stats().icnt_flits_up, 2u);
  EXPECT_EQ(m.stats().icnt_flits_down, 1u);
}

// ---------------------------------------------------------------------------------------------
// Load tests: a driver that sends scheduled requests as fast as can_send allows.

struct Scheduled {
  uint64_t cycle;
  MemRequest req;
};

struct Trace {
  std::vector<std::pair<uint64_t, uint32_t>> pops;  // (cycle, token)
  uint64_t end = 0;
  uint64_t first_send = UINT64_MAX;
  uint64_t ticks = 0;
};

// Runs until every request is answered. skip: jump to next_event() when nothing is pending.
void drive(MemorySystem& m, const std::vector<Scheduled>& sched, size_t& next, uint64_t& now,
           std::vector<std::deque<MemRequest>>& pending, Trace& tr, bool skip, uint64_t stop_at) {
  const int nsm = int(pending.size());
  auto any_pending = [&] {
    for (auto& q : pending)
      if (!q.empty()) return true;
    return false;
  };
  while (now < stop_at && (next < sched.size() || any_pending() || m.in_flight() > 0)) {
    m.tick(now);
    ++tr.ticks;
    MemRequest out;
    for (int sm = 0; sm < nsm; ++sm)
      while (m.pop_response(sm, now, out)) tr.pops.push_back({now, out.token});
    while (next < sched.size() && sched[next].cycle <= now) {
      pending[sched[next].req.sm].push_back(sched[next].req);
      ++next;
    }
    for (int sm = 0; sm < nsm; ++sm) {
      if (!pending[sm].empty() && m.can_send(sm, now)) {
        MemRequest r = pending[sm].front();
        pending[sm].pop_front();
        r.issue_cycle = now;
        m.send(r, now);
        tr.first_send = std::min(tr.first_send, now);
      }
    }
    tr.end = now;
    uint64_t step = now + 1;
    if (skip && !any_pending()) {
      uint64_t t = m.next_event(now);
      if (next < sched.size()) t = std::min(t, std::max(sched[next].cycle, now + 1));
      if (t == UINT64_MAX) break;
      EXPECT_GT(t, now);
      step = t;
    }
    now = step;
    ASSERT_LT(now, 50'000'000u) << "memory system does not drain";
  }
}

Trace run_all(MemorySystem& m, const std::vector<Scheduled>& sched, int nsm, bool skip) {
  size_t next = 0;
  uint64_t now = 0;
  std::vector<std::deque<MemRequest>> pending(nsm);
  Trace tr;
  drive(m, sched, next, now, pending, tr, skip, UINT64_MAX);
  return tr;
}

std::vector<Scheduled> stream(int nsm, uint64_t lines, uint64_t stride = 128) {
  std::vector<Scheduled> s;
  for (uint64_t i = 0; i < lines; ++i) s.push_back({0, read_req(i * stride, uint16_t(i % nsm), uint32_t(i))});
  return s;
}

std::vector<Scheduled> random_traffic(int nsm, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Scheduled> s;
  uint64_t cycle = 0;
  for (int i = 0; i < n; ++i) {
    if (rng() % 4 == 0) cycle += rng() % 4;  // bursts of several requests per cycle
    uint64_t line = (rng() % 4 == 0) ? rng() % 64 : rng() % 8192;
    MemRequest r = read_req(line * 128, uint16_t(rng() % nsm), uint32_t(i));
    uint32_t k = uint32_t(rng() % 10);
    r.sectors = uint32_t(rng() % 15) + 1;
    r.bytes = uint16_t(32 * std::popcount(r.sectors));
    if (k < 2)
      r.kind = MemKind::Write;
    else if (k < 3) {
      r.kind = MemKind::Atomic;
      r.bytes = 4;
    } else if (k == 9) {  // a constant-cache line fetch: one half of the line
      r.sectors = rng() % 2 ? 0x3 : 0xc;
      r.bytes = 64;
      r.half_line = true;
    }
    s.push_back({cycle, r});
  }
  return s;
}

void expect_same_stats(const MemoryStats& a, const MemoryStats& b) {
  EXPECT_EQ(a.l2_reads, b.l2_reads);
  EXPECT_EQ(a.l2_read_hits, b.l2_read_hits);
  EXPECT_EQ(a.l2_writes, b.l2_writes);
  EXPECT_EQ(a.l2_write_hits, b.l2_write_hits);
  EXPECT_EQ(a.dram_reads, b.dram_reads);
  EXPECT_EQ(a.dram_writes, b.dram_writes);
  EXPECT_EQ(a.dram_row_hits, b.dram_row_hits);
  EXPECT_EQ(a.dram_activates, b.dram_activates);
  EXPECT_EQ(a.dram_bytes, b.dram_bytes);
  EXPECT_EQ(a.dram_busy_cycles, b.dram_busy_cycles);
  EXPECT_EQ(a.icnt_flits_up, b.icnt_flits_up);
  EXPECT_EQ(a.icnt_flits_down, b.icnt_flits_down);
  EXPECT_EQ(a.read_latency_sum, b.read_latency_sum);
  EXPECT_EQ(a.reads_returned, b.reads_returned);
}

// Default-sized GPU (15 SMs, 6 partitions x 2 slices) with small queues and a small L2 so that
// every stall path (MSHR full, merge full, DRAM queue full, input queue full) is exercised.
GpuConfig stress_cfg(int variant) {
  GpuConfig c;
  c.l2.cache.size = 16 * 1024;
  c.l2.cache.mshr_entries = 8;
  c.l2.cache.mshr_merge = 2;
  c.dram.queue = 6;
  c.icnt.input_queue = 4;
  if (variant & 1) c.dram.scheduler = "fcfs";
  if (variant & 2) c.l2.hash = "linear";
  if (variant & 4) {
    c.icnt.sm_flits_per_cycle = 2;
    c.icnt.slice_flits_per_cycle = 3;
    c.dram.bytes_per_cycle = 37.5;
    c.l2.cache.ports = 2;
  }
  if (variant & 8) {
    c.l2.cache.write_policy = "write_through";
    c.l2.cache.write_allocate = "no_allocate";
    c.l2.cache.sector = 128;
  }
  if (variant & 32) {  // DRAM turnarounds, bank groups and a command bus
    c.dram.tWL = 3;
    c.dram.tRRD = 4;
    c.dram.tRC = 45;
    c.dram.tCDLR = 4;
    c.dram.bank_groups = 4;
    c.dram.tCCDL = 2.3;
    c.dram.tRTPL = 2;
    c.dram.command_rate = variant & 1 ? 0.7 : 1.3;
    c.dram.dual_command_bus = (variant & 2) != 0;
    if (variant & 4) c.dram.bank_group_select = "high";
    if (!(variant & 1)) {  // frfcfs only
      c.dram.write_queue = 12;
      c.dram.write_drain_start = 8;
      c.dram.write_drain_stop = 3;
    }
  }
  if (variant & 16) {  // GPGPU-Sim's crossbar and sector-by-sector L2
    c.icnt.input_queued = true;
    c.l2.sector_lookups = true;
    c.l2.sector_replies = true;
    c.l2.half_line_shared_mshr = true;
    c.l2.sector_requests = (variant & 1) != 0;
    c.l2.fill_replies_per_cycle = (variant & 4) != 0;
    if (variant & 2) c.l2.hash = "random";
  }
  return c;
}

TEST(MemorySystem, NextEventSkippingMatchesTickingEveryCycle) {
  uint64_t total_fails = 0;
  for (int variant = 0; variant < 64; ++variant) {
    SCOPED_TRACE(variant);
    GpuConfig c = stress_cfg(variant);
    std::vector<Scheduled> sched = random_traffic(int(c.core.num_sms), 3000, 42 + variant);
    MemorySystem every(c), skip(c);
    Trace a = run_all(every, sched, int(c.core.num_sms), false);
    Trace b = run_all(skip, sched, int(c.core.num_sms), true);
    ASSERT_EQ(a.pops.size(), sched.size());
    EXPECT_EQ(a.pops, b.pops);
    EXPECT_EQ(a.end, b.end);
    expect_same_stats(every.stats(), skip.stats());
    EXPECT_LT(b.ticks, a.ticks);
    uint64_t fails = 0, pending = 0;
    for (uint32_t s = 0; s < every.num_l2_slices(); ++s) {
      EXPECT_EQ(every.l2_slice_cache(s).fails, skip.l2_slice_cache(s).fails);
      EXPECT_EQ(every.l2_slice_cache(s).hits, skip.l2_slice_cache(s).hits);
      EXPECT_EQ(every.l2_slice_cache(s).pending_hits, skip.l2_slice_cache(s).pending_hits);
      fails += every.l2_slice_cache(s).fails;
      pending += every.l2_slice_cache(s).pending_hits;
    }
    // The traffic is meant to hit the stall paths and merging, not just the easy cases.
    total_fails += fails;
    EXPECT_GT(pending, 0u);
    EXPECT_GT(every.stats().dram_writes, 0u);
  }
  EXPECT_GT(total_fails, 0u);
}

TEST(MemorySystem, CopyContinuesIdentically) {
  GpuConfig c = stress_cfg(0);
  const int nsm = int(c.core.num_sms);
  std::vector<Scheduled> sched = random_traffic(nsm, 2000, 7);
  MemorySystem m(c);
  size_t next = 0;
  uint64_t now = 0;
  std::vector<std::deque<MemRequest>> pending(nsm);
  Trace head;
  drive(m, sched, next, now, pending, head, false, 1500);
  ASSERT_GT(m.in_flight(), 0u);
  // Snapshot: copy-construct and copy-assign, then run all three to the end.
  MemorySystem copy(m);
  MemorySystem assigned(stress_cfg(3));
  assigned = m;
  std::vector<Trace> tails(3);
  MemorySystem* sys[3] = {&m, &copy, &assigned};
  for (int i = 0; i < 3; ++i) {
    size_t n2 = next;
    uint64_t now2 = now;
    auto pend2 = pending;
    drive(*sys[i], sched, n2, now2, pend2, tails[i], true, UINT64_MAX);
  }
  EXPECT_EQ(tails[0].pops.size() + head.pops.size(), sched.size());
  EXPECT_EQ(tails[0].pops, tails[1].pops);
  EXPECT_EQ(tails[0].pops, tails[2].pops);
  expect_same_stats(m.stats(), copy.stats());
  expect_same_stats(m.stats(), assigned.stats());
}

double efficiency(const MemorySystem& m, const GpuConfig& c, const Trace& tr) {
  double cycles = double(tr.end - tr.first_send + 1);
  return double(m.stats().dram_bytes) / (cycles * c.l2.partitions * c.dram.bytes_per_cycle);
}

TEST(MemorySystem, SequentialStreamReachesDramPeak) {
  GpuConfig c;  // 15 SMs, 6 partitions at 42 B/cycle
  const uint64_t lines = 12000;
  MemorySystem m(c);
  Trace tr = run_all(m, stream(int(c.core.num_sms), lines), int(c.core.num_sms), true);
  const MemoryStats& s = m.stats();
  ASSERT_EQ(tr.pops.size(), lines);
  EXPECT_EQ(s.dram_reads, lines);
  EXPECT_EQ(s.dram_bytes, lines * 128);
  double eff = efficiency(m, c, tr);
  RecordProperty("efficiency", std::to_string(eff));
  EXPECT_GE(eff, 0.70);
  EXPECT_LE(eff, 1.0);
  // No channel's bus was busy more than the elapsed time.
  EXPECT_LE(double(s.dram_busy_cycles), double(tr.end + 1) * c.l2.partitions);
  // 16 lines per 2048-byte row, sent in address order: every row is opened exactly once and
  // 15 of its 16 reads are row hits.
  EXPECT_EQ(s.dram_activates, lines / 16);
  EXPECT_EQ(s.dram_row_hits, lines - lines / 16);
}

TEST(MemorySystem, RowConflictingStrideHasNoRowHits) {
  GpuConfig c;
  c.l2.partitions = 1;
  c.l2.slices_per_partition = 1;
  c.core.num_sms = 4;
  // banks * row_bytes apart: every access goes to bank 0, a new row each time.
  const uint64_t stride = uint64_t(c.dram.banks) * c.dram.row_bytes;
  MemorySystem m(c);
  Trace tr = run_all(m, stream(4, 400, stride), 4, true);
  ASSERT_EQ(tr.pops.size(), 400u);
  EXPECT_EQ(m.stats().dram_row_hits, 0u);
  EXPECT_EQ(m.stats().dram_activates, 400u);
  // Each access costs at least tRAS (activate to the next precharge) plus tRP.
  EXPECT_GE(tr.end - tr.first_send, 399u * (c.dram.tRAS + c.dram.tRP));
}

TEST(MemorySystem, XorHashSpreadsPartitionStrides) {
  for (const char* hash : {"linear", "xor"}) {
    GpuConfig c;
    c.l2.hash = hash;
    MemorySystem m(c);
    std::vector<int> hist(c.l2.partitions, 0);
    for (uint64_t i = 0; i < 600; ++i) ++hist[m.partition_of(i * c.l2.partitions * c.l2.interleave)];
    int used = int(std::count_if(hist.begin(), hist.end(), [](int h) { return h > 0; }));
    if (std::string(hash) == "linear")
      EXPECT_EQ(used, 1);
    else
      EXPECT_EQ(used, int(c.l2.partitions));
  }
}

TEST(MemorySystem, BadConfigThrows) {
  GpuConfig c;
  c.l2.hash = "modulo";
  EXPECT_THROW(MemorySystem{c}, Error);
  c = GpuConfig();
  c.dram.scheduler = "lifo";
  EXPECT_THROW(MemorySystem{c}, Error);
  c = GpuConfig();
  c.l2.cache.size = 1000;
  EXPECT_THROW(MemorySystem{c}, Error);
  c = GpuConfig();
  c.l2.partitions = 70000;
  EXPECT_THROW(MemorySystem{c}, Error);
  c = GpuConfig();
  c.core.num_sms = 100000;  // more than a 16-bit SM id
  EXPECT_THROW(MemorySystem{c}, Error);
  c = GpuConfig();
  c.l2.cache.mshr_entries = 1u << 20;
  c.l2.cache.mshr_merge = 1u << 20;
  EXPECT_THROW(MemorySystem{c}, Error);
}

}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {

// In the SMs' phase a request reserves its SM's injection port at once and reaches the slice at
// close_sm_phase(), in SM order: SMs that send in any order within the phase get what sending
// one SM after another outside it gives (the slice port serialises them by SM), and their
// responses' counters are added at the close.
TEST(MemorySystem, SmPhaseDeliversInSmOrderWhateverTheCallOrder) {
  GpuConfig c = tiny_cfg();
  c.core.num_sms = 3;
  auto run = [&](bool phase, std::vector<uint16_t> order) {
    MemorySystem m(c);
    m.tick(0);
    if (phase) m.open_sm_phase();
    for (uint16_t sm : order) {
      MemRequest r = read_req(uint64_t(sm) * 128, sm, sm);
      r.issue_cycle = 0;
      m.send(r, 0);
      // The SM's own port is taken at once, the others are not.
      EXPECT_FALSE(m.can_send(sm, 0));
    }
    if (phase) {
      EXPECT_EQ(m.in_flight(), 0u);  // not at the slices yet
      m.close_sm_phase();
    }
    EXPECT_EQ(m.in_flight(), 3u);
    std::vector<uint64_t> back(3, 0);
    for (uint64_t t = 1; t < 2000; ++t) {
      m.tick(t);
      if (phase) m.open_sm_phase();
      for (uint16_t sm = 0; sm < 3; ++sm) {
        MemRequest out;
        if (m.pop_response(sm, t, out)) back[sm] = t;
      }
      if (phase) m.close_sm_phase();
    }
    EXPECT_EQ(m.in_flight(), 0u);
    EXPECT_EQ(m.stats().reads_returned, 3u);
    return std::make_pair(back, m.average_read_latency());
  };
  auto sequential = run(false, {0, 1, 2});
  for (uint64_t t : sequential.first) EXPECT_GT(t, 0u);
  // The slice port takes the three one after another: later SMs wait longer.
  EXPECT_LT(sequential.first[0], sequential.first[1]);
  EXPECT_LT(sequential.first[1], sequential.first[2]);
  EXPECT_EQ(run(true, {0, 1, 2}), sequential);
  EXPECT_EQ(run(true, {2, 0, 1}), sequential);
  EXPECT_NE(run(false, {2, 0, 1}), sequential);  // outside the phase the call order counts
}

}  // namespace
}  // namespace warpsim

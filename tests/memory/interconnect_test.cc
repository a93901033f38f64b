#include "memory/interconnect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace warpsim {
namespace {

// An input-queued request crossbar (icnt.request_input_queued) with one flit per cycle
// everywhere and a 3-cycle crossing.
IcntConfig queued_requests(bool sequential) {
  IcntConfig c;
  c.latency = 3;
  c.flit = 32;
  c.request_input_queued = true;
  c.sequential_grants = sequential;
  return c;
}

MemRequest req(uint16_t sm, uint64_t addr, uint32_t sectors = 1, MemKind kind = MemKind::Read) {
  MemRequest r;
  r.sm = sm;
  r.addr = addr;
  r.sectors = sectors;
  r.kind = kind;
  return r;
}

// Queues a one-packet request from `sm` to `slice` in cycle `now`.
void send(Interconnect& x, uint16_t sm, uint32_t slice, uint64_t now, uint64_t addr = 0) {
  x.queue_up(sm, slice, addr, req(sm, addr), 1, 1, x.leave_sm(sm, 1, now));
}

// Every crossing up to and including cycle `last`, in crossing order.
std::vector<Interconnect::Crossing> cross(Interconnect& x, uint32_t slices, uint64_t last) {
  std::vector<uint8_t> full(slices, 0);
  std::vector<Interconnect::Crossing> out;
  x.cross_up(last + 1, full, out);
  return out;
}

// Head-of-line blocking: SM 0's and SM 1's first packets both go to slice 0, their second ones
// to slice 1. Slice 0 takes SM 0's first (its pointer starts at port 0), so SM 1's first waits a
// cycle, and SM 1's second, ready with it, waits behind it and then loses slice 1 to SM 0's.
TEST(Interconnect, RequestHeadWaitsForItsSliceAndHoldsBackThePacketsBehindIt) {
  Interconnect x(queued_requests(true), 2, 2);
  send(x, 0, 0, 10, 0x000);
  send(x, 1, 0, 10, 0x100);
  send(x, 0, 1, 11, 0x200);
  send(x, 1, 1, 11, 0x300);
  std::vector<Interconnect::Crossing> c = cross(x, 2, 20);
  ASSERT_EQ(c.size(), 4u);
  auto arrival = [&](uint64_t addr) {
    for (const auto& k : c)
      if (k.req.addr == addr) return k.arrival;
    return uint64_t(0);
  };
  EXPECT_EQ(arrival(0x000), 13u);         // crossed in cycle 10
  EXPECT_EQ(arrival(0x100), 14u);         // slice 0 was taken in cycle 10
  EXPECT_EQ(arrival(0x200), 14u);         // ready in cycle 11 (SM 0's injection port), crosses at once
  EXPECT_EQ(arrival(0x300), 15u);         // behind SM 1's first; slice 1 went to SM 0 in cycle 11
  EXPECT_EQ(x.packets_in_transit(), 0u);  // nothing left queued
}

// With sequential grants (GPGPU-Sim's local crossbar) a port whose head crossed may send its
// next packet to a later slice in the same cycle; as a matching (booksim) it waits a cycle.
TEST(Interconnect, SequentialGrantsLetAPortSendTwiceInACycle) {
  for (bool sequential : {true, false}) {
    // Two SMs of one cluster share port 0; each has a packet ready in cycle 5, to slices 0 and 1.
    Interconnect x(queued_requests(sequential), 2, 2, 2);
    send(x, 0, 0, 5, 0x000);
    send(x, 1, 1, 5, 0x100);
    std::vector<Interconnect::Crossing> c = cross(x, 2, 10);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].req.addr, 0x000u);
    EXPECT_EQ(c[0].arrival, 8u);
    EXPECT_EQ(c[1].arrival, sequential ? 8u : 9u) << sequential;
  }
}

// The SMs of a cluster queue in one FIFO in the order their packets left them: SM 1's packet,
// sent a cycle before SM 0's, is ahead of it; with a port each, neither waits for the other.
TEST(Interconnect, SmsOfAClusterShareOneRequestFifo) {
  for (uint32_t per_cluster : {1u, 2u}) {
    Interconnect x(queued_requests(false), 2, 2, per_cluster);
    send(x, 1, 0, 4, 0x100);  // slice 0
    send(x, 0, 1, 5, 0x000);  // slice 1
    std::vector<Interconnect::Crossing> c = cross(x, 2, 10);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].req.addr, 0x100u);
    EXPECT_EQ(c[0].arrival, 7u);
    EXPECT_EQ(c[1].arrival, 8u);  // its own ready cycle either way: the shared port was free again
  }
  // Both ready in the same cycle, to different slices: one port sends one of them per cycle.
  for (uint32_t per_cluster : {1u, 2u}) {
    Interconnect x(queued_requests(false), 2, 2, per_cluster);
    send(x, 0, 1, 5, 0x000);
    send(x, 1, 0, 5, 0x100);
    std::vector<Interconnect::Crossing> c = cross(x, 2, 10);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(std::max(c[0].arrival, c[1].arrival), per_cluster == 1 ? 8u : 9u) << per_cluster;
  }
}

// icnt.sm_input_queue_flits: the SM's share of its port's FIFO counts flits (booksim's buffers),
// so a write packet of 4 flits takes 4 of 10, a read's control packet 1; counted in packets
// both take one.
TEST(Interconnect, TheSmInputQueueCountsFlitsOrPackets) {
  for (bool flits : {false, true}) {
    IcntConfig c = queued_requests(false);
    c.sm_input_queue = 10;
    c.sm_input_queue_flits = flits;
    Interconnect x(c, 1, 1);
    EXPECT_EQ(x.queue_units(4), flits ? 4u : 1u);
    for (int i = 0; i < 2; ++i) x.queue_up(0, 0, 0, req(0, 0x80 * i, 1, MemKind::Write), 1, 4, x.leave_sm(0, 4, 10));
    // 8 of 10 flits taken (2 of 10 packets): with 1 more flit pending (7 packets) one more still
    // fits, with 2 (8) none does.
    EXPECT_TRUE(x.sm_queue_free(0, flits ? 1 : 7)) << flits;
    EXPECT_FALSE(x.sm_queue_free(0, flits ? 2 : 8)) << flits;
    std::vector<Interconnect::Crossing> out = cross(x, 1, 100);
    EXPECT_EQ(out.size(), 2u);
    EXPECT_TRUE(x.sm_queue_free(0, 9)) << flits;  // all given back when they crossed
  }
}

// A full slice takes nothing; its head waits, and so does what is behind it.
TEST(Interconnect, FullSliceHoldsItsHeadsBack) {
  Interconnect x(queued_requests(true), 1, 2);
  send(x, 0, 0, 0, 0x000);
  send(x, 0, 1, 1, 0x100);
  std::vector<uint8_t> full = {1, 0};
  std::vector<Interconnect::Crossing> out;
  x.cross_up(10, full, out);
  EXPECT_TRUE(out.empty());
  full[0] = 0;
  x.cross_up(11, full, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].arrival, 13u);  // granted in cycle 10
  EXPECT_EQ(out[1].arrival, 13u);  // then, sequentially, the packet behind it
}

// A read marked sector_packets crosses as one packet per sector, each reaching the slice as a
// read of its own sector; the SM gets the whole read once, with the last part's answer.
TEST(Interconnect, SectorPartsCrossAloneAndDeliverTheReadOnce) {
  Interconnect x(queued_requests(true), 1, 1);
  MemRequest r = req(0, 0x1000, 0b1011);
  r.sector_packets = true;
  r.token = 77;
  x.queue_up(0, 0, 0x40, r, 3, 1, x.leave_sm(0, 3, 0));
  std::vector<Interconnect::Crossing> c = cross(x, 1, 10);
  ASSERT_EQ(c.size(), 3u);
  const uint32_t want[] = {0b0001, 0b0010, 0b1000};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(c[i].req.sectors, want[i]) << i;
    EXPECT_EQ(c[i].req.bytes, 32u);
    EXPECT_NE(c[i].req.part, 0u);
    EXPECT_EQ(c[i].arrival, 3u + i);  // one packet per cycle from the SM and into the slice
  }
  // The answers, in any order: the read is delivered with the last of them.
  x.send_down(0, c[1].req, 1, 20);
  x.send_down(0, c[2].req, 1, 21);
  x.tick(40);
  MemRequest out;
  uint64_t done = 0;
  EXPECT_FALSE(x.pop(0, 40, out, done));
  x.send_down(0, c[0].req, 1, 45);
  x.tick(60);
  ASSERT_TRUE(x.pop(0, 60, out, done));
  EXPECT_EQ(out.sectors, 0b1011u);
  EXPECT_EQ(out.token, 77u);
  EXPECT_EQ(out.part, 0u);
  EXPECT_EQ(done, 48u);
  EXPECT_FALSE(x.pop(0, 100, out, done));
  EXPECT_EQ(x.packets_in_transit(), 0u);
}

// A write part carries the written bytes of its own sector only.
TEST(Interconnect, WritePartsCarryTheirOwnBytes) {
  Interconnect x(queued_requests(true), 1, 1);
  MemRequest w = req(0, 0x2000, 0b0011, MemKind::Write);
  w.sector_packets = true;
  w.written.add(28, 8);  // bytes 28..35: the end of sector 0 and the start of sector 1
  x.queue_up(0, 0, 0, w, 2, 1, x.leave_sm(0, 2, 0));
  std::vector<Interconnect::Crossing> c = cross(x, 1, 10);
  ASSERT_EQ(c.size(), 2u);
  LineBytes first, second;
  first.add(28, 4);
  second.add(32, 4);
  EXPECT_EQ(c[0].req.written.w[0], first.w[0]);
  EXPECT_EQ(c[1].req.written.w[0], second.w[0]);
}

// The SMs of a cluster share the ejection port: two replies ready in the same cycle reach two
// SMs of one cluster a cycle apart, two SMs of different clusters together.
TEST(Interconnect, ClusterSharesItsEjectionPort) {
  for (uint32_t per_cluster : {1u, 2u}) {
    IcntConfig c;
    c.latency = 3;
    Interconnect x(c, 2, 2, per_cluster);
    x.send_down(0, req(0, 0x000), 1, 10);
    x.send_down(1, req(1, 0x100), 1, 10);
    x.tick(30);
    MemRequest out;
    uint64_t d0 = 0, d1 = 0;
    ASSERT_TRUE(x.pop(0, 30, out, d0));
    ASSERT_TRUE(x.pop(1, 30, out, d1));
    EXPECT_EQ(std::max(d0, d1), per_cluster == 1 ? 13u : 14u) << per_cluster;
  }
}

}  // namespace
}  // namespace warpsim

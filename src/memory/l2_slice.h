// One L2 slice: an input queue fed by the interconnect, a tag lookup per port per cycle, an
// MSHR table that merges reads of a line in flight, and the way to its partition's DRAM channel.
//
// A lookup takes the oldest request once it has fully arrived. Reads and atomics look the line
// up; a hit answers l2.cache.latency cycles later, a miss sends the missing sectors to DRAM and
// answers l2.cache.latency cycles after the data returns. An atomic is a read followed by a write
// of its sectors at the L2 (so a write-back L2 holds the result dirty). Writes follow the cache's
// write policy (write-back + allocate by default) and are acknowledged after l2.cache.latency;
// writes the cache forwards and dirty lines it evicts become DRAM writes.
// With l2.sector_requests a read of several sectors is looked up, fetched and answered sector by
// sector, each with an MSHR entry of its own; with l2.fill_replies_per_cycle a fill hands its
// waiters' replies out one a cycle while lookups go on (GPGPU-Sim's sectored L2; both off in the
// presets, docs/memory.md).
// The head request stalls (head-of-line) when the cache cannot take it (no MSHR, merge slot or
// replaceable way), when no waiter slot is free, or when the DRAM queue has fewer than two free
// entries (a miss may need a read and a write-back). A stalled slice tries again only after a
// fill or after its DRAM channel served a request, which are the only events that can unblock it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/access_policy.h"
#include "core/config.h"
#include "memory/address_map.h"
#include "memory/cache.h"
#include "memory/dram_channel.h"
#include "memory/interconnect.h"
#include "memory/mem_request.h"
#include "memory/memory_system.h"
#include "memory/ring.h"

namespace warpsim {

// What a slice talks to during one step (built on the stack by the memory system).
struct SlicePorts {
  const AddressMap& map;
  Interconnect& icnt;
  DramChannel& dram;
  MemoryStats& stats;
  // The access policy windows of the kernels running now (usually none).
  const std::vector<AccessPolicyWindow>& windows;

  // The L2 property of an access to the (global) line address `addr`: that of the first window
  // holding it, Default outside every window.
  AccessProperty property(uint64_t addr, uint32_t line) const {
    for (const AccessPolicyWindow& w : windows)
      if (w.contains(addr)) return w.property(addr, line);
    return AccessProperty::Default;
  }
};

class L2Slice {
 public:
  // `senders`: how many requests may arrive in one cycle beyond a full queue (one per SM).
  L2Slice(const GpuConfig& cfg, uint32_t index, uint32_t local_index, uint32_t senders);

  // L2 sector mask of the (32-byte-sector) request mask of a request for `addr`.
  uint32_t l2_sectors(uint64_t addr, uint32_t sectors32) const;
  void enqueue(const MemRequest& req, uint64_t ready, uint64_t slice_addr) {
    if (split_reads_ && req.kind == MemKind::Read)
      enqueue_read(req, ready, slice_addr);
    else
      inq_.push_back({req, ready, slice_addr, l2_sectors(slice_addr, req.sectors)});
  }
  size_t queued() const { return inq_.size(); }
  // Up to l2.cache.ports lookups at cycle `now`.
  void lookup(uint64_t now, SlicePorts& p);
  // DRAM returned the data of MSHR entry `mshr` at `now`.
  void fill(int mshr, uint64_t now, SlicePorts& p);
  void unblock() { blocked_ = false; }
  bool blocked() const { return blocked_; }
  // Cycle the head request can be looked up or a filled read hands out its next reply
  // (UINT64_MAX: neither).
  uint64_t next_event() const {
    const uint64_t head = blocked_ || inq_.empty() ? UINT64_MAX : std::max(inq_.front().ready, free_at_);
    return std::min(head, next_handout_);
  }
  const Cache& cache() const { return cache_; }
  Cache& cache() { return cache_; }
  // Drops every line, dirty ones without a write-back; lines awaiting a fill keep their way.
  void drop_lines() {
    cache_.invalidate_all();
    cache_.evictions().clear();
  }
  // A copy engine wrote the 32-byte sectors `sectors32` of the line at `slice_addr`.
  void install(uint64_t slice_addr, uint32_t sectors32) {
    cache_.install(slice_addr, l2_sectors(slice_addr, sectors32));
  }

 private:
  struct Entry {
    MemRequest req;
    uint64_t ready = 0;  // cycle the request has fully arrived
    uint64_t slice_addr = 0;
    uint32_t sectors = 0;  // L2 sectors
    uint8_t part = 0;      // halves of a half-line request looked up so far
    int32_t waiter = -1;   // its waiter slot, once taken
    uint32_t group = 0;    // l2.sector_requests: 1 + the read it is one sector of (0: a whole request)
  };
  struct Waiter {
    MemRequest req;
    uint64_t slice_addr = 0;
    uint32_t sectors = 0;
    uint8_t left = 0;    // halves of a half-line request not answered yet (0: another request)
    uint32_t group = 0;  // as Entry::group
  };
  // A filled MSHR entry still handing out its waiters until `end` (l2.half_line_shared_mshr).
  struct Drain {
    uint64_t line = 0;
    uint32_t key = 0;
    uint64_t end = 0;
  };
  // One reply packet of a filled read (l2.fill_replies_per_cycle): packet `packet` of waiter
  // `waiter`'s reply (half: one half of a half-line request), handed out in sector order.
  struct Handout {
    uint32_t waiter = 0;
    uint16_t packet = 0;
    bool half = false;
  };
  // enqueue() of a read with l2.sector_requests: one request per L2 sector it covers.
  void enqueue_read(const MemRequest& req, uint64_t ready, uint64_t slice_addr);
  // l2.fill_replies_per_cycle: queues the replies of the waiters `ws` of a fill at `now`.
  void queue_handouts(const std::vector<uint32_t>& ws, uint64_t now);
  // Hands out the next queued reply, if its cycle has come.
  void hand_out(uint64_t now, SlicePorts& p);
  enum class HalfStep : uint8_t { Done, Stall, NextCycle };
  // Looks up the next half of the half-line request `e`.
  HalfStep lookup_half(Entry& e, uint64_t now, SlicePorts& p);
  // Answers one half of the half-line request of waiter `w` (freeing `w` with the second).
  void answer_half(uint32_t w, uint64_t ready, SlicePorts& p);
  // Sends the DRAM read of the MSHR entry a lookup allocated.
  void fetch(const Cache::Result& r, SlicePorts& p);
  void write_back_evictions(SlicePorts& p);
  // Answers `req` (covering L2 sectors `sectors`); with l2.sector_replies one packet per sector,
  // the i-th ready at `first + i / spread` (spread 0: all at `first`).
  void respond(const MemRequest& req, uint32_t sectors, uint64_t first, uint32_t spread, SlicePorts& p);
  // Packets of the answer to `req` covering `sectors` (one per sector with l2.sector_replies).
  uint32_t reply_packets(uint32_t sectors) const { return sector_replies_ ? std::max(1, std::popcount(sectors)) : 1; }
  // Flits of each of the `packets` packets answering `req`.
  uint32_t reply_flits(const MemRequest& req, uint32_t packets, const Interconnect& icnt) const;
  // Sends packet `i` of that answer, ready at `ready`.
  void reply_packet(const MemRequest& req, uint32_t sectors, uint32_t i, uint64_t ready, SlicePorts& p);
  // Answers the sector request of group `group` covering `sectors` (one packet); the read
  // completes with the last of its sectors' answers.
  void respond_sector(const MemRequest& req, uint32_t sectors, uint32_t group, uint64_t ready, SlicePorts& p);
  // A DRAM write of `sectors` of a line: a write-back (`eviction`) leaves as one request of its
  // dirty bytes, in whole atoms (GPGPU-Sim's write-back of an evicted block); a forwarded write
  // sector by sector, as it reached the slice.
  void dram_write(uint64_t slice_line, uint32_t sectors, bool eviction, SlicePorts& p);
  void write_line(uint64_t slice_addr, uint32_t sectors, uint64_t now, SlicePorts& p);

  Cache cache_;
  uint32_t index_, local_;
  uint32_t latency_, ports_, line_, sector_shift_;
  Ring<Entry> inq_;
  std::vector<Waiter> waiters_;
  std::vector<uint32_t> free_waiters_;
  std::vector<Drain> drains_;
  bool blocked_ = false;
  bool sector_lookups_, sector_replies_, half_line_, split_reads_, paced_fills_;
  Ring<Handout> handouts_;              // l2.fill_replies_per_cycle: replies of filled reads not handed out
  uint64_t next_handout_ = UINT64_MAX;  // cycle the next one goes (UINT64_MAX: none queued)
  std::vector<uint32_t> groups_;        // l2.sector_requests: sector answers each read still waits for
  std::vector<uint32_t> free_groups_;
  uint64_t free_at_ = 0;  // first cycle with a free lookup slot (l2.sector_lookups)
};

}  // namespace warpsim

#include "memory/memory_system.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/error.h"
#include "memory/address_map.h"
#include "memory/dram_channel.h"
#include "memory/interconnect.h"
#include "memory/l2_slice.h"

namespace warpsim {

static_assert(declared_stat_bytes<MemoryStats>() == sizeof(MemoryStats),
              "every MemoryStats field must be declared in MemoryStats::visit()");

namespace {
// Sizes the model keeps in 16-bit fields or preallocates; checked before anything is built.
uint32_t checked_slices(const GpuConfig& cfg) {
  uint64_t n = uint64_t(cfg.l2.partitions) * cfg.l2.slices_per_partition;
  if (n == 0 || n > 65535)
    throw Error(
        fmt::format("memory: l2.partitions x l2.slices_per_partition = {} L2 slices; "
                    "1 to 65535 are supported",
                    n));
  if (cfg.core.num_sms == 0 || cfg.core.num_sms > 65535)
    throw Error("memory: core.num_sms must be between 1 and 65535");
  if (cfg.icnt.input_queue > (1u << 20)) throw Error("memory: icnt.input_queue is limited to 1048576 requests");
  if (cfg.dram.queue > (1u << 20)) throw Error("memory: dram.queue is limited to 1048576 requests");
  if (cfg.dram.banks > (1u << 16)) throw Error("memory: dram.banks is limited to 65536");
  return uint32_t(n);
}
}  // namespace

struct MemorySystem::Impl {
  explicit Impl(const GpuConfig& cfg)
      : map(cfg),
        icnt(cfg.icnt, cfg.core.num_sms, checked_slices(cfg), cfg.core.sms_per_cluster),
        num_sms(cfg.core.num_sms),
        slices_per_partition(cfg.l2.slices_per_partition),
        queue_cap(cfg.icnt.input_queue ? cfg.icnt.input_queue : 1),
        // Input-queued requests for a full slice wait in its crossbar output buffer first.
        cross_cap(queue_cap + (cfg.icnt.request_input_queued ? cfg.icnt.slice_output_queue : 0)),
        skip_quiet(cfg.skip_idle_cycles) {
    uint32_t nslices = checked_slices(cfg);
    slices.reserve(nslices);
    for (uint32_t s = 0; s < nslices; ++s)
      slices.emplace_back(cfg, s, s % cfg.l2.slices_per_partition, cfg.core.num_sms);
    slice_full.assign(nslices, 0);
    chans.reserve(cfg.l2.partitions);
    for (uint32_t p = 0; p < cfg.l2.partitions; ++p) chans.emplace_back(cfg.dram);
    l2_bytes = uint64_t(cfg.l2.cache.size) * nslices;
    outbox.resize(num_sms);
    taken.resize(num_sms);
  }

  SlicePorts ports(uint32_t partition) { return SlicePorts{map, icnt, chans[partition], stats, windows}; }
  void unblock_partition(uint32_t partition) {
    for (uint32_t s = 0; s < slices_per_partition; ++s) slices[partition * slices_per_partition + s].unblock();
  }

  AddressMap map;
  Interconnect icnt;
  std::vector<L2Slice> slices;
  std::vector<DramChannel> chans;
  MemoryStats stats;
  uint32_t num_sms, slices_per_partition, queue_cap, cross_cap;
  std::vector<Interconnect::Crossing> crossings;  // scratch of tick()
  // Slices whose input queue was full after the last tick (back-pressure for that cycle).
  std::vector<uint8_t> slice_full;
  uint32_t full_slices = 0;
  uint64_t sent = 0, returned = 0;
  std::vector<AccessPolicyWindow> windows;  // of the running kernels, in window_kernels' order
  std::vector<uint32_t> window_kernels;
  uint64_t l2_bytes = 0;  // all slices
  // tick() changes nothing before this cycle: the earliest event of the crossbar, the slices and
  // the channels after the last tick. Whatever adds work (send() and the other mutators) resets it.
  uint64_t quiet_until = 0;
  bool skip_quiet;  // skip_idle_cycles: off, every tick does the work (the reference the tests compare with)
  // The SMs' phase (open_sm_phase): each SM's requests wait in its outbox for the slices, and
  // what its responses would add to shared counters waits in its tally.
  struct Outgoing {
    MemRequest req;
    MemLocation loc;
    uint64_t first_slot;
  };
  struct Tally {
    uint64_t responses = 0, reads = 0, read_latency = 0;
  };
  bool sm_phase = false;
  std::vector<std::vector<Outgoing>> outbox;  // per SM
  std::vector<Tally> taken;                   // per SM
  // A request leaves its SM: with input-queued requests it waits there for its turn to cross,
  // otherwise it is already on its way to the slice (reach_slice).
  void enter(const MemRequest& req, const MemLocation& loc, uint64_t first_slot) {
    const uint32_t packets = request_packets(req), flits = packet_flits(req);
    if (icnt.request_input_queued())
      icnt.queue_up(req.sm, loc.slice, loc.slice_addr, req, packets, flits, first_slot);
    else
      slices[loc.slice].enqueue(req, icnt.reach_slice(loc.slice, packets * flits, first_slot), loc.slice_addr);
    stats.icnt_flits_up += packets * flits;
    ++sent;
    quiet_until = 0;
  }
  // A read is one control packet of one flit, a write or an atomic one packet carrying its data;
  // a read or write the LD/ST unit marked (icnt.request_packets) one such packet per sector.
  uint32_t request_packets(const MemRequest& req) const {
    if (req.sector_packets && req.kind != MemKind::Atomic) return std::max(1u, uint32_t(std::popcount(req.sectors)));
    return 1;
  }
  uint32_t packet_flits(const MemRequest& req) const {
    if (req.kind == MemKind::Read) return 1;
    if (req.sector_packets && req.kind == MemKind::Write) return icnt.flits(32);
    return icnt.flits(req.bytes ? req.bytes : 32u * uint32_t(std::popcount(req.sectors)));
  }
  // What SM `sm`'s outbox takes of its crossbar FIFO: its requests, or with
  // icnt.sm_input_queue_flits the flits of their packets.
  size_t outbox_units(uint32_t sm) const {
    if (!icnt.queue_counts_flits()) return outbox[sm].size();
    size_t n = 0;
    for (const Outgoing& o : outbox[sm]) n += size_t(request_packets(o.req)) * packet_flits(o.req);
    return n;
  }
  bool sm_may_send(uint32_t sm, uint64_t now) const {
    if (!icnt.sm_port_free(sm, now)) return false;
    // The requests of this cycle's SM phase wait in the outbox: they count as queued.
    return !icnt.request_input_queued() || icnt.sm_queue_free(sm, outbox_units(sm));
  }
  uint64_t next_tick_event(uint64_t now) const {
    uint64_t t = icnt.next_tick_event();
    for (const DramChannel& ch : chans) t = std::min(t, ch.next_event());
    for (const L2Slice& s : slices) t = std::min(t, s.next_event());
    return std::max(t, now + 1);
  }
};

MemorySystem::MemorySystem(const GpuConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
MemorySystem::~MemorySystem() = default;
MemorySystem::MemorySystem(const MemorySystem& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
MemorySystem& MemorySystem::operator=(const MemorySystem& o) {
  if (this != &o) impl_ = std::make_unique<Impl>(*o.impl_);
  return *this;
}

bool MemorySystem::can_send(int sm, uint64_t now) const {
  const Impl& m = *impl_;
  if (sm < 0 || uint32_t(sm) >= m.num_sms || !m.sm_may_send(uint32_t(sm), now)) return false;
  // Input-queued requests wait for their slice in the crossbar instead.
  return m.icnt.request_input_queued() || m.full_slices == 0;
}

bool MemorySystem::can_send(int sm, uint64_t addr, uint64_t now) const {
  const Impl& m = *impl_;
  if (sm < 0 || uint32_t(sm) >= m.num_sms || !m.sm_may_send(uint32_t(sm), now)) return false;
  return m.icnt.request_input_queued() || !m.slice_full[m.map.locate(addr).slice];
}

void MemorySystem::send(const MemRequest& req, uint64_t now) {
  Impl& m = *impl_;
  if (req.sm >= m.num_sms)
    throw Error(fmt::format("memory: request from SM {} but the GPU has {} SMs", req.sm, m.num_sms));
  MemLocation loc = m.map.locate(req.addr);
  if (req.next_line) {
    const MemLocation next = m.map.locate(req.addr + 128);
    loc.slice_addr = next.slice == loc.slice ? next.slice_addr : next.slice_addr | kForeignLine;
  }
  const uint64_t first_slot = m.icnt.leave_sm(req.sm, m.request_packets(req) * m.packet_flits(req), now);
  if (m.sm_phase) {
    m.outbox[req.sm].push_back({req, loc, first_slot});
    return;
  }
  m.enter(req, loc, first_slot);
}

void MemorySystem::open_sm_phase() { impl_->sm_phase = true; }

void MemorySystem::close_sm_phase() {
  Impl& m = *impl_;
  m.sm_phase = false;
  for (uint32_t sm = 0; sm < m.num_sms; ++sm) {
    for (const Impl::Outgoing& o : m.outbox[sm]) m.enter(o.req, o.loc, o.first_slot);
    m.outbox[sm].clear();
    Impl::Tally& t = m.taken[sm];
    if (!t.responses) continue;
    m.icnt.untaken(t.responses);
    m.returned += t.responses;
    m.stats.reads_returned += t.reads;
    m.stats.read_latency_sum += t.read_latency;
    t = {};
  }
}

void MemorySystem::tick(uint64_t now) {
  Impl& m = *impl_;
  if (m.skip_quiet && now < m.quiet_until) return;
  if (m.icnt.request_input_queued()) {
    // The grants of the cycles before this one, with the slices' queues as those cycles left them.
    m.crossings.clear();
    m.icnt.cross_up(now, m.slice_full, m.crossings);
    for (const Interconnect::Crossing& c : m.crossings) m.slices[c.slice].enqueue(c.req, c.arrival, c.slice_addr);
  }
  const uint32_t parts = uint32_t(m.chans.size());
  for (uint32_t p = 0; p < parts; ++p) {
    DramChannel& ch = m.chans[p];
    DramReturn r;
    bool any = false;
    while (ch.pop_return(now, r)) {
      SlicePorts sp = m.ports(p);
      m.slices[r.slice].fill(r.mshr, now, sp);
      any = true;
    }
    if (any) m.unblock_partition(p);
  }
  for (uint32_t s = 0; s < m.slices.size(); ++s) {
    L2Slice& sl = m.slices[s];
    if (sl.next_event() > now) continue;
    SlicePorts sp = m.ports(s / m.slices_per_partition);
    sl.lookup(now, sp);
  }
  for (uint32_t p = 0; p < parts; ++p)
    if (m.chans[p].tick(now, m.stats)) m.unblock_partition(p);
  m.icnt.tick(now);
  // Back-pressure for the sends of this cycle: the queues as the cycle's lookups left them.
  m.full_slices = 0;
  for (uint32_t s = 0; s < m.slices.size(); ++s) {
    m.slice_full[s] = m.slices[s].queued() >= m.cross_cap;
    m.full_slices += m.slice_full[s];
  }
  m.quiet_until = m.next_tick_event(now);
}

bool MemorySystem::pop_response(int sm, uint64_t now, MemRequest& out) {
  Impl& m = *impl_;
  if (sm < 0 || uint32_t(sm) >= m.num_sms) return false;
  uint64_t done = 0;
  if (!m.icnt.take(uint32_t(sm), now, out, done)) return false;
  const uint64_t latency = done - std::min(done, out.issue_cycle);
  const bool read = out.kind == MemKind::Read;
  if (m.sm_phase) {
    Impl::Tally& t = m.taken[uint32_t(sm)];
    ++t.responses;
    t.reads += read;
    t.read_latency += read ? latency : 0;
    return true;
  }
  m.icnt.untaken(1);
  if (read) {
    m.stats.read_latency_sum += latency;
    ++m.stats.reads_returned;
  }
  ++m.returned;
  return true;
}

bool MemorySystem::has_response(int sm, uint64_t now) const {
  const Impl& m = *impl_;
  return sm >= 0 && uint32_t(sm) < m.num_sms && m.icnt.can_pop(uint32_t(sm), now);
}

uint64_t MemorySystem::next_event(uint64_t now) const {
  const Impl& m = *impl_;
  uint64_t t = m.icnt.next_event();
  for (const DramChannel& ch : m.chans) t = std::min(t, ch.next_event());
  for (const L2Slice& s : m.slices) t = std::min(t, s.next_event());
  if (t == UINT64_MAX) return t;
  return std::max(t, now + 1);
}

uint64_t MemorySystem::next_send_cycle(int sm, uint64_t now) const {
  const Impl& m = *impl_;
  if (sm < 0 || uint32_t(sm) >= m.num_sms) return UINT64_MAX;
  return m.icnt.sm_port_free_cycle(uint32_t(sm), now);
}

uint64_t MemorySystem::in_flight() const { return impl_->sent - impl_->returned; }

int MemorySystem::partition_of(uint64_t addr) const { return int(impl_->map.partition(addr)); }

const MemoryStats& MemorySystem::stats() const {
  Impl& m = *impl_;
  double busy = 0;
  for (const DramChannel& ch : m.chans) busy += ch.busy_cycles();
  m.stats.dram_busy_cycles = uint64_t(std::llround(busy));
  return m.stats;
}

const MemoryStats& MemorySystem::counters() const { return impl_->stats; }

uint64_t MemorySystem::average_read_latency() const {
  const MemoryStats& s = impl_->stats;
  return s.reads_returned ? s.read_latency_sum / s.reads_returned : 0;
}

const Cache& MemorySystem::l2_slice_cache(uint32_t slice) const {
  if (slice >= impl_->slices.size()) throw Error("memory: L2 slice index out of range");
  return impl_->slices[slice].cache();
}

uint32_t MemorySystem::num_l2_slices() const { return uint32_t(impl_->slices.size()); }

uint32_t MemorySystem::slice_of(uint64_t addr) const { return impl_->map.locate(addr).slice; }

void MemorySystem::drop_l2() {
  impl_->quiet_until = 0;
  for (auto& s : impl_->slices) s.drop_lines();
}

void MemorySystem::copy_fill(uint64_t addr, uint64_t bytes) {
  impl_->quiet_until = 0;
  // Sector by sector, each named as a request names it: its 128-byte block and the sector's
  // place in it.
  for (uint64_t a = addr & ~uint64_t(31); a < addr + bytes; a += 32) {
    auto loc = impl_->map.locate(a & ~uint64_t(127));
    impl_->slices[loc.slice].install(loc.slice_addr, 1u << ((a & 127) >> 5));
  }
}

uint64_t MemorySystem::set_persisting_bytes(uint64_t bytes) {
  impl_->quiet_until = 0;
  uint64_t set_aside = 0;
  for (auto& s : impl_->slices) {
    Cache& c = s.cache();
    const uint64_t way_bytes = std::max<uint64_t>(1, impl_->l2_bytes / std::max(1u, c.ways()));
    c.set_aside_ways(uint32_t(std::min<uint64_t>((bytes + way_bytes - 1) / way_bytes, c.ways())));
    set_aside = c.set_aside_ways() * way_bytes;
  }
  return set_aside;
}

void MemorySystem::reset_persisting() {
  impl_->quiet_until = 0;
  for (auto& s : impl_->slices) s.cache().reset_persisting();
}

void MemorySystem::add_window(uint32_t kernel, const AccessPolicyWindow& w) {
  impl_->quiet_until = 0;
  if (w.empty()) return;
  impl_->window_kernels.push_back(kernel);
  impl_->windows.push_back(w);
}

void MemorySystem::remove_window(uint32_t kernel) {
  impl_->quiet_until = 0;
  auto& k = impl_->window_kernels;
  for (size_t i = 0; i < k.size(); ++i)
    if (k[i] == kernel) {
      k.erase(k.begin() + long(i));
      impl_->windows.erase(impl_->windows.begin() + long(i));
      return;
    }
}

}  // namespace warpsim

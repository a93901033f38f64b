// Everything below the SMs: interconnect, L2 slices (one or more per memory partition) and a
// DRAM channel per partition with banks, row buffers and an FR-FCFS scheduler.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/access_policy.h"
#include "core/config.h"
#include "core/statistic.h"
#include "memory/mem_request.h"

namespace warpsim {

class Cache;

// Additive counters of the memory system, each declared once in visit() (core/statistic.h).
struct MemoryStats {
  uint64_t l2_reads = 0, l2_read_hits = 0, l2_writes = 0, l2_write_hits = 0;
  uint64_t l2_read_pending_hits = 0;  // read sectors merged into a fetch in flight
  uint64_t dram_reads = 0, dram_writes = 0, dram_row_hits = 0, dram_activates = 0;
  uint64_t dram_read_atoms = 0, dram_write_atoms = 0;  // GPGPU-Sim's DRAM read/write counts
  uint64_t dram_bytes = 0;                             // bytes moved on DRAM data buses
  uint64_t dram_busy_cycles = 0;                       // sum over channels of cycles the data bus was busy
  uint64_t icnt_flits_up = 0, icnt_flits_down = 0;
  uint64_t read_latency_sum = 0, reads_returned = 0;  // SM send -> response at SM

  template <class V>
  static constexpr void visit(V& v) {
    v("l2.reads", &MemoryStats::l2_reads, "L2 read accesses (one per sector)");
    v("l2.read_hits", &MemoryStats::l2_read_hits, "L2 read accesses that hit");
    v("l2.read_pending_hits", &MemoryStats::l2_read_pending_hits,
      "L2 read accesses neither counted in read_hits nor fetched from DRAM: merged into a fetch already in flight "
      "(GPGPU-Sim's HIT_RESERVED, an access but not a miss), or present sectors of a read whose other sectors "
      "missed");
    v("l2.writes", &MemoryStats::l2_writes, "L2 write accesses (one per sector)");
    v("l2.write_hits", &MemoryStats::l2_write_hits, "L2 write accesses that hit");
    v("dram.reads", &MemoryStats::dram_reads, "DRAM read requests");
    v("dram.writes", &MemoryStats::dram_writes, "DRAM write requests");
    v("dram.read_atoms", &MemoryStats::dram_read_atoms,
      "DRAM reads counted as GPGPU-Sim's `total dram reads` counts them: per request (one per sector of a "
      "sectored L2), its bytes over dram.atom, rounded down (1 per request without an atom size)");
    v("dram.write_atoms", &MemoryStats::dram_write_atoms,
      "DRAM writes counted as GPGPU-Sim's `total dram writes` counts them (as dram.read_atoms)");
    v("dram.row_hits", &MemoryStats::dram_row_hits, "DRAM requests that found their row open");
    v("dram.activates", &MemoryStats::dram_activates, "DRAM row activations");
    v("dram.bytes", &MemoryStats::dram_bytes, "bytes moved on the DRAM data buses");
    v("dram.busy_cycles", &MemoryStats::dram_busy_cycles, "sum over channels of the cycles the data bus was busy",
      StatOutput::Internal);
    v("icnt.flits_up", &MemoryStats::icnt_flits_up, "interconnect flits from the SMs to the L2", StatOutput::Internal);
    v("icnt.flits_down", &MemoryStats::icnt_flits_down, "interconnect flits from the L2 to the SMs",
      StatOutput::Internal);
    v("read_latency_sum", &MemoryStats::read_latency_sum,
      "sum over returned reads of the cycles from the SM's send to the response at the SM", StatOutput::Internal);
    v("reads_returned", &MemoryStats::reads_returned, "reads whose response reached their SM", StatOutput::Internal);
  }
};

class MemorySystem {
 public:
  explicit MemorySystem(const GpuConfig& cfg);
  ~MemorySystem();
  MemorySystem(const MemorySystem&);  // deep copy (simulation snapshots)
  MemorySystem& operator=(const MemorySystem&);

  // True when SM `sm` may inject a request this cycle: its injection port has a free flit slot
  // and no L2 slice input queue was full after tick(now) (global back-pressure; see the
  // addressed overload). Queue occupancy is sampled once per cycle so that every SM sees the
  // same answer whatever order the SMs are stepped in; a queue can therefore take up to one
  // request per SM beyond icnt.input_queue in the cycle it fills up.
  bool can_send(int sm, uint64_t now) const;
  void send(const MemRequest& req, uint64_t now);
  // Advance the interconnect, L2 slices and DRAM by one cycle ending at `now`. Call it before
  // the SMs pop responses and send requests for cycle `now`.
  void tick(uint64_t now);
  // Responses (reads, atomics, write acknowledgements) that reached SM `sm` by `now`, oldest
  // first. Returns false when there is none.
  bool pop_response(int sm, uint64_t now, MemRequest& out);
  // The SMs' part of a cycle (Gpu::step_until) lies between open_sm_phase() and
  // close_sm_phase(). In it, send() and pop_response() change only the calling SM's own state
  // (its injection port, its queue of responses), so SMs may call them from several threads at
  // once; close_sm_phase() then hands the requests to the L2 slices and adds up the counters in
  // SM order, which gives exactly what calling them one SM after another would have given
  // (nothing an SM reads in its cycle depends on another SM's requests of that cycle: can_send
  // samples the slices' queues at tick()).
  void open_sm_phase();
  void close_sm_phase();
  // Whether pop_response(sm, now, ...) would return one (wakes a sleeping SM).
  bool has_response(int sm, uint64_t now) const;
  // Earliest cycle > now at which tick() or pop_response() could do something, or UINT64_MAX
  // when the memory system is empty. Lets the GPU skip cycles in which nothing happens.
  uint64_t next_event(uint64_t now) const;
  // Requests sent and not yet returned to their SM.
  uint64_t in_flight() const;
  // Partition an address maps to (for tests and statistics).
  int partition_of(uint64_t addr) const;

  const MemoryStats& stats() const;
  // The counters as they stand, without summing the channels' busy cycles into
  // dram_busy_cycles (which stays as the last stats() call left it): the per-cycle read.
  const MemoryStats& counters() const;
  uint64_t average_read_latency() const;

  // Like can_send(sm, now), but checks only the queue of the slice `addr` maps to instead of
  // every slice.
  bool can_send(int sm, uint64_t addr, uint64_t now) const;
  // Earliest cycle >= now at which SM `sm`'s injection port has a free flit slot (a multi-flit
  // write keeps it busy for several cycles). can_send() may still be false then because of
  // back-pressure, which only lifts at an L2 lookup, i.e. at a cycle next_event() reports.
  uint64_t next_send_cycle(int sm, uint64_t now) const;
  // Introspection for tests and statistics.
  uint32_t num_l2_slices() const;
  uint32_t slice_of(uint64_t addr) const;  // global slice index
  // Every 32-byte sector of [addr, addr + bytes) becomes valid and clean in its L2 slice
  // (Cache::install; l2.fill_on_copy), in address order.
  void copy_fill(uint64_t addr, uint64_t bytes);
  // Empties every L2 slice (l2.flush_at_launch).
  void drop_l2();
  const Cache& l2_slice_cache(uint32_t slice) const;

  // Persisting L2 accesses (docs/memory.md). Sets aside ceil(bytes / way bytes) ways of every L2
  // set for persisting lines, a way being the L2's size over its associativity (at most all ways
  // but one); returns the bytes set aside (ways x way bytes).
  uint64_t set_persisting_bytes(uint64_t bytes);
  // Every persisting line becomes normal (cudaCtxResetPersistingL2Cache).
  void reset_persisting();
  // The access policy window of kernel `kernel` applies to L2 accesses until remove_window().
  void add_window(uint32_t kernel, const AccessPolicyWindow& w);
  void remove_window(uint32_t kernel);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim

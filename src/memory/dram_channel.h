// One DRAM channel (one per memory partition): banks with a row buffer each, a request queue,
// and an FR-FCFS (or FCFS) command scheduler. All times are core cycles.
//
// Each cycle the channel may issue one column command and one row command:
// - Column (read/write burst) for a request whose row is open in its bank, once the bank's
//   activate has completed (tRCD), tCCD after the previous column command, tCCDL after the
//   previous column command of the same bank group, and when the data bus frees up within the
//   cycle its data would start (tCL later for a read, tWL for a write). A read also waits tCDLR
//   after the end of the last write's data (write-to-read turnaround). The burst occupies the
//   bus for bytes / bytes_per_cycle cycles, accumulated fractionally so that back-to-back bursts
//   reach exactly the configured peak. Read data reaches the L2 dram.latency cycles after its
//   burst.
// - Row (precharge + activate) for a request whose bank has another row open (or none). With a
//   row open the precharge waits for tRAS since that row's activate, for tWR after the last write
//   burst ends, until the end of the last read burst of the bank and tRTPL after the last read of
//   its bank group; the activate follows tRP later, and no sooner than tRRD after the channel's
//   previous activate and tRC after the bank's. A closed bank activates at once. The column may
//   issue tRCD after the activate.
// - With dram.command_rate set, commands also need a slot on the command bus (rate slots per core
//   cycle; a precharge and an activate are two); without dram.dual_command_bus row and column
//   commands share one bus.
// FR-FCFS picks the oldest request whose column can issue now (a row hit), and for the row
// command the oldest request whose bank has no queued request for its open row (a row is not
// closed under pending hits). FCFS serves strictly in arrival order. A request counts as a row
// hit when it is served without an activate of its own.
// With dram.page_policy = closed, a row that no queued request hits after a column command is
// precharged without a command (auto-precharge) as soon as tRAS, tWR and tRTPL allow, unless a
// request for it arrives first: the next request to that bank, whatever its row, activates tRP
// after that precharge.
// With dram.tREFI set, each bank is refreshed once per tREFI (dram.refresh: per_bank spreads the
// banks' refreshes evenly over the interval, all_bank refreshes them together). A refresh closes
// the bank's row (precharging it as soon as tRAS, tWR and tRTPL allow, even under queued hits),
// and the bank takes no activate until tRFC after the refresh began. With dram.refresh_postpone, a
// bank with queued requests postpones its refresh until they are served, for at most that many
// cycles (a controller's refresh postponement; the next slot stays tREFI after the postponed
// one). A bank's state changes only through commands, so refreshes are applied when the channel
// next acts (the same state as applying each at its own cycle); an idle channel is not woken for
// them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "memory/memory_system.h"
#include "memory/ring.h"

namespace warpsim {

struct DramRequest {
  uint64_t addr = 0;  // partition-local address of the line
  uint32_t bank = 0, row = 0;
  uint32_t bytes = 0;
  uint32_t piece = 0;  // bytes moved as one unit (the L2 sector; 0: the whole request)
  int32_t mshr = -1;   // L2 MSHR entry to fill (reads)
  uint16_t slice = 0;  // global L2 slice index to return read data to
  bool write = false;
  bool activated = false;  // an activate was issued on behalf of this request
};

struct DramReturn {
  uint64_t done = 0;  // cycle the data reaches the L2 slice
  uint64_t addr = 0;
  int32_t mshr = -1;
  uint16_t slice = 0;
};

class DramChannel {
 public:
  explicit DramChannel(const DramConfig& cfg);

  // True when `n` more requests of either kind fit (an empty queue always takes them) and, with
  // dram.return_queue, the channel has credits for them: its queued requests and the reads whose
  // data is on the way to the L2 stay within `credits_` (GPGPU-Sim's memory_partition_unit
  // arbitration: the scheduler queue, the write queue and the return queue, and one request per
  // slice; a channel with nothing in flight always takes them).
  bool has_room(uint32_t n) const {
    if (credits_ && !(queue_.empty() && returns_.empty()) && queue_.size() + returns_.size() + n > credits_)
      return false;
    if (!cfg_.write_queue) return queue_.empty() || queue_.size() + n <= capacity_;
    const size_t reads = queue_.size() - writes_;
    return (reads == 0 || reads + n <= capacity_) && (writes_ == 0 || writes_ + n <= cfg_.write_queue);
  }
  // Always accepted; callers keep to has_room() so the queue stays within dram.queue.
  void enqueue(const DramRequest& r) {
    queue_.push_back(r);
    writes_ += r.write;
    ++bank_queued_[r.bank];
    bank_wqueued_[r.bank] += r.write;
    if (banks_[r.bank].open_row == int64_t(r.row)) ++bank_hits_[r.bank], bank_whits_[r.bank] += r.write;
    wake_ = 0;
  }
  // Scheduling at cycle `now`; returns true when a request left the queue.
  bool tick(uint64_t now, MemoryStats& st);
  // Read data that reached the L2 by `now`, in completion order.
  bool pop_return(uint64_t now, DramReturn& out);
  // Lower bound on the next cycle at which tick() or pop_return() can act (UINT64_MAX: idle).
  uint64_t next_event() const;

  size_t queued() const { return queue_.size(); }
  size_t returns_pending() const { return returns_.size(); }
  double busy_cycles() const { return busy_; }
  const DramConfig& config() const { return cfg_; }

 private:
  struct Bank {
    int64_t open_row = -1;
    uint64_t act_cycle = 0;             // cycle of the last activate (tRAS)
    uint64_t col_ready = 0;             // earliest column command (tRCD after the activate)
    uint64_t pre_ready = 0;             // earliest precharge (write recovery, read-to-precharge)
    uint64_t act_ready = 0;             // earliest next activate (tRC)
    uint32_t group = 0;                 // bank group
    uint64_t close_at = UINT64_MAX;     // dram.page_policy = closed: the open row's precharge
    uint64_t refresh_at = UINT64_MAX;   // dram.tREFI: the bank's next refresh (or its postponement's end)
    uint64_t refresh_due = UINT64_MAX;  // the slot of a postponed refresh (UINT64_MAX: none)
  };
  // A column command of some request could issue at `now` as far as the channel is concerned.
  bool column_possible(uint64_t now) const {
    return now >= col_next_ && bus_free_ < double(now + max_data_delay_ + 1) && slot_free(col_bus(), now);
  }
  // With dram.write_queue: whether `r` may be scheduled in the current mode (a drain serves
  // writes only; otherwise reads, and writes when no read waits).
  bool in_mode(const DramRequest& r) const {
    return !cfg_.write_queue || r.write == draining_ || (!draining_ && writes_ == queue_.size());
  }
  // `r`'s column command can issue at `now`.
  bool column_ready(const DramRequest& r, const Bank& b, uint64_t now) const {
    return in_mode(r) && b.open_row == int64_t(r.row) && now >= b.col_ready &&
           group_col_free_[b.group] < double(now + 1) &&
           (r.write ? bus_free_ < double(now + cfg_.tWL + 1)
                    : now >= read_ready_ && bus_free_ < double(now + cfg_.tCL + 1));
  }
  // Earliest precharge of bank `b`'s open row: tRAS after its activate, write recovery and the
  // end of its last read burst, tRTPL after its group's last read.
  uint64_t precharge_ready(const Bank& b) const {
    return std::max({b.act_cycle + cfg_.tRAS, b.pre_ready, group_pre_ready_[b.group]});
  }
  // Earliest cycle of a row command for bank `b` (precharge if a row is open, then activate).
  uint64_t row_time(const Bank& b) const {
    uint64_t act = std::max(act_next_, b.act_ready);
    if (b.open_row < 0) return act;
    uint64_t t = precharge_ready(b);
    return std::max(t, act > cfg_.tRP ? act - cfg_.tRP : 0);
  }
  bool row_possible(const Bank& b, uint64_t now) const { return now >= row_time(b) && slot_free(row_bus(), now); }
  bool slot_free(double bus, uint64_t now) const { return slot_ == 0 || bus < double(now + 1); }
  double col_bus() const { return cmd_bus_[0]; }
  double row_bus() const { return cmd_bus_[cfg_.dual_command_bus ? 1 : 0]; }
  void take_slots(bool row, uint32_t n, uint64_t now) {
    if (slot_ == 0) return;
    double& bus = cmd_bus_[row && cfg_.dual_command_bus ? 1 : 0];
    bus = std::max(bus, double(now)) + n * slot_;
  }
  // Requests of bank `b` in the mode being served (dram.write_queue), all / hitting its open row.
  uint32_t in_mode_queued(uint32_t b) const {
    if (draining_) return bank_wqueued_[b];
    return writes_ == queue_.size() ? bank_queued_[b] : bank_queued_[b] - bank_wqueued_[b];
  }
  uint32_t in_mode_hits(uint32_t b) const {
    if (draining_) return bank_whits_[b];
    return writes_ == queue_.size() ? bank_hits_[b] : bank_hits_[b] - bank_whits_[b];
  }
  void update_mode() {
    if (!cfg_.write_queue) return;
    if (!draining_ && writes_ >= cfg_.write_drain_start)
      draining_ = true;
    else if (draining_ && writes_ < cfg_.write_drain_stop)
      draining_ = false;
  }
  void issue_column(size_t i, uint64_t now, MemoryStats& st);
  void issue_row(DramRequest& r, uint64_t now, MemoryStats& st);
  uint64_t earliest_command() const;
  void close_rows(uint64_t now);
  void refresh_banks(uint64_t now);
  void refresh_bank(uint32_t i, uint64_t first, uint64_t last, uint64_t due);

  DramConfig cfg_;
  bool frfcfs_;
  bool closed_page_ = false;            // dram.page_policy = closed
  uint64_t next_close_ = UINT64_MAX;    // earliest Bank::close_at
  uint64_t next_refresh_ = UINT64_MAX;  // earliest Bank::refresh_at
  uint32_t capacity_;
  uint32_t credits_ = 0;  // dram.return_queue: requests in flight a channel allows (0: no bound)
  std::vector<Bank> banks_;
  std::vector<DramRequest> queue_;  // arrival order
  Ring<DramReturn> returns_;
  std::vector<uint32_t> bank_hits_;                  // queued requests for each bank's open row
  std::vector<uint32_t> bank_queued_;                // queued requests for each bank
  std::vector<uint32_t> bank_whits_, bank_wqueued_;  // the writes among them
  uint64_t wake_ = 0;                                // no command can issue before this cycle
  uint64_t col_next_ = 0;
  size_t writes_ = 0;                      // queued writes
  bool draining_ = false;                  // dram.write_queue: a write drain is on
  uint64_t act_next_ = 0;                  // earliest activate in the channel (tRRD)
  uint64_t read_ready_ = 0;                // earliest read column (write-to-read turnaround)
  uint32_t max_data_delay_ = 0;            // max(tCL, tWL): the data bus admits some column
  std::vector<double> group_col_free_;     // earliest column command per bank group (tCCDL)
  std::vector<uint64_t> group_pre_ready_;  // earliest precharge per bank group (tRTPL)
  double cmd_bus_[2] = {0.0, 0.0};         // command buses (column, row) free from this cycle
  double slot_ = 0.0;                      // core cycles per command-bus slot (0: no limit)
  double bus_free_ = 0.0;                  // cycle (fractional) the data bus becomes free
  double burst_per_byte_;
  double busy_ = 0.0;
};

}  // namespace warpsim

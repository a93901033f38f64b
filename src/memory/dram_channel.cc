#include "memory/dram_channel.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace warpsim {

DramChannel::DramChannel(const DramConfig& cfg) : cfg_(cfg), returns_(64) {
  if (cfg_.banks == 0) throw Error("memory: dram.banks must be at least 1");
  if (!(cfg_.bytes_per_cycle > 0) || !std::isfinite(cfg_.bytes_per_cycle))
    throw Error("memory: dram.bytes_per_cycle must be a positive number");
  if (cfg_.scheduler == "frfcfs")
    frfcfs_ = true;
  else if (cfg_.scheduler == "fcfs")
    frfcfs_ = false;
  else
    throw Error("memory: dram.scheduler '" + cfg_.scheduler + "' is not one of frfcfs|fcfs");
  capacity_ = cfg_.queue ? cfg_.queue : 1;
  // GPGPU-Sim has no credit bound when either queue is unbounded.
  if (cfg_.return_queue && cfg_.queue) credits_ = cfg_.queue + cfg_.write_queue + cfg_.return_queue + 1;
  banks_.resize(cfg_.banks);
  bank_hits_.resize(cfg_.banks);
  bank_queued_.resize(cfg_.banks);
  bank_whits_.resize(cfg_.banks);
  bank_wqueued_.resize(cfg_.banks);
  queue_.reserve(capacity_ + 8);
  burst_per_byte_ = 1.0 / cfg_.bytes_per_cycle;
  if (cfg_.bank_groups == 0 || cfg_.banks % cfg_.bank_groups != 0)
    throw Error("memory: dram.bank_groups must divide dram.banks");
  const uint32_t per_group = cfg_.banks / cfg_.bank_groups;
  for (uint32_t i = 0; i < cfg_.banks; ++i)
    banks_[i].group = cfg_.bank_group_select == "high" ? i / per_group : i % cfg_.bank_groups;
  group_col_free_.assign(cfg_.bank_groups, 0.0);
  group_pre_ready_.assign(cfg_.bank_groups, 0);
  max_data_delay_ = std::max(cfg_.tCL, cfg_.tWL);
  slot_ = cfg_.command_rate > 0 ? 1.0 / cfg_.command_rate : 0.0;
  if (cfg_.page_policy == "closed")
    closed_page_ = true;
  else if (cfg_.page_policy != "open")
    throw Error("memory: dram.page_policy '" + cfg_.page_policy + "' is not one of open|closed");
  if (cfg_.refresh != "per_bank" && cfg_.refresh != "all_bank")
    throw Error("memory: dram.refresh '" + cfg_.refresh + "' is not one of per_bank|all_bank");
  if (cfg_.tREFI > 0) {
    if (cfg_.tRFC >= cfg_.tREFI) throw Error("memory: dram.tRFC must be below dram.tREFI");
    // The first refreshes come one interval in (per_bank: bank i at i/banks of the interval
    // later), so a channel's first tREFI cycles run as without refresh.
    const bool staggered = cfg_.refresh == "per_bank";
    for (uint32_t i = 0; i < cfg_.banks; ++i)
      banks_[i].refresh_at = cfg_.tREFI + (staggered ? uint64_t(i) * cfg_.tREFI / cfg_.banks : 0);
    next_refresh_ = cfg_.tREFI;
    if (cfg_.refresh_postpone >= cfg_.tREFI - cfg_.tRFC)
      throw Error("memory: dram.refresh_postpone must be below dram.tREFI - dram.tRFC");
  }
}

void DramChannel::issue_column(size_t i, uint64_t now, MemoryStats& st) {
  const DramRequest r = queue_[i];
  queue_.erase(queue_.begin() + std::ptrdiff_t(i));
  writes_ -= r.write;
  Bank& b = banks_[r.bank];
  --bank_hits_[r.bank];
  --bank_queued_[r.bank];
  bank_whits_[r.bank] -= r.write;
  bank_wqueued_[r.bank] -= r.write;
  // The data bus moves whole atoms, and each sector of a request is its own transfer: a 32-byte
  // sector on a 64-byte-atom channel takes as long as 64 bytes, a whole 128-byte line of a
  // sectored L2 as long as 256 (GPGPU-Sim sends one memory request per sector).
  uint32_t moved = r.bytes, columns = 1, whole_atoms = 1;
  if (cfg_.atom) {
    const uint32_t piece = r.piece ? std::min(r.piece, r.bytes) : r.bytes;
    const uint32_t pieces = (r.bytes + piece - 1) / piece;
    columns = pieces * ((piece + cfg_.atom - 1) / cfg_.atom);
    moved = columns * cfg_.atom;
    // GPGPU-Sim's `total dram reads/writes` add, per memory request (one per sector), its
    // size divided by the atom, rounded down: a 32-byte sector on a 64-byte atom adds 0.
    whole_atoms = pieces * (piece / cfg_.atom);
  }
  double dur = double(moved) * burst_per_byte_;
  double start = std::max(double(now + (r.write ? cfg_.tWL : cfg_.tCL)), bus_free_);
  bus_free_ = start + dur;
  busy_ += dur;
  col_next_ = now + cfg_.tCCD;
  double& group_free = group_col_free_[b.group];
  group_free = std::max(group_free, double(now)) + columns * cfg_.tCCDL;
  take_slots(false, columns, now);
  uint64_t end = uint64_t(std::ceil(bus_free_));
  if (r.write) {
    b.pre_ready = std::max(b.pre_ready, end + cfg_.tWR);
    read_ready_ = std::max(read_ready_, end + cfg_.tCDLR);
    ++st.dram_writes;
    st.dram_write_atoms += whole_atoms;
  } else {
    // The bank precharges once its burst is out, the group tRTPL after the read.
    b.pre_ready = std::max(b.pre_ready, now + std::max<uint64_t>(1, uint64_t(std::ceil(dur))));
    group_pre_ready_[b.group] = std::max(group_pre_ready_[b.group], now + cfg_.tRTPL);
    ++st.dram_reads;
    st.dram_read_atoms += whole_atoms;
    returns_.push_back({end + cfg_.latency, r.addr, r.mshr, r.slice});
  }
  st.dram_bytes += r.bytes;
  if (!r.activated) ++st.dram_row_hits;
  if (b.refresh_due != UINT64_MAX && bank_queued_[r.bank] == 0) {
    // The postponed refresh goes once the bank's queued requests are served.
    refresh_bank(r.bank, now, now, b.refresh_due);
    return;
  }
  if (closed_page_ && bank_hits_[r.bank] == 0) {
    // No queued request wants the row: it closes as soon as tRAS, write recovery and
    // read-to-precharge allow (close_rows), unless a request for it arrives before.
    b.close_at = std::max(now, precharge_ready(b));
    next_close_ = std::min(next_close_, b.close_at);
  }
}

// Precharges (without a command) the rows whose close time has come and that no queued request
// hits; a request for the row that arrived in time keeps it open. The next activate of such a
// bank waits tRP after the precharge.
void DramChannel::close_rows(uint64_t now) {
  next_close_ = UINT64_MAX;
  for (uint32_t i = 0; i < banks_.size(); ++i) {
    Bank& b = banks_[i];
    if (b.close_at == UINT64_MAX) continue;
    if (b.close_at > now) {
      next_close_ = std::min(next_close_, b.close_at);
      continue;
    }
    if (bank_hits_[i] == 0 && b.open_row >= 0) {
      b.act_ready = std::max(b.act_ready, b.close_at + cfg_.tRP);
      b.open_row = -1;
    }
    b.close_at = UINT64_MAX;
  }
  wake_ = 0;
}

// Refreshes bank `i`: `first` is the refresh that closes its row (an auto-precharge of
// dram.page_policy = closed due before it closes the row at its own time), `last` the latest one
// (the same, or later ones of an idle bank, which find it closed), which decides when the bank
// may activate again. `due` is the schedule slot of `last`: the next refresh is due tREFI after.
void DramChannel::refresh_bank(uint32_t i, uint64_t first, uint64_t last, uint64_t due) {
  Bank& b = banks_[i];
  if (b.open_row >= 0 && b.close_at <= first) {
    b.act_ready = std::max(b.act_ready, b.close_at + cfg_.tRP);
    b.open_row = -1;
  }
  if (b.open_row >= 0) {
    const uint64_t start = std::max(first, precharge_ready(b)) + cfg_.tRP;
    b.act_ready = std::max(b.act_ready, start + cfg_.tRFC);
    b.open_row = -1;
  }
  b.act_ready = std::max(b.act_ready, last + cfg_.tRFC);
  b.close_at = UINT64_MAX;
  bank_hits_[i] = 0;
  bank_whits_[i] = 0;
  b.refresh_due = UINT64_MAX;
  b.refresh_at = due + cfg_.tREFI;
  next_refresh_ = std::min(next_refresh_, b.refresh_at);
  wake_ = 0;
}

// Applies every refresh whose time has come by `now`. A bank with queued requests postpones its
// refresh (dram.refresh_postpone) until they are served (issue_column) or the postponement runs
// out; an idle bank refreshes at its slot, and several slots of a bank idle since are applied
// together.
void DramChannel::refresh_banks(uint64_t now) {
  next_refresh_ = UINT64_MAX;
  for (uint32_t i = 0; i < banks_.size(); ++i) {
    Bank& b = banks_[i];
    if (b.refresh_at <= now) {
      if (b.refresh_due != UINT64_MAX) {  // postponed until now: refresh at the deadline
        refresh_bank(i, b.refresh_at, b.refresh_at, b.refresh_due);
      } else if (b.refresh_at == now && bank_queued_[i] > 0 && cfg_.refresh_postpone > 0) {
        // (A slot already past found the channel idle: a busy channel is ticked at its slots.)
        b.refresh_due = b.refresh_at;
        b.refresh_at += cfg_.refresh_postpone;
      } else {
        const uint64_t last = b.refresh_at + (now - b.refresh_at) / cfg_.tREFI * cfg_.tREFI;
        refresh_bank(i, b.refresh_at, last, last);
      }
    }
    next_refresh_ = std::min(next_refresh_, b.refresh_at);
  }
  wake_ = 0;
}

void DramChannel::issue_row(DramRequest& r, uint64_t now, MemoryStats& st) {
  Bank& b = banks_[r.bank];
  uint64_t act = b.open_row < 0 ? now : now + cfg_.tRP;
  take_slots(true, b.open_row < 0 ? 1 : 2, now);
  act_next_ = std::max(act_next_, act + cfg_.tRRD);
  b.act_ready = act + cfg_.tRC;
  b.open_row = r.row;
  b.close_at = UINT64_MAX;
  uint32_t hits = 0, whits = 0;
  for (const DramRequest& q : queue_)
    if (q.bank == r.bank && q.row == r.row) ++hits, whits += q.write;
  bank_hits_[r.bank] = hits;
  bank_whits_[r.bank] = whits;
  b.act_cycle = act;
  b.col_ready = act + cfg_.tRCD;
  r.activated = true;
  ++st.dram_activates;
}

bool DramChannel::tick(uint64_t now, MemoryStats& st) {
  // An idle bank's state waits for the channel's next command or auto-precharge.
  if (now >= next_refresh_ && (!queue_.empty() || now >= next_close_)) refresh_banks(now);
  if (now >= next_close_) close_rows(now);
  if (queue_.empty() || now < wake_) return false;
  update_mode();
  bool served = false;
  if (column_possible(now)) {
    size_t n = frfcfs_ ? queue_.size() : 1;
    for (size_t i = 0; i < n; ++i) {
      const DramRequest& r = queue_[i];
      if (column_ready(r, banks_[r.bank], now)) {
        issue_column(i, now, st);
        served = true;
        break;
      }
    }
  }
  if (!queue_.empty()) {
    if (frfcfs_) {
      // Only scan when some bank without pending hits can take a row command now. With a
      // separate write queue only hits of the mode being served keep a row open.
      bool any = false;
      const bool wq = cfg_.write_queue != 0;
      for (uint32_t b = 0; b < banks_.size() && !any; ++b)
        any = (wq ? in_mode_queued(b) > 0 && in_mode_hits(b) == 0 : bank_queued_[b] > 0 && bank_hits_[b] == 0) &&
              row_possible(banks_[b], now);
      if (any)
        for (DramRequest& r : queue_) {
          const Bank& b = banks_[r.bank];
          if (b.open_row == int64_t(r.row) || !in_mode(r)) continue;
          if (wq ? in_mode_hits(r.bank) != 0 : bank_hits_[r.bank] != 0) continue;
          if (row_possible(b, now)) {
            issue_row(r, now, st);
            break;
          }
        }
    } else {
      DramRequest& r = queue_.front();
      const Bank& b = banks_[r.bank];
      if (b.open_row != int64_t(r.row) && in_mode(r) && row_possible(b, now)) issue_row(r, now, st);
    }
  }
  update_mode();  // the earliest command depends on the mode the next tick serves
  // Nothing changes until the next command can issue or a request arrives (enqueue resets).
  wake_ = std::max(std::min(earliest_command(), next_refresh_), now + 1);
  return served;
}

bool DramChannel::pop_return(uint64_t now, DramReturn& out) {
  if (returns_.empty() || returns_.front().done > now) return false;
  out = returns_.front();
  returns_.pop_front();
  return true;
}

// Lower bound on the cycle of the next command given the current state.
uint64_t DramChannel::earliest_command() const {
  if (queue_.empty()) return UINT64_MAX;
  auto floor_at = [](double t) { return uint64_t(std::max(0.0, std::floor(t))); };
  int64_t bus = int64_t(std::floor(bus_free_)) - int64_t(max_data_delay_);
  uint64_t chan_col = std::max(col_next_, uint64_t(std::max<int64_t>(bus, 0)));
  if (slot_ > 0) chan_col = std::max(chan_col, floor_at(col_bus()));
  const uint64_t row_slot = slot_ > 0 ? floor_at(row_bus()) : 0;
  auto col_time = [&](const Bank& b) { return std::max({b.col_ready, chan_col, floor_at(group_col_free_[b.group])}); };
  auto row_cmd_time = [&](const Bank& b) { return std::max(row_time(b), row_slot); };
  if (!frfcfs_) {
    const DramRequest& r = queue_.front();
    const Bank& b = banks_[r.bank];
    return b.open_row == int64_t(r.row) ? col_time(b) : row_cmd_time(b);
  }
  // Per bank: a column for its hits, else (no hits pending) a row command for the others.
  uint64_t t = UINT64_MAX;
  for (uint32_t i = 0; i < banks_.size(); ++i) {
    if (!bank_queued_[i]) continue;
    const Bank& b = banks_[i];
    if (cfg_.write_queue) {  // only requests of the mode being served can go
      if (in_mode_queued(i)) t = std::min(t, in_mode_hits(i) ? col_time(b) : row_cmd_time(b));
    } else
      t = std::min(t, bank_hits_[i] ? col_time(b) : row_cmd_time(b));
  }
  return t;
}

uint64_t DramChannel::next_event() const {
  uint64_t t = returns_.empty() ? UINT64_MAX : returns_.front().done;
  if (!queue_.empty()) t = std::min(t, wake_);
  return std::min(t, next_close_);
}

}  // namespace warpsim

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
  banks_.resize(cfg_.banks);
  bank_hits_.resize(cfg_.banks);
  bank_queued_.resize(cfg_.banks);
  queue_.reserve(capacity_ + 8);
  burst_per_byte_ = 1.0 / cfg_.bytes_per_cycle;
}

void DramChannel::issue_column(size_t i, uint64_t now, MemoryStats& st) {
  const DramRequest r = queue_[i];
  queue_.erase(queue_.begin() + std::ptrdiff_t(i));
  Bank& b = banks_[r.bank];
  --bank_hits_[r.bank];
  --bank_queued_[r.bank];
  // The data bus moves whole atoms, and each sector of a request is its own transfer: a 32-byte
  // sector on a 64-byte-atom channel takes as long as 64 bytes, a whole 128-byte line of a
  // sectored L2 as long as 256 (GPGPU-Sim sends one memory request per sector).
  uint32_t moved = r.bytes;
  if (cfg_.atom) {
    const uint32_t piece = r.piece ? std::min(r.piece, r.bytes) : r.bytes;
    const uint32_t pieces = (r.bytes + piece - 1) / piece;
    moved = pieces * ((piece + cfg_.atom - 1) / cfg_.atom * cfg_.atom);
  }
  double dur = double(moved) * burst_per_byte_;
  double start = std::max(double(now + cfg_.tCL), bus_free_);
  bus_free_ = start + dur;
  busy_ += dur;
  col_next_ = now + cfg_.tCCD;
  uint64_t end = uint64_t(std::ceil(bus_free_));
  if (r.write) {
    b.pre_ready = std::max(b.pre_ready, end + cfg_.tWR);
    ++st.dram_writes;
  } else {
    b.pre_ready = std::max(b.pre_ready, now + 1);
    ++st.dram_reads;
    returns_.push_back({end + cfg_.latency, r.addr, r.mshr, r.slice});
  }
  st.dram_bytes += r.bytes;
  if (!r.activated) ++st.dram_row_hits;
}

void DramChannel::issue_row(DramRequest& r, uint64_t now, MemoryStats& st) {
  Bank& b = banks_[r.bank];
  uint64_t act = b.open_row < 0 ? now : now + cfg_.tRP;
  b.open_row = r.row;
  uint32_t hits = 0;
  for (const DramRequest& q : queue_) hits += q.bank == r.bank && q.row == r.row;
  bank_hits_[r.bank] = hits;
  b.act_cycle = act;
  b.col_ready = act + cfg_.tRCD;
  r.activated = true;
  ++st.dram_activates;
}

bool DramChannel::tick(uint64_t now, MemoryStats& st) {
  if (queue_.empty() || now < wake_) return false;
  bool served = false;
  if (column_possible(now)) {
    size_t n = frfcfs_ ? queue_.size() : 1;
    for (size_t i = 0; i < n; ++i) {
      const DramRequest& r = queue_[i];
      const Bank& b = banks_[r.bank];
      if (b.open_row == int64_t(r.row) && now >= b.col_ready) {
        issue_column(i, now, st);
        served = true;
        break;
      }
    }
  }
  if (!queue_.empty()) {
    if (frfcfs_) {
      // Only scan when some bank without pending hits can take a row command now.
      bool any = false;
      for (uint32_t b = 0; b < banks_.size() && !any; ++b)
        any = bank_queued_[b] > 0 && bank_hits_[b] == 0 && row_possible(banks_[b], now);
      if (any)
        for (DramRequest& r : queue_) {
          const Bank& b = banks_[r.bank];
          if (b.open_row == int64_t(r.row) || bank_hits_[r.bank]) continue;
          if (row_possible(b, now)) {
            issue_row(r, now, st);
            break;
          }
        }
    } else {
      DramRequest& r = queue_.front();
      const Bank& b = banks_[r.bank];
      if (b.open_row != int64_t(r.row) && row_possible(b, now)) issue_row(r, now, st);
    }
  }
  // Nothing changes until the next command can issue or a request arrives (enqueue resets).
  wake_ = std::max(earliest_command(), now + 1);
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
  int64_t bus = int64_t(std::floor(bus_free_)) - int64_t(cfg_.tCL);
  uint64_t chan_col = std::max(col_next_, uint64_t(std::max<int64_t>(bus, 0)));
  auto row_time = [&](const Bank& b) {
    return b.open_row < 0 ? uint64_t(0) : std::max(b.act_cycle + cfg_.tRAS, b.pre_ready);
  };
  if (!frfcfs_) {
    const DramRequest& r = queue_.front();
    const Bank& b = banks_[r.bank];
    return b.open_row == int64_t(r.row) ? std::max(b.col_ready, chan_col) : row_time(b);
  }
  // Per bank: a column for its hits, else (no hits pending) a row command for the others.
  uint64_t t = UINT64_MAX;
  for (uint32_t i = 0; i < banks_.size(); ++i) {
    if (!bank_queued_[i]) continue;
    const Bank& b = banks_[i];
    t = std::min(t, bank_hits_[i] ? std::max(b.col_ready, chan_col) : row_time(b));
  }
  return t;
}

uint64_t DramChannel::next_event() const {
  uint64_t t = returns_.empty() ? UINT64_MAX : returns_.front().done;
  if (!queue_.empty()) t = std::min(t, wake_);
  return t;
}

}  // namespace warpsim

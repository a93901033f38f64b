// The L1D's latency pipeline with the tag lookup at its end (core.l1_lookup_after_latency, as
// GPGPU-Sim's l1_latency_queue): per data bank, at most `depth` line accesses in order. An access
// enters at the pipeline's last stage when that stage is free (one per bank per cycle), moves one
// stage per cycle while the stage ahead of it is free, and is looked up in the tags at the first
// stage, `depth` cycles after it entered at the earliest and one cycle after the access ahead of
// it left at the earliest. A lookup that cannot proceed (no MSHR, no room in the miss queue)
// keeps its access at the head, where it holds back every access of its bank behind it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace warpsim {

class L1LookupPipe {
 public:
  struct Entry {
    uint32_t op;     // the LD/ST unit's operation
    uint8_t access;  // which of its line accesses
    uint64_t due;    // the first cycle it may be looked up
  };

  // depth 0: no pipeline (the lookup happens as the access enters).
  void configure(uint32_t banks, uint32_t depth) {
    depth_ = depth;
    entries_.assign(size_t(banks) * std::max(depth, 1u), Entry{});
    head_.assign(banks, 0);
    count_.assign(banks, 0);
    fail_.assign(banks, Blocked{});
    total_ = 0;
  }
  bool enabled() const { return depth_ > 0; }
  bool empty() const { return total_ == 0; }
  uint32_t banks() const { return uint32_t(head_.size()); }
  // Whether bank `bank`'s last stage is free for an access entering now (lookups of this cycle
  // already done).
  bool room(uint32_t bank) const { return count_[bank] < depth_; }
  void push(uint32_t bank, uint32_t op, uint8_t access, uint64_t now) {
    entries_[slot(bank, count_[bank])] = {op, access, now + depth_};
    ++count_[bank];
    ++total_;
  }
  // The access at bank `bank`'s head whose lookup is due by `now` (nullptr: none).
  const Entry* due(uint32_t bank, uint64_t now) const {
    if (count_[bank] == 0) return nullptr;
    const Entry& e = entries_[slot(bank, 0)];
    return e.due <= now ? &e : nullptr;
  }
  // The head of bank `bank` was looked up at `now` and left: the next one moves up behind it.
  void pop(uint32_t bank, uint64_t now) {
    head_[bank] = (head_[bank] + 1) % depth_;
    --count_[bank];
    --total_;
    fail_[bank].failed = false;
    if (count_[bank] > 0) {
      Entry& e = entries_[slot(bank, 0)];
      e.due = std::max(e.due, now + 1);
    }
  }
  // The head's lookup failed with the L1D at generation `generation` and `queued` requests in
  // the miss queue: until either changes (a fill, a request leaving) it would fail again.
  void fail(uint32_t bank, uint64_t generation, uint32_t queued) { fail_[bank] = {true, generation, queued}; }
  bool blocked(uint32_t bank, uint64_t generation, uint32_t queued) const {
    const Blocked& b = fail_[bank];
    return b.failed && b.generation == generation && queued >= b.queued;
  }
  // Heads whose lookup would fail again.
  uint32_t blocked_heads(uint64_t generation, uint32_t queued) const {
    uint32_t n = 0;
    for (uint32_t b = 0; b < banks(); ++b) n += count_[b] > 0 && blocked(b, generation, queued);
    return n;
  }
  // The earliest cycle after `now` a head that is not blocked can be looked up (~0: none).
  uint64_t next_due(uint64_t now, uint64_t generation, uint32_t queued) const {
    uint64_t t = ~0ull;
    if (total_ == 0) return t;
    for (uint32_t b = 0; b < banks(); ++b)
      if (count_[b] > 0 && !blocked(b, generation, queued))
        t = std::min(t, std::max(now + 1, entries_[slot(b, 0)].due));
    return t;
  }

 private:
  struct Blocked {
    bool failed = false;
    uint64_t generation = 0;
    uint32_t queued = 0;
  };
  size_t slot(uint32_t bank, uint32_t i) const { return size_t(bank) * depth_ + (head_[bank] + i) % depth_; }

  uint32_t depth_ = 0;
  std::vector<Entry> entries_;
  std::vector<uint32_t> head_, count_;
  std::vector<Blocked> fail_;
  uint32_t total_ = 0;
};

}  // namespace warpsim

// The kernel launches a GPU has not finished yet, kept so that a cycle looks only at the live
// ones: one FIFO per stream (a launch starts once every earlier launch of its stream has
// finished, so only a stream's head can start), the heads waiting to start, the running
// launches, and the launch cycles still ahead. Finished launches leave every set: what an
// operation costs depends on the streams and running launches, never on how many launches
// were made since the start.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace warpsim {

class LaunchQueue {
 public:
  // Launch `id` queued on `stream`, allowed to start from `launch_cycle`. Ids are given in
  // increasing order.
  void push(uint32_t id, uint32_t stream, uint64_t launch_cycle);
  // Start every stream head whose launch cycle is at or before `now`: they become running and
  // their ids are appended to `started`, in increasing order.
  void start_due(uint64_t now, std::vector<uint32_t>& started);
  // Running launch `id` of `stream` finished; the next launch of its stream becomes its head.
  void finish(uint32_t id, uint32_t stream);

  // Started and unfinished launches, in increasing order of id.
  const std::vector<uint32_t>& running() const { return running_; }
  // True when every launch pushed so far has finished.
  bool empty() const { return live_ == 0; }
  // The last unfinished launch of `stream` (every earlier one of the stream finishes before
  // it), or none when the stream has nothing left to run.
  std::optional<uint32_t> last_of(uint32_t stream) const;
  // The earliest launch cycle after `now` of a launch that has not started, or ~0 when there
  // is none. `now` never decreases from one call to the next.
  uint64_t next_launch_cycle(uint64_t now);

 private:
  struct Queued {
    uint32_t id;
    uint64_t launch_cycle;
  };
  std::unordered_map<uint32_t, std::deque<Queued>> streams_;  // unfinished launches, oldest first
  std::map<uint32_t, uint64_t> heads_;                        // stream heads not started: id -> launch cycle
  std::vector<uint32_t> running_;
  // Launch cycles of launches not started; those passed are dropped as time moves on.
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> ahead_;
  uint64_t live_ = 0;
};

}  // namespace warpsim

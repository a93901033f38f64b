#include "timing/launch_queue.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.h"

namespace warpsim {

void LaunchQueue::push(uint32_t id, uint32_t stream, uint64_t launch_cycle) {
  std::deque<Queued>& q = streams_[stream];
  if (q.empty()) heads_.emplace(id, launch_cycle);
  q.push_back({id, launch_cycle});
  ahead_.push(launch_cycle);
  ++live_;
}

void LaunchQueue::start_due(uint64_t now, std::vector<uint32_t>& started) {
  while (!ahead_.empty() && ahead_.top() <= now) ahead_.pop();
  for (auto it = heads_.begin(); it != heads_.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    const uint32_t id = it->first;
    started.push_back(id);
    running_.insert(std::upper_bound(running_.begin(), running_.end(), id), id);
    it = heads_.erase(it);
  }
}

void LaunchQueue::finish(uint32_t id, uint32_t stream) {
  auto r = std::lower_bound(running_.begin(), running_.end(), id);
  auto s = streams_.find(stream);
  if (r == running_.end() || *r != id || s == streams_.end() || s->second.front().id != id)
    throw Error(
        fmt::format("internal: launch {} of stream {} finished without running at its stream's head", id, stream));
  running_.erase(r);
  std::deque<Queued>& q = s->second;
  q.pop_front();
  if (q.empty())
    streams_.erase(s);
  else
    heads_.emplace(q.front().id, q.front().launch_cycle);
  --live_;
}

std::optional<uint32_t> LaunchQueue::last_of(uint32_t stream) const {
  auto s = streams_.find(stream);
  if (s == streams_.end()) return std::nullopt;
  return s->second.back().id;
}

uint64_t LaunchQueue::next_launch_cycle(uint64_t now) {
  while (!ahead_.empty() && ahead_.top() <= now) ahead_.pop();
  return ahead_.empty() ? ~0ull : ahead_.top();
}

}  // namespace warpsim

#include "timing/inst_profile.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/json_file.h"

namespace warpsim {

std::vector<std::pair<uint32_t, InstProfileEntry>> InstProfile::take(uint32_t kernel) {
  std::vector<std::pair<uint32_t, InstProfileEntry>> out;
  for (auto it = map_.begin(); it != map_.end();) {
    if (uint32_t(it->first >> 32) == kernel) {
      out.emplace_back(uint32_t(it->first), it->second);
      it = map_.erase(it);
    } else {
      ++it;
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

void write_inst_profile_csv(const std::string& path, const std::vector<InstProfileRow>& rows) {
  std::string s = "kernel,launch,pc,line,warp_insts,thread_insts,timed_warp_insts,latency,avg_latency\n";
  for (const InstProfileRow& r : rows) {
    double avg = r.e.thread_insts ? double(r.e.latency) / double(r.e.thread_insts) : 0.0;
    s += fmt::format("{},{},{},{},{},{},{},{},{:.2f}\n", r.kernel, r.launch, r.pc, r.line, r.e.warp_insts,
                     r.e.thread_insts, r.e.timed_warp_insts, r.e.latency, avg);
  }
  write_file_atomic(path, s);
}

}  // namespace warpsim

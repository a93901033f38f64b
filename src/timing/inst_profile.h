// Per-instruction profile of a run: for each kernel launch and instruction address, the warp
// and thread instructions issued and the cycles from issue to result, summed over the issued
// instructions weighted by their active threads (what GPGPU-Sim's gpgpu_inst_stats.txt calls
// 'count' and 'latency'), so that two simulators can be compared instruction by instruction.
// Latency is counted for instructions with a result or a memory access: an ALU instruction from
// issue to the cycle its result may be read, a memory instruction from issue to the cycle the
// LD/ST unit completes it (its data written back; a store once its last access left the unit or
// was acknowledged, as the preset says). Barriers, exits and taken-branch bubbles have none.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace warpsim {

struct InstProfileEntry {
  uint64_t warp_insts = 0;
  uint64_t thread_insts = 0;
  uint64_t timed_warp_insts = 0;  // those with a latency
  uint64_t latency = 0;           // sum over timed instructions of cycles x active threads
};

// One row of a finished launch.
struct InstProfileRow {
  std::string kernel;
  uint32_t launch = 0;
  uint32_t pc = 0;
  int line = -1;  // source line (PTX) of the instruction, -1 when the front end has none
  InstProfileEntry e;
};

class InstProfile {
 public:
  void issued(uint32_t kernel, uint32_t pc, uint32_t threads) {
    InstProfileEntry& e = map_[key(kernel, pc)];
    e.warp_insts++;
    e.thread_insts += threads;
  }
  void completed(uint32_t kernel, uint32_t pc, uint32_t threads, uint64_t cycles) {
    InstProfileEntry& e = map_[key(kernel, pc)];
    e.timed_warp_insts++;
    e.latency += cycles * threads;
  }
  // The entries of launch `kernel` in address order, removed from the table.
  std::vector<std::pair<uint32_t, InstProfileEntry>> take(uint32_t kernel);

 private:
  static uint64_t key(uint32_t kernel, uint32_t pc) { return (uint64_t(kernel) << 32) | pc; }
  std::unordered_map<uint64_t, InstProfileEntry> map_;
};

// Writes `rows` as CSV (kernel, launch, pc, line, warp_insts, thread_insts, timed_warp_insts,
// latency, avg_latency = latency / thread_insts, GPGPU-Sim's ratio), atomically.
void write_inst_profile_csv(const std::string& path, const std::vector<InstProfileRow>& rows);

}  // namespace warpsim

// A trace of every warp instruction issued (`warpsim run --issue-log`): cycle, SM, scheduler,
// warp slot, instruction address, operation class and active lanes, one row each, for comparing
// a launch instruction by instruction with another simulator's issue log (docs/fidelity.md,
// "Method"). It holds a row per issued instruction in memory until written: meant for the small
// runs such comparisons use.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/launch_target.h"
#include "core/warp_inst.h"

namespace warpsim {

struct IssueTraceRow {
  uint64_t cycle = 0;
  uint32_t launch = 0;  // the kernel launch (KernelResult::launch_index)
  uint32_t pc = 0;
  uint16_t sm = 0;
  uint8_t sched = 0;
  OpClass op = OpClass::ALU;
  uint16_t slot = 0;
  uint8_t lanes = 0;
};

class IssueTrace {
 public:
  void issued(const IssueTraceRow& r) { rows_.push_back(r); }
  const std::vector<IssueTraceRow>& rows() const { return rows_; }

 private:
  std::vector<IssueTraceRow> rows_;
};

// Writes `trace` as tab-separated text with a header: launch, kernel name, cycle, cycle since the
// launch's first CTA started (GPGPU-Sim's gpu_sim_cycle counts from the launch), SM, scheduler,
// warp slot, address (hex), operation class, active lanes; rows in cycle order, then by SM.
void write_issue_trace_tsv(const std::string& path, const IssueTrace& trace, const std::vector<KernelResult>& launches);

}  // namespace warpsim

#include "timing/issue_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "core/json_file.h"

namespace warpsim {

void write_issue_trace_tsv(const std::string& path, const IssueTrace& trace,
                           const std::vector<KernelResult>& launches) {
  std::unordered_map<uint32_t, const KernelResult*> by_launch;
  for (const KernelResult& k : launches) by_launch[k.launch_index] = &k;
  std::vector<IssueTraceRow> rows = trace.rows();
  std::stable_sort(rows.begin(), rows.end(), [](const IssueTraceRow& a, const IssueTraceRow& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.sm < b.sm;
  });
  std::string s = "launch\tkernel\tcycle\tlaunch_cycle\tsm\tscheduler\twarp\tpc\top\tlanes\n";
  for (const IssueTraceRow& r : rows) {
    auto it = by_launch.find(r.launch);
    const KernelResult* k = it == by_launch.end() ? nullptr : it->second;
    const uint64_t start = k ? k->start_cycle : 0;
    s += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:x}\t{}\t{}\n", r.launch, k ? k->name : "?", r.cycle,
                     r.cycle >= start ? r.cycle - start : 0, r.sm, unsigned(r.sched), r.slot, r.pc, op_class_name(r.op),
                     unsigned(r.lanes));
  }
  write_file_atomic(path, s);
}

}  // namespace warpsim

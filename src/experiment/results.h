// Tidy results: one flat row per (workload, kernel launch, scheduler) from the runs' JSON.
// In memory and in results.jsonl a row holds every statistic of the launch (nested objects
// joined with '.': "l1d.hits", stall classes under "stall.") and the scheduler's own counters
// (actions, modes, budgets, ...) under "sched.". results.csv has a fixed set of columns
// (result_csv_columns, documented in docs/harness.md); the scheduler's counters go to
// scheduler_report.csv in long form, one line per run and key.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment/metrics.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {

// Adds the leaves of `j` to `out` under keys joined with '.' after `prefix` ("l1d.hits");
// arrays of scalars become one 'x'-joined string, other arrays and nulls are left out.
void flatten(const nlohmann::json& j, const std::string& prefix, nlohmann::json& out);

// Rows of one run (the JSON `warpsim run --json` writes) of pair `p`.
std::vector<nlohmann::json> tidy_rows(const Pair& p, const nlohmann::json& run);

// The columns of results.csv, in order: the same for every sweep, whatever its schedulers.
const std::vector<std::string>& result_csv_columns();
// True for the keys of a row that come from the scheduler's own report ("sched.").
bool is_scheduler_report_key(const std::string& key);

// results.csv: result_csv_columns() of each row, empty where a row has no value.
std::string to_csv(const std::vector<nlohmann::json>& rows);
// scheduler_report.csv: workload,scheduler,sched_params,gpu,size,seed,key,value; one line per
// run and scheduler-report key (the key without "sched.").
std::string scheduler_report_csv(const std::vector<nlohmann::json>& rows);

// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_quote(const std::string& s);
std::string to_jsonl(const std::vector<nlohmann::json>& rows);

// Kernel cycles by kernel_id and scheduler, schedulers in the order given.
CycleTable cycle_table(const std::vector<nlohmann::json>& rows, const std::vector<std::string>& schedulers);

// The kernel a row belongs to with its launches taken together: the kernel_id without the
// "#launch" a repeated kernel name carries ("bfs/expand#3" -> "bfs/expand"), else the kernel_id.
std::string kernel_of(const nlohmann::json& row);

// The cycle table with the launches of one kernel (kernel_of) added up, and which launches
// (kernel_ids, the keys of cycle_table) and workload each kernel has. A scheduler's sum is NaN
// unless it has a result for every launch of the kernel that any scheduler has.
struct KernelLaunches {
  CycleTable table;
  std::vector<std::string> workloads;              // per kernel of the table
  std::vector<std::vector<std::string>> launches;  // per kernel of the table, in row order
};
KernelLaunches kernel_launches(const std::vector<nlohmann::json>& rows, const std::vector<std::string>& schedulers);

// Names of the stall classes in the rows ("issued", "raw", ...), in the order the simulator
// reports them.
std::vector<std::string> stall_classes(const std::vector<nlohmann::json>& rows);

}  // namespace warpsim::experiment

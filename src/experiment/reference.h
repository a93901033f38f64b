// Reference results for `warpsim correlate`: per kernel launch cycles (and optional counters)
// measured by another simulator or a real GPU, keyed by workload, size, GPU preset and scheduler.
//
// Sources: a CSV table (read_reference_csv), GPGPU-Sim 4.2 output logs
// (parse_gpgpusim_log, import_gpgpusim_dir) and Nsight Compute CSV (parse_ncu_csv).
// docs/correlate.md describes the formats.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpsim::experiment {

struct ReferenceRow {
  std::string workload, size, gpu, scheduler, kernel;
  uint64_t launch = 0;  // 0-based index of the launch within the program run
  double cycles = 0;
  std::map<std::string, double> counters;  // optional columns (warp_insts, l2_accesses, ...)
  std::string origin;                      // "file:line" (or file) the row came from, for messages
};

struct ReferenceTable {
  std::vector<ReferenceRow> rows;
  std::vector<std::string> counter_names;  // in column order
};

// The required columns of a reference CSV, in the order reference_to_csv writes them.
const std::vector<std::string>& reference_columns();

// Parses a reference CSV (`name` is used in messages). Throws Error("name:line: ...") on a
// missing required column, a bad number, a wrong field count or a duplicate row.
ReferenceTable parse_reference_csv(const std::string& text, const std::string& name);
ReferenceTable read_reference_csv(const std::string& path);

// The table as CSV: the required columns, then every counter column.
std::string reference_to_csv(const ReferenceTable& t);

// One kernel launch of a GPGPU-Sim log.
struct GpgpusimLaunch {
  std::string kernel;                      // as GPGPU-Sim prints it (mangled C++ names stay mangled)
  uint64_t uid = 0;                        // kernel_launch_uid
  double cycles = 0;                       // gpu_sim_cycle
  std::map<std::string, double> counters;  // per launch (GPGPU-Sim's running totals differenced)
};

// Parses a GPGPU-Sim 4.2 output log, full or filtered to its `key = value` lines. Throws Error
// naming `name` when the log does not end with GPGPU-Sim's exit message, has no kernel, or a
// kernel without gpu_sim_cycle.
std::vector<GpgpusimLaunch> parse_gpgpusim_log(const std::string& text, const std::string& name);

// Imports DIR/<gpu>/<scheduler>/<workload>.<size>.log (gpu and scheduler are warpsim names;
// the size is the text after the last '.' of the file's stem). Logs are read in sorted order.
ReferenceTable import_gpgpusim_dir(const std::string& dir);

// Nsight Compute `ncu --csv --metrics gpc__cycles_elapsed.max` output: one row per kernel
// launch with the metric "gpc__cycles_elapsed.max" (other metrics become counters). Launches
// are numbered 0, 1, ... in the order of their "ID"; the scheduler is "hw".
ReferenceTable parse_ncu_csv(const std::string& text, const std::string& name, const std::string& workload,
                             const std::string& size, const std::string& gpu);

ReferenceTable read_ncu_csv(const std::string& path, const std::string& workload, const std::string& size,
                            const std::string& gpu);

// A CSV file or a GPGPU-Sim log directory.
ReferenceTable load_reference(const std::string& path);

// Rows of `b` appended to `a`; a (workload, size, gpu, scheduler, kernel, launch) already in
// `a` throws Error naming both origins.
void merge_reference(ReferenceTable& a, const ReferenceTable& b);

// The kernel name used for matching: the identifier of an Itanium-mangled name
// ("_Z3addPKfS0_Pfi" -> "add"), any other name unchanged.
std::string kernel_match_name(const std::string& kernel);

// The whole file; throws Error("path: cannot read").
std::string read_text(const std::string& path);

// CSV fields of one line (RFC 4180 quotes); sets `ok` false on an unterminated quote.
std::vector<std::string> split_csv_line(const std::string& line, bool& ok);

}  // namespace warpsim::experiment

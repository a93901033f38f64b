// Statistics in GPGPU-Sim's printed form, so that scripts written for GPGPU-Sim's output (the
// `key = value` lines after each kernel: Accel-Sim's get_stats, labs' own parsers) read
// warpsim's runs unchanged. One block per kernel launch, in completion order, as GPGPU-Sim
// prints them: the launch's own gpu_sim_cycle / gpu_sim_insn / gpu_ipc, the running totals
// gpu_tot_*, and the cache and DRAM counters as totals since the start of the program, then
// the exit line. The counters and their names are declared once, in timing/gpgpusim_names.h,
// which `warpsim correlate` reads too (warpsim_counter, parse_gpgpusim_log): L1D accesses
// count stores, misses exclude merges into a pending miss, L2 accesses and misses are per
// sector; warpsim counts DRAM requests where GPGPU-Sim counts DRAM column commands.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace warpsim::experiment {

// `run` is the JSON of `warpsim run --json` or `warpsim exec --json` (its "kernels" array).
std::string gpgpusim_stats_text(const nlohmann::json& run);

}  // namespace warpsim::experiment

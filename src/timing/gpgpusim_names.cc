#include "timing/gpgpusim_names.h"

#include <fmt/format.h>

namespace warpsim {

const std::vector<GpgpusimCounter>& gpgpusim_counters() {
  // GPGPU-Sim's L1D counters count stores (write-evict or write-back) with the loads, per sector
  // of a sectored L1 (one per line otherwise), and keep accesses merged into a pending miss
  // (HIT_RESERVED) out of the misses; its L2 counts sectors, as warpsim's does.
  static const std::vector<GpgpusimCounter> counters = {
      {"gpu_sim_insn",
       "thread_insts",
       false,
       {{+1, "thread_insts"}},
       "",
       nullptr,
       nullptr,
       "thread instructions of the launch"},
      {"L1D_total_cache_accesses",
       "l1d_accesses",
       true,
       {{+1, "l1d.sector_accesses"}},
       "\t",
       nullptr,
       nullptr,
       "L1D loads and stores"},
      {"L1D_total_cache_misses",
       "l1d_misses",
       true,
       {{+1, "l1d.sector_misses"}},
       "\t",
       "L1D_total_cache_miss_rate",
       "l1d_accesses",
       "L1D load and store misses, less the loads merged into a pending miss"},
      {"L2_total_cache_accesses",
       "l2_accesses",
       true,
       {{+1, "l2.reads"}, {+1, "l2.writes"}},
       "",
       nullptr,
       nullptr,
       "L2 sector accesses"},
      {"L2_total_cache_misses",
       "l2_misses",
       true,
       {{+1, "l2.reads"}, {+1, "l2.writes"}, {-1, "l2.read_hits"}, {-1, "l2.write_hits"}, {-1, "l2.read_pending_hits"}},
       "",
       "L2_total_cache_miss_rate",
       "l2_accesses",
       "L2 sector accesses that missed, less the reads merged into a fetch in flight"},
      {"total dram reads",
       "dram_reads",
       true,
       {{+1, "dram.read_atoms"}},
       "",
       nullptr,
       nullptr,
       "DRAM reads, per request its bytes over the atom size rounded down, as GPGPU-Sim counts them"},
      {"total dram writes",
       "dram_writes",
       true,
       {{+1, "dram.write_atoms"}},
       "",
       nullptr,
       nullptr,
       "DRAM writes, counted as the reads"},
  };
  return counters;
}

const GpgpusimCounter* find_gpgpusim_counter(std::string_view name) {
  for (const GpgpusimCounter& c : gpgpusim_counters())
    if (name == c.name) return &c;
  return nullptr;
}

std::optional<double> gpgpusim_counter_value(
    const GpgpusimCounter& c, const std::function<std::optional<double>(const std::string& stat)>& stat) {
  double sum = 0;
  for (const StatTerm& t : c.terms) {
    std::optional<double> v = stat(t.stat);
    if (!v) return std::nullopt;
    sum += t.sign * *v;
  }
  return sum;
}

std::string gpgpusim_counters_markdown() {
  std::string out = "| GPGPU-Sim line | counter | warpsim statistics | meaning |\n|---|---|---|---|\n";
  for (const GpgpusimCounter& c : gpgpusim_counters()) {
    std::string sum;
    for (const StatTerm& t : c.terms)
      sum += sum.empty() ? fmt::format("{}`{}`", t.sign < 0 ? "- " : "", t.stat)
                         : fmt::format(" {} `{}`", t.sign < 0 ? '-' : '+', t.stat);
    out += fmt::format("| `{}`{} | `{}` | {} | {}{} |\n", c.gpgpusim, c.cumulative ? " (running total)" : "", c.name,
                       sum, c.help, c.miss_rate ? fmt::format("; then `{}` (/ `{}`)", c.miss_rate, c.rate_of) : "");
  }
  return out;
}

}  // namespace warpsim

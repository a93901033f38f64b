#include "core/config.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "core/error.h"
#include "core/l1_carveout.h"

namespace warpsim {

GpuConfig::GpuConfig() {
  // Fermi-like defaults; presets in configs/gpus override them.
  // Latencies by class: add, mul, div, trans, alu, max, mad, shfl, mma (only wmma.mma, on SP).
  units[int(Unit::SP)] = {2, {4, 4, 20, 20, 1, 4, 4, 4, 64}, {2, 2, 2, 2, 1, 2, 2, 2, 32}};
  units[int(Unit::INT)] = {0, {4, 4, 20, 20, 1, 4, 4, 4, 64}, {2, 2, 2, 2, 1, 2, 2, 2, 32}};  // count 0: on SP
  units[int(Unit::DP)] = {1, {8, 8, 40, 40, 1, 8, 8, 8, 64}, {8, 8, 8, 8, 1, 8, 8, 8, 32}};
  units[int(Unit::SFU)] = {1, {20, 20, 40, 20, 1, 20, 20, 20, 64}, {8, 8, 8, 8, 1, 8, 8, 8, 32}};
  units[int(Unit::MEM)] = {1, {1, 1, 1, 1, 1, 1, 1, 1, 64}, {1, 1, 1, 1, 1, 1, 1, 1, 32}};
  // count 0: branches go to the INT unit (SP without one)
  units[int(Unit::BRANCH)] = {0, {2, 2, 2, 2, 2, 2, 2, 2, 64}, {1, 1, 1, 1, 1, 1, 1, 1, 32}};
}

namespace {

struct Flattener {
  std::vector<ConfigField>& out;
  std::string prefix;

  void add(const char* name, const char* doc, ConfigField::Kind kind, void* p) {
    out.push_back({prefix + name, doc, kind, p});
  }
  void operator()(const char* n, bool& f, const char* d) { add(n, d, ConfigField::Bool, &f); }
  void operator()(const char* n, uint32_t& f, const char* d) { add(n, d, ConfigField::U32, &f); }
  void operator()(const char* n, uint64_t& f, const char* d) { add(n, d, ConfigField::U64, &f); }
  void operator()(const char* n, double& f, const char* d) { add(n, d, ConfigField::Double, &f); }
  void operator()(const char* n, std::string& f, const char* d) { add(n, d, ConfigField::String, &f); }
  template <class T>
  void group(const char* n, T& sub, const char*) {
    Flattener inner{out, prefix + n + "."};
    sub.visit(inner);
  }
};

template <class T>
T parse_unsigned(const std::string& key, const std::string& value) {
  T v{};
  std::string s = value;
  // Accept 16K / 4M / 1G size suffixes for convenience.
  uint64_t mult = 1;
  if (!s.empty()) {
    char c = s.back();
    if (c == 'K' || c == 'k')
      mult = 1024;
    else if (c == 'M' || c == 'm')
      mult = 1024 * 1024;
    else if (c == 'G' || c == 'g')
      mult = 1024ull * 1024 * 1024;
    if (mult != 1) s.pop_back();
  }
  uint64_t raw = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), raw);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty())
    throw Error(fmt::format("config key '{}': '{}' is not a non-negative integer", key, value));
  raw *= mult;
  if (raw > uint64_t(std::numeric_limits<T>::max()))
    throw Error(fmt::format("config key '{}': {} is out of range", key, value));
  v = static_cast<T>(raw);
  return v;
}

}  // namespace

std::vector<ConfigField> config_fields(GpuConfig& cfg) {
  std::vector<ConfigField> out;
  Flattener f{out, ""};
  cfg.visit(f);
  return out;
}

std::string ConfigField::get() const {
  switch (kind) {
    case Bool:
      return *static_cast<bool*>(ptr) ? "true" : "false";
    case U32:
      return std::to_string(*static_cast<uint32_t*>(ptr));
    case U64:
      return std::to_string(*static_cast<uint64_t*>(ptr));
    case Double:
      return fmt::format("{}", *static_cast<double*>(ptr));
    case String:
      return *static_cast<std::string*>(ptr);
  }
  return {};
}

void ConfigField::set(const std::string& value) {
  switch (kind) {
    case Bool:
      if (value == "true" || value == "1")
        *static_cast<bool*>(ptr) = true;
      else if (value == "false" || value == "0")
        *static_cast<bool*>(ptr) = false;
      else
        throw Error(fmt::format("config key '{}': '{}' is not a boolean (true|false)", key, value));
      break;
    case U32:
      *static_cast<uint32_t*>(ptr) = parse_unsigned<uint32_t>(key, value);
      break;
    case U64:
      *static_cast<uint64_t*>(ptr) = parse_unsigned<uint64_t>(key, value);
      break;
    case Double: {
      char* end = nullptr;
      double d = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(d))
        throw Error(fmt::format("config key '{}': '{}' is not a number", key, value));
      *static_cast<double*>(ptr) = d;
      break;
    }
    case String:
      *static_cast<std::string*>(ptr) = value;
      break;
  }
}

namespace {
void check_choice(const std::string& key, const std::string& v, std::initializer_list<const char*> choices) {
  std::string list;
  for (const char* c : choices) {
    if (v == c) return;
    if (!list.empty()) list += "|";
    list += c;
  }
  throw Error(fmt::format("config key '{}': '{}' is not one of {}", key, v, list));
}
void check_pos(const std::string& key, uint64_t v) {
  if (v == 0) throw Error(fmt::format("config key '{}': must be at least 1", key));
}
bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

void validate_cache(const std::string& k, const CacheConfig& c) {
  check_choice(k + ".write_policy", c.write_policy, {"write_back", "write_through", "write_evict", "local_write_back"});
  check_choice(k + ".write_allocate", c.write_allocate, {"allocate", "no_allocate", "lazy_fetch_on_read"});
  if (c.enabled && c.write_allocate == "lazy_fetch_on_read" && c.line > 128)
    throw Error(
        fmt::format("config key '{}.write_allocate': lazy_fetch_on_read needs lines of at most 128 bytes "
                    "(line = {})",
                    k, c.line));
  if (!c.enabled) return;
  if (!pow2(c.line)) throw Error(fmt::format("config key '{}.line': {} is not a power of two", k, c.line));
  if (!pow2(c.sector) || c.sector > c.line || c.sector < 4)
    throw Error(fmt::format("config key '{}.sector': {} must be a power of two between 4 and the line size {}", k,
                            c.sector, c.line));
  if (c.line / c.sector > 32) throw Error(fmt::format("config key '{}.sector': at most 32 sectors per line", k));
  check_pos(k + ".size", c.size);
  if (c.size % c.line)
    throw Error(fmt::format("config key '{}.size': {} is not a multiple of the line size {}", k, c.size, c.line));
  uint32_t lines = c.size / c.line;
  uint32_t ways = c.assoc == 0 ? lines : c.assoc;
  if (ways > lines || lines % ways)
    throw Error(fmt::format("config key '{}.assoc': {} ways do not divide {} lines", k, ways, lines));
  check_pos(k + ".mshr_entries", c.mshr_entries);
  check_pos(k + ".mshr_merge", c.mshr_merge);
  check_pos(k + ".miss_queue", c.miss_queue);
  if (c.miss_queue > 4096) throw Error(fmt::format("config key '{}.miss_queue': at most 4096 requests", k));
  check_pos(k + ".ports", c.ports);
  check_pos(k + ".banks", c.banks);
  if (c.banks > 64) throw Error(fmt::format("config key '{}.banks': at most 64 banks", k));
  if (!pow2(c.bank_interleave))
    throw Error(fmt::format("config key '{}.bank_interleave': {} is not a power of two", k, c.bank_interleave));
  check_choice(k + ".set_index", c.set_index, {"linear", "fermi", "ipoly", "xor"});
}
}  // namespace

void validate(const GpuConfig& c) {
  if (c.compute_capability < 10 || c.compute_capability > 199 || c.compute_capability % 10 > 9)
    throw Error(fmt::format("config key 'compute_capability': {} is not major * 10 + minor (e.g. 75 for 7.5)",
                            c.compute_capability));
  check_pos("global_memory", c.global_memory);
  if (c.device_name.size() > 255)
    throw Error(fmt::format("config key 'device_name': {} characters, at most 255 fit cudaDeviceProp::name",
                            c.device_name.size()));
  check_pos("core.num_sms", c.core.num_sms);
  check_pos("core.sms_per_cluster", c.core.sms_per_cluster);
  if (c.core.num_sms % c.core.sms_per_cluster != 0)
    throw Error(fmt::format("config key 'core.sms_per_cluster': {} does not divide core.num_sms ({})",
                            c.core.sms_per_cluster, c.core.num_sms));
  check_pos("core.schedulers", c.core.schedulers);
  check_pos("core.max_warps", c.core.max_warps);
  if (c.core.max_warps > 64) throw Error("config key 'core.max_warps': at most 64 warps per SM are supported");
  if (c.core.first_fetch_warp >= c.core.max_warps)
    throw Error(fmt::format("config key 'core.first_fetch_warp': {} is not a warp slot (core.max_warps is {})",
                            c.core.first_fetch_warp, c.core.max_warps));
  check_pos("core.max_ctas", c.core.max_ctas);
  check_pos("core.max_threads", c.core.max_threads);
  check_pos("core.registers", c.core.registers);
  check_pos("core.reg_alloc_granularity", c.core.reg_alloc_granularity);
  check_pos("core.ibuffer", c.core.ibuffer);
  if (c.core.ibuffer > 8) throw Error("config key 'core.ibuffer': at most 8 entries");
  check_choice("core.local_layout", c.core.local_layout, {"thread", "cta"});
  check_choice("core.access_order", c.core.access_order, {"lane", "descending"});
  check_pos("core.fetch_per_cycle", c.core.fetch_per_cycle);
  check_pos("core.decode_width", c.core.decode_width);
  check_pos("core.ldst_queue", c.core.ldst_queue);
  check_pos("core.issue_per_scheduler", c.core.issue_per_scheduler);
  check_pos("core.mem_issue_per_sm", c.core.mem_issue_per_sm);
  if (!pow2(c.core.shared_banks)) throw Error("config key 'core.shared_banks': must be a power of two");
  if (!pow2(c.core.shared_bank_width)) throw Error("config key 'core.shared_bank_width': must be a power of two");
  check_pos("clock_mhz", c.clock_mhz > 0 ? 1 : 0);
  static const char* unit_keys[] = {"sp", "int", "dp", "sfu", "mem", "branch"};
  for (int u = 0; u < kNumUnits; ++u) {
    if ((u == int(Unit::SP) || u == int(Unit::MEM)) && c.units[u].count == 0)
      throw Error(fmt::format("config key '{}.count': must be at least 1", unit_keys[u]));
    static const char* suffix[] = {"", "_mul", "_div", "_trans", "_alu", "_max", "_mad", "_shfl", "_mma"};
    static_assert(std::size(suffix) == kNumLatencyClasses);
    if (c.units[u].count > 0)
      for (int k = 0; k < kNumLatencyClasses; ++k)
        check_pos(fmt::format("{}.initiation{}", unit_keys[u], suffix[k]), c.units[u].initiation[k]);
    if (c.units[u].count > 8) throw Error(fmt::format("config key '{}.count': at most 8 units", unit_keys[u]));
  }
  if (c.oc.enabled) {
    check_pos("oc.banks", c.oc.banks);
    check_pos("oc.port_throughput", c.oc.port_throughput);
    if (c.oc.port_throughput > 8) throw Error("config key 'oc.port_throughput': at most 8 steps per cycle");
    uint32_t parts = c.core.subcore ? c.core.schedulers : 1;
    if (c.oc.banks < parts)
      throw Error(
          fmt::format("config key 'oc.banks': a sub-core SM needs at least one bank per scheduler ({})", parts));
    // Instructions use their unit's set, else the general set, else the SP set: that one must
    // give every scheduler at least one unit.
    uint32_t sp = c.oc.collectors_sp / parts ? c.oc.collectors_sp : c.oc.collectors;
    if (sp / parts == 0)
      throw Error(
          fmt::format("config key 'oc.collectors': no collector units for SP instructions (set it or "
                      "oc.collectors_sp to at least {})",
                      parts));
    for (uint32_t n : {c.oc.collectors, c.oc.collectors_sp, c.oc.collectors_int, c.oc.collectors_dp,
                       c.oc.collectors_sfu, c.oc.collectors_mem})
      if (n > 64) throw Error("config key 'oc.collectors*': at most 64 collector units per set");
  }
  validate_cache("l1d", c.l1d);
  if (c.core.unified_l1_shared > 0) {
    const std::vector<uint64_t> opts = shared_carveouts(c);
    if (c.core.unified_l1_shared < c.l1d.size || opts.back() >= c.core.unified_l1_shared)
      throw Error(
          fmt::format("config key 'core.unified_l1_shared': {} bytes must hold l1d.size ({}) and exceed the "
                      "largest shared carve-out ({})",
                      c.core.unified_l1_shared, c.l1d.size, opts.back()));
    const uint32_t lines = c.l1d.size / c.l1d.line, sets = lines / (c.l1d.assoc ? c.l1d.assoc : lines);
    if (c.core.unified_l1_shared % (uint64_t(sets) * c.l1d.line) != 0)
      throw Error(
          fmt::format("config key 'core.unified_l1_shared': {} bytes is not a whole number of L1D ways "
                      "({} sets of {} bytes)",
                      c.core.unified_l1_shared, sets, c.l1d.line));
  }
  validate_cache("icache", c.icache);
  validate_cache("constcache", c.constcache);
  validate_cache("l2.cache", c.l2.cache);
  check_pos("l2.partitions", c.l2.partitions);
  check_pos("l2.slices_per_partition", c.l2.slices_per_partition);
  check_choice("l2.hash", c.l2.hash, {"linear", "xor", "ipoly", "random"});
  check_choice("l2.slice_select", c.l2.slice_select, {"line", "chunk"});
  if (c.l2.hash == "ipoly") {
    uint32_t n = 1;
    while (n < c.l2.partitions) n *= 2;
    uint64_t subs = uint64_t(n) * c.l2.slices_per_partition;
    if (!pow2(c.l2.slices_per_partition) || (subs != 16 && subs != 32 && subs != 64))
      throw Error(
          fmt::format("config key 'l2.hash': ipoly needs a power-of-two l2.slices_per_partition and 16, 32 or 64 "
                      "slices once the partitions are rounded up to a power of two (have {} x {})",
                      n, c.l2.slices_per_partition));
  }
  if (!pow2(c.l2.interleave) || c.l2.interleave < c.l2.cache.line)
    throw Error("config key 'l2.interleave': must be a power of two at least the L2 line size");
  check_pos("icnt.flit", c.icnt.flit);
  check_pos("icnt.sm_flits_per_cycle", c.icnt.sm_flits_per_cycle);
  check_pos("icnt.slice_flits_per_cycle", c.icnt.slice_flits_per_cycle);
  check_pos("icnt.input_queue", c.icnt.input_queue);
  check_pos("icnt.sm_input_queue", c.icnt.sm_input_queue);
  check_choice("icnt.request_packets", c.icnt.request_packets, {"line", "sector", "sector_uncached"});
  check_pos("dram.banks", c.dram.banks);
  if (!pow2(c.dram.row_bytes)) throw Error("config key 'dram.row_bytes': must be a power of two");
  if (!(c.dram.bytes_per_cycle > 0)) throw Error("config key 'dram.bytes_per_cycle': must be positive");
  check_pos("dram.queue", c.dram.queue);
  if (c.dram.atom > 4096) throw Error("config key 'dram.atom': at most 4096 bytes");
  check_choice("dram.scheduler", c.dram.scheduler, {"frfcfs", "fcfs"});
  check_pos("dram.bank_groups", c.dram.bank_groups);
  if (c.dram.bank_groups > c.dram.banks || c.dram.banks % c.dram.bank_groups != 0)
    throw Error(fmt::format("config key 'dram.bank_groups': {} does not divide dram.banks ({})", c.dram.bank_groups,
                            c.dram.banks));
  if (c.dram.write_queue > 0 && (c.dram.write_drain_start == 0 || c.dram.write_drain_start > c.dram.write_queue ||
                                 c.dram.write_drain_stop > c.dram.write_drain_start))
    throw Error(
        fmt::format("config key 'dram.write_drain_start': with dram.write_queue {} it must be 1..{} and at "
                    "least dram.write_drain_stop ({})",
                    c.dram.write_queue, c.dram.write_queue, c.dram.write_drain_stop));
  if (c.dram.write_queue > 0 && c.dram.scheduler != "frfcfs")
    throw Error("config key 'dram.write_queue': a separate write queue needs dram.scheduler = \"frfcfs\"");
  check_choice("dram.bank_hash", c.dram.bank_hash, {"linear", "xor"});
  check_choice("dram.page_policy", c.dram.page_policy, {"open", "closed"});
  check_choice("dram.refresh", c.dram.refresh, {"per_bank", "all_bank"});
  if (c.dram.tREFI > 0 && c.dram.tRFC >= c.dram.tREFI)
    throw Error(fmt::format("config key 'dram.tRFC': {} must be below dram.tREFI ({})", c.dram.tRFC, c.dram.tREFI));
  if (c.dram.tREFI > 0 && c.dram.refresh_postpone >= c.dram.tREFI - c.dram.tRFC)
    throw Error(fmt::format("config key 'dram.refresh_postpone': {} must be below dram.tREFI - dram.tRFC ({})",
                            c.dram.refresh_postpone, c.dram.tREFI - c.dram.tRFC));
  if (c.dram.bank_hash == "xor" && !pow2(c.dram.banks))
    throw Error("config key 'dram.bank_hash': xor needs a power-of-two dram.banks");
  check_choice("dram.bank_group_select", c.dram.bank_group_select, {"low", "high"});
  if (!(c.dram.tCCDL >= 0) || c.dram.tCCDL > 1e6) throw Error("config key 'dram.tCCDL': must be between 0 and 1e6");
  if (!(c.dram.command_rate >= 0) || c.dram.command_rate > 1e6)
    throw Error("config key 'dram.command_rate': must be between 0 (no limit) and 1e6");
  check_choice("dispatch", c.dispatch, {"fifo", "round_robin"});
  check_pos("sample_interval", c.sample_interval);
}

}  // namespace warpsim

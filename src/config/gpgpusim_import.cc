// Import of GPGPU-Sim gpgpusim.config files. The file is a list of "-option value" pairs
// with '#' comments; quoted values may span lines. All options are read first, then mapped
// in a fixed order, because some depend on others (DRAM timings need the clock domains,
// per-scheduler unit counts need the sub-core flag and the scheduler count).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "config/config_loader.h"
#include "config/config_util.h"
#include "core/error.h"
#include "core/strings.h"

namespace warpsim {

namespace {

struct Option {
  std::string name;   // with the leading '-'
  std::string value;  // quotes removed
  int line = 0, col = 0;
  bool used = false;
};

// Options of GPGPU-Sim that steer its functional simulator, statistics, tracing, power
// model or CUDA device limits; they do not change timing, so they are skipped silently.
const std::set<std::string>& irrelevant_options() {
  static const std::set<std::string> s = {
      "-gpgpu_ptx_instruction_classification", "-gpgpu_ptx_sim_mode", "-gpgpu_ptx_force_max_capability",
      "-gpgpu_compute_capability_major", "-gpgpu_compute_capability_minor", "-gpgpu_ptx_convert_to_ptxplus",
      "-gpgpu_ptx_save_converted_ptxplus", "-gpgpu_ptx_use_cuobjdump", "-gpgpu_experimental_lib_support",
      "-gpgpu_ptx_inst_debug_to_file", "-gpgpu_ptx_inst_debug_file", "-gpgpu_ptx_inst_debug_thread_uid",
      "-gpgpu_stack_size_limit", "-gpgpu_heap_size_limit", "-gpgpu_runtime_sync_depth_limit",
      "-gpgpu_runtime_pending_launch_count_limit", "-gpgpu_simd_model", "-gpgpu_memlatency_stat", "-gpgpu_runtime_stat",
      "-enable_ptx_file_line_stats", "-visualizer_enabled", "-visualizer_outputfile", "-visualizer_zlevel",
      "-power_simulation_enabled", "-gpuwattch_xml_file", "-power_trace_enabled", "-power_per_cycle_dump",
      "-steady_power_levels_enabled", "-trace_enabled", "-trace_components", "-trace_sampling_core",
      "-trace_sampling_memory_partition", "-save_embedded_ptx", "-keep", "-gpgpu_deadlock_detect", "-gpgpu_max_cycle",
      "-gpgpu_max_insn", "-gpgpu_max_cta", "-gpgpu_max_completed_cta", "-gpgpu_stat_sampling_freq",
      "-liveness_message_freq", "-gpgpu_cflog_interval", "-gpgpu_ptx_sim_mode", "-gpgpu_shader_cta_threshold",
      // Power model only.
      "-gpgpu_clock_gated_lanes",
      // Device limits the CUDA runtime reports (occupancy uses the SM's registers and shared memory).
      "-gpgpu_registers_per_block", "-gpgpu_shmem_per_block",
      // Kernels that may run at once (a cap of 32 or 128), and leave to run a kernel whose one CTA
      // does not fit an SM (warpsim stops such a launch with a message).
      "-gpgpu_max_concurrent_kernel", "-gpgpu_ignore_resources_limitation",
      // Tensor cores: warpsim simulates no tensor instructions (a program using them stops).
      "-gpgpu_tensor_core_avail", "-gpgpu_num_tensor_core_units", "-ptx_opcode_latency_tesnor",
      "-ptx_opcode_initiation_tensor", "-gpgpu_operand_collector_num_units_tensor_core"};
  return s;
}

class Importer {
 public:
  Importer(GpuConfig& cfg, const std::string& source, std::vector<std::string>* nu)
      : cfg_(cfg), source_(source), nu_(nu) {}

  void tokenize(const std::string& text) {
    struct Tok {
      std::string text;
      int line, col;
    };
    std::vector<Tok> toks;
    int line = 1, col = 1;
    size_t i = 0;
    while (i < text.size()) {
      char c = text[i];
      if (c == '\n') {
        ++line, col = 1, ++i;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++col, ++i;
        continue;
      }
      if (c == '#') {
        while (i < text.size() && text[i] != '\n') ++i;
        continue;
      }
      Tok t{"", line, col};
      while (i < text.size()) {
        c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#') break;
        if (c == '"') {
          ++i, ++col;
          bool closed = false;
          while (i < text.size()) {
            c = text[i];
            ++i;
            if (c == '\n')
              ++line, col = 1;
            else
              ++col;
            if (c == '"') {
              closed = true;
              break;
            }
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') t.text += c;
          }
          if (!closed) throw LocatedError(source_, t.line, t.col, "unterminated quoted value");
          continue;
        }
        t.text += c;
        ++i, ++col;
      }
      toks.push_back(std::move(t));
    }
    for (size_t k = 0; k < toks.size(); k += 2) {  // option, value
      const Tok& t = toks[k];
      if (t.text.size() < 2 || t.text[0] != '-')
        throw LocatedError(source_, t.line, t.col,
                           fmt::format("expected an option such as -gpgpu_n_clusters, found '{}'", t.text));
      if (k + 1 >= toks.size())
        throw LocatedError(source_, t.line, t.col, fmt::format("option {} has no value", t.text));
      const Tok& v = toks[k + 1];
      bool value_is_option =
          v.text.size() >= 2 && v.text[0] == '-' && !std::isdigit(static_cast<unsigned char>(v.text[1]));
      if (value_is_option) throw LocatedError(source_, t.line, t.col, fmt::format("option {} has no value", t.text));
      auto it = index_.find(t.text);
      if (it == index_.end()) {
        index_[t.text] = opts_.size();
        opts_.push_back({t.text, v.text, v.line, v.col, false});
      } else {
        opts_[it->second] = {t.text, v.text, v.line, v.col, false};  // the last one wins
      }
    }
  }

  void map_all();

 private:
  Option* take(const std::string& name) {
    auto it = index_.find(name);
    if (it == index_.end()) return nullptr;
    opts_[it->second].used = true;
    return &opts_[it->second];
  }
  [[noreturn]] void fail(const Option& o, const std::string& why) {
    throw LocatedError(source_, o.line, o.col, fmt::format("{} '{}': {}", o.name, o.value, why));
  }
  // The buffers of a booksim network file (-inter_config_file, beside the config): the SM's
  // injection buffer (input_buffer_size, booksim's interface takes 9 when it is absent), a
  // router input's virtual-channel buffer (vc_buf_size) and the ejection buffer
  // (ejection_buffer_size, else vc_buf_size), in flits. `read`: the file was found.
  struct BooksimBuffers {
    uint32_t input = 9, vc = 64, ejection = 64;
    bool read = false;
  };
  BooksimBuffers booksim_buffers(const Option& o) {
    BooksimBuffers b;
    std::string dir = source_;
    const size_t slash = dir.find_last_of('/');
    dir = slash == std::string::npos ? std::string() : dir.substr(0, slash + 1);
    std::ifstream in(o.value.size() && o.value[0] == '/' ? o.value : dir + o.value);
    if (!in) return b;
    b.read = true;
    std::map<std::string, uint32_t> kv;
    for (std::string line; std::getline(in, line);) {
      line = line.substr(0, line.find("//"));
      const size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string key = trim(line.substr(0, eq)), val = trim(line.substr(eq + 1));
      if (!val.empty() && val.back() == ';') val.pop_back();
      uint32_t x = 0;
      auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), x);
      if (ec == std::errc() && p == val.data() + val.size()) kv[key] = x;
    }
    if (kv.count("vc_buf_size")) b.vc = b.ejection = kv["vc_buf_size"];
    if (kv.count("input_buffer_size") && kv["input_buffer_size"]) b.input = kv["input_buffer_size"];
    if (kv.count("ejection_buffer_size") && kv["ejection_buffer_size"]) b.ejection = kv["ejection_buffer_size"];
    return b;
  }
  void not_understood(const std::string& what) {
    if (nu_) nu_->push_back(what);
  }
  uint64_t to_uint(const Option& o, const std::string& s) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
      fail(o, fmt::format("'{}' is not a non-negative integer", s));
    return v;
  }
  uint32_t to_u32(const Option& o, const std::string& s) {
    uint64_t v = to_uint(o, s);
    if (v > UINT32_MAX) fail(o, fmt::format("{} is out of range", s));
    return uint32_t(v);
  }
  double to_double(const Option& o, const std::string& s) {
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(d) || d <= 0)
      fail(o, fmt::format("'{}' is not a positive number", s));
    return d;
  }
  std::vector<uint32_t> u32_list(const Option& o, char sep, size_t min_count) {
    std::vector<uint32_t> out;
    for (const auto& part : split(o.value, sep)) out.push_back(to_u32(o, part));
    if (out.size() < min_count) fail(o, fmt::format("expected at least {} values separated by '{}'", min_count, sep));
    return out;
  }
  bool u32_opt(const std::string& name, uint32_t& field) {
    if (Option* o = take(name)) {
      field = to_u32(*o, o->value);
      return true;
    }
    return false;
  }
  // Cycles of another clock domain expressed in core cycles, rounded to nearest (>= 1
  // when the input is non-zero).
  uint32_t to_core_cycles(uint32_t cycles, double domain_mhz) const {
    if (cycles == 0) return 0;
    double v = double(cycles) * core_mhz_ / domain_mhz;
    return std::max<uint32_t>(1, uint32_t(std::lround(v)));
  }
  void map_cache(const std::string& name, CacheConfig& c);
  void map_units();
  void map_operand_collector();
  // core.ldst_queue from the memory pipeline registers and collector units (after both above).
  void map_ldst_queue();
  void map_dram();
  void map_equivalent_options();

  GpuConfig& cfg_;
  std::string source_;
  std::vector<std::string>* nu_;
  std::vector<Option> opts_;
  std::map<std::string, size_t> index_;
  double core_mhz_ = 0, dram_mhz_ = 0;
  uint32_t id_oc_mem_ = 1, oc_ex_mem_ = 1;  // -gpgpu_pipeline_widths of ID_OC_MEM and OC_EX_MEM
};

// <sector?>:<nsets>:<bsize>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>[:<set_index_fn>],
// <mshr_type>:<entries>:<merge>,<miss_queue>[:<fifo>][,<data_port_width>]
// The leading N/S (normal / sectored) is absent in GPGPU-Sim 3.x files.
void Importer::map_cache(const std::string& name, CacheConfig& c) {
  Option* o = take(name);
  if (!o) return;
  if (o->value == "none") {
    c.enabled = false;
    return;
  }
  auto groups = split(o->value, ',');
  if (groups.size() < 3) fail(*o, "expected <sets>:<line>:<assoc>,<policies>,<mshr>[,...]");
  auto geo = split(groups[0], ':');
  bool sectored = false;
  if (geo.size() == 4) {
    if (geo[0] == "S")
      sectored = true;
    else if (geo[0] != "N")
      fail(*o, fmt::format("cache type '{}' is not N or S", geo[0]));
    geo.erase(geo.begin());
  }
  if (geo.size() != 3) fail(*o, "expected [N|S:]<sets>:<line>:<assoc>");
  uint32_t sets = to_u32(*o, geo[0]), line = to_u32(*o, geo[1]), assoc = to_u32(*o, geo[2]);
  if (sets == 0 || line == 0 || assoc == 0) fail(*o, "sets, line size and associativity must be at least 1");
  uint64_t size = uint64_t(sets) * line * assoc;
  if (size > UINT32_MAX) fail(*o, "cache size out of range");
  c.enabled = true;
  c.size = uint32_t(size);
  c.line = line;
  c.assoc = sets == 1 ? 0 : assoc;  // one set: fully associative
  // GPGPU-Sim's sectored caches use 32-byte sectors (four per 128-byte line).
  c.sector = sectored && line % 32 == 0 ? 32 : line;

  auto pol = split(groups[1], ':');
  if (pol.size() < 4) fail(*o, "expected <replacement>:<write>:<alloc>:<write_alloc>[:<index>]");
  for (const auto& p : pol)
    if (p.size() != 1) fail(*o, fmt::format("policy letter '{}' is not a single character", p));
  if (pol.size() >= 5) {
    switch (pol[4][0]) {
      case 'L':
        c.set_index = "linear";
        break;
      case 'H':
        c.set_index = "fermi";
        break;
      case 'P':
        c.set_index = "ipoly";
        break;
      case 'X':
        c.set_index = "xor";
        break;
      default:
        not_understood(fmt::format("{} (set index function '{}')", name, pol[4]));
    }
  }
  if (pol[0] == "F")
    not_understood(fmt::format("{} (FIFO replacement; warpsim uses LRU)", name));
  else if (pol[0] != "L")
    fail(*o, fmt::format("replacement policy '{}' is not L or F", pol[0]));
  switch (pol[1][0]) {
    case 'R':  // read-only: never written, the policy does not matter
    case 'T':
      c.write_policy = "write_through";
      break;
    case 'L':  // local write-back; a global write hit evicts the line (GPGPU-Sim 4.2)
      c.write_policy = "local_write_back";
      break;
    case 'B':
      c.write_policy = "write_back";
      break;
    case 'E':
      c.write_policy = "write_evict";
      break;
    default:
      fail(*o, fmt::format("write policy '{}' is not R, B, T, E or L", pol[1]));
  }
  switch (pol[3][0]) {
    case 'N':
      c.write_allocate = "no_allocate";
      break;
    case 'W':  // allocate; the fetch of the rest of the line is not modelled
    case 'F':
      c.write_allocate = "allocate";
      break;
    case 'L':
      c.write_allocate = "lazy_fetch_on_read";
      break;
    default:
      fail(*o, fmt::format("write-allocate policy '{}' is not N, W, F or L", pol[3]));
  }
  auto mshr = split(groups[2], ':');
  if (mshr.size() < 3) fail(*o, "expected <mshr_type>:<entries>:<max_merge>");
  c.mshr_entries = to_u32(*o, mshr[1]);
  c.mshr_merge = to_u32(*o, mshr[2]);
  if (groups.size() >= 4) {
    // <miss_queue>[:<fifo>]: the queue between the lookup and the interconnect.
    const uint32_t q = to_u32(*o, split(groups[3], ':')[0]);
    if (q == 0) fail(*o, "the miss queue must hold at least one request");
    c.miss_queue = q;
  }
}

// A file that sets any operand-collector option gets the operand collector (GPGPU-Sim always
// has one); the options it leaves out keep their values, whose built-in defaults are
// GPGPU-Sim's (specialized SP/SFU/MEM sets of 4/4/2 units, 8 banks, one step per cycle).
void Importer::map_operand_collector() {
  OperandCollectorConfig& oc = cfg_.oc;
  bool any = false;
  auto opt = [&](const std::string& name) {
    Option* o = take(name);
    any |= o != nullptr;
    return o;
  };
  const std::pair<const char*, uint32_t*> sets[] = {{"-gpgpu_operand_collector_num_units_sp", &oc.collectors_sp},
                                                    {"-gpgpu_operand_collector_num_units_sfu", &oc.collectors_sfu},
                                                    {"-gpgpu_operand_collector_num_units_mem", &oc.collectors_mem},
                                                    {"-gpgpu_operand_collector_num_units_dp", &oc.collectors_dp},
                                                    {"-gpgpu_operand_collector_num_units_int", &oc.collectors_int},
                                                    {"-gpgpu_operand_collector_num_units_gen", &oc.collectors}};
  for (const auto& [name, field] : sets)
    if (Option* o = opt(name)) *field = to_u32(*o, o->value);
  if (Option* o = opt("-gpgpu_enable_specialized_operand_collector"))
    if (to_u32(*o, o->value) == 0)
      oc.collectors_sp = oc.collectors_sfu = oc.collectors_mem = oc.collectors_dp = oc.collectors_int = 0;
  // Ports between the issue registers, the collector sets and the dispatch: one per unit set
  // in the tested configs; the model lets every collector unit allocate and dispatch each step.
  for (const char* set : {"sp", "sfu", "mem", "dp", "int", "gen", "tensor_core"})
    for (const char* dir : {"in", "out"}) opt(fmt::format("-gpgpu_operand_collector_num_{}_ports_{}", dir, set));
  opt("-gpgpu_operand_collector_num_units_tensor_core");  // tensor instructions are not simulated
  if (Option* o = opt("-gpgpu_num_reg_banks")) oc.banks = to_u32(*o, o->value);
  if (Option* o = opt("-gpgpu_reg_file_port_throughput")) oc.port_throughput = to_u32(*o, o->value);
  opt("-gpgpu_reg_bank_use_warp_id");  // GPGPU-Sim 4.2 adds the warp id to the bank whatever it says
  if (any) {
    oc.enabled = true;
    oc.writeback_latency = 2;  // calibrated against GPGPU-Sim (docs/fidelity.md)
    // Issue goes into the ID_OC registers and units take instructions from the OC_EX ones;
    // their widths are one slot per unit instance in the tested configs.
    oc.queued_dispatch = true;
  }
}

void Importer::map_units() {
  auto& core = cfg_.core;
  if (Option* o = take("-gpgpu_num_sched_per_core")) {
    core.schedulers = to_u32(*o, o->value);
    if (core.schedulers == 0) fail(*o, "at least one scheduler per core is needed");
  }
  if (Option* o = take("-gpgpu_sub_core_model")) core.subcore = to_u32(*o, o->value) != 0;
  if (core.schedulers == 0) throw Error("config key 'core.schedulers': must be at least 1");
  struct UnitOpt {
    const char* option;
    Unit unit;
  };
  const UnitOpt counts[] = {{"-gpgpu_num_sp_units", Unit::SP},
                            {"-gpgpu_num_sfu_units", Unit::SFU},
                            {"-gpgpu_num_dp_units", Unit::DP},
                            {"-gpgpu_num_int_units", Unit::INT}};
  for (const auto& u : counts) {
    Option* o = take(u.option);
    if (!o) continue;
    uint32_t n = to_u32(*o, o->value);
    // Sub-core mode counts units per scheduler; GPGPU-Sim counts them per SM.
    if (core.subcore && n > 0) n = (n + core.schedulers - 1) / core.schedulers;
    cfg_.units[int(u.unit)].count = n;
  }
  // Latency and initiation tables: int/fp/dp list ADD,MAX,MUL,MAD,DIV[,SHFL]; sfu one value.
  // GPGPU-Sim gives every other operation (moves, compares, logic, conversions, branches) one
  // cycle of latency and initiation, on every unit.
  for (auto& uc : cfg_.units) uc.latency[kLatAlu] = uc.initiation[kLatAlu] = 1;
  constexpr LatencyClass table_order[] = {kLatDefault, kLatMax, kLatMul, kLatMad, kLatDiv, kLatShfl};
  const UnitOpt lat[] = {{"-ptx_opcode_latency_int", Unit::INT},
                         {"-ptx_opcode_latency_fp", Unit::SP},
                         {"-ptx_opcode_latency_dp", Unit::DP}};
  for (const auto& u : lat) {
    Option* o = take(u.option);
    if (!o) continue;
    auto v = u32_list(*o, ',', 5);
    auto& uc = cfg_.units[int(u.unit)];
    for (size_t i = 0; i < v.size() && i < 6; ++i) uc.latency[table_order[i]] = v[i];
    if (u.unit == Unit::DP) uc.latency[kLatTrans] = v[4];  // DP transcendentals are DIV-class sequences
    // Divisions of a trace (SASS) that name the SFU take the fp DIV latency.
    if (u.unit == Unit::SP) cfg_.units[int(Unit::SFU)].latency[kLatDiv] = v[4];
  }
  if (Option* o = take("-ptx_opcode_latency_sfu")) {
    auto v = u32_list(*o, ',', 1);
    auto& uc = cfg_.units[int(Unit::SFU)];
    for (LatencyClass c : {kLatDefault, kLatMax, kLatMul, kLatMad, kLatTrans, kLatShfl}) uc.latency[c] = v[0];
    // Transcendentals never run on SP/INT; give them the SFU latency should one be sent there.
    cfg_.units[int(Unit::SP)].latency[kLatTrans] = v[0];
    cfg_.units[int(Unit::INT)].latency[kLatTrans] = v[0];
  }
  const UnitOpt init[] = {{"-ptx_opcode_initiation_int", Unit::INT},
                          {"-ptx_opcode_initiation_fp", Unit::SP},
                          {"-ptx_opcode_initiation_dp", Unit::DP},
                          {"-ptx_opcode_initiation_sfu", Unit::SFU}};
  for (const auto& u : init) {
    Option* o = take(u.option);
    if (!o) continue;
    auto v = u32_list(*o, ',', 1);
    auto& uc = cfg_.units[int(u.unit)];
    if (u.unit == Unit::SFU) {
      for (LatencyClass c : {kLatDefault, kLatMax, kLatMul, kLatMad, kLatDiv, kLatTrans, kLatShfl})
        uc.initiation[c] = v[0];
      continue;
    }
    for (size_t i = 0; i < v.size() && i < 6; ++i) uc.initiation[table_order[i]] = v[i];
    if (v.size() < 5)  // an older file with one figure: it times every class
      for (LatencyClass c : {kLatMax, kLatMul, kLatMad, kLatDiv, kLatShfl}) uc.initiation[c] = v[0];
    if (u.unit == Unit::DP && v.size() >= 5) uc.initiation[kLatTrans] = v[4];
  }
  // Branches run on the INT (else SP) pipeline as one-cycle operations.
  cfg_.units[int(Unit::BRANCH)].count = 0;
  // Issue limits. GPGPU-Sim has one LD/ST unit per SM; SFUs are per scheduler in sub-core
  // mode, otherwise ID_OC_SFU pipeline registers bound SFU issue per SM.
  core.mem_issue_per_sm = 1;
  if (core.subcore) core.sfu_issue_per_sm = 0;
  // shader_core_ctx::issue asks the schedulers from Issue_Prio, which advances every cycle: in
  // shared mode they compete for the same pipeline registers in that order; in sub-core mode
  // the order numbers the instructions, and the LD/ST unit takes the oldest (map_ldst_queue).
  core.rotate_issue_priority = true;
  if (Option* o = take("-gpgpu_pipeline_widths")) {
    auto w = u32_list(*o, ',', 7);
    size_t sfu_idx = w.size() >= 11 ? 3 : 1;  // 4.x: SP,DP,INT,SFU,MEM,...; 3.x: SP,SFU,MEM,...
    if (!core.subcore && w[sfu_idx] > 0) core.sfu_issue_per_sm = w[sfu_idx];
    // 4.x: ..., ID_OC_MEM (4), ..., OC_EX_MEM (9), ...; 3.x: ID_OC_MEM (2), OC_EX_MEM (5).
    id_oc_mem_ = w[w.size() >= 11 ? 4 : 2];
    oc_ex_mem_ = w[w.size() >= 11 ? 9 : 5];
  }
  u32_opt("-gpgpu_max_insn_issue_per_warp", core.issue_per_scheduler);
}

// A memory instruction the LD/ST unit cannot take waits in its dispatch register, and those
// issued after it in the OC_EX_MEM and ID_OC_MEM registers and the MEM collector units: so many
// memory instructions are issued before issue stops. In sub-core mode each scheduler has its own
// slot of ID_OC_MEM and OC_EX_MEM and its own share of the collector units, and the LD/ST unit
// takes the oldest instruction of the OC_EX_MEM slots; where memory instructions share the
// general collector units, those waiting hold them (oc.mem_holds_collectors).
void Importer::map_ldst_queue() {
  auto& core = cfg_.core;
  if (!cfg_.oc.enabled) return;
  if (!core.subcore) {
    if (cfg_.oc.collectors_mem == 0) return;
    core.ldst_queue = id_oc_mem_ + cfg_.oc.collectors_mem + oc_ex_mem_ + 1;
    return;
  }
  const uint32_t n = std::max(1u, core.schedulers);
  const uint32_t collectors = (cfg_.oc.collectors_mem ? cfg_.oc.collectors_mem : cfg_.oc.collectors) / n;
  core.ldst_queue_per_scheduler = std::max(1u, id_oc_mem_ / n) + collectors + std::max(1u, oc_ex_mem_ / n);
  core.ldst_queue = n * core.ldst_queue_per_scheduler + 1;
  core.mem_issue_per_sm = n;  // one ID_OC_MEM slot each
  cfg_.oc.mem_holds_collectors = cfg_.oc.collectors_mem == 0;
}

void Importer::map_dram() {
  auto& d = cfg_.dram;
  double dram_clk = dram_mhz_ > 0 ? dram_mhz_ : core_mhz_;
  if (Option* o = take("-gpgpu_dram_timing_opt")) {
    d.tREFI = 0;  // GPGPU-Sim's DRAM has no refresh: a configuration that times its DRAM has none
    for (const auto& item : split(o->value, ':')) {
      if (item.empty()) continue;
      size_t eq = item.find('=');
      if (eq == std::string::npos) fail(*o, fmt::format("'{}' is not name=value", item));
      std::string k = item.substr(0, eq);
      uint32_t v = to_u32(*o, item.substr(eq + 1));
      if (k == "nbk")
        d.banks = v;
      else if (k == "CL")
        d.tCL = to_core_cycles(v, dram_clk);
      else if (k == "RCD")
        d.tRCD = to_core_cycles(v, dram_clk);
      else if (k == "RP")
        d.tRP = to_core_cycles(v, dram_clk);
      else if (k == "RAS")
        d.tRAS = to_core_cycles(v, dram_clk);
      else if (k == "WR")
        d.tWR = to_core_cycles(v, dram_clk);
      else if (k == "WL")
        d.tWL = to_core_cycles(v, dram_clk);
      else if (k == "RRD")
        d.tRRD = to_core_cycles(v, dram_clk);
      else if (k == "RC")
        d.tRC = to_core_cycles(v, dram_clk);
      else if (k == "CDLR")
        d.tCDLR = to_core_cycles(v, dram_clk);
      else if (k == "RTPL")
        d.tRTPL = to_core_cycles(v, dram_clk);
      else if (k == "nbkgrp") {
        if (v == 0) fail(*o, "nbkgrp must be at least 1");
        d.bank_groups = v;
      } else if (k == "CCDL")  // exact: it binds below the data-bus rate
        d.tCCDL = std::round(double(v) * core_mhz_ / dram_clk * 1e4) / 1e4;
      else if (k == "CCD") {
        // Rounded down: the data-bus rate (dram.bytes_per_cycle) already bounds column
        // throughput exactly; rounding tCCD up would undercut it.
        double c = double(v) * core_mhz_ / dram_clk;
        d.tCCD = v == 0 ? 0 : std::max<uint32_t>(1, uint32_t(std::floor(c + 1e-9)));
      } else
        not_understood(fmt::format("-gpgpu_dram_timing_opt {}", k));
    }
  }
  // Peak bandwidth per channel in bytes per core cycle:
  // bus width (bytes per chip) * chips per controller * data transfers per command clock
  // * command clock / core clock.
  Option* bw = take("-gpgpu_dram_buswidth");
  Option* chips = take("-gpgpu_n_mem_per_ctrlr");
  Option* ratio = take("-dram_data_command_freq_ratio");
  Option* burst = take("-gpgpu_dram_burst_length");
  if (bw || chips || ratio) {
    double w = bw ? to_u32(*bw, bw->value) : 4;  // GPGPU-Sim defaults: 4 bytes, 1 chip, ratio 2
    double n = chips ? to_u32(*chips, chips->value) : 1;
    double r = ratio ? to_u32(*ratio, ratio->value) : 2;
    double bpc = w * n * r * dram_clk / core_mhz_;
    if (!(bpc > 0)) fail(bw ? *bw : chips ? *chips : *ratio, "gives zero DRAM bandwidth");
    d.bytes_per_cycle = std::round(bpc * 1e4) / 1e4;
  }
  // One column command moves burst length x bus width x chips bytes (GPGPU-Sim's atom); a
  // smaller request still occupies the bus for a whole atom.
  if (bw || chips || burst) {
    uint64_t w = bw ? to_u32(*bw, bw->value) : 4, n = chips ? to_u32(*chips, chips->value) : 1;
    uint64_t b = burst ? to_u32(*burst, burst->value) : 4;
    uint64_t atom = w * n * b;
    if (atom == 0 || atom > 4096)
      fail(burst ? *burst : bw ? *bw : *chips, "gives an atom of 0 or more than 4096 bytes");
    d.atom = uint32_t(atom);
  }
  // GPGPU-Sim's DRAM issues commands at its own clock; one row or column command per DRAM cycle
  // unless the dual bus interface (HBM) gives each its own bus.
  if (dram_mhz_ > 0) d.command_rate = std::round(dram_mhz_ / core_mhz_ * 1e4) / 1e4;
  if (Option* o = take("-dram_dual_bus_interface"))
    d.dual_command_bus = to_u32(*o, o->value) != 0;
  else if (index_.count("-gpgpu_dram_timing_opt"))
    d.dual_command_bus = false;  // GPGPU-Sim's default
  // A separate write queue (SM7_TITANV): "<entries>:<drain start>:<drain stop>".
  Option* wq = take("-dram_write_queue_size");
  if (Option* o = take("-dram_seperate_write_queue_enable"); o && to_u32(*o, o->value) != 0) {
    std::vector<uint32_t> v = wq ? u32_list(*wq, ':', 3) : std::vector<uint32_t>{32, 28, 16};  // GPGPU-Sim's default
    d.write_queue = v[0];
    d.write_drain_start = v[1];
    d.write_drain_stop = v[2];
  }
  if (Option* o = take("-dram_bnk_indexing_policy")) {
    uint32_t v = to_u32(*o, o->value);
    if (v == 0)
      d.bank_hash = "linear";
    else if (v == 1)
      d.bank_hash = "xor";
    else
      not_understood(fmt::format("-dram_bnk_indexing_policy {}", v));
  }
  if (Option* o = take("-dram_bnkgrp_indexing_policy")) {
    uint32_t v = to_u32(*o, o->value);
    if (v == 0)
      d.bank_group_select = "high";
    else if (v == 1)
      d.bank_group_select = "low";
    else
      fail(*o, "expected 0 (higher bits) or 1 (lower bits)");
  }
  if (Option* o = take("-gpgpu_dram_scheduler")) {
    uint32_t v = to_u32(*o, o->value);
    if (v == 0)
      d.scheduler = "fcfs";
    else if (v == 1)
      d.scheduler = "frfcfs";
    else
      fail(*o, "expected 0 (FIFO) or 1 (FR-FCFS)");
  }
  if (Option* o = take("-gpgpu_frfcfs_dram_sched_queue_size")) {
    uint32_t v = to_u32(*o, o->value);
    if (v == 0)
      not_understood("-gpgpu_frfcfs_dram_sched_queue_size 0 (unlimited queue)");
    else
      d.queue = v;
  }
  // The DRAM credits (memory_partition_unit::arbitration_metadata): 0 there means no bound, as here.
  u32_opt("-gpgpu_dram_return_queue_size", d.return_queue);
  u32_opt("-dram_latency", d.latency);  // GPGPU-Sim counts it in core cycles
  if (Option* o = take("-gpgpu_mem_addr_mapping")) {
    // "dramid@B;<64 address bits, MSB first, '.' separated>" with R(ow) B(ank) C(olumn)
    // S(byte in burst) and D (channel) letters.
    std::string spec = o->value, bits = spec;
    size_t semi = spec.find(';');
    int chan_bit = -1;
    if (semi != std::string::npos) {
      std::string head = spec.substr(0, semi);
      bits = spec.substr(semi + 1);
      if (head.rfind("dramid@", 0) == 0)
        chan_bit = int(to_u32(*o, head.substr(7)));
      else
        fail(*o, "expected dramid@<bit>;<bit pattern>");
    }
    int pos = 0, cols = 0;
    for (auto it = bits.rbegin(); it != bits.rend(); ++it) {
      char c = *it;
      if (c == '.') continue;
      if (c == 'C' || c == 'S') ++cols;
      if (c == 'D' && chan_bit < 0) chan_bit = pos;
      ++pos;
    }
    if (cols > 0 && cols < 31) d.row_bytes = 1u << cols;
    if (chan_bit >= 0 && chan_bit < 31) cfg_.l2.interleave = 1u << chan_bit;
    // The sub-partition (slice) is the lowest bank bit: below the channel digit it is a bit of
    // the line index ("line"), at or above it the digit just above the channel ("chunk").
    int pos2 = 0, low_bank = -1;
    for (auto it = bits.rbegin(); it != bits.rend(); ++it) {
      if (*it == '.') continue;
      if (*it == 'B' && low_bank < 0) low_bank = pos2;
      ++pos2;
    }
    if (low_bank >= 0 && chan_bit >= 0) cfg_.l2.slice_select = low_bank >= chan_bit ? "chunk" : "line";
  }
  if (Option* o = take("-gpgpu_memory_partition_indexing")) {
    uint32_t v = to_u32(*o, o->value);
    if (v == 0)
      cfg_.l2.hash = "linear";
    else if (v == 1)
      cfg_.l2.hash = "xor";  // bitwise XOR
    else if (v == 2)
      cfg_.l2.hash = "ipoly";
    else if (v == 4)
      cfg_.l2.hash = "random";
    else
      not_understood(fmt::format("-gpgpu_memory_partition_indexing {}", v));
  }
}

// Options whose tested values describe what warpsim's model already does, or that only matter
// outside what warpsim simulates; other values are listed as not understood.
void Importer::map_equivalent_options() {
  auto expect = [&](const char* name, const char* value, const char* why) {
    if (Option* o = take(name); o && o->value != value) not_understood(fmt::format("{} {} ({})", name, o->value, why));
  };
  // Shared memory: the whole warp is one group and any number of lanes reading one word are
  // served together (LdstUnit::bank_conflict_degree).
  expect("-gpgpu_shmem_limited_broadcast", "0", "warpsim broadcasts any number of lanes reading one word");
  expect("-gpgpu_shmem_warp_parts", "1", "warpsim serves the whole warp as one group");
  // Requests on one network, replies on another: warpsim's crossbar is two networks.
  expect("-icnt_subnets", "2", "warpsim has separate request and reply networks");
  // Coalescing: Fermi (20..38) sends 128-byte line accesses, later ones 32-byte sectors; warpsim
  // coalesces into L1D lines with sector masks, so it follows l1d.sector.
  if (Option* o = take("-gpgpu_coalesce_arch")) {
    uint32_t v = to_u32(*o, o->value);
    bool sectors = v >= 40, sectored_l1 = cfg_.l1d.sector < cfg_.l1d.line;
    if (v < 20 || (v >= 39 && v < 40) || sectors != sectored_l1)
      not_understood(fmt::format("-gpgpu_coalesce_arch {} (warpsim coalesces by the L1D's {} sectors)", v,
                                 sectored_l1 ? "32-byte" : "whole-line"));
    // Accesses that do not go through the L1 are 32-byte sectors on every arch, each its own packet
    // (icnt.request_packets). From Maxwell on L1-cached ones are too: each sector is an L1 access
    // of its own (its bank slot, latency pipeline entry, lookup and miss), so an L1 miss is one
    // sector's request.
    cfg_.icnt.request_packets = "sector_uncached";
    cfg_.core.sector_accesses = sectors;
    // Fermi and Kepler coalesce the accesses the L1 may cache into 128-byte segments, narrowed to
    // one half or one quarter only; the sectored L2 splits a 128-byte request into all four.
    cfg_.icnt.store_segments = v < 40;
    // A sectored L2 splits such a request into sectors at the request's address plus each
    // sector's offset, which lands a 64-byte upper half on the next line (l2cache.cc).
    cfg_.l2.upper_half_write_next_line = cfg_.icnt.store_segments && cfg_.l2.sector_lookups;
  }
  // Local memory: GPGPU-Sim's default mapping (-gpgpu_local_mem_map 1) lays a word-row out CTA
  // slot by CTA slot, each slot's CTA of every SM in turn; 0 is its legacy thread-slot mapping.
  cfg_.core.local_layout = "cta";
  if (Option* o = take("-gpgpu_local_mem_map")) cfg_.core.local_layout = to_u32(*o, o->value) ? "cta" : "thread";
  // Every GPGPU-Sim coalescer queues a warp's accesses in ascending address order (a std::map per
  // subwarp, one subwarp with -gpgpu_shmem_warp_parts 1) and the LD/ST unit takes them from the
  // back of the queue: highest address first.
  cfg_.core.access_order = "descending";
  // Every GPGPU-Sim coalescer sends a store as transactions of whole 32-byte chunks
  // (memory_coalescing_arch_reduce_and_send): lanes writing the same word add no data.
  cfg_.icnt.write_data_sectors = true;
  // The address mask presets are replaced by -gpgpu_mem_addr_mapping whenever it is given.
  if (Option* o = take("-gpgpu_mem_address_mask"); o && !index_.count("-gpgpu_mem_addr_mapping"))
    not_understood("-gpgpu_mem_address_mask (without -gpgpu_mem_addr_mapping)");
  // The issue widths of GPGPU-Sim's configs never pair two instructions of one unit class.
  take("-gpgpu_dual_issue_diff_exec_units");
  // The cache-preference variants are used only after cudaFuncSetCacheConfig; warpsim runs every
  // kernel with the default preference, which is what GPGPU-Sim does when they equal the defaults.
  for (const char* name : {"-gpgpu_cache:dl1PrefL1", "-gpgpu_cache:dl1PrefShared"})
    if (Option* o = take(name);
        o && o->value != "none" &&
        (!index_.count("-gpgpu_cache:dl1") || opts_[index_.at("-gpgpu_cache:dl1")].value != o->value))
      not_understood(fmt::format("{} (a kernel's cache preference is not modelled)", name));
  for (const char* name : {"-gpgpu_shmem_size_PrefL1", "-gpgpu_shmem_size_PrefShared"})
    if (Option* o = take(name); o && to_u32(*o, o->value) != cfg_.core.shared_mem)
      not_understood(fmt::format("{} (a kernel's cache preference is not modelled)", name));
}

void Importer::map_all() {
  auto& core = cfg_.core;
  // Clock domains first: core:interconnect:L2:DRAM (MHz).
  if (Option* o = take("-gpgpu_clock_domains")) {
    auto parts = split(o->value, ':');
    if (parts.size() != 4) fail(*o, "expected <core>:<icnt>:<l2>:<dram> in MHz");
    core_mhz_ = to_double(*o, parts[0]);
    // warpsim runs the interconnect and the L2 at the core clock.
    if (to_double(*o, parts[1]) != core_mhz_ || to_double(*o, parts[2]) != core_mhz_)
      not_understood("-gpgpu_clock_domains (interconnect / L2 clocks differ from the core clock)");
    dram_mhz_ = to_double(*o, parts[3]);
    cfg_.clock_mhz = core_mhz_;
  } else {
    core_mhz_ = cfg_.clock_mhz;
  }

  Option* clusters = take("-gpgpu_n_clusters");
  Option* per = take("-gpgpu_n_cores_per_cluster");
  if (clusters || per) {
    uint64_t n = (clusters ? to_u32(*clusters, clusters->value) : 1) * uint64_t(per ? to_u32(*per, per->value) : 1);
    if (n > UINT32_MAX) fail(clusters ? *clusters : *per, "too many SMs");
    core.num_sms = uint32_t(n);
    // The cores of a SIMT cluster share its crossbar port (core.sms_per_cluster).
    core.sms_per_cluster = per ? to_u32(*per, per->value) : 1;
  }
  // gpgpu_sim::issue_block2core: one CTA per cluster per cycle, its cores in turn (no option).
  core.cta_dispatch_per_cluster = true;
  u32_opt("-gpgpu_shader_registers", core.registers);
  if (Option* o = take("-gpgpu_shader_core_pipeline")) {
    auto v = u32_list(*o, ':', 2);
    if (v[1] != 32) fail(*o, "warpsim models 32-thread warps");
    core.max_threads = v[0];
    core.max_warps = v[0] / 32;
  }
  u32_opt("-gpgpu_shader_cta", core.max_ctas);
  // The target whose ptxas register counts occupancy is computed with (GPGPU-Sim passes it to
  // ptxas; for a program whose fatbinary it splits per PTX file, the PTX's own target instead).
  u32_opt("-gpgpu_occupancy_sm_number", core.register_target);
  u32_opt("-gpgpu_shmem_size", core.shared_mem);
  // Every launch copies -gpgpu_shmem_sizeDefault over -gpgpu_shmem_size (no cache preference set).
  u32_opt("-gpgpu_shmem_sizeDefault", core.shared_mem);
  u32_opt("-gpgpu_shmem_num_banks", core.shared_banks);
  u32_opt("-gpgpu_smem_latency", core.shared_latency);

  map_units();
  map_operand_collector();
  map_ldst_queue();

  map_cache("-gpgpu_cache:dl1", cfg_.l1d);
  map_cache("-gpgpu_cache:il1", cfg_.icache);
  map_cache("-gpgpu_const_cache:l1", cfg_.constcache);
  map_cache("-gpgpu_cache:dl2", cfg_.l2.cache);
  // A sectored L2 ('S') gets every request as one request per sector (l2cache.cc).
  cfg_.l2.sector_lookups = cfg_.l2.cache.sector < cfg_.l2.cache.line;
  cfg_.l2.sector_replies = cfg_.l2.sector_lookups;
  cfg_.l2.half_line_shared_mshr = cfg_.l2.sector_lookups;
  u32_opt("-gpgpu_l1_latency", cfg_.l1d.latency);
  u32_opt("-gpgpu_l1_cache_write_ratio", cfg_.l1d.write_ratio);
  // One access per bank per cycle, up to one per bank (shader.cc's L1 latency queue).
  if (u32_opt("-gpgpu_l1_banks", cfg_.l1d.ports)) cfg_.l1d.banks = cfg_.l1d.ports;
  u32_opt("-gpgpu_l1_banks_byte_interleaving", cfg_.l1d.bank_interleave);
  if (Option* o = take("-gpgpu_l1_banks_hashing_function"))
    if (to_u32(*o, o->value) != 0)
      not_understood("-gpgpu_l1_banks_hashing_function (only linear bank selection is modelled)");
  if (Option* o = take("-gpgpu_perfect_inst_const_cache")) {
    bool perfect = to_u32(*o, o->value) != 0;
    cfg_.icache.perfect = cfg_.constcache.perfect = perfect;
  }
  u32_opt("-gpgpu_inst_fetch_throughput", core.fetch_per_cycle);
  u32_opt("-gpgpu_kernel_launch_latency", core.kernel_launch_latency);
  u32_opt("-gpgpu_TB_launch_latency", core.cta_dispatch_latency);
  // Every pipelined unit of GPGPU-Sim refuses an instruction whose result cycle is taken.
  core.result_slot_conflicts = true;
  if (Option* o = take("-gpgpu_gmem_skip_L1D")) cfg_.l1d.enabled = to_u32(*o, o->value) == 0;
  // The unified L1/shared SRAM: each kernel's L1D is what its shared-memory carve-out leaves.
  Option* unified = take("-gpgpu_unified_l1d_size");
  Option* carveouts = take("-gpgpu_shmem_option");
  if (Option* o = take("-gpgpu_adaptive_cache_config"); o && to_u32(*o, o->value) != 0) {
    if (!unified || !carveouts) fail(*o, "needs -gpgpu_unified_l1d_size and -gpgpu_shmem_option");
    core.unified_l1_shared = to_u32(*unified, unified->value) * 1024;
    (void)u32_list(*carveouts, ',', 1);  // KB integers, or a located error
    core.shared_carveouts = carveouts->value;
  }
  if (Option* o = take("-gpgpu_cache:dl2_texture_only"))
    if (to_u32(*o, o->value) != 0) not_understood("-gpgpu_cache:dl2_texture_only");

  if (Option* o = take("-gpgpu_flush_l1_cache")) core.l1_flush_when_idle = to_u32(*o, o->value) != 0;
  // Its check follows the cycle's CTA issue and looks at whole clusters (gpgpu_sim::cycle).
  core.l1_flush_by_cluster = true;
  core.ifetch_through_memory = true;      // GPGPU-Sim's L1I misses always go to the L2
  core.l1_miss_after_latency = true;      // GPGPU-Sim's L1D looks accesses up after its latency queue
  core.l1_lookup_after_latency = true;    // hits included, a refused lookup holding its bank (l1_latency_queue)
  core.const_through_memory = true;       // GPGPU-Sim's constant-cache misses go to the L2
  core.param_through_const_cache = true;  // GPGPU-Sim reads kernel parameters through the constant cache
  core.cache_global_bypasses_l1 = true;   // GPGPU-Sim's ldst_unit sends CACHE_GLOBAL accesses past the L1
  core.atomic_waits = true;               // GPGPU-Sim's warps wait while an atomic is outstanding
  core.long_op_marks_persist = true;      // its scoreboard leaves a loaded register on the long-op list
  core.mem_writeback_per_cycle = 1;       // GPGPU-Sim's LD/ST unit writes back one memory response per cycle
  core.fetch_after_issue = true;          // shader_core_ctx::cycle: issue, then decode and fetch
  core.ifill_feeds_one_per_fetch = true;  // shader_core_ctx::fetch: one m_L1I->next_access() per fetch
  core.fetch_refusal_moves_on = true;     // and m_last_warp_fetched moves on after a RESERVATION_FAIL
  core.exit_at_fetch_scan = true;         // and reclaims finished warps in the warps its search passes
  core.module_code_layout = true;         // ptx_assemble: a module's functions one after another
  core.fetch_falls_through = true;        // issue_warp: the next fetch pc is the branch's pc + size
  core.branch_latency = 0;                // a taken branch's target is fetched as soon as the branch issues
  // GPGPU-Sim empties the L2 (dirty lines without a write) once no thread runs: between kernels.
  if (Option* o = take("-gpgpu_flush_l2_cache")) cfg_.l2.flush_at_launch = to_u32(*o, o->value) != 0;
  if (Option* o = take("-gpgpu_perf_sim_memcpy")) cfg_.l2.fill_on_copy = to_u32(*o, o->value) != 0;
  u32_opt("-gpgpu_n_mem", cfg_.l2.partitions);
  u32_opt("-gpgpu_n_sub_partition_per_mchannel", cfg_.l2.slices_per_partition);
  if (Option* o = take("-gpgpu_l2_rop_latency")) cfg_.l2.cache.latency = to_u32(*o, o->value);  // core cycles
  if (Option* o = take("-gpgpu_dram_partition_queues")) {
    const auto q = u32_list(*o, ':', 1);
    cfg_.icnt.input_queue = q[0];
    // The L2-to-DRAM, DRAM-to-L2 and L2-to-interconnect queues (docs/fidelity.md, "Remaining
    // differences": a trial of the last did not pay).
    if (q.size() > 1)
      not_understood(
          fmt::format("-gpgpu_dram_partition_queues {} (only the first size, the interconnect-to-L2 "
                      "queue, is modelled)",
                      o->value));
  }
  u32_opt("-icnt_flit_size", cfg_.icnt.flit);
  // A request for a full sub-partition queue stays in GPGPU-Sim's network (icnt_pop is not called
  // for it) and holds back the SM's requests behind it, not other SMs' requests for other slices.
  cfg_.icnt.slice_back_pressure = true;
  // Both of GPGPU-Sim's crossbars (booksim with one virtual channel, and the local crossbar) queue
  // packets at their inputs: head-of-line blocking, round-robin (iSLIP) grants.
  if (Option* o = take("-network_mode")) {
    uint32_t v = to_u32(*o, o->value);
    if (v == 1 || v == 2)
      cfg_.icnt.input_queued = true;
    else
      not_understood(fmt::format("-network_mode {}", v));
    // The local crossbar queues requests at their cluster's input as well, and its outputs grant
    // one after another (xbar_router::iSLIP_Advance); its buffers are -icnt_in/out_buffer_limit.
    if (v == 2) {
      cfg_.icnt.request_input_queued = true;
      cfg_.icnt.sequential_grants = true;
      u32_opt("-icnt_in_buffer_limit", cfg_.icnt.sm_input_queue);
      u32_opt("-icnt_out_buffer_limit", cfg_.icnt.slice_output_queue);
    }
    // The local crossbar (2) moves a packet from its input to its output buffer in one
    // interconnect cycle: 3 core cycles from send to arrival reproduce GPGPU-Sim's L2-hit round
    // trip on every mode-2 tested config (docs/fidelity.md); booksim (1) keeps the default 8,
    // which reproduces it on SM2_GTX480 and SM6_TITANX.
    if (v == 2) cfg_.icnt.latency = 3;
    // booksim (1) with one virtual channel queues an SM's requests at its input as well: a packet
    // enters while the SM's injection buffer holds room for its flits and moves on into the
    // router's input buffer; one waiting for a full destination holds back the packets behind it.
    if (v == 1) {
      Option* file = take("-inter_config_file");
      const BooksimBuffers b = file ? booksim_buffers(*file) : BooksimBuffers{};
      if (!file || !b.read) not_understood("-inter_config_file (booksim's buffer sizes; 9 + 64 flits taken)");
      cfg_.icnt.request_input_queued = true;
      cfg_.icnt.sm_input_queue_flits = true;
      cfg_.icnt.sm_input_queue = b.input + b.vc;
      cfg_.icnt.slice_output_queue = b.ejection;
    }
  }
  if (Option* o = take("-icnt_arbiter_algo")) {
    uint32_t v = to_u32(*o, o->value);
    if (v > 1) not_understood(fmt::format("-icnt_arbiter_algo {}", v));  // 0 round robin, 1 iSLIP: both
  }

  map_dram();

  if (Option* o = take("-gpgpu_scheduler"))
    not_understood(fmt::format("-gpgpu_scheduler {} (choose with --scheduler)", o->value));
  map_equivalent_options();

  const auto& skip = irrelevant_options();
  for (const auto& o : opts_)
    if (!o.used && !skip.count(o.name)) not_understood(o.name);
}

}  // namespace

void import_gpgpusim_text(GpuConfig& cfg, const std::string& text, const std::string& source,
                          std::vector<std::string>* not_understood) {
  Importer imp(cfg, source, not_understood);
  imp.tokenize(text);
  imp.map_all();
  try {
    validate(cfg);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: the imported configuration is invalid: {}", source, e.what()));
  }
}

void import_gpgpusim_config_into(GpuConfig& cfg, const std::string& path, std::vector<std::string>* not_understood) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open GPGPU-Sim config '{}'", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  import_gpgpusim_text(cfg, ss.str(), path, not_understood);
}

GpuConfig import_gpgpusim_config(const std::string& path, std::vector<std::string>* not_understood) {
  GpuConfig cfg;
  cfg.name = "gpgpusim";
  import_gpgpusim_config_into(cfg, path, not_understood);
  return cfg;
}

}  // namespace warpsim

#include "trace/trace_kernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>

#include "core/error.h"

namespace warpsim {

namespace {

constexpr RegId kPredBase = 256, kUniformBase = 264, kUniformPredBase = 328;

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool parse_dec(std::string_view t, uint64_t& v) {
  if (t.empty()) return false;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v, 10);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

bool parse_sdec(std::string_view t, int64_t& v) {
  if (t.empty()) return false;
  const char* b = t.data();
  if (*b == '+') ++b;
  auto r = std::from_chars(b, t.data() + t.size(), v, 10);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

bool parse_hex(std::string_view t, uint64_t& v) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty()) return false;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v, 16);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

// Whitespace-separated tokens of one line, with the column of the last token.
struct Cursor {
  std::string_view s;
  size_t p = 0, tok = 0;
  std::string_view next() {
    while (p < s.size() && is_space(s[p])) ++p;
    tok = p;
    while (p < s.size() && !is_space(s[p])) ++p;
    return s.substr(tok, p - tok);
  }
  size_t col() const { return tok + 1; }
  bool at_end() {
    while (p < s.size() && is_space(s[p])) ++p;
    tok = p;
    return p == s.size();
  }
};

bool parse_dim3(std::string_view v, Dim3& d) {
  v = trim(v);
  if (v.size() < 2 || v.front() != '(' || v.back() != ')') return false;
  v = v.substr(1, v.size() - 2);
  uint64_t xyz[3];
  for (int i = 0; i < 3; ++i) {
    size_t comma = i < 2 ? v.find(',') : v.size();
    if (comma == std::string_view::npos) return false;
    if (!parse_dec(trim(v.substr(0, comma)), xyz[i]) || xyz[i] == 0 || xyz[i] > UINT32_MAX) return false;
    v = i < 2 ? v.substr(comma + 1) : std::string_view();
  }
  d = Dim3{uint32_t(xyz[0]), uint32_t(xyz[1]), uint32_t(xyz[2])};
  return true;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

// ---------------------------------------------------------------------------- registers

bool parse_sass_reg(std::string_view t, RegId& out) {
  auto num = [&](std::string_view digits, uint64_t max, uint64_t& n) { return parse_dec(digits, n) && n <= max; };
  uint64_t n = 0;
  if (t == "RZ" || t == "PT" || t == "URZ" || t == "UPT") {
    out = kNoReg;
    return true;
  }
  if (starts_with(t, "UR")) {
    if (!num(t.substr(2), 63, n)) return false;
    out = n == 63 ? kNoReg : RegId(kUniformBase + n);
    return true;
  }
  if (starts_with(t, "UP")) {
    if (!num(t.substr(2), 7, n)) return false;
    out = n == 7 ? kNoReg : RegId(kUniformPredBase + n);
    return true;
  }
  if (starts_with(t, "R")) {
    if (!num(t.substr(1), 255, n)) return false;
    out = n == 255 ? kNoReg : RegId(n);
    return true;
  }
  if (starts_with(t, "P")) {
    if (!num(t.substr(1), 7, n)) return false;
    out = n == 7 ? kNoReg : RegId(kPredBase + n);
    return true;
  }
  if (starts_with(t, "V")) {
    if (!num(t.substr(1), kNoReg - 1, n)) return false;
    out = RegId(n);
    return true;
  }
  return false;
}

std::string sass_reg_name(RegId id) {
  if (id < 255) return fmt::format("R{}", id);
  if (id >= kPredBase && id < kPredBase + 7) return fmt::format("P{}", id - kPredBase);
  if (id >= kUniformBase && id < kUniformBase + 63) return fmt::format("UR{}", id - kUniformBase);
  if (id >= kUniformPredBase && id < kUniformPredBase + 7) return fmt::format("UP{}", id - kUniformPredBase);
  return fmt::format("V{}", id);
}

// ---------------------------------------------------------------------------- header

TraceKernelHeader read_trace_header(TraceFile& f) {
  TraceKernelHeader h;
  bool have_grid = false, have_block = false, have_binary = false, have_version = false;
  bool old_layout = false;
  std::string_view line;
  auto fail = [&](size_t col, const std::string& what) {
    throw LocatedError(f.path(), int(f.line_no()), int(col), what);
  };
  h.body_offset = 0;
  h.body_line = 1;
  bool ended = false;
  while (f.next_line(line)) {
    std::string_view t = trim(line);
    if (t.empty()) continue;
    if (t[0] == '#') {
      if (starts_with(t, "#BEGIN_TB")) {
        h.body_offset = f.line_offset();
        h.body_line = f.line_no();
        f.seek(h.body_offset, h.body_line);
        ended = true;
        break;
      }
      if (starts_with(t, "#traces format") && t.find("threadblock_x") != std::string_view::npos) old_layout = true;
      continue;
    }
    if (t[0] != '-') fail(1, fmt::format("expected a '-key = value' header line or '#BEGIN_TB', found '{}'", t));
    size_t eq = t.find('=');
    if (eq == std::string_view::npos) fail(1, fmt::format("expected '-key = value', found '{}'", t));
    std::string_view key = trim(t.substr(1, eq - 1));
    std::string_view val = trim(t.substr(eq + 1));
    const size_t vcol = size_t(val.data() - line.data()) + 1;
    uint64_t n = 0;
    auto dec = [&](uint64_t max) {
      if (!parse_dec(val, n) || n > max)
        fail(vcol, fmt::format("'{}': expected a decimal number, found '{}'", key, val));
      return n;
    };
    auto hex = [&] {
      if (!parse_hex(val, n)) fail(vcol, fmt::format("'{}': expected a hex address, found '{}'", key, val));
      return n;
    };
    if (key == "kernel name") {
      h.name = std::string(val);
    } else if (key == "kernel id") {
      h.kernel_id = uint32_t(dec(UINT32_MAX));
    } else if (key == "grid dim") {
      if (!parse_dim3(val, h.grid))
        fail(vcol, fmt::format("'grid dim': expected (x,y,z) with x, y, z >= 1, found '{}'", val));
      have_grid = true;
    } else if (key == "block dim") {
      if (!parse_dim3(val, h.block))
        fail(vcol, fmt::format("'block dim': expected (x,y,z) with x, y, z >= 1, found '{}'", val));
      if (h.block.count() > 4096)
        fail(vcol, fmt::format("'block dim': {} threads per block is more than 4096", h.block.count()));
      have_block = true;
    } else if (key == "shmem") {
      h.shmem = uint32_t(dec(UINT32_MAX));
    } else if (key == "nregs") {
      h.nregs = uint32_t(dec(UINT32_MAX));
    } else if (key == "binary version") {
      h.binary_version = uint32_t(dec(1000));
      have_binary = true;
    } else if (key == "cuda stream id") {
      h.cuda_stream_id = dec(UINT64_MAX);
    } else if (key == "shmem base_addr") {
      h.shmem_base = hex();
    } else if (key == "local mem base_addr") {
      h.local_base = hex();
    } else if (key == "nvbit version") {
      h.nvbit_version = std::string(val);
    } else if (key == "accelsim tracer version") {
      h.tracer_version = uint32_t(dec(UINT32_MAX));
      if (h.tracer_version < 1 || h.tracer_version > 5)
        fail(vcol, fmt::format("unsupported accelsim tracer version {} (supported: 1 to 5)", h.tracer_version));
      have_version = true;
    } else if (key == "enable lineinfo") {
      h.lineinfo = dec(1) != 0;
    } else if (key == "local mem per thread") {
      h.local_bytes_per_thread = uint32_t(dec(UINT32_MAX));
    } else if (key == "instruction bytes") {
      h.inst_bytes = uint32_t(dec(256));
    } else if (key == "launch cycle") {
      h.launch_cycle = dec(UINT64_MAX);
    } else if (key == "code address") {
      h.code_address = hex();
    }
    // Other keys (later tracer versions) carry nothing warpsim uses.
  }
  if (!ended) {  // no thread block at all: the body is empty
    h.body_offset = UINT64_MAX;
    h.body_line = f.line_no() + 1;
  }
  auto missing = [&](const char* what) {
    throw LocatedError(f.path(), 1, 1, fmt::format("kernel header lacks '{}'", what));
  };
  if (!have_grid) missing("-grid dim = (x,y,z)");
  if (!have_block) missing("-block dim = (x,y,z)");
  if (!have_binary) missing("-binary version = N");
  if (!have_version && old_layout) h.tracer_version = 2;
  return h;
}

KernelInfo kernel_info_from_header(const TraceKernelHeader& h) {
  KernelInfo k;
  k.name = h.name;
  k.grid = h.grid;
  k.block = h.block;
  k.regs_per_thread = h.nregs;
  k.shared_bytes_per_cta = h.shmem;
  k.local_bytes_per_thread = h.local_bytes_per_thread;
  k.inst_bytes = h.inst_bytes ? h.inst_bytes : h.binary_version < 70 ? 8 : 16;
  k.code_address = h.code_address;
  return k;
}

// ---------------------------------------------------------------------------- opcodes

std::shared_ptr<const OpcodeTable> load_opcode_table(const TraceOptions& opts, uint32_t binary_version) {
  if (!opts.opcode_table.empty()) return std::make_shared<OpcodeTable>(OpcodeTable::load(opts.opcode_table));
  const std::string dir = opts.sass_dir.empty() ? default_sass_dir() : opts.sass_dir;
  return std::make_shared<OpcodeTable>(OpcodeTable::load(find_opcode_table(dir, binary_version)));
}

OpcodeResolver::OpcodeResolver(std::shared_ptr<const OpcodeTable> table, bool unknown_as_sp)
    : table_(std::move(table)), unknown_as_sp_(unknown_as_sp) {}

const OpcodeResolver::Decoded& OpcodeResolver::resolve(std::string_view opcode, const std::string& file, uint64_t line,
                                                       int col) {
  auto it = cache_.find(opcode);
  if (it != cache_.end()) return it->second;
  Decoded d;
  const OpcodeInfo* e = table_->lookup(opcode);
  const std::string_view mnemonic = opcode.substr(0, opcode.find('.'));
  if (e) {
    d.info = *e;
  } else if (unknown_as_sp_) {
    std::fprintf(stderr,
                 "warpsim: warning: %s:%llu: unknown SASS opcode '%s' (table %s) runs as an SP ALU "
                 "operation\n",
                 file.c_str(), static_cast<unsigned long long>(line), std::string(mnemonic).c_str(),
                 table_->source().c_str());
  } else {
    throw LocatedError(file, int(line), col,
                       fmt::format("unknown SASS opcode '{}' (not in opcode table {}; add it there, or allow "
                                   "unknown opcodes to run as SP operations)",
                                   mnemonic, table_->source()));
  }
  // Modifiers: BAR.ARV does not wait; WS<k><n> are warpsim's own (written by write_trace).
  size_t p = mnemonic.size();
  while (p < opcode.size()) {
    size_t q = opcode.find('.', p + 1);
    if (q == std::string_view::npos) q = opcode.size();
    std::string_view mod = opcode.substr(p + 1, q - p - 1);
    const int mcol = col + int(p) + 1;
    p = q;
    if (mod == "ARV" && d.info.op == OpClass::BARRIER) d.flags |= kFlagBarrierArrive;
    if (mod.size() < 4 || mod[0] != 'W' || mod[1] != 'S') continue;
    uint64_t v = 0;
    if (!parse_dec(mod.substr(3), v)) continue;
    auto check = [&](uint64_t max) {
      if (v > max)
        throw LocatedError(file, int(line), mcol, fmt::format("modifier '{}': value {} is above {}", mod, v, max));
    };
    switch (mod[2]) {
      case 'U':
        check(kNumUnits - 1);
        d.info.unit = Unit(v);
        break;
      case 'O':
        check(uint64_t(OpClass::NOP));
        d.info.op = OpClass(v);
        d.explicit_op = true;
        break;
      case 'S':
        check(uint64_t(MemSpace::Tex));
        d.info.space = MemSpace(v);
        d.info.generic = false;
        break;
      case 'L':
        check(kNumLatencyClasses - 1);
        d.info.latency_class = uint8_t(v);
        break;
      case 'F':
        check(255);
        d.flags = uint8_t(v);
        break;
      case 'B':
        check(255);
        d.barrier_id = uint8_t(v);
        break;
      case 'W':
        check(255);
        d.width = int16_t(v);
        break;
      default:
        break;
    }
  }
  return cache_.emplace(std::string(opcode), d).first->second;
}

// ---------------------------------------------------------------------------- kernel

TraceKernel::TraceKernel(std::string path, TraceOptions opts, std::shared_ptr<OpcodeResolver> resolver)
    : file_(std::move(path)), opts_(std::move(opts)), resolver_(std::move(resolver)) {
  header_ = read_trace_header(file_);
  if (!resolver_)
    resolver_ =
        std::make_shared<OpcodeResolver>(load_opcode_table(opts_, header_.binary_version), opts_.unknown_opcode_as_sp);
  info_ = kernel_info_from_header(header_);
  // Maxwell/Pascal: a control word leads every three 8-byte instructions; PCs are renumbered
  // without them so that consecutive instructions are 8 bytes apart.
  remap_pascal_pcs_ = header_.inst_bytes == 0 && header_.binary_version < 70;
  build_index();
}

TraceKernel::TraceKernel(const TraceKernel& o, CopyTag)
    : file_(o.file_.path()),
      opts_(o.opts_),
      header_(o.header_),
      info_(o.info_),
      resolver_(o.resolver_),
      index_(o.index_),
      ctas_in_file_(o.ctas_in_file_),
      remap_pascal_pcs_(o.remap_pascal_pcs_) {}

std::unique_ptr<TraceKernel> TraceKernel::clone_kernel() const {
  return std::unique_ptr<TraceKernel>(new TraceKernel(*this, CopyTag{}));
}

std::unique_ptr<KernelSource> TraceKernel::clone() const { return clone_kernel(); }

void TraceKernel::fail(uint64_t line, size_t col, const std::string& what) const {
  throw LocatedError(file_.path(), int(line), int(col), what);
}

uint32_t TraceKernel::map_pc(uint64_t pc) const {
  if (!remap_pascal_pcs_) return uint32_t(pc);
  uint64_t in_bundle = pc & 31;
  return uint32_t((pc >> 5) * 24 + (in_bundle >= 8 ? in_bundle - 8 : 0));
}

void TraceKernel::build_index() {
  const uint64_t nctas = info_.num_ctas();
  if (nctas > (1ull << 32)) fail(1, 1, fmt::format("grid of {} CTAs is too large", nctas));
  index_.clear();
  if (header_.body_offset == UINT64_MAX) return;
  file_.seek(header_.body_offset, header_.body_line);
  std::string_view line;
  bool in_tb = false, have_id = false;
  uint64_t tb_off = 0, tb_line = 0;
  while (file_.next_line(line)) {
    if (line.empty()) continue;
    const char c = line[0];
    if (c == '#') {
      if (starts_with(line, "#BEGIN_TB")) {
        if (in_tb)
          fail(file_.line_no(), 1, fmt::format("expected '#END_TB' for the thread block begun at line {}", tb_line));
        in_tb = true;
        have_id = false;
        tb_off = file_.line_offset();
        tb_line = file_.line_no();
      } else if (starts_with(line, "#END_TB")) {
        if (!in_tb) fail(file_.line_no(), 1, "'#END_TB' without '#BEGIN_TB'");
        if (!have_id) fail(file_.line_no(), 1, "expected 'thread block = x,y,z' before '#END_TB'");
        in_tb = false;
      }
      continue;  // other '#' lines are comments
    }
    if (c == 't' && starts_with(line, "thread block")) {
      if (!in_tb) fail(file_.line_no(), 1, "'thread block' outside '#BEGIN_TB' ... '#END_TB'");
      size_t eq = line.find('=');
      bool ok = eq != std::string_view::npos;
      if (ok) {
        std::string_view v = line.substr(eq + 1);
        uint64_t xyz[3];
        for (int i = 0; i < 3 && ok; ++i) {
          size_t comma = i < 2 ? v.find(',') : v.size();
          ok = comma != std::string_view::npos && parse_dec(trim(v.substr(0, comma)), xyz[i]);
          if (ok) v = i < 2 ? v.substr(comma + 1) : std::string_view();
        }
        if (ok) {
          ok = xyz[0] < info_.grid.x && xyz[1] < info_.grid.y && xyz[2] < info_.grid.z;
          if (!ok)
            fail(file_.line_no(), eq + 2,
                 fmt::format("thread block ({},{},{}) is outside the grid ({},{},{})", xyz[0], xyz[1], xyz[2],
                             info_.grid.x, info_.grid.y, info_.grid.z));
          const uint64_t lin = xyz[0] + info_.grid.x * (xyz[1] + uint64_t(info_.grid.y) * xyz[2]);
          index_.push_back(CtaEntry{lin, tb_off, tb_line});
          have_id = true;
        }
      }
      if (!ok) fail(file_.line_no(), eq == std::string_view::npos ? 1 : eq + 2, "expected 'thread block = x,y,z'");
      continue;
    }
    if (!in_tb) fail(file_.line_no(), 1, fmt::format("expected '#BEGIN_TB', found '{}'", line.substr(0, 40)));
  }
  if (in_tb)
    fail(file_.line_no() + 1, 1,
         fmt::format("file ends inside the thread block begun at line {} (expected '#END_TB')", tb_line));
  // Tracers write blocks in id order; sort in case one did not.
  if (!std::is_sorted(index_.begin(), index_.end(), [](const CtaEntry& a, const CtaEntry& b) { return a.cta < b.cta; }))
    std::stable_sort(index_.begin(), index_.end(), [](const CtaEntry& a, const CtaEntry& b) { return a.cta < b.cta; });
  for (size_t i = 1; i < index_.size(); ++i) {
    if (index_[i].cta != index_[i - 1].cta) continue;
    const uint64_t id = index_[i].cta, gx = info_.grid.x, gy = info_.grid.y;
    const CtaEntry& later = index_[i].line > index_[i - 1].line ? index_[i] : index_[i - 1];
    const CtaEntry& first = index_[i].line > index_[i - 1].line ? index_[i - 1] : index_[i];
    fail(later.line, 1,
         fmt::format("thread block ({},{},{}) appears twice (the blocks begun at lines {} and {})", id % gx,
                     (id / gx) % gy, id / (gx * gy), first.line, later.line));
  }
  ctas_in_file_ = index_.size();
}

const TraceKernel::CtaEntry* TraceKernel::find_cta(uint64_t cta) const {
  auto it =
      std::lower_bound(index_.begin(), index_.end(), cta, [](const CtaEntry& e, uint64_t id) { return e.cta < id; });
  return it != index_.end() && it->cta == cta ? &*it : nullptr;
}

void TraceKernel::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
  if (cta_id >= info_.num_ctas())
    throw Error(fmt::format("{}: CTA {} requested, the grid has {}", file_.path(), cta_id, info_.num_ctas()));
  const uint32_t nwarps = info_.warps_per_cta();
  out.cta_id = cta_id;
  out.warps.resize(nwarps);
  for (WarpStream& w : out.warps) w.clear();
  // Warps of a CTA the trace does not hold (or warps a thread block lacks) only exit.
  uint64_t seen_lo = 0;          // bit w: warp w was in the trace (first 64 warps)
  std::vector<uint8_t> seen_hi;  // further warps (blocks of more than 2048 threads)
  auto mark_seen = [&](uint32_t w) -> bool {
    if (w < 64) {
      bool was = (seen_lo >> w) & 1;
      seen_lo |= uint64_t(1) << w;
      return was;
    }
    if (seen_hi.size() < nwarps) seen_hi.resize(nwarps, 0);
    bool was = seen_hi[w] != 0;
    seen_hi[w] = 1;
    return was;
  };
  if (const CtaEntry* ep = find_cta(cta_id)) {
    const CtaEntry& e = *ep;
    file_.seek(e.offset, e.line);
    std::string_view line;
    file_.next_line(line);  // #BEGIN_TB (indexed)
    bool done = false;
    while (!done && file_.next_line(line)) {
      if (line.empty()) continue;
      if (line[0] == '#') {
        if (starts_with(line, "#END_TB")) done = true;
        continue;
      }
      if (starts_with(line, "thread block") || starts_with(line, "cluster")) continue;
      Cursor cur{line};
      std::string_view kw = cur.next();
      if (kw != "warp")
        fail(file_.line_no(), 1,
             fmt::format("expected 'warp = N' or '#END_TB', found '{}'{}", line.substr(0, 40),
                         (line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')
                             ? " (more instructions than the warp's 'insts = N' announced?)"
                             : ""));
      std::string_view eq = cur.next();
      std::string_view num = cur.next();
      uint64_t w = 0;
      if (eq != "=" || !parse_dec(num, w) || !cur.at_end()) fail(file_.line_no(), cur.col(), "expected 'warp = N'");
      if (w >= nwarps)
        fail(file_.line_no(), cur.col(), fmt::format("warp {} does not exist: the block has {} warps", w, nwarps));
      if (mark_seen(uint32_t(w)))
        fail(file_.line_no(), 1, fmt::format("warp {} appears twice in this thread block", w));
      const uint64_t warp_line = file_.line_no();
      do {
        if (!file_.next_line(line))
          fail(file_.line_no() + 1, 1, fmt::format("file ends after 'warp = {}' (expected 'insts = N')", w));
      } while (line.empty());
      Cursor c2{line};
      uint64_t n = 0;
      if (c2.next() != "insts" || c2.next() != "=" || !parse_dec(c2.next(), n) || !c2.at_end())
        fail(file_.line_no(), 1, fmt::format("expected 'insts = N' after 'warp = {}' at line {}", w, warp_line));
      if (n > (1ull << 32)) fail(file_.line_no(), 1, fmt::format("{} instructions for one warp is implausible", n));
      WarpStream& ws = out.warps[w];
      ws.insts.reserve(std::min<uint64_t>(n, 1 << 16) + 1);  // the count is not trusted with memory
      for (uint64_t k = 0; k < n; ++k) {
        bool got = file_.next_line(line);
        while (got && line.empty()) got = file_.next_line(line);
        if (!got)
          fail(file_.line_no() + 1, 1,
               fmt::format("file ends after {} of the {} instructions of warp {} (expected '#END_TB')", k, n, w));
        const char c0 = line[0];
        if (c0 == '#' || c0 == 'w')
          fail(file_.line_no(), 1,
               fmt::format("warp {} has {} instructions, 'insts = {}' at line {} promised {}", w, k, n, warp_line + 1,
                           n));
        parse_inst(line, k + 1 == n, ws);
      }
    }
    if (!done)
      fail(file_.line_no() + 1, 1,
           fmt::format("file ends inside the thread block begun at line {} (expected '#END_TB')", e.line));
  }
  for (WarpStream& ws : out.warps) {
    if (!ws.insts.empty() && ws.insts.back().op == OpClass::EXIT) continue;
    WarpInst x;
    x.op = OpClass::EXIT;
    x.unit = Unit::BRANCH;
    if (!ws.insts.empty()) {
      x.pc = ws.insts.back().pc + info_.inst_bytes;
      x.active_mask = ws.insts.back().active_mask;
    }
    ws.insts.push_back(x);
  }
}

void TraceKernel::parse_inst(std::string_view line, bool last, WarpStream& ws) {
  Cursor c{line};
  const uint64_t ln = file_.line_no();
  uint64_t v = 0;
  if (header_.tracer_version < 3) {  // the raw layout repeats the block and warp ids
    for (int i = 0; i < 4; ++i)
      if (!parse_dec(c.next(), v))
        fail(ln, c.col(), "expected 'tb_x tb_y tb_z warp' before the PC (tracer version < 3)");
  }
  if (header_.lineinfo && !parse_dec(c.next(), v))
    fail(ln, c.col(), "expected a source line number (enable lineinfo = 1)");
  WarpInst in;
  std::string_view t = c.next();
  if (!parse_hex(t, v) || v > UINT32_MAX) fail(ln, c.col(), fmt::format("expected a hex PC, found '{}'", t));
  in.pc = map_pc(v);
  t = c.next();
  if (!parse_hex(t, v) || v > UINT32_MAX) fail(ln, c.col(), fmt::format("expected a hex active mask, found '{}'", t));
  in.active_mask = uint32_t(v);
  t = c.next();
  uint64_t ndst = 0;
  if (!parse_dec(t, ndst) || ndst > 32)
    fail(ln, c.col(), fmt::format("expected the number of destination registers, found '{}'", t));
  int nd = 0;
  for (uint64_t i = 0; i < ndst; ++i) {
    t = c.next();
    RegId r;
    if (!parse_sass_reg(t, r))
      fail(ln, c.col(), fmt::format("expected destination register {} of {}, found '{}'", i + 1, ndst, t));
    if (r != kNoReg && nd < kMaxDst) in.dst[nd++] = r;
  }
  std::string_view opcode = c.next();
  const size_t op_col = c.col();
  if (opcode.empty() || !((opcode[0] >= 'A' && opcode[0] <= 'Z') || (opcode[0] >= 'a' && opcode[0] <= 'z')))
    fail(ln, op_col, fmt::format("expected an opcode, found '{}'", opcode));
  t = c.next();
  uint64_t nsrc = 0;
  if (!parse_dec(t, nsrc) || nsrc > 32)
    fail(ln, c.col(), fmt::format("expected the number of source registers, found '{}'", t));
  int ns = 0;
  for (uint64_t i = 0; i < nsrc; ++i) {
    t = c.next();
    RegId r;
    if (!parse_sass_reg(t, r))
      fail(ln, c.col(), fmt::format("expected source register {} of {}, found '{}'", i + 1, nsrc, t));
    if (r != kNoReg && ns < kMaxSrc) in.src[ns++] = r;
  }
  t = c.next();
  uint64_t width = 0;
  if (!parse_dec(t, width) || width > 255)
    fail(ln, c.col(), fmt::format("expected the memory width in bytes (0..255), found '{}'", t));

  const OpcodeResolver::Decoded& d = resolver_->resolve(opcode, file_.path(), ln, int(op_col));
  in.unit = d.info.unit;
  in.op = d.info.op;
  in.space = d.info.space;
  in.latency_class = d.info.latency_class;
  in.flags = d.flags;
  in.barrier_id = d.barrier_id;
  in.width = d.width >= 0 ? uint8_t(d.width) : uint8_t(width);
  // Only the warp's last EXIT ends it; an earlier one (predicated off, or taken by some lanes
  // while others go on) is a control instruction.
  if (in.op == OpClass::EXIT && !last && !d.explicit_op) in.op = OpClass::BRANCH;

  if (width > 0) {
    t = c.next();
    uint64_t mode = 0;
    if (!parse_dec(t, mode))
      fail(ln, c.col(), fmt::format("expected an address compression mode (0, 1 or 2), found '{}'", t));
    const uint32_t idx = uint32_t(ws.addrs.size());
    ws.addrs.resize(idx + 32, 0);
    uint64_t* a = ws.addrs.data() + idx;
    const uint32_t mask = in.active_mask;
    const int active = std::popcount(mask);
    if (mode == 0) {
      for (uint32_t m = mask; m; m &= m - 1) {
        t = c.next();
        if (!parse_hex(t, v))
          fail(ln, c.col(), fmt::format("expected {} hex addresses (one per active lane), found '{}'", active, t));
        a[std::countr_zero(m)] = v;
      }
    } else if (mode == 1) {
      uint64_t base = 0;
      int64_t stride = 0;
      t = c.next();
      if (!parse_hex(t, base)) fail(ln, c.col(), fmt::format("expected a hex base address, found '{}'", t));
      t = c.next();
      if (!parse_sdec(t, stride)) fail(ln, c.col(), fmt::format("expected a decimal stride, found '{}'", t));
      uint64_t addr = base;
      for (uint32_t m = mask; m; m &= m - 1) {
        a[std::countr_zero(m)] = addr;
        addr += uint64_t(stride);
      }
    } else if (mode == 2) {
      uint64_t addr = 0;
      t = c.next();
      if (!parse_hex(t, addr)) fail(ln, c.col(), fmt::format("expected a hex base address, found '{}'", t));
      bool first = true;
      for (uint32_t m = mask; m; m &= m - 1) {
        if (!first) {
          int64_t delta = 0;
          t = c.next();
          if (!parse_sdec(t, delta))
            fail(ln, c.col(), fmt::format("expected {} decimal address deltas, found '{}'", active - 1, t));
          addr += uint64_t(delta);
        }
        first = false;
        a[std::countr_zero(m)] = addr;
      }
    } else {
      fail(ln, c.col(), fmt::format("unknown address compression mode {} (expected 0, 1 or 2)", mode));
    }
    in.addr_index = idx;
    // Generic accesses: the first active lane's address tells the window.
    if (d.info.generic) {
      in.space = MemSpace::Global;
      if (mask && (header_.shmem_base || header_.local_base)) {
        const uint64_t first = a[std::countr_zero(mask)];
        if (header_.shmem_base && first >= header_.shmem_base && first - header_.shmem_base < opts_.shared_window)
          in.space = MemSpace::Shared;
        else if (header_.local_base && first >= header_.local_base && first - header_.local_base < opts_.local_window)
          in.space = MemSpace::Local;
      }
    }
    // Local accesses are offsets into the thread's local window (the timing model lays the
    // windows out); generic ones carry the window base.
    if (in.space == MemSpace::Local && header_.local_base) {
      for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t& x = a[std::countr_zero(m)];
        if (x >= header_.local_base && x - header_.local_base < opts_.local_window) x -= header_.local_base;
      }
    }
    // Shared accesses are offsets into the CTA's shared memory.
    if (in.space == MemSpace::Shared && header_.shmem_base) {
      for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t& x = a[std::countr_zero(m)];
        if (x >= header_.shmem_base && x - header_.shmem_base < opts_.shared_window) x -= header_.shmem_base;
      }
    }
  } else if (d.info.generic) {
    in.space = MemSpace::Global;
  }
  if (header_.tracer_version >= 5) {  // version 5 ends the line with the instruction's immediate
    t = c.next();
    int64_t imm = 0;
    if (!t.empty() && !parse_sdec(t, imm) && !parse_hex(t, v))
      fail(ln, c.col(), fmt::format("expected the immediate value at the end of the line, found '{}'", t));
  }
  if (!c.at_end()) {
    t = c.next();
    fail(ln, c.col(), fmt::format("unexpected '{}' after the end of the instruction", t));
  }
  ws.insts.push_back(in);
}

}  // namespace warpsim

#include "trace/trace_writer.h"

#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "trace/trace_kernel.h"

namespace warpsim {

namespace {

std::shared_ptr<const OpcodeTable> writer_table(const TraceWriterOptions& o) {
  TraceOptions t;
  t.sass_dir = o.sass_dir;
  t.opcode_table = o.opcode_table;
  return load_opcode_table(t, o.binary_version);
}

// Mnemonics tried for each operation class, best first.
const std::vector<std::string_view>& candidates(OpClass op) {
  static const std::vector<std::string_view> alu = {"FADD", "FFMA", "IADD3", "IMAD", "IADD",
                                                    "XMAD", "DADD", "DFMA",  "MUFU", "MOV"};
  static const std::vector<std::string_view> load = {"LDG", "LDS", "LDL", "LDC", "TEX", "LD"};
  static const std::vector<std::string_view> store = {"STG", "STS", "STL", "ST"};
  static const std::vector<std::string_view> atomic = {"ATOMG", "RED", "ATOMS", "ATOM"};
  static const std::vector<std::string_view> branch = {"BRA"};
  static const std::vector<std::string_view> barrier = {"BAR"};
  static const std::vector<std::string_view> membar = {"MEMBAR"};
  static const std::vector<std::string_view> exit = {"EXIT"};
  static const std::vector<std::string_view> nop = {"NOP"};
  switch (op) {
    case OpClass::ALU:
      return alu;
    case OpClass::LOAD:
      return load;
    case OpClass::STORE:
      return store;
    case OpClass::ATOMIC:
      return atomic;
    case OpClass::BRANCH:
      return branch;
    case OpClass::BARRIER:
      return barrier;
    case OpClass::MEMBAR:
      return membar;
    case OpClass::EXIT:
      return exit;
    default:
      return nop;
  }
}

void check_io(FILE* fp, const std::string& path) {
  if (std::ferror(fp)) throw Error(fmt::format("cannot write trace file '{}': {}", path, std::strerror(errno)));
}

}  // namespace

// ---------------------------------------------------------------------------- kernel writer

TraceKernelWriter::TraceKernelWriter(const std::string& path, const KernelInfo& info, uint32_t kernel_id,
                                     uint64_t cuda_stream, std::shared_ptr<const OpcodeTable> table,
                                     const TraceWriterOptions& opts, uint64_t launch_cycle)
    : path_(path), info_(info), table_(std::move(table)), opts_(opts) {
  fp_ = std::fopen(path.c_str(), "wb");
  if (!fp_) throw Error(fmt::format("cannot create trace file '{}': {}", path, std::strerror(errno)));
  std::string h;
  fmt::format_to(std::back_inserter(h), "-kernel name = {}\n", info.name);
  fmt::format_to(std::back_inserter(h), "-kernel id = {}\n", kernel_id);
  fmt::format_to(std::back_inserter(h), "-grid dim = ({},{},{})\n", info.grid.x, info.grid.y, info.grid.z);
  fmt::format_to(std::back_inserter(h), "-block dim = ({},{},{})\n", info.block.x, info.block.y, info.block.z);
  fmt::format_to(std::back_inserter(h), "-shmem = {}\n", info.shared_bytes_per_cta);
  fmt::format_to(std::back_inserter(h), "-nregs = {}\n", info.regs_per_thread);
  fmt::format_to(std::back_inserter(h), "-binary version = {}\n", opts_.binary_version);
  fmt::format_to(std::back_inserter(h), "-cuda stream id = {}\n", cuda_stream);
  // Shared addresses are written as offsets and local ones as they are: no generic windows.
  h += "-shmem base_addr = 0x0000000000000000\n";
  h += "-local mem base_addr = 0x0000000000000000\n";
  fmt::format_to(std::back_inserter(h), "-nvbit version = warpsim-{}\n", WARPSIM_VERSION);
  h += "-accelsim tracer version = 4\n";
  h += "-enable lineinfo = 0\n";
  fmt::format_to(std::back_inserter(h), "-local mem per thread = {}\n", info.local_bytes_per_thread);
  fmt::format_to(std::back_inserter(h), "-instruction bytes = {}\n", info.inst_bytes);
  if (launch_cycle) fmt::format_to(std::back_inserter(h), "-launch cycle = {}\n", launch_cycle);
  if (info.code_address != KernelInfo::kNoCodeAddress)
    fmt::format_to(std::back_inserter(h), "-code address = 0x{:x}\n", info.code_address);
  h += "\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
       "mem_width "
       "[adrrescompress?] [mem_addresses]\n\n";
  std::fwrite(h.data(), 1, h.size(), fp_);
  check_io(fp_, path_);
}

TraceKernelWriter::~TraceKernelWriter() {
  if (fp_) std::fclose(fp_);
}

void TraceKernelWriter::close() {
  if (!fp_) return;
  check_io(fp_, path_);
  int r = std::fclose(fp_);
  fp_ = nullptr;
  if (r != 0) throw Error(fmt::format("cannot write trace file '{}': {}", path_, std::strerror(errno)));
}

std::string TraceKernelWriter::opcode_for(const WarpInst& in, bool final) { return mnemonic(in, final); }

const std::string& TraceKernelWriter::mnemonic(const WarpInst& in, bool final) {
  const bool has_addr = in.addr_index != kNoAddr;
  const uint64_t key = uint64_t(in.unit) | uint64_t(in.op) << 8 | uint64_t(in.space) << 16 |
                       uint64_t(in.latency_class) << 24 | uint64_t(in.flags) << 32 | uint64_t(in.barrier_id) << 40 |
                       uint64_t(in.width) << 48 | uint64_t(has_addr) << 56 | uint64_t(final) << 57;
  auto it = mnemonics_.find(key);
  if (it != mnemonics_.end()) return it->second;
  // The candidate needing the fewest warpsim modifiers wins.
  std::string best;
  int best_cost = 1 << 30;
  for (std::string_view cand : candidates(in.op)) {
    std::string text(cand);
    const OpcodeInfo* e = table_->find_exact(cand);
    OpcodeInfo base = e ? *e : OpcodeInfo{};
    uint8_t native_flags = 0;
    if (in.op == OpClass::BARRIER) {
      const bool arrive = in.flags & kFlagBarrierArrive;
      text += arrive ? ".ARV" : ".SYNC";
      if (arrive && base.op == OpClass::BARRIER) native_flags = kFlagBarrierArrive;
    }
    int cost = e ? 0 : 100;
    std::string mods;
    if (base.unit != in.unit) mods += fmt::format(".WSU{}", int(in.unit)), ++cost;
    if (base.op != in.op || (in.op == OpClass::EXIT && !final)) mods += fmt::format(".WSO{}", int(in.op)), ++cost;
    if (base.space != in.space || base.generic) mods += fmt::format(".WSS{}", int(in.space)), ++cost;
    if (base.latency_class != in.latency_class) mods += fmt::format(".WSL{}", int(in.latency_class)), ++cost;
    if (in.flags != native_flags) mods += fmt::format(".WSF{}", int(in.flags)), ++cost;
    if (in.barrier_id != 0) mods += fmt::format(".WSB{}", int(in.barrier_id)), ++cost;
    const int written_width = has_addr ? (in.width ? in.width : 1) : 0;
    if (written_width != in.width) mods += fmt::format(".WSW{}", int(in.width)), ++cost;
    if (cost < best_cost) {
      best_cost = cost;
      best = text + mods;
    }
  }
  return mnemonics_.emplace(key, std::move(best)).first->second;
}

void TraceKernelWriter::append_inst(const WarpInst& in, const WarpStream& ws, bool final) {
  auto out = std::back_inserter(buf_);
  fmt::format_to(out, "{:04x} {:08x} ", in.pc, in.active_mask);
  int nd = 0, ns = 0;
  for (RegId r : in.dst) nd += r != kNoReg;
  for (RegId r : in.src) ns += r != kNoReg;
  fmt::format_to(out, "{} ", nd);
  for (RegId r : in.dst)
    if (r != kNoReg) buf_ += sass_reg_name(r), buf_ += ' ';
  buf_ += mnemonic(in, final);
  fmt::format_to(out, " {} ", ns);
  for (RegId r : in.src)
    if (r != kNoReg) buf_ += sass_reg_name(r), buf_ += ' ';
  if (in.addr_index == kNoAddr) {
    buf_ += "0 \n";
    return;
  }
  if (size_t(in.addr_index) + 32 > ws.addrs.size())
    throw Error(
        fmt::format("trace writer: instruction at pc 0x{:x} has address index {} beyond the warp's "
                    "{} addresses",
                    in.pc, in.addr_index, ws.addrs.size()));
  const uint64_t* a = ws.addrs.data() + in.addr_index;
  const uint32_t mask = in.active_mask;
  fmt::format_to(out, "{} ", in.width ? in.width : 1);
  const int active = std::popcount(mask);
  // Mode 1 when the active lanes are contiguous with a constant stride (the layout Accel-Sim's
  // tracer uses), else the shorter of the list (mode 0) and base+deltas (mode 2).
  if (opts_.compress_addresses && active >= 2) {
    const int lo = std::countr_zero(mask);
    const bool contiguous = (mask >> lo) == (active == 32 ? 0xffffffffu : ((1u << active) - 1));
    if (contiguous) {
      const int64_t stride = int64_t(a[lo + 1] - a[lo]);
      bool ok = stride >= INT32_MIN && stride <= INT32_MAX;
      for (int l = lo + 1; ok && l < lo + active; ++l) ok = int64_t(a[l] - a[l - 1]) == stride;
      if (ok) {
        fmt::format_to(out, "1 0x{:x} {} \n", a[lo], stride);
        return;
      }
    }
    size_t list_len = 0, delta_len = 0;
    uint64_t prev = 0;
    bool first = true;
    char tmp[32];
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint64_t x = a[std::countr_zero(m)];
      list_len += 4 + size_t(std::bit_width(x) + 3) / 4;
      if (!first) delta_len += size_t(fmt::format_to(tmp, "{} ", int64_t(x - prev)) - tmp);
      first = false;
      prev = x;
    }
    if (delta_len + 8 < list_len) {
      first = true;
      for (uint32_t m = mask; m; m &= m - 1) {
        const uint64_t x = a[std::countr_zero(m)];
        if (first)
          fmt::format_to(out, "2 0x{:x} ", x);
        else
          fmt::format_to(out, "{} ", int64_t(x - prev));
        first = false;
        prev = x;
      }
      buf_ += '\n';
      return;
    }
  }
  buf_ += "0 ";
  for (uint32_t m = mask; m; m &= m - 1) fmt::format_to(out, "0x{:016x} ", a[std::countr_zero(m)]);
  buf_ += '\n';
}

void TraceKernelWriter::write_cta(const CtaStreams& cta) {
  if (!fp_) throw Error(fmt::format("trace file '{}' is already closed", path_));
  const uint32_t gx = info_.grid.x, gy = info_.grid.y;
  if (cta.cta_id >= info_.num_ctas())
    throw Error(fmt::format("trace writer: CTA {} is outside the grid of {} CTAs", cta.cta_id, info_.num_ctas()));
  buf_.clear();
  fmt::format_to(std::back_inserter(buf_), "#BEGIN_TB\n\nthread block = {},{},{}\n", cta.cta_id % gx,
                 (cta.cta_id / gx) % gy, cta.cta_id / (uint64_t(gx) * gy));
  for (size_t w = 0; w < cta.warps.size(); ++w) {
    const WarpStream& ws = cta.warps[w];
    fmt::format_to(std::back_inserter(buf_), "\nwarp = {}\ninsts = {}\n", w, ws.insts.size());
    for (size_t i = 0; i < ws.insts.size(); ++i) append_inst(ws.insts[i], ws, i + 1 == ws.insts.size());
  }
  buf_ += "\n#END_TB\n\n";
  std::fwrite(buf_.data(), 1, buf_.size(), fp_);
  check_io(fp_, path_);
}

// ---------------------------------------------------------------------------- recorder

namespace {

class RecordingKernel : public KernelSource {
 public:
  RecordingKernel(std::unique_ptr<KernelSource> inner, TraceRecorder& rec, uint32_t id)
      : inner_(std::move(inner)), rec_(rec), id_(id) {}
  const KernelInfo& info() const override { return inner_->info(); }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override {
    inner_->produce_cta(cta_id, sm_id, out);
    rec_.write_cta(id_, out);
  }
  void on_kernel_done() override {
    inner_->on_kernel_done();
    rec_.end_kernel(id_);
  }
  int source_line(uint32_t pc) const override { return inner_->source_line(pc); }

 private:
  std::unique_ptr<KernelSource> inner_;
  TraceRecorder& rec_;
  uint32_t id_;
};

}  // namespace

TraceRecorder::TraceRecorder(std::string dir, TraceWriterOptions opts) : dir_(std::move(dir)), opts_(std::move(opts)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw Error(fmt::format("cannot create trace directory '{}': {}", dir_, ec.message()));
  table_ = writer_table(opts_);
  const std::string list = dir_ + "/kernelslist.g";
  list_ = std::fopen(list.c_str(), "wb");
  if (!list_) throw Error(fmt::format("cannot create '{}': {}", list, std::strerror(errno)));
}

TraceRecorder::~TraceRecorder() {
  try {
    finish();
  } catch (const Error&) {
  }
}

void TraceRecorder::list_line(const std::string& s) {
  if (!list_) throw Error(fmt::format("trace recorder for '{}' is finished", dir_));
  std::fwrite(s.data(), 1, s.size(), list_);
  std::fflush(list_);
  check_io(list_, dir_ + "/kernelslist.g");
}

void TraceRecorder::memcpy_h2d(uint64_t dst, uint64_t bytes) {
  list_line(fmt::format("MemcpyHtoD,0x{:016x},{}\n", dst, bytes));
}

uint32_t TraceRecorder::begin_kernel(const KernelInfo& info, uint64_t cuda_stream, uint64_t launch_cycle) {
  const uint32_t id = next_kernel_++;
  const std::string name = fmt::format("kernel-{}.traceg", id);
  open_[id] =
      std::make_unique<TraceKernelWriter>(dir_ + "/" + name, info, id, cuda_stream, table_, opts_, launch_cycle);
  list_line(name + "\n");
  return id;
}

void TraceRecorder::write_cta(uint32_t kernel, const CtaStreams& cta) {
  auto it = open_.find(kernel);
  if (it == open_.end()) throw Error(fmt::format("trace recorder: kernel {} is not being recorded", kernel));
  it->second->write_cta(cta);
}

void TraceRecorder::end_kernel(uint32_t kernel) {
  auto it = open_.find(kernel);
  if (it == open_.end()) return;
  std::unique_ptr<TraceKernelWriter> w = std::move(it->second);
  open_.erase(it);
  w->close();
}

std::unique_ptr<KernelSource> TraceRecorder::record(std::unique_ptr<KernelSource> inner, uint64_t cuda_stream,
                                                    uint64_t launch_cycle) {
  const uint32_t id = begin_kernel(inner->info(), cuda_stream, launch_cycle);
  return std::make_unique<RecordingKernel>(std::move(inner), *this, id);
}

void TraceRecorder::finish() {
  while (!open_.empty()) end_kernel(open_.begin()->first);
  if (list_) {
    int r = std::fclose(list_);
    list_ = nullptr;
    if (r != 0) throw Error(fmt::format("cannot write '{}/kernelslist.g'", dir_));
  }
}

uint32_t RecordingLaunchTarget::enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay) {
  return inner_.enqueue(rec_.record(std::move(kernel), stream, inner_.now() + delay), stream, delay);
}

void write_trace(const std::string& dir, const KernelInfo& info, const std::vector<CtaStreams>& ctas,
                 const TraceWriterOptions& opts, uint64_t cuda_stream) {
  TraceRecorder rec(dir, opts);
  const uint32_t id = rec.begin_kernel(info, cuda_stream);
  for (const CtaStreams& c : ctas) rec.write_cta(id, c);
  rec.end_kernel(id);
  rec.finish();
}

}  // namespace warpsim

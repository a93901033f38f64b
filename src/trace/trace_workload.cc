#include "trace/trace_workload.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "core/error.h"

namespace warpsim {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The trace file a kernelslist line names, or a compressed sibling when only that exists.
std::string resolve_trace_path(const std::filesystem::path& dir, std::string_view name) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(name).is_absolute() ? fs::path(name) : dir / fs::path(name);
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return p.string();
  const std::string s = p.string();
  for (const char* ext : {".zst", ".xz"})
    if (fs::is_regular_file(s + ext, ec)) return s + ext;
  for (const char* ext : {".zst", ".xz"}) {
    const std::string e = ext;
    if (s.size() > e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0) {
      std::string bare = s.substr(0, s.size() - e.size());
      if (fs::is_regular_file(bare, ec)) return bare;
    }
  }
  return {};
}

}  // namespace

bool is_trace_workload(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fs::is_regular_file(fs::path(path) / "kernelslist.g", ec);
  return fs::is_regular_file(path, ec) && path.size() > 2 && path.compare(path.size() - 2, 2, ".g") == 0;
}

TraceWorkload::TraceWorkload(const std::string& list, TraceOptions opts) : opts_(std::move(opts)) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path lp(list);
  if (fs::is_directory(lp, ec)) lp /= "kernelslist.g";
  list_path_ = lp.string();
  if (!opts_.opcode_table.empty())
    explicit_resolver_ = std::make_shared<OpcodeResolver>(load_opcode_table(opts_, 0), opts_.unknown_opcode_as_sp);
  TraceFile f(list_path_);
  const fs::path dir = lp.parent_path();
  std::string_view line;
  while (f.next_line(line)) {
    std::string_view t = trim(line);
    const int ln = int(f.line_no());
    if (t.empty() || t[0] == '#') continue;
    if (t.substr(0, 6) == "Memcpy") {
      if (t.substr(0, 11) != "MemcpyHtoD,") continue;  // device-to-host copies do not affect the GPU
      TraceCommand c;
      c.kind = TraceCommand::Kind::MemcpyHtoD;
      c.line = uint32_t(ln);
      std::string_view rest = t.substr(11);
      size_t comma = rest.find(',');
      std::string_view a = trim(rest.substr(0, comma));
      std::string_view b = comma == std::string_view::npos ? std::string_view() : trim(rest.substr(comma + 1));
      if (a.size() > 2 && a[0] == '0' && (a[1] == 'x' || a[1] == 'X')) a.remove_prefix(2);
      auto ra = std::from_chars(a.data(), a.data() + a.size(), c.addr, 16);
      if (a.empty() || ra.ec != std::errc() || ra.ptr != a.data() + a.size())
        throw LocatedError(list_path_, ln, 12, "expected 'MemcpyHtoD,0xADDRESS,BYTES' (hex address)");
      auto rb = std::from_chars(b.data(), b.data() + b.size(), c.bytes, 10);
      if (b.empty() || rb.ec != std::errc() || rb.ptr != b.data() + b.size())
        throw LocatedError(list_path_, ln, int(12 + comma + 1),
                           "expected 'MemcpyHtoD,0xADDRESS,BYTES' (decimal byte count)");
      commands_.push_back(c);
      continue;
    }
    std::string path = resolve_trace_path(dir, t);
    if (path.empty())
      throw LocatedError(list_path_, ln, 1,
                         fmt::format("kernel trace '{}' not found (nor a .zst or .xz of it) in '{}'", t, dir.string()));
    Kernel k;
    k.path = path;
    {
      TraceFile kf(path);
      k.header = read_trace_header(kf);
    }
    auto [it, inserted] = stream_ids_.try_emplace(k.header.cuda_stream_id, 0);
    if (inserted) {
      // Dense numbering in order of appearance.
      it->second = uint32_t(stream_ids_.size() - 1);
    }
    k.stream = it->second;
    TraceCommand c;
    c.kind = TraceCommand::Kind::Kernel;
    c.path = path;
    c.line = uint32_t(ln);
    c.kernel = kernels_.size();
    commands_.push_back(c);
    kernels_.push_back(std::move(k));
  }
  // The default stream gets index 0 when it is used.
  auto zero = stream_ids_.find(0);
  if (zero != stream_ids_.end() && zero->second != 0) {
    const uint32_t old = zero->second;
    for (auto& [id, s] : stream_ids_)
      if (s < old) ++s;
    zero->second = 0;
    for (Kernel& k : kernels_) k.stream = stream_ids_[k.header.cuda_stream_id];
  }
}

std::unique_ptr<TraceKernel> TraceWorkload::open_kernel(size_t i) {
  const Kernel& k = kernels_.at(i);
  std::shared_ptr<OpcodeResolver> r = explicit_resolver_;
  if (!r) {
    auto& slot = resolvers_[k.header.binary_version];
    if (!slot)
      slot = std::make_shared<OpcodeResolver>(load_opcode_table(opts_, k.header.binary_version),
                                              opts_.unknown_opcode_as_sp);
    r = slot;
  }
  return std::make_unique<TraceKernel>(k.path, opts_, r);
}

namespace {

class LazyTraceKernel : public KernelSource {
 public:
  LazyTraceKernel(TraceWorkload& wl, size_t index)
      : wl_(wl), index_(index), info_(kernel_info_from_header(wl.kernel_header(index))) {}
  const KernelInfo& info() const override { return info_; }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override {
    if (!kernel_) kernel_ = wl_.open_kernel(index_);
    kernel_->produce_cta(cta_id, sm_id, out);
  }
  void on_kernel_done() override { kernel_.reset(); }
  std::unique_ptr<KernelSource> clone() const override {
    auto c = std::make_unique<LazyTraceKernel>(wl_, index_);
    if (kernel_) c->kernel_ = kernel_->clone_kernel();
    return c;
  }

 private:
  TraceWorkload& wl_;
  size_t index_;
  KernelInfo info_;
  std::unique_ptr<TraceKernel> kernel_;
};

}  // namespace

std::unique_ptr<KernelSource> TraceWorkload::kernel_source(size_t i) {
  kernels_.at(i);
  return std::make_unique<LazyTraceKernel>(*this, i);
}

void TraceWorkload::enqueue_all(LaunchTarget& target) {
  // Kernels recorded by warpsim carry their launch cycle: launching them at the same cycles
  // reproduces the recorded run's host-side waits. A host-to-device copy waits, as the
  // runtime's cudaMemcpy does, for the kernels before it, then reaches the target (the L2
  // fill of l2.fill_on_copy).
  bool pending = false;
  for (const TraceCommand& c : commands_) {
    if (c.kind == TraceCommand::Kind::MemcpyHtoD) {
      if (pending) target.run_until_idle();
      pending = false;
      target.copied(c.addr, c.bytes, true);
      continue;
    }
    const size_t i = c.kernel;
    const uint64_t at = kernels_[i].header.launch_cycle, now = target.now();
    target.enqueue(kernel_source(i), kernels_[i].stream, at > now ? at - now : 0);
    pending = true;
  }
}

bool TraceWorkload::next(Launch& out) {
  if (cursor_ >= kernels_.size()) return false;
  out.index = cursor_;
  out.kernel = open_kernel(cursor_);
  out.stream = kernels_[cursor_].stream;
  out.cuda_stream = kernels_[cursor_].header.cuda_stream_id;
  ++cursor_;
  return true;
}

}  // namespace warpsim

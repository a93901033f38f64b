// Accel-Sim SASS traces as a warpsim front end: one kernel-N.traceg file is a KernelSource
// whose CTAs are read from disk when the dispatcher asks for them (docs/traces.md).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/kernel_source.h"
#include "trace/opcode_table.h"
#include "trace/trace_file.h"

namespace warpsim {

struct TraceOptions {
  std::string sass_dir;               // opcode tables; empty: default_sass_dir()
  std::string opcode_table;           // one table file for every kernel (overrides sass_dir)
  bool unknown_opcode_as_sp = false;  // unknown mnemonic: SP ALU with one warning instead of an error
  // Sizes of the generic-address windows that start at the header's shared and local bases.
  uint64_t shared_window = 16ull << 20;
  uint64_t local_window = 16ull << 20;
};

// The "-key = value" lines at the top of a kernel trace.
struct TraceKernelHeader {
  std::string name = "kernel";
  uint32_t kernel_id = 0;
  Dim3 grid, block;
  uint32_t shmem = 0;
  uint32_t nregs = 0;
  uint32_t binary_version = 0;
  uint64_t cuda_stream_id = 0;
  uint64_t shmem_base = 0, local_base = 0;
  std::string nvbit_version;
  uint32_t tracer_version = 3;  // a header without the line is taken as version 3
  bool lineinfo = false;
  // warpsim additions (absent in Accel-Sim traces; 0 = not given)
  uint32_t local_bytes_per_thread = 0;
  uint32_t inst_bytes = 0;
  uint64_t launch_cycle = 0;  // cycle the recorded run launched the kernel at
  // Where the recorded kernel's code lay (KernelInfo::code_address; core.module_code_layout).
  uint64_t code_address = KernelInfo::kNoCodeAddress;
  // Where the first thread block starts.
  uint64_t body_offset = 0, body_line = 1;
};

// Reads the header; `file` is left at the first line after it.
TraceKernelHeader read_trace_header(TraceFile& file);
// The KernelInfo a header describes (inst_bytes: 8 below binary version 70, else 16, unless
// the header says).
KernelInfo kernel_info_from_header(const TraceKernelHeader& h);

// Opcode string -> decoded instruction template, shared by the kernels of one workload (one
// thread at a time). Holds the table, a cache of resolved opcodes and the set of unknown
// opcodes already warned about.
class OpcodeResolver {
 public:
  OpcodeResolver(std::shared_ptr<const OpcodeTable> table, bool unknown_as_sp);
  struct Decoded {
    OpcodeInfo info;
    uint8_t flags = 0;
    uint8_t barrier_id = 0;
    int16_t width = -1;        // explicit width (warpsim WSW modifier), -1 = from the line
    bool explicit_op = false;  // op class fixed by a WSO modifier (an EXIT stays an EXIT)
  };
  // Throws LocatedError(file, line, col) for unknown opcodes (unless unknown_as_sp) and bad
  // warpsim modifiers.
  const Decoded& resolve(std::string_view opcode, const std::string& file, uint64_t line, int col);
  const OpcodeTable& table() const { return *table_; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::shared_ptr<const OpcodeTable> table_;
  bool unknown_as_sp_;
  std::unordered_map<std::string, Decoded, Hash, std::equal_to<>> cache_;
};

// Loads the table for `binary_version` according to `opts`.
std::shared_ptr<const OpcodeTable> load_opcode_table(const TraceOptions& opts, uint32_t binary_version);

class TraceKernel : public KernelSource {
 public:
  // Reads the header and indexes the thread blocks (one pass over the file). `resolver` may be
  // shared with other kernels of the same binary version; nullptr loads the table from `opts`.
  explicit TraceKernel(std::string path, TraceOptions opts = {}, std::shared_ptr<OpcodeResolver> resolver = nullptr);

  const KernelInfo& info() const override { return info_; }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override;

  const TraceKernelHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }
  // Thread blocks present in the file (CTAs the tracer skipped because they ran nothing are
  // produced as warps that only exit).
  uint64_t ctas_in_file() const { return ctas_in_file_; }
  const OpcodeTable& opcode_table() const { return resolver_->table(); }
  // A copy reading the same file through its own handle, without indexing it again.
  std::unique_ptr<TraceKernel> clone_kernel() const;
  std::unique_ptr<KernelSource> clone() const override;

 private:
  struct CopyTag {};
  TraceKernel(const TraceKernel& o, CopyTag);
  struct CtaEntry {    // a thread block present in the file
    uint64_t cta = 0;  // linear id
    uint64_t offset = 0;
    uint64_t line = 0;
  };
  const CtaEntry* find_cta(uint64_t cta) const;
  [[noreturn]] void fail(uint64_t line, size_t col, const std::string& what) const;
  void build_index();
  void parse_inst(std::string_view line, bool last, WarpStream& ws);
  uint32_t map_pc(uint64_t pc) const;

  TraceFile file_;
  TraceOptions opts_;
  TraceKernelHeader header_;
  KernelInfo info_;
  std::shared_ptr<OpcodeResolver> resolver_;
  std::vector<CtaEntry> index_;  // sorted by cta: memory grows with the file, not the grid
  uint64_t ctas_in_file_ = 0;
  bool remap_pascal_pcs_ = false;
};

// Register names <-> warpsim register ids (R0..R254 -> 0..254, P0..P6 -> 256.., UR0..UR62 ->
// 264.., UP0..UP6 -> 328..; RZ, PT, URZ, UPT -> kNoReg; "V<n>" -> n for any other id).
bool parse_sass_reg(std::string_view tok, RegId& out);
std::string sass_reg_name(RegId id);

}  // namespace warpsim

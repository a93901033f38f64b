// A recorded application: kernelslist.g (memory copies and kernel launches, in order) and the
// kernel-N.traceg files it names.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/launch_target.h"
#include "trace/trace_kernel.h"

namespace warpsim {

struct TraceCommand {
  enum class Kind { MemcpyHtoD, Kernel };
  Kind kind = Kind::Kernel;
  uint64_t addr = 0, bytes = 0;  // MemcpyHtoD
  std::string path;              // Kernel: resolved trace file
  uint32_t line = 0;             // line in kernelslist.g
  size_t kernel = 0;             // Kernel: index among the kernels
};

// True when `path` is a trace directory (holding kernelslist.g) or a kernelslist file (a
// regular file whose name ends in ".g").
bool is_trace_workload(const std::string& path);

class TraceWorkload {
 public:
  // `list` is a kernelslist.g file or a directory holding one. Reads every kernel's header
  // (not the instructions). Throws LocatedError for malformed lines and missing files.
  explicit TraceWorkload(const std::string& list, TraceOptions opts = {});

  const std::string& list_path() const { return list_path_; }
  const std::vector<TraceCommand>& commands() const { return commands_; }
  size_t num_kernels() const { return kernels_.size(); }
  const std::string& kernel_path(size_t i) const { return kernels_.at(i).path; }
  const TraceKernelHeader& kernel_header(size_t i) const { return kernels_.at(i).header; }
  // Dense stream index of kernel i: the header's cuda stream ids numbered in order of first
  // appearance, the default stream (id 0) being 0 when it appears.
  uint32_t stream_of(size_t i) const { return kernels_.at(i).stream; }
  uint32_t num_streams() const { return uint32_t(stream_ids_.size()); }

  // Opens kernel i (indexes its thread blocks). Kernels of one binary version share one
  // opcode resolver: use them from one thread.
  std::unique_ptr<TraceKernel> open_kernel(size_t i);
  // Kernel i as a KernelSource that opens its file at the first produce_cta() and closes it
  // at on_kernel_done(): a long kernel list keeps only the running kernels' files open. The
  // workload must outlive it.
  std::unique_ptr<KernelSource> kernel_source(size_t i);
  // Queues every kernel on `target` in launch order, each on its stream index and, for traces
  // recorded by warpsim, at its recorded launch cycle; a MemcpyHtoD line waits for the kernels
  // before it and passes the copy on (LaunchTarget::copied).
  void enqueue_all(LaunchTarget& target);

  // Kernels in launch order.
  struct Launch {
    std::unique_ptr<TraceKernel> kernel;
    uint32_t stream = 0;       // dense stream index
    uint64_t cuda_stream = 0;  // as recorded
    size_t index = 0;
  };
  bool next(Launch& out);
  void rewind() { cursor_ = 0; }

 private:
  struct Kernel {
    std::string path;
    TraceKernelHeader header;
    uint32_t stream = 0;
  };
  std::string list_path_;
  TraceOptions opts_;
  std::vector<TraceCommand> commands_;
  std::vector<Kernel> kernels_;
  std::map<uint64_t, uint32_t> stream_ids_;
  std::map<uint32_t, std::shared_ptr<OpcodeResolver>> resolvers_;  // by binary version
  std::shared_ptr<OpcodeResolver> explicit_resolver_;
  size_t cursor_ = 0;
};

}  // namespace warpsim

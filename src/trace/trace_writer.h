// Records warp instruction streams from any front end in the Accel-Sim trace format (tracer
// version 4 layout), so that a run can be replayed from traces (docs/traces.md).
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/kernel_source.h"
#include "core/launch_target.h"
#include "trace/opcode_table.h"

namespace warpsim {

struct TraceWriterOptions {
  uint32_t binary_version = 70;    // selects the opcode table the mnemonics are chosen from
  std::string sass_dir;            // empty: default_sass_dir()
  std::string opcode_table;        // explicit table file (overrides sass_dir)
  bool compress_addresses = true;  // false: every address listed (mode 0)
};

// Writes one kernel-N.traceg file.
class TraceKernelWriter {
 public:
  TraceKernelWriter(const std::string& path, const KernelInfo& info, uint32_t kernel_id, uint64_t cuda_stream,
                    std::shared_ptr<const OpcodeTable> table, const TraceWriterOptions& opts,
                    uint64_t launch_cycle = 0);
  ~TraceKernelWriter();
  TraceKernelWriter(const TraceKernelWriter&) = delete;
  TraceKernelWriter& operator=(const TraceKernelWriter&) = delete;

  // CTAs may come in any order, each once.
  void write_cta(const CtaStreams& cta);
  void close();  // throws Error when the data could not be written

  // The opcode text write_cta uses for an instruction (`final`: last of its warp).
  std::string opcode_for(const WarpInst& in, bool final);

 private:
  void append_inst(const WarpInst& in, const WarpStream& ws, bool final);
  const std::string& mnemonic(const WarpInst& in, bool final);

  std::string path_;
  FILE* fp_ = nullptr;
  KernelInfo info_;
  std::shared_ptr<const OpcodeTable> table_;
  TraceWriterOptions opts_;
  std::string buf_;
  std::unordered_map<uint64_t, std::string> mnemonics_;
};

// A whole recorded run: kernelslist.g plus one trace file per kernel, in a directory.
class TraceRecorder {
 public:
  explicit TraceRecorder(std::string dir, TraceWriterOptions opts = {});  // creates dir
  ~TraceRecorder();

  void memcpy_h2d(uint64_t dst, uint64_t bytes);
  // Starts kernel-N.traceg (N = 1, 2, ... in launch order) and lists it; returns N.
  uint32_t begin_kernel(const KernelInfo& info, uint64_t cuda_stream, uint64_t launch_cycle = 0);
  void write_cta(uint32_t kernel, const CtaStreams& cta);
  void end_kernel(uint32_t kernel);
  // Wraps a kernel source so that every CTA it produces is also recorded; the kernel's file
  // is finished when the timing model reports the kernel done.
  std::unique_ptr<KernelSource> record(std::unique_ptr<KernelSource> inner, uint64_t cuda_stream,
                                       uint64_t launch_cycle = 0);
  void finish();  // closes every open kernel file and kernelslist.g

  const std::string& dir() const { return dir_; }

 private:
  void list_line(const std::string& s);
  std::string dir_;
  TraceWriterOptions opts_;
  std::shared_ptr<const OpcodeTable> table_;
  FILE* list_ = nullptr;
  uint32_t next_kernel_ = 1;
  std::map<uint32_t, std::unique_ptr<TraceKernelWriter>> open_;
};

// A LaunchTarget in front of another that records every kernel launched through it (with its
// stream and launch cycle) before passing it on: `warpsim run --record-trace DIR` puts one
// between the workload and the GPU.
class RecordingLaunchTarget : public LaunchTarget {
 public:
  RecordingLaunchTarget(LaunchTarget& inner, TraceRecorder& recorder) : inner_(inner), rec_(recorder) {}
  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) override;
  void run_until_idle() override { inner_.run_until_idle(); }
  void run_until_stream_idle(uint32_t stream) override { inner_.run_until_stream_idle(stream); }
  uint64_t now() const override { return inner_.now(); }
  uint64_t device_memory_limit() const override { return inner_.device_memory_limit(); }
  bool hoists_global_loads() const override { return inner_.hoists_global_loads(); }
  const CoreConfig* core_config() const override { return inner_.core_config(); }
  // Host-to-device copies go into the trace as MemcpyHtoD lines (the Accel-Sim format has no
  // line for the other direction: a replay does not see device-to-host copies).
  void copied(uint64_t addr, uint64_t bytes, bool to_device) override {
    if (to_device) rec_.memcpy_h2d(addr, bytes);
    inner_.copied(addr, bytes, to_device);
  }
  uint64_t set_persisting_l2(uint64_t bytes) override { return inner_.set_persisting_l2(bytes); }
  void reset_persisting_l2() override { inner_.reset_persisting_l2(); }
  const std::vector<KernelResult>& results() const override { return inner_.results(); }

 private:
  LaunchTarget& inner_;
  TraceRecorder& rec_;
};

// One kernel into `dir` (kernelslist.g + kernel-1.traceg).
void write_trace(const std::string& dir, const KernelInfo& info, const std::vector<CtaStreams>& ctas,
                 const TraceWriterOptions& opts = {}, uint64_t cuda_stream = 0);

}  // namespace warpsim

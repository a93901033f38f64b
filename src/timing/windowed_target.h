// A LaunchTarget that owns a Gpu and advances it in steps chosen by a controller, which may
// replace the Gpu between steps by a copy (Gpu::clone) — one that ran ahead under another
// scheduler (the phase oracle), or a snapshot taken earlier. Every enqueued kernel source is
// wrapped in a MemoSource so that the Gpu can always be copied, whatever the front end.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "timing/gpu.h"

namespace warpsim {

class WindowedTarget final : public LaunchTarget {
 public:
  // Advance `gpu` while the workload waits for `stream` (-1: every stream), for example by
  // gpu->run_for(window, stream), or replace it by a Gpu that got further. Called only while
  // that wait is unfinished; each call must advance the simulation.
  using Step = std::function<void(std::unique_ptr<Gpu>& gpu, int stream)>;

  WindowedTarget(std::unique_ptr<Gpu> gpu, Step step);
  // The plain controller: run `window` cycles per step.
  static Step fixed_window(uint64_t window);

  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) override;
  void run_until_idle() override { wait(-1); }
  void run_until_stream_idle(uint32_t stream) override { wait(int(stream)); }
  uint64_t now() const override { return gpu_->now(); }
  uint64_t device_memory_limit() const override { return gpu_->device_memory_limit(); }
  bool hoists_global_loads() const override { return gpu_->hoists_global_loads(); }
  const CoreConfig* core_config() const override { return gpu_->core_config(); }
  void copied(uint64_t addr, uint64_t bytes, bool to_device) override { gpu_->copied(addr, bytes, to_device); }
  uint64_t set_persisting_l2(uint64_t bytes) override { return gpu_->set_persisting_l2(bytes); }
  void reset_persisting_l2() override { gpu_->reset_persisting_l2(); }
  // The current GPU's results: the reference is valid until a step replaces the GPU.
  const std::vector<KernelResult>& results() const override { return gpu_->results(); }

  Gpu& gpu() { return *gpu_; }
  const Gpu& gpu() const { return *gpu_; }
  // Steps taken so far.
  uint64_t steps() const { return steps_; }

 private:
  void wait(int stream);
  std::unique_ptr<Gpu> gpu_;
  Step step_;
  uint64_t steps_ = 0;
};

}  // namespace warpsim

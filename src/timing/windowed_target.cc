#include "timing/windowed_target.h"

#include <fmt/format.h>

#include "core/error.h"
#include "timing/memo_source.h"

namespace warpsim {

WindowedTarget::WindowedTarget(std::unique_ptr<Gpu> gpu, Step step) : gpu_(std::move(gpu)), step_(std::move(step)) {
  if (!gpu_) throw Error("internal: WindowedTarget without a GPU");
  if (!step_) throw Error("internal: WindowedTarget without a step");
}

WindowedTarget::Step WindowedTarget::fixed_window(uint64_t window) {
  if (window == 0) throw Error("window: must be at least 1 cycle");
  return [window](std::unique_ptr<Gpu>& gpu, int stream) { gpu->run_for(window, stream); };
}

uint32_t WindowedTarget::enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay) {
  return gpu_->enqueue(std::make_unique<MemoSource>(std::move(kernel)), stream, delay);
}

void WindowedTarget::wait(int stream) {
  while (!gpu_->done(stream)) {
    uint64_t before = gpu_->now(), insts = gpu_->warp_insts();
    step_(gpu_, stream);
    ++steps_;
    if (!gpu_) throw Error("internal: a window step left no GPU");
    if (gpu_->now() == before && gpu_->warp_insts() == insts && !gpu_->done(stream))
      throw Error(fmt::format("internal: a window step at cycle {} did not advance the simulation", before));
  }
}

}  // namespace warpsim

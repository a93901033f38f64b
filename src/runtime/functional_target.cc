#include "runtime/functional_target.h"

#include <bit>

namespace warpsim {

uint32_t FunctionalTarget::enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay) {
  uint32_t idx = launches_++;
  queue_.push_back({std::move(kernel), stream, idx});
  return idx;
}

void FunctionalTarget::run_until_idle() {
  while (!queue_.empty()) {
    Pending p = std::move(queue_.front());
    queue_.pop_front();
    const KernelInfo& info = p.kernel->info();
    KernelResult r;
    r.name = info.name;
    r.launch_index = p.index;
    r.stream = p.stream;
    r.grid = info.grid;
    r.block = info.block;
    r.launch_cycle = r.start_cycle = now_;
    uint64_t n = info.num_ctas();
    uint32_t sms = num_sms ? num_sms : 1;
    for (uint64_t c = 0; c < n; ++c) {
      p.kernel->produce_cta(uint32_t(c), uint32_t(c % sms), trace_);
      for (const auto& w : trace_.warps) {
        r.warp_insts += w.insts.size();
        for (const auto& i : w.insts) {
          uint32_t v = i.active_mask;  // population count (portable, no popcnt instruction needed)
          v = v - ((v >> 1) & 0x55555555u);
          v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
          r.thread_insts += (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
        }
      }
      if (observer_) observer_(info, trace_);
    }
    now_ += r.warp_insts;
    r.end_cycle = now_;
    p.kernel->on_kernel_done();
    results_.push_back(std::move(r));
  }
}

}  // namespace warpsim

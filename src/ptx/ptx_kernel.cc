#include "ptx/ptx_kernel.h"

#include <algorithm>

#include "core/error.h"

namespace warpsim::ptx {

PtxKernel::PtxKernel(std::shared_ptr<const Program> prog, Launch launch)
    : prog_(std::move(prog)), launch_(std::move(launch)) {
  info_.name = launch_.kernel;
  info_.grid = launch_.grid;
  info_.block = launch_.block;
  // PTX virtual registers overstate what the register allocator would use; report the peak
  // number of live values (plus a small margin), clamped to the hardware range.
  info_.regs_per_thread = std::clamp<uint32_t>(prog_->est_regs, 16, 255);
  info_.shared_bytes_per_cta = prog_->dyn_shared_offset + launch_.dynamic_shared;
  if (launch_.dynamic_shared == 0) info_.shared_bytes_per_cta = prog_->static_shared;
  info_.local_bytes_per_thread = prog_->local_bytes;
}

PtxKernel::~PtxKernel() = default;

void PtxKernel::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaTrace& out) {
  if (cta_id >= info_.num_ctas()) throw Error("kernel '" + info_.name + "': CTA id " + std::to_string(cta_id) + " out of range");
  if (!exec_) exec_ = std::make_unique<CtaExecutor>(prog_, &launch_);
  uint64_t before = exec_->thread_insts();
  exec_->run(cta_id, sm_id, out);
  thread_insts_ += exec_->thread_insts() - before;
}

}  // namespace warpsim::ptx

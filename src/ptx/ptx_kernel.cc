#include "ptx/ptx_kernel.h"

#include <algorithm>

#include "core/error.h"
#include "ptx/register_allocation.h"

namespace warpsim::ptx {

CtaDemand cta_demand(const Program& prog, const CoreConfig* core, uint32_t block_threads, uint64_t dynamic_shared) {
  uint64_t shared = dynamic_shared ? uint64_t(prog.dyn_shared_offset) + dynamic_shared : prog.static_shared;
  return CtaDemand{block_threads, allocated_regs_per_thread(prog, core), shared};
}

PtxKernel::PtxKernel(std::shared_ptr<const Program> prog, Launch launch, const CoreConfig* core)
    : prog_(std::move(prog)), launch_(std::move(launch)) {
  info_.name = launch_.kernel;
  info_.grid = launch_.grid;
  info_.block = launch_.block;
  CtaDemand d = cta_demand(*prog_, core, info_.threads_per_cta(), launch_.dynamic_shared);
  info_.regs_per_thread = d.regs_per_thread;
  info_.shared_bytes_per_cta = uint32_t(d.shared_bytes);
  info_.local_bytes_per_thread = prog_->local_bytes;
}

PtxKernel::~PtxKernel() = default;

void PtxKernel::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
  if (cta_id >= info_.num_ctas())
    throw Error("kernel '" + info_.name + "': CTA id " + std::to_string(cta_id) + " out of range");
  if (!exec_) exec_ = std::make_unique<CtaExecutor>(prog_, &launch_);
  uint64_t before = exec_->thread_insts();
  exec_->run(cta_id, sm_id, out);
  thread_insts_ += exec_->thread_insts() - before;
}

void PtxKernel::on_kernel_done() {
  exec_.reset();
  if (launch_.memcheck && launch_.memcheck->total) throw Error(launch_.memcheck->report(launch_.kernel));
}

}  // namespace warpsim::ptx

#include "ptx/ptx_kernel.h"

#include <algorithm>
#include <string>

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
  info_.access_window = launch_.access_window;
  info_.block = launch_.block;
  CtaDemand d = cta_demand(*prog_, core, info_.threads_per_cta(), launch_.dynamic_shared);
  info_.regs_per_thread = d.regs_per_thread;
  info_.shared_bytes_per_cta = uint32_t(d.shared_bytes);
  info_.local_bytes_per_thread = prog_->local_bytes;
  info_.code_address = KernelInfo::kInstructionMemory + prog_->code_offset;
}

PtxKernel::~PtxKernel() = default;

void PtxKernel::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
  if (cta_id >= info_.num_ctas())
    throw Error("kernel '" + info_.name + "': CTA id " + std::to_string(cta_id) + " out of range");
  if (launch_.cooperative()) {
    if (!grid_done_) run_grid(cta_id, sm_id);
    std::swap(out.warps, grid_[cta_id].warps);
    out.cta_id = cta_id;
    grid_[cta_id] = CtaStreams{};
    return;
  }
  if (!exec_) exec_ = std::make_unique<CtaExecutor>(prog_, &launch_);
  uint64_t before = exec_->thread_insts();
  exec_->run(cta_id, sm_id, out);
  thread_insts_ += exec_->thread_insts() - before;
}

void PtxKernel::run_grid(uint32_t first, uint32_t first_sm) {
  grid_done_ = true;
  const uint32_t n = uint32_t(info_.num_ctas());
  const uint32_t sms = std::max(1u, launch_.num_sms);
  // The dispatcher gives one CTA per SM per cycle, the SMs in turn, starting one SM further
  // each cycle: CTA c goes to SM (r + c / sms + c % sms) % sms.
  const uint32_t r = (first_sm + 2 * sms - (first / sms) % sms - first % sms) % sms;
  grid_.resize(n);
  std::vector<std::unique_ptr<CtaExecutor>> ctas(n);
  std::vector<uint64_t> waits(n, 0);
  std::vector<uint32_t> live;
  for (uint32_t c = 0; c < n; ++c) {
    ctas[c] = std::make_unique<CtaExecutor>(prog_, &launch_);
    ctas[c]->begin(c, c == first ? first_sm : (r + c / sms + c % sms) % sms, grid_[c]);
    live.push_back(c);
  }
  uint32_t stuck = 0;
  while (!live.empty()) {
    bool changed = false;
    size_t kept = 0;
    for (uint32_t c : live) {
      if (ctas[c]->resume()) {
        thread_insts_ += ctas[c]->thread_insts();
        ctas[c].reset();
        changed = true;
        continue;
      }
      uint64_t w = ctas[c]->poll_state();
      changed |= w != waits[c];
      waits[c] = w;
      live[kept++] = c;
    }
    live.resize(kept);
    stuck = changed ? 0 : stuck + 1;
    if (stuck >= CtaExecutor::kStuckRounds)
      throw Error("kernel '" + info_.name + "': grid deadlock in a cooperative launch: " + std::to_string(live.size()) +
                  " of " + std::to_string(n) + " CTAs wait for a write no CTA makes (" +
                  std::to_string(CtaExecutor::kStuckRounds) +
                  " rounds without change): " + ctas[live.front()]->describe_waits() +
                  " (a grid.sync() that not every CTA reaches, or a flag nobody sets?)");
  }
}

void PtxKernel::on_kernel_done() {
  exec_.reset();
  if (launch_.memcheck && launch_.memcheck->total) throw Error(launch_.memcheck->report(launch_.kernel));
}

}  // namespace warpsim::ptx

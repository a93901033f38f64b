// A launched PTX kernel as a KernelSource: each produce_cta() executes one CTA functionally.
// A cooperative launch (Launch::grid_workspace) executes its whole grid at the first
// produce_cta(), the CTAs interleaved wherever one polls memory (grid-wide barriers), and hands
// out the recorded CTAs as they are asked for.
#pragma once
#include <memory>
#include <vector>

#include "core/kernel_source.h"
#include "core/occupancy.h"
#include "ptx/executor.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

// What one CTA of a kernel takes from an SM `core` (null: none is modelled): `block_threads`
// threads, the registers per thread it is allocated (register_allocation.h), static shared
// memory, or the dynamic shared memory after the static part when the launch asks for some.
// The timing model, the runtime and the CUDA shim's occupancy API all read it from here.
CtaDemand cta_demand(const Program& prog, const CoreConfig* core, uint32_t block_threads, uint64_t dynamic_shared);

class PtxKernel : public KernelSource {
 public:
  // `core`: the SM the kernel is launched for (null: none), for its registers per thread.
  PtxKernel(std::shared_ptr<const Program> prog, Launch launch, const CoreConfig* core);
  ~PtxKernel() override;
  const KernelInfo& info() const override { return info_; }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override;
  // Under memcheck, a kernel that made invalid accesses fails here with their report.
  void on_kernel_done() override;
  // The PTX line of the instruction at `pc` (instruction i is at pc i x info().inst_bytes).
  int source_line(uint32_t pc) const override {
    const uint32_t i = pc / info_.inst_bytes;
    return i < prog_->insts.size() ? prog_->insts[i].line : -1;
  }
  uint64_t thread_insts() const { return thread_insts_; }
  const Program& program() const { return *prog_; }

 private:
  std::shared_ptr<const Program> prog_;
  Launch launch_;
  KernelInfo info_;
  // Executes every CTA of a cooperative launch; CTA `first` on SM `first_sm`, CTA c on the SM
  // the dispatcher's first round would give it when all of them fit at once.
  void run_grid(uint32_t first, uint32_t first_sm);

  std::unique_ptr<CtaExecutor> exec_;
  std::vector<CtaStreams> grid_;  // cooperative launches: the CTAs not handed out yet
  bool grid_done_ = false;
  uint64_t thread_insts_ = 0;
};

}  // namespace warpsim::ptx

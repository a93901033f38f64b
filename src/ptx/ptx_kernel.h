// A launched PTX kernel as a KernelSource: each produce_cta() executes one CTA functionally.
#pragma once
#include <memory>

#include "core/cta_trace.h"
#include "ptx/executor.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

class PtxKernel : public KernelSource {
 public:
  PtxKernel(std::shared_ptr<const Program> prog, Launch launch);
  ~PtxKernel() override;
  const KernelInfo& info() const override { return info_; }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaTrace& out) override;
  void on_kernel_done() override { exec_.reset(); }
  uint64_t thread_insts() const { return thread_insts_; }
  const Program& program() const { return *prog_; }

 private:
  std::shared_ptr<const Program> prog_;
  Launch launch_;
  KernelInfo info_;
  std::unique_ptr<CtaExecutor> exec_;
  uint64_t thread_insts_ = 0;
};

}  // namespace warpsim::ptx

// A KernelSource wrapper that produces each CTA once and keeps its streams, so that copies of
// the kernel made for simulation snapshots replay the same CTAs without asking the wrapped
// source again. This makes functional front ends snapshottable: a PTX kernel executes a CTA
// (changing device memory) when asked for it, which must happen exactly once however many
// copies of the simulation run past that point.
#pragma once
#include <memory>
#include <vector>

#include "core/kernel_source.h"

namespace warpsim {

class MemoSource final : public KernelSource {
 public:
  explicit MemoSource(std::unique_ptr<KernelSource> inner);
  const KernelInfo& info() const override { return shared_->info; }
  // The first request for a CTA (from this source or any of its copies) produces it from the
  // wrapped source, with that request's SM id; later requests copy the kept streams.
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override;
  // The wrapped source is told once, and released; this copy lets go of the kept streams.
  void on_kernel_done() override;
  int source_line(uint32_t pc) const override { return shared_->inner ? shared_->inner->source_line(pc) : -1; }
  // Shares the kept streams and the wrapped source with this one.
  std::unique_ptr<KernelSource> clone() const override;
  // CTAs produced so far by the wrapped source.
  uint64_t ctas_kept() const { return shared_->kept; }

 private:
  struct Shared {
    std::unique_ptr<KernelSource> inner;
    KernelInfo info;
    std::vector<std::unique_ptr<CtaStreams>> ctas;  // by CTA id, null until produced
    uint64_t kept = 0;
    bool done = false;
  };
  explicit MemoSource(std::shared_ptr<Shared> s) : shared_(std::move(s)) {}
  std::shared_ptr<Shared> shared_;
};

}  // namespace warpsim

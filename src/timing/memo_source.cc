#include "timing/memo_source.h"

#include <fmt/format.h>

#include "core/error.h"

namespace warpsim {

MemoSource::MemoSource(std::unique_ptr<KernelSource> inner) : shared_(std::make_shared<Shared>()) {
  if (!inner) throw Error("internal: MemoSource of no kernel source");
  shared_->info = inner->info();
  shared_->ctas.resize(size_t(shared_->info.num_ctas()));
  shared_->inner = std::move(inner);
}

void MemoSource::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
  Shared& s = *shared_;
  if (cta_id >= s.ctas.size())
    throw Error(fmt::format("kernel '{}': CTA {} requested, the grid has {}", s.info.name, cta_id, s.ctas.size()));
  std::unique_ptr<CtaStreams>& kept = s.ctas[cta_id];
  if (!kept) {
    if (!s.inner)
      throw Error(fmt::format("internal: kernel '{}': CTA {} asked for after the kernel ended", s.info.name, cta_id));
    auto t = std::make_unique<CtaStreams>();
    s.inner->produce_cta(cta_id, sm_id, *t);
    t->cta_id = cta_id;
    kept = std::move(t);
    ++s.kept;
  }
  out.cta_id = kept->cta_id;
  out.warps = kept->warps;  // element-wise assignment reuses the capacity of `out`
}

void MemoSource::on_kernel_done() {
  Shared& s = *shared_;
  if (!s.done) {
    s.done = true;
    if (s.inner) s.inner->on_kernel_done();
    s.inner.reset();
  }
  // The GPU releases a finished kernel's source; copies still running keep the streams alive.
}

std::unique_ptr<KernelSource> MemoSource::clone() const {
  return std::unique_ptr<KernelSource>(new MemoSource(shared_));
}

}  // namespace warpsim

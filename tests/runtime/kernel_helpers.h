// Shared helpers for the end-to-end kernel tests.
#pragma once
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "core/config.h"
#include "core/error.h"
#include "core/launch_target.h"
#include "runtime/functional_target.h"
#include "timing/gpu.h"

namespace warpsim::test {

inline std::string read_kernel_ptx(const std::string& name) {
  std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/data/kernels/" + name + ".ptx";
  std::ifstream f(path);
  if (!f) throw Error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A launch target that forwards to another one and shows every CTA trace the front end
// produced to an observer, whichever target consumes it (functional or the timing model).
using CtaObserver = std::function<void(const KernelInfo&, const CtaStreams&)>;

class ObservingTarget final : public LaunchTarget {
 public:
  explicit ObservingTarget(LaunchTarget& inner) : inner_(inner) {}
  void set_observer(CtaObserver obs) { observer_ = std::move(obs); }
  uint64_t produced_warp_insts() const { return produced_; }

  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) override {
    return inner_.enqueue(std::make_unique<Source>(std::move(kernel), *this), stream, delay);
  }
  void run_until_idle() override { inner_.run_until_idle(); }
  void run_until_stream_idle(uint32_t stream) override { inner_.run_until_stream_idle(stream); }
  uint64_t now() const override { return inner_.now(); }
  void copied(uint64_t addr, uint64_t bytes, bool to_device) override { inner_.copied(addr, bytes, to_device); }
  const std::vector<KernelResult>& results() const override { return inner_.results(); }

 private:
  class Source final : public KernelSource {
   public:
    Source(std::unique_ptr<KernelSource> k, ObservingTarget& t) : k_(std::move(k)), t_(t) {}
    const KernelInfo& info() const override { return k_->info(); }
    void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override {
      k_->produce_cta(cta_id, sm_id, out);
      for (const auto& w : out.warps) t_.produced_ += w.insts.size();
      if (t_.observer_) t_.observer_(k_->info(), out);
    }
    void on_kernel_done() override { k_->on_kernel_done(); }

   private:
    std::unique_ptr<KernelSource> k_;
    ObservingTarget& t_;
  };
  LaunchTarget& inner_;
  CtaObserver observer_;
  uint64_t produced_ = 0;
};

// "functional": CTAs run in order without timing; "timing": the Gpu timing model (default
// configuration, GTO scheduler) consumes every warp instruction the front end produces.
inline std::unique_ptr<LaunchTarget> make_target(const std::string& kind) {
  if (kind == "timing") {
    GpuConfig cfg;
    return std::make_unique<Gpu>(cfg, "gto");
  }
  return std::make_unique<FunctionalTarget>();
}

}  // namespace warpsim::test

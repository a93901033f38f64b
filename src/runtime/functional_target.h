// A LaunchTarget without timing: runs every CTA of every queued kernel in order. Used by
// tests, the functional benchmark and runs that only need results.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "core/launch_target.h"

namespace warpsim {

class FunctionalTarget : public LaunchTarget {
 public:
  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay = 0) override;
  void run_until_idle() override;
  uint64_t now() const override { return now_; }
  const std::vector<KernelResult>& results() const override { return results_; }

  // Called with every CTA trace produced (for inspection in tests).
  using Observer = std::function<void(const KernelInfo&, const CtaStreams&)>;
  void set_observer(Observer obs) { observer_ = std::move(obs); }
  uint32_t num_sms = 1;  // sm ids handed to produce_cta rotate over this many SMs

 private:
  struct Pending {
    std::unique_ptr<KernelSource> kernel;
    uint32_t stream;
    uint32_t index;
  };
  std::deque<Pending> queue_;
  std::vector<KernelResult> results_;
  Observer observer_;
  uint64_t now_ = 0;
  uint32_t launches_ = 0;
  CtaStreams trace_;
};

}  // namespace warpsim

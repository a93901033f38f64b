// Accel-Sim traces (a directory with kernelslist.g, or the file itself) as workloads.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "trace/trace_workload.h"
#include "workloads/workload_kinds.h"

namespace warpsim {

namespace {

class TraceDirWorkload final : public Workload {
 public:
  explicit TraceDirWorkload(std::string spec) : spec_(std::move(spec)) {}
  std::string name() const override {
    std::filesystem::path p(spec_);
    if (std::filesystem::is_directory(p)) return p.filename().string();
    return p.parent_path().filename().string();
  }
  std::string category() const override { return "trace"; }
  std::string fingerprint() const override {
    // The list and every kernel file's size and modification time identify the trace.
    TraceWorkload wl(spec_);
    std::string f = "trace:" + std::filesystem::absolute(wl.list_path()).string();
    auto add = [&](const std::string& path) {
      std::error_code ec;
      auto size = std::filesystem::file_size(path, ec);
      auto time = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
      f += fmt::format(":{}:{}", size, time);
    };
    add(wl.list_path());
    for (size_t i = 0; i < wl.num_kernels(); ++i) add(wl.kernel_path(i));
    return f;
  }
  WorkloadOutcome run(LaunchTarget& target, const WorkloadOptions&) override {
    TraceWorkload wl(spec_);
    wl.enqueue_all(target);
    target.run_until_idle();
    return {false, false, "trace: no reference to check"};
  }

 private:
  std::string spec_;
};

}  // namespace

std::unique_ptr<Workload> make_trace_workload(const std::string& spec) {
  if (!is_trace_workload(spec)) return nullptr;
  return std::make_unique<TraceDirWorkload>(spec);
}

}  // namespace warpsim

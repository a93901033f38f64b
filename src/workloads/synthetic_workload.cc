// Synthetic kernel files (suite/synthetic/*.kern) as workloads.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "synth/kernel_text.h"
#include "workloads/workload_kinds.h"

namespace warpsim {

namespace {

class SyntheticWorkload final : public Workload {
 public:
  SyntheticWorkload(std::string name, std::string path) : name_(std::move(name)), path_(std::move(path)) {
    std::ifstream in(path_);
    std::stringstream ss;
    ss << in.rdbuf();
    text_ = ss.str();
  }
  std::string name() const override { return name_; }
  std::string fingerprint() const override {
    return fmt::format("synthetic:{}:{}", name_, std::hash<std::string>{}(text_));
  }
  WorkloadOutcome run(LaunchTarget& target, const WorkloadOptions& opts) override {
    auto kernels = synth::parse_kernels(text_, path_, opts.params);
    for (auto& k : kernels) target.enqueue(k.source(), 0);
    target.run_until_idle();
    return {false, false, "synthetic kernel: no reference to check"};
  }

 private:
  std::string name_, path_, text_;
};

}  // namespace

std::unique_ptr<Workload> make_synthetic_workload(const std::string& spec) {
  namespace fs = std::filesystem;
  if (spec.size() > 5 && spec.ends_with(".kern")) {
    if (!fs::exists(spec)) throw Error(fmt::format("synthetic kernel file '{}' does not exist", spec));
    return std::make_unique<SyntheticWorkload>(fs::path(spec).stem().string(), spec);
  }
  fs::path p = fs::path(synth::synthetic_kernel_dir()) / (spec + ".kern");
  if (fs::exists(p)) return std::make_unique<SyntheticWorkload>(spec, p.string());
  return nullptr;
}

}  // namespace warpsim

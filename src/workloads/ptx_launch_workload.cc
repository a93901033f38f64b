// A PTX file plus a launch description (runtime/launch_spec.h) as a workload: one kernel launch
// with generated inputs, no host program and no reference to verify against. As a workload
// name (a suite item of `compare` or `search`, or `warpsim run` without launch flags):
//   FILE.ptx@LAUNCH.toml   the launch description given explicitly
//   FILE.ptx               FILE.launch.toml beside it
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/error.h"
#include "runtime/runtime.h"
#include "workloads/workload_kinds.h"

namespace warpsim {

namespace {

std::string read_whole(const std::string& path, const char* what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(fmt::format("cannot open {} '{}'", what, path));
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class PtxLaunchWorkload final : public Workload {
 public:
  // `launch_path`: the description named by the workload, if any (it then names the workload).
  PtxLaunchWorkload(std::string path, LaunchSpec spec, std::string launch_path = "")
      : path_(std::move(path)), launch_path_(std::move(launch_path)), spec_(std::move(spec)) {
    text_ = read_whole(path_, "PTX file");
  }
  std::string name() const override {
    std::string base = std::filesystem::path(path_).filename().string();
    if (!launch_path_.empty()) return base + "@" + std::filesystem::path(launch_path_).filename().string();
    return spec_.kernel.empty() ? base : base + ":" + spec_.kernel;
  }
  std::string category() const override { return "ptx"; }
  std::string fingerprint() const override {
    // The module text and the launch as it will run (arguments as written, seeds included).
    std::string launch =
        fmt::format("{}|{},{},{}|{},{},{}|{}|{}", spec_.kernel, spec_.grid.x, spec_.grid.y, spec_.grid.z, spec_.block.x,
                    spec_.block.y, spec_.block.z, spec_.shared, spec_.instruction_limit);
    for (const auto& a : spec_.args) launch += "|" + a.text;
    return fmt::format("ptx:{:016x}:{:016x}", std::hash<std::string>()(text_), std::hash<std::string>()(launch));
  }
  WorkloadOutcome run(LaunchTarget& target, const WorkloadOptions& opts) override {
    Runtime rt(&target);
    run_launch(rt, text_, path_, spec_, opts.seed);
    WorkloadOutcome o;
    o.message = "PTX launch: no reference to verify against";
    return o;
  }

 private:
  std::string path_, launch_path_, text_;
  LaunchSpec spec_;
};

}  // namespace

bool is_ptx_path(const std::string& s) {
  return s.size() > 4 && (s.compare(s.size() - 4, 4, ".ptx") == 0 || s.compare(s.size() - 4, 4, ".PTX") == 0);
}

std::unique_ptr<Workload> make_ptx_launch_workload(const std::string& ptx_path, LaunchSpec spec) {
  return std::make_unique<PtxLaunchWorkload>(ptx_path, std::move(spec));
}

std::unique_ptr<Workload> make_ptx_launch_workload(const std::string& spec) {
  std::string ptx = spec, launch;
  bool explicit_launch = true;
  if (size_t at = spec.rfind('@'); at != std::string::npos && is_ptx_path(spec.substr(0, at))) {
    ptx = spec.substr(0, at);
    launch = spec.substr(at + 1);
    if (launch.empty()) throw Error(fmt::format("workload '{}': no launch description after '@'", spec));
  } else if (is_ptx_path(spec)) {
    explicit_launch = false;
    launch = spec.substr(0, spec.size() - 4) + ".launch.toml";
    if (!std::filesystem::exists(launch))
      throw Error(
          fmt::format("PTX file '{}' needs a launch description: FILE.ptx@LAUNCH.toml, {} beside it, "
                      "or (warpsim run) --launch / --kernel --grid --block --arg",
                      spec, launch));
  } else {
    return nullptr;
  }
  LaunchSpec s = load_launch_spec(launch);
  // Buffer dumps are for `warpsim run FILE.ptx --dump`: as a named workload the same launch
  // runs under many schedulers at once, and they would all write one file.
  s.dump.clear();
  for (auto& a : s.args) a.dump = false;
  return std::make_unique<PtxLaunchWorkload>(ptx, std::move(s), explicit_launch ? launch : "");
}

}  // namespace warpsim

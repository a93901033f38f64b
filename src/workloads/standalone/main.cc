// main() of a bundled workload built as a standalone CUDA program (scripts/build_standalone.sh):
//   PROGRAM [--size small|default|paper] [--seed N] [--param NAME=VALUE]...
// Same defaults, same seeded inputs and same check as `warpsim run WORKLOAD`; prints the
// verification result and exits 1 on a mismatch, 2 on an error.
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "workloads/standalone/cuda_device.h"
#include "workloads/standalone/standalone.h"

int main(int argc, char** argv) {
  using namespace warpsim;
  const std::string name = warpsim_standalone_name;
  std::string size_name = "default";
  uint64_t seed = 1;
  std::vector<std::pair<std::string, std::string>> params;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* opt) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: %s needs a value\n", name.c_str(), opt);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--size") {
      size_name = value("--size");
    } else if (a == "--seed") {
      seed = std::stoull(value("--seed"));
    } else if (a == "--param") {
      std::string kv = value("--param");
      size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "%s: --param wants NAME=VALUE, got '%s'\n", name.c_str(), kv.c_str());
        return 2;
      }
      params.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (a == "-h" || a == "--help") {
      std::printf(
          "usage: %s [--size small|default|paper] [--seed N] [--param NAME=VALUE]...\n"
          "Runs bundled workload '%s' through the CUDA runtime and checks its results.\n",
          argv[0], name.c_str());
      return 0;
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s' (try --help)\n", name.c_str(), a.c_str());
      return 2;
    }
  }
  try {
    SizeParams size = parse_size_params(name, warpsim_standalone_toml, size_name);
    override_size_params(size, name, params);
    Rng rng(workload_rng_seed(name, seed));
    CudaDevice device(warpsim_standalone_kernels, warpsim_standalone_symbols);
    WorkloadOutcome o = standalone_workload()->execute_on(device, size, rng);
    device.synchronize();
    if (!o.checked) {
      std::printf("%s --size %s --seed %llu: %s\n", name.c_str(), size_name.c_str(), (unsigned long long)seed,
                  o.message.empty() ? "not checked" : o.message.c_str());
      return 0;
    }
    std::printf("%s --size %s --seed %llu: %s\n", name.c_str(), size_name.c_str(), (unsigned long long)seed,
                o.verified ? "verified" : ("MISMATCH: " + o.message).c_str());
    return o.verified ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
    return 2;
  }
}

// A sweep: every (workload, scheduler) pair of a comparison, each with a cache key, and the
// layout of the output directory the pairs' results are cached in.
//
//   DIR/cache/<key>.json   finished runs (the run's JSON plus a "harness" object), written atomically
//   DIR/work/<key>.json    a run in progress writes here; moved into cache/ when it exits with 0
//   DIR/logs/<key>.log     the run's stdout and stderr
//   DIR/failed/<key>.json  the last failure of a pair (exit status, end of its log)
//   DIR/gpu/<hash>/NAME.toml  the full GPU configuration every run of the sweep loads
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/config.h"
#include "workloads/workload_catalog.h"

namespace warpsim::experiment {

struct SchedulerSpec {
  std::string name;
  std::map<std::string, std::string> params;
};

struct SweepSpec {
  std::vector<std::string> workloads;  // names or paths, as `warpsim run` takes them
  std::vector<SchedulerSpec> schedulers;
  GpuConfig gpu;
  std::string size = "default";
  uint64_t seed = 1;
};

struct Pair {
  std::string workload;  // spec handed to `warpsim run` (absolute when it names a file)
  std::string workload_name;
  std::string fingerprint;
  SchedulerSpec scheduler;
  std::string size;
  uint64_t seed = 1;
  std::string key_text;  // everything the result depends on, one item per line
  std::string key;       // 32 hex digits, hash of key_text
  // A CUDA program run under `warpsim exec PROGRAM --size SIZE --seed SEED` instead of the
  // bundled `workload` (empty: `warpsim run`); `warpsim correlate --programs`.
  std::string program;
};

// Workloads of the "default" suite: every bundled workload of the catalog (workload_catalog()),
// or every synthetic kernel while the catalog has no bundled workload.
std::vector<std::string> default_suite(const std::vector<CatalogEntry>& catalog);

// "default" or a comma-separated list of workload names/paths ("default" may be one item).
std::vector<std::string> parse_suite(const std::string& suite, const std::vector<CatalogEntry>& catalog);

// What the cache key needs of a workload: its name and the fingerprint of its inputs. The
// command line resolves workloads with resolve_workload(); tests may pass their own.
struct WorkloadIdentity {
  std::string name, fingerprint;
};
using WorkloadResolver = std::function<WorkloadIdentity(const std::string& spec)>;

// Two independent 64-bit FNV-1a hashes of `text`, as 32 hex digits.
std::string hash_hex(const std::string& text);

// The build that computes results (size and modification time of the running executable):
// part of every cache key, so that results cached by another build are not reused.
const std::string& build_identity();

// The cache key text of one pair: warpsim version, workload and fingerprint, size, seed,
// scheduler and its parameters, GPU name and full configuration dump.
std::string cache_key_text(const std::string& workload, const std::string& fingerprint, const std::string& size,
                           uint64_t seed, const SchedulerSpec& sched, const std::string& gpu_name,
                           const std::string& gpu_dump);

// Resolves every workload (unknown ones throw Error) and builds the pairs, workload-major.
std::vector<Pair> plan_pairs(const SweepSpec& spec, const WorkloadResolver& resolve);

class Layout {
 public:
  explicit Layout(std::string dir);
  const std::string& dir() const { return dir_; }
  std::string cache_file(const Pair& p) const;
  std::string work_file(const Pair& p) const;
  std::string log_file(const Pair& p) const;
  std::string failed_file(const Pair& p) const;
  // Writes the configuration dump once and returns the path runs load it from.
  std::string write_gpu_config(const GpuConfig& cfg) const;
  void create_dirs() const;

 private:
  std::string dir_;
};

// The cached result of a pair, when present and made for the same key text.
std::optional<nlohmann::json> load_cached(const Layout& layout, const Pair& p);

// Arguments of the `warpsim run` child process for a pair (without the program itself).
std::vector<std::string> run_arguments(const Pair& p, const std::string& gpu_file, const std::string& json_out);

// Pair descriptions as JSON (task manifests for cluster backends) and back.
nlohmann::json pair_to_json(const Pair& p);
Pair pair_from_json(const nlohmann::json& j);

}  // namespace warpsim::experiment

#include "experiment/sweep.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;

std::vector<std::string> default_suite(const std::vector<CatalogEntry>& catalog) {
  // Persistent-thread variants (the QoS experiments' workloads, `warpsim qos`) repeat kernels
  // already in the suite, so the default suite leaves them out.
  std::vector<std::string> bundled, synthetic;
  for (const auto& e : catalog) {
    if (e.category == "persistent") continue;
    (e.category == "synthetic" ? synthetic : bundled).push_back(e.name);
  }
  return bundled.empty() ? synthetic : bundled;
}

std::vector<std::string> parse_suite(const std::string& suite, const std::vector<CatalogEntry>& catalog) {
  if (suite.empty() || suite == "default") return default_suite(catalog);
  std::vector<std::string> out;
  std::stringstream ss(suite);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (item == "default") {
      for (auto& w : default_suite(catalog)) out.push_back(w);
    } else {
      out.push_back(item);
    }
  }
  if (out.empty()) throw Error(fmt::format("--suite '{}' names no workload", suite));
  return out;
}

std::string hash_hex(const std::string& text) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : text) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ (c + 0x5bu)) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  return fmt::format("{:016x}{:016x}", a, b);
}

// The build that computes the results: size and modification time of the running executable.
// A rebuilt warpsim (another timing model) gets other keys, so results cached by an earlier
// build are never reused by a later one; an unchanged binary keeps its cache.
const std::string& build_identity() {
  static const std::string id = [] {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::string("unknown");
    struct stat st {};
    if (::stat(exe.c_str(), &st) != 0) return std::string("unknown");
    return fmt::format("{} {}.{:09d}", uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec), long(st.st_mtim.tv_nsec));
  }();
  return id;
}

std::string cache_key_text(const std::string& workload, const std::string& fingerprint, const std::string& size,
                           uint64_t seed, const SchedulerSpec& sched, const std::string& gpu_name,
                           const std::string& gpu_dump) {
  std::string t;
  t += fmt::format("warpsim {}\n", WARPSIM_VERSION);
  t += fmt::format("build {}\n", build_identity());
  t += fmt::format("workload {}\n", workload);
  t += fmt::format("fingerprint {}\n", fingerprint);
  t += fmt::format("size {}\n", size);
  t += fmt::format("seed {}\n", seed);
  t += fmt::format("scheduler {}\n", sched.name);
  for (const auto& [k, v] : sched.params) t += fmt::format("param {}={}\n", k, v);
  t += fmt::format("gpu {}\n", gpu_name);
  t += gpu_dump;
  return t;
}

std::vector<Pair> plan_pairs(const SweepSpec& spec, const WorkloadResolver& resolve) {
  if (!resolve) throw Error("no workload resolver");
  if (spec.workloads.empty()) throw Error("the sweep has no workload");
  if (spec.schedulers.empty()) throw Error("the sweep has no scheduler");
  std::string dump = dump_toml(spec.gpu);
  std::vector<Pair> pairs;
  for (const auto& w : spec.workloads) {
    WorkloadIdentity workload = resolve(w);
    std::string run_spec = w;
    std::error_code ec;
    if (fs::exists(w, ec)) run_spec = fs::absolute(w).lexically_normal().string();
    for (const auto& s : spec.schedulers) {
      Pair p;
      p.workload = run_spec;
      p.workload_name = workload.name;
      p.fingerprint = workload.fingerprint;
      p.scheduler = s;
      p.size = spec.size;
      p.seed = spec.seed;
      p.key_text = cache_key_text(p.workload_name, p.fingerprint, p.size, p.seed, s, spec.gpu.name, dump);
      p.key = hash_hex(p.key_text);
      pairs.push_back(std::move(p));
    }
  }
  return pairs;
}

Layout::Layout(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) throw Error("empty output directory");
  dir_ = fs::absolute(dir_).lexically_normal().string();
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

std::string Layout::cache_file(const Pair& p) const { return fmt::format("{}/cache/{}.json", dir_, p.key); }
std::string Layout::work_file(const Pair& p) const { return fmt::format("{}/work/{}.json", dir_, p.key); }
std::string Layout::log_file(const Pair& p) const { return fmt::format("{}/logs/{}.log", dir_, p.key); }
std::string Layout::failed_file(const Pair& p) const { return fmt::format("{}/failed/{}.json", dir_, p.key); }

void Layout::create_dirs() const {
  for (const char* sub : {"cache", "work", "logs", "failed", "gpu"}) {
    std::error_code ec;
    fs::create_directories(fs::path(dir_) / sub, ec);
    if (ec) throw Error(fmt::format("cannot create '{}/{}': {}", dir_, sub, ec.message()));
  }
}

std::string Layout::write_gpu_config(const GpuConfig& cfg) const {
  std::string dump = dump_toml(cfg);
  std::string name = cfg.name.empty() ? "gpu" : cfg.name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  std::string path = fmt::format("{}/gpu/{}/{}.toml", dir_, hash_hex(dump).substr(0, 16), name);
  std::ifstream in(path);
  std::stringstream ss;
  if (in) ss << in.rdbuf();
  if (!in || ss.str() != dump) write_file_atomic(path, dump);
  return path;
}

std::optional<nlohmann::json> load_cached(const Layout& layout, const Pair& p) {
  std::ifstream in(layout.cache_file(p));
  if (!in) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("harness")) return std::nullopt;
  const auto& h = j["harness"];
  if (!h.is_object() || h.value("key_text", std::string()) != p.key_text) return std::nullopt;
  return j;
}

std::vector<std::string> run_arguments(const Pair& p, const std::string& gpu_file, const std::string& json_out) {
  std::vector<std::string> a = {p.program.empty() ? "run" : "exec"};
  if (p.program.empty()) a.push_back(p.workload);
  a.insert(a.end(), {"--gpu", gpu_file, "--scheduler", p.scheduler.name});
  for (const auto& [k, v] : p.scheduler.params) {
    a.push_back("--sched-param");
    a.push_back(k + "=" + v);
  }
  if (!p.program.empty()) {
    a.insert(a.end(), {"--json", json_out, "--", p.program, "--size", p.size, "--seed", std::to_string(p.seed)});
    return a;
  }
  a.insert(a.end(), {"--size", p.size, "--seed", std::to_string(p.seed), "--json", json_out, "--quiet"});
  return a;
}

nlohmann::json pair_to_json(const Pair& p) {
  return {{"workload", p.workload},
          {"workload_name", p.workload_name},
          {"fingerprint", p.fingerprint},
          {"scheduler", p.scheduler.name},
          {"params", p.scheduler.params},
          {"size", p.size},
          {"seed", p.seed},
          {"key_text", p.key_text},
          {"key", p.key},
          {"program", p.program}};
}

Pair pair_from_json(const nlohmann::json& j) {
  try {
    Pair p;
    p.workload = j.at("workload").get<std::string>();
    p.workload_name = j.at("workload_name").get<std::string>();
    p.fingerprint = j.at("fingerprint").get<std::string>();
    p.scheduler.name = j.at("scheduler").get<std::string>();
    p.scheduler.params = j.at("params").get<std::map<std::string, std::string>>();
    p.size = j.at("size").get<std::string>();
    p.seed = j.at("seed").get<uint64_t>();
    p.key_text = j.at("key_text").get<std::string>();
    p.key = j.at("key").get<std::string>();
    p.program = j.value("program", std::string());
    if (p.key != hash_hex(p.key_text)) throw Error("key does not match its key text");
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("malformed pair description: {}", e.what()));
  }
}

}  // namespace warpsim::experiment

// Many multikernel runs: their results as JSON, the cache key of a run, and run_many over the
// job pool with the result cache.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/job_pool.h"
#include "experiment/multikernel.h"
#include "experiment/sweep.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;

nlohmann::json to_json(const MultiKernelResult& r) {
  nlohmann::json j;
  j["cycles"] = r.cycles;
  j["sms"] = r.sms;
  j["shared_sms"] = r.shared_sms;
  j["sides"] = nlohmann::json::array();
  for (const auto& s : r.sides) {
    nlohmann::json js;
    js["workload"] = s.workload;
    js["stream"] = s.stream;
    js["grid"] = s.grid;
    js["launch_cycle"] = s.launch_cycle;
    js["end_cycle"] = s.end_cycle;
    js["response"] = s.response();
    js["warp_insts"] = s.warp_insts;
    js["checked"] = s.checked;
    js["verified"] = s.verified;
    js["message"] = s.message;
    js["ctas_per_sm"] = s.ctas_per_sm;
    js["kernels"] = nlohmann::json::array();
    for (const auto& k : s.kernels)
      js["kernels"].push_back({{"name", k.name},
                               {"launch_index", k.launch_index},
                               {"stream", k.stream},
                               {"launch_cycle", k.launch_cycle},
                               {"start_cycle", k.start_cycle},
                               {"end_cycle", k.end_cycle},
                               {"warp_insts", k.warp_insts},
                               {"thread_insts", k.thread_insts}});
    j["sides"].push_back(js);
  }
  return j;
}

MultiKernelResult multikernel_from_json(const nlohmann::json& j) {
  MultiKernelResult r;
  try {
    r.cycles = j.at("cycles").get<uint64_t>();
    r.sms = j.at("sms").get<uint32_t>();
    r.shared_sms = j.at("shared_sms").get<uint32_t>();
    for (const auto& js : j.at("sides")) {
      SideResult s;
      s.workload = js.at("workload").get<std::string>();
      s.stream = js.at("stream").get<uint32_t>();
      s.grid = js.at("grid").get<uint32_t>();
      s.launch_cycle = js.at("launch_cycle").get<uint64_t>();
      s.end_cycle = js.at("end_cycle").get<uint64_t>();
      s.warp_insts = js.at("warp_insts").get<uint64_t>();
      s.checked = js.at("checked").get<bool>();
      s.verified = js.at("verified").get<bool>();
      s.message = js.at("message").get<std::string>();
      s.ctas_per_sm = js.at("ctas_per_sm").get<std::vector<uint32_t>>();
      for (const auto& jk : js.at("kernels")) {
        KernelResult k;
        k.name = jk.at("name").get<std::string>();
        k.launch_index = jk.at("launch_index").get<uint32_t>();
        k.stream = jk.at("stream").get<uint32_t>();
        k.launch_cycle = jk.at("launch_cycle").get<uint64_t>();
        k.start_cycle = jk.at("start_cycle").get<uint64_t>();
        k.end_cycle = jk.at("end_cycle").get<uint64_t>();
        k.warp_insts = jk.at("warp_insts").get<uint64_t>();
        k.thread_insts = jk.at("thread_insts").get<uint64_t>();
        s.kernels.push_back(k);
      }
      r.sides.push_back(std::move(s));
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("multikernel result: ") + e.what());
  }
  return r;
}

std::string multikernel_key_text(const MultiKernelSpec& spec, const WorkloadMaker& make) {
  std::string t = fmt::format("warpsim {}\nbuild {}\nmultikernel 2\n", WARPSIM_VERSION, build_identity());
  for (size_t i = 0; i < spec.workloads.size(); ++i) {
    std::unique_ptr<Workload> w = make_workload(make, spec.workloads[i]);
    t += fmt::format("workload {} {}\n", w->name(), w->fingerprint());
    if (!spec.streams.empty()) t += fmt::format("stream {}\n", spec.streams[i]);
    if (!spec.params.empty()) t += fmt::format("params {}\n", params_text(spec.params[i]));
  }
  // "fit_grid 2": fitted grids count registers and shared memory too (1 counted warps, threads
  // and CTA slots only), so results cached under the old rule are not reused.
  t += fmt::format("size {}\nseed {}\ndelay {}\nfit_grid {}\nshare {}\n", spec.size, spec.seed, spec.delay,
                   spec.fit_grid ? 2 : 0, spec.share);
  t += fmt::format("scheduler {}\n", spec.scheduler.name);
  for (const auto& [k, v] : spec.scheduler.params) t += fmt::format("param {}={}\n", k, v);
  t += fmt::format("gpu {}\n", spec.gpu.name);
  t += dump_toml(spec.gpu);
  return t;
}

std::vector<MultiKernelResult> run_many(const std::vector<MultiKernelSpec>& tasks, int jobs, const WorkloadMaker& make,
                                        const std::function<void(size_t, size_t)>& progress,
                                        const std::string& cache_dir, size_t* cached) {
  std::vector<MultiKernelResult> out(tasks.size());
  std::vector<std::string> keys(tasks.size()), paths(tasks.size());
  std::vector<size_t> todo;
  size_t hits = 0;
  if (!cache_dir.empty()) fs::create_directories(cache_dir);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (!cache_dir.empty()) {
      keys[i] = multikernel_key_text(tasks[i], make);
      paths[i] = fmt::format("{}/{}.json", cache_dir, hash_hex(keys[i]));
      std::ifstream in(paths[i]);
      if (in) {
        try {
          nlohmann::json j = nlohmann::json::parse(in);
          if (j.value("key", std::string()) == keys[i]) {
            out[i] = multikernel_from_json(j.at("result"));
            ++hits;
            continue;
          }
        } catch (const std::exception&) {
          // An unreadable cache entry is run again.
        }
      }
    }
    todo.push_back(i);
  }
  if (cached) *cached = hits;
  std::mutex m;
  size_t done = hits;
  JobPoolOptions pool;
  pool.jobs = jobs;
  run_jobs(todo.size(), pool, [&](size_t t) {
    size_t i = todo[t];
    out[i] = run_multikernel(tasks[i], make);
    if (!cache_dir.empty()) {
      nlohmann::json j;
      j["key"] = keys[i];
      j["result"] = to_json(out[i]);
      write_json_atomic(paths[i], j);
    }
    std::lock_guard<std::mutex> lock(m);
    ++done;
    if (progress) progress(done, tasks.size());
  });
  return out;
}

}  // namespace warpsim::experiment

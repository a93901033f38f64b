#include "experiment/qos.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include "config/config_loader.h"
#include "core/error.h"
#include "core/json_file.h"
#include "experiment/svg_chart.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::experiment {

namespace fs = std::filesystem;

namespace {

// Side i's addresses move by i * kSideOffset: above the 2^40 device range (runtime/
// device_memory.h), plus an odd number of pages so that two drivers' buffers, allocated alike,
// do not fall on the same cache sets, partitions and DRAM banks at the same time.
constexpr uint64_t kSideOffset = (uint64_t(1) << 40) + 0x1357000;
constexpr uint32_t kDriverStreams = 1u << 20;  // side streams must lie below

struct Coordinator;

// A kernel of one side on its way to the Gpu: moves the side's addresses into its own range
// and records which SM each CTA went to and what else was resident there.
class SideKernel final : public KernelSource {
 public:
  SideKernel(std::unique_ptr<KernelSource> inner, Coordinator* c, size_t side, bool first)
      : inner_(std::move(inner)), coord_(c), side_(side), first_(first) {}
  const KernelInfo& info() const override { return inner_->info(); }
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaTrace& out) override;
  void on_kernel_done() override { inner_->on_kernel_done(); }

 private:
  std::unique_ptr<KernelSource> inner_;
  Coordinator* coord_;
  size_t side_;
  bool first_;
};

// What a side's driver sees as its launch target: launches are held, and waiting for them
// hands control to the coordinator, which runs every side's launches together.
class SideTarget final : public LaunchTarget {
 public:
  SideTarget(Coordinator* c, size_t side) : coord_(c), side_(side) {}
  uint32_t enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay) override;
  void run_until_idle() override;
  void run_until_stream_idle(uint32_t) override { run_until_idle(); }
  uint64_t now() const override;
  void copied(uint64_t addr, uint64_t bytes, bool to_device) override;
  const std::vector<KernelResult>& results() const override;
  bool hoists_global_loads() const override;

 private:
  Coordinator* coord_;
  size_t side_;
  mutable std::vector<KernelResult> results_;
};

struct Pending {
  std::unique_ptr<KernelSource> source;
  uint32_t stream = 0;
  uint64_t delay = 0;
};

struct Side {
  enum State { Waiting, Running, Blocked, Finished } state = Waiting;
  std::unique_ptr<Workload> workload;
  WorkloadOptions opts;
  uint32_t stream = 1;
  std::vector<Pending> pending;
  std::vector<uint32_t> kernel_ids;  // Gpu launch indices, in launch order
  bool launched = false;
  WorkloadOutcome outcome;
  std::exception_ptr error;
  std::vector<uint32_t> ctas_per_sm;
  std::vector<uint8_t> shared_on_sm;
  std::thread thread;
};

struct Coordinator {
  Gpu* gpu = nullptr;
  std::vector<Side> sides;
  std::mutex m;
  std::condition_variable cv;
  int turn = -1;  // the side allowed to run, -1: the coordinator
  bool abort = false;

  // A driver's default stream becomes its side's stream; its own streams s > 0 get private
  // ids above every side stream.
  uint32_t gpu_stream(size_t side, uint32_t stream) const {
    return stream == 0 ? sides[side].stream : kDriverStreams * uint32_t(side + 1) + stream;
  }

  // Called on a side's thread: give the turn back and wait for the next one.
  void yield(size_t side, Side::State st) {
    std::unique_lock<std::mutex> lock(m);
    sides[side].state = st;
    turn = -1;
    cv.notify_all();
    if (st == Side::Finished) return;
    cv.wait(lock, [&] { return turn == int(side) || abort; });
    if (abort) throw Error("multikernel run stopped");
    sides[side].state = Side::Running;
  }

  // Called by the coordinator: let `side` run until it blocks or finishes.
  void give_turn(size_t side) {
    std::unique_lock<std::mutex> lock(m);
    turn = int(side);
    cv.notify_all();
    cv.wait(lock, [&] { return turn == -1; });
  }

  void stop_all() {
    {
      std::lock_guard<std::mutex> lock(m);
      abort = true;
      cv.notify_all();
    }
    for (auto& s : sides)
      if (s.thread.joinable()) s.thread.join();
  }

  void side_main(size_t i) {
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return turn == int(i) || abort; });
      if (abort) {
        sides[i].state = Side::Finished;
        return;
      }
      sides[i].state = Side::Running;
    }
    SideTarget target(this, i);
    try {
      sides[i].outcome = sides[i].workload->run(target, sides[i].opts);
    } catch (...) {
      sides[i].error = std::current_exception();
    }
    yield(i, Side::Finished);
  }

  void record_cta(size_t side, uint32_t sm, bool first) {
    Side& s = sides[side];
    if (sm >= s.ctas_per_sm.size()) return;
    if (first) ++s.ctas_per_sm[sm];
    // Every other side has a CTA resident on this SM right now?
    bool all = true;
    for (size_t j = 0; j < sides.size() && all; ++j) {
      if (j == side) continue;
      bool any = false;
      for (uint32_t k : sides[j].kernel_ids) any |= gpu->sms()[sm]->live_ctas(k) > 0;
      all = any;
    }
    if (all) s.shared_on_sm[sm] = 1;
  }
};

void SideKernel::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaTrace& out) {
  inner_->produce_cta(cta_id, sm_id, out);
  uint64_t offset = uint64_t(side_) * kSideOffset;
  if (offset) {
    for (WarpStream& w : out.warps)
      for (const WarpInst& inst : w.insts) {
        if (!inst.is_mem() || inst.addr_index == kNoAddr) continue;
        if (inst.space != MemSpace::Global && inst.space != MemSpace::Local && inst.space != MemSpace::Const &&
            inst.space != MemSpace::Tex)
          continue;
        for (int lane = 0; lane < 32; ++lane)
          if (inst.active_mask >> lane & 1u) w.addrs[inst.addr_index + lane] += offset;
      }
  }
  coord_->record_cta(side_, sm_id, first_);
}

uint32_t SideTarget::enqueue(std::unique_ptr<KernelSource> kernel, uint32_t stream, uint64_t delay) {
  Side& s = coord_->sides[side_];
  bool first = !s.launched && s.pending.empty();
  s.pending.push_back({std::make_unique<SideKernel>(std::move(kernel), coord_, side_, first), stream, delay});
  return uint32_t(s.kernel_ids.size() + s.pending.size() - 1);
}

void SideTarget::run_until_idle() {
  if (coord_->sides[side_].pending.empty()) return;
  coord_->yield(side_, Side::Blocked);
}

bool SideTarget::hoists_global_loads() const { return coord_->gpu && coord_->gpu->hoists_global_loads(); }

uint64_t SideTarget::now() const { return coord_->gpu->now(); }
void SideTarget::copied(uint64_t addr, uint64_t bytes, bool to_device) { coord_->gpu->copied(addr, bytes, to_device); }

const std::vector<KernelResult>& SideTarget::results() const {
  results_.clear();
  const Side& s = coord_->sides[side_];
  for (const KernelResult& r : coord_->gpu->results())
    if (std::find(s.kernel_ids.begin(), s.kernel_ids.end(), r.launch_index) != s.kernel_ids.end())
      results_.push_back(r);
  return results_;
}

std::unique_ptr<Workload> make_workload(const WorkloadMaker& make, const std::string& spec) {
  std::unique_ptr<Workload> w = make ? make(spec) : resolve_workload(spec);
  if (!w) throw Error(fmt::format("no workload '{}'", spec));
  return w;
}

std::string params_text(const std::map<std::string, std::string>& p) {
  std::string s;
  for (const auto& [k, v] : p) s += fmt::format("{}{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

}  // namespace

uint32_t fitted_grid(const GpuConfig& gpu, const CtaDemand& cta, uint32_t share) {
  if (cta.threads == 0) throw Error("fitted grid: empty block");
  return std::max<uint32_t>(1, ctas_per_sm(gpu.core, cta, share)) * gpu.core.num_sms;
}

namespace {

// The largest demand among the module's kernels for CTAs of `block` threads.
CtaDemand bundled_demand(const BundledWorkload& b, LaunchTarget& target, uint32_t block) {
  Runtime probe(&target);
  ModuleHandle m = probe.load_module(b.ptx(), "workloads/" + b.name() + "/kernel.ptx");
  CtaDemand d{block, 0, 0};
  for (const auto& name : probe.kernel_names(m)) {
    CtaDemand k = probe.kernel_demand(probe.get_kernel(m, name), block);
    d.regs_per_thread = std::max(d.regs_per_thread, k.regs_per_thread);
    d.shared_bytes = std::max(d.shared_bytes, k.shared_bytes);
  }
  return d;
}

}  // namespace

MultiKernelResult run_multikernel(const MultiKernelSpec& spec, const WorkloadMaker& make) {
  size_t n = spec.workloads.size();
  if (n == 0) throw Error("multikernel run: no workload");
  if (!spec.streams.empty() && spec.streams.size() != n)
    throw Error("multikernel run: one stream per workload expected");
  if (!spec.params.empty() && spec.params.size() != n)
    throw Error("multikernel run: one parameter set per workload expected");
  SchedulerParams params;
  for (const auto& [k, v] : spec.scheduler.params) params.set(k, v);
  Gpu gpu(spec.gpu, spec.scheduler.name, params);

  Coordinator c;
  c.gpu = &gpu;
  c.sides.resize(n);
  std::set<uint32_t> streams;
  uint32_t share = spec.share ? spec.share : uint32_t(n);
  MultiKernelResult out;
  out.sms = spec.gpu.core.num_sms;
  out.sides.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Side& s = c.sides[i];
    s.workload = make_workload(make, spec.workloads[i]);
    s.stream = spec.streams.empty() ? uint32_t(i + 1) : spec.streams[i];
    if (s.stream == 0 || s.stream >= kDriverStreams)
      throw Error(fmt::format("multikernel run: stream {} is not in 1..{}", s.stream, kDriverStreams - 1));
    if (!streams.insert(s.stream).second) throw Error(fmt::format("multikernel run: stream {} given twice", s.stream));
    s.opts.size = spec.size;
    s.opts.seed = spec.seed;
    if (!spec.params.empty()) s.opts.params = spec.params[i];
    if (spec.fit_grid && !s.opts.params.count("grid")) {
      if (auto* b = dynamic_cast<BundledWorkload*>(s.workload.get())) {
        SizeParams sp = b->size_params(spec.size);
        if (sp.has("grid") && sp.has("block")) {
          int64_t block = sp.get_int("block");
          if (s.opts.params.count("block")) block = std::stoll(s.opts.params.at("block"));
          if (block < 1 || block > 1024) throw Error(fmt::format("{}: block must be in 1..1024", spec.workloads[i]));
          uint32_t grid = fitted_grid(spec.gpu, bundled_demand(*b, gpu, uint32_t(block)), share);
          s.opts.params["grid"] = std::to_string(grid);
          out.sides[i].grid = grid;
        }
      }
    }
    s.ctas_per_sm.assign(out.sms, 0);
    s.shared_on_sm.assign(out.sms, n == 1 ? 1 : 0);
  }
  for (size_t i = 0; i < n; ++i) c.sides[i].thread = std::thread([&c, i] { c.side_main(i); });

  try {
    bool first_round = true;
    while (true) {
      for (size_t i = 0; i < n; ++i)
        if (c.sides[i].state != Side::Finished) {
          c.give_turn(i);
          if (c.sides[i].error) std::rethrow_exception(c.sides[i].error);
        }
      bool any = false;
      for (size_t i = 0; i < n; ++i) {
        Side& s = c.sides[i];
        uint64_t extra = s.launched ? 0 : (first_round ? spec.delay * i : 0);
        for (Pending& p : s.pending) {
          uint32_t id = gpu.enqueue(std::move(p.source), c.gpu_stream(i, p.stream), p.delay + extra);
          s.kernel_ids.push_back(id);
          any = true;
        }
        if (!s.pending.empty()) s.launched = true;
        s.pending.clear();
      }
      first_round = false;
      bool all_done =
          std::all_of(c.sides.begin(), c.sides.end(), [](const Side& s) { return s.state == Side::Finished; });
      if (!any) {
        if (all_done) break;
        throw Error("internal: a multikernel side waits without launches");
      }
      gpu.run_until_idle();
    }
  } catch (...) {
    c.stop_all();
    throw;
  }
  c.stop_all();

  out.cycles = gpu.now();
  std::vector<uint8_t> shared(out.sms, 1);
  for (size_t i = 0; i < n; ++i) {
    Side& s = c.sides[i];
    SideResult& r = out.sides[i];
    r.workload = s.workload->name();
    r.stream = s.stream;
    r.checked = s.outcome.checked;
    r.verified = s.outcome.verified;
    r.message = s.outcome.message;
    r.ctas_per_sm = s.ctas_per_sm;
    uint64_t first = std::numeric_limits<uint64_t>::max(), last = 0;
    for (uint32_t id : s.kernel_ids)
      for (const KernelResult& k : gpu.results())
        if (k.launch_index == id) {
          r.kernels.push_back(k);
          first = std::min(first, k.launch_cycle);
          last = std::max(last, k.end_cycle);
          r.warp_insts += k.warp_insts;
        }
    if (r.kernels.empty()) throw Error(fmt::format("workload '{}' launched no kernel", r.workload));
    r.launch_cycle = first;
    r.end_cycle = last;
    for (uint32_t sm = 0; sm < out.sms; ++sm) shared[sm] &= s.shared_on_sm[sm];
  }
  // An SM counts as shared when some side's CTA found every other side there (the later side
  // sees the earlier ones); with one side, every SM that got a CTA.
  out.shared_sms = 0;
  for (uint32_t sm = 0; sm < out.sms; ++sm) {
    bool any = false;
    for (auto& s : c.sides) any |= s.shared_on_sm[sm] != 0 && (n > 1 || s.ctas_per_sm[sm] > 0);
    out.shared_sms += any ? 1 : 0;
  }
  return out;
}

// --- JSON -----------------------------------------------------------------------------------

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

// --- metrics --------------------------------------------------------------------------------

double stp(const std::vector<double>& alone, const std::vector<double>& shared) {
  if (alone.size() != shared.size() || alone.empty()) throw Error("STP: one isolated and one shared time per kernel");
  double s = 0;
  for (size_t i = 0; i < alone.size(); ++i) {
    if (!(shared[i] > 0)) throw Error("STP: shared times must be positive");
    s += alone[i] / shared[i];
  }
  return s;
}

double antt(const std::vector<double>& alone, const std::vector<double>& shared) {
  if (alone.size() != shared.size() || alone.empty()) throw Error("ANTT: one isolated and one shared time per kernel");
  double s = 0;
  for (size_t i = 0; i < alone.size(); ++i) {
    if (!(alone[i] > 0)) throw Error("ANTT: isolated times must be positive");
    s += shared[i] / alone[i];
  }
  return s / double(alone.size());
}

void normalise_rows(std::vector<QosRow>& rows, const std::string& baseline) {
  for (QosRow& r : rows) {
    const QosRow* base = nullptr;
    for (const QosRow& b : rows)
      if (b.pair == r.pair && b.scheduler == baseline && b.budget == 0) base = &b;
    if (!base) throw Error(fmt::format("pair {}: no run under the baseline scheduler '{}'", r.pair, baseline));
    if (!(base->rt1 > 0) || !(base->rt2 > 0) || !(r.rt1 > 0) || !(r.rt2 > 0))
      throw Error(fmt::format("pair {}: response times must be positive", r.pair));
    r.norm_rt1 = r.rt1 / base->rt1;
    r.norm_rt2 = r.rt2 / base->rt1;
    r.k2_speedup = base->rt2 / r.rt2;
    r.avg_exec = (r.rt1 + r.rt2) / 2;
    r.norm_avg_exec = r.avg_exec / ((base->rt1 + base->rt2) / 2);
    r.stp = stp({r.alone1, r.alone2}, {r.rt1, r.rt2});
    r.antt = antt({r.alone1, r.alone2}, {r.rt1, r.rt2});
  }
  for (QosRow& r : rows) {
    r.best = true;
    for (const QosRow& o : rows)
      if (&o != &r && o.pair == r.pair && o.scheduler == r.scheduler &&
          (o.rt2 < r.rt2 || (o.rt2 == r.rt2 && o.budget < r.budget)))
        r.best = false;
  }
}

uint32_t smallest_budget(std::vector<uint32_t> candidates, const std::function<double(uint32_t)>& response,
                         double target, BudgetSearch mode) {
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  if (candidates.empty()) throw Error("budget search: no candidate budget");
  if (mode == BudgetSearch::Linear) {
    for (uint32_t b : candidates)
      if (response(b) <= target) return b;
    return 0;
  }
  // Bisect over a response that does not grow with the budget: find the first candidate that
  // meets the target.
  size_t lo = 0, hi = candidates.size();  // answer in [lo, hi]; hi = none
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (response(candidates[mid]) <= target)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo < candidates.size() ? candidates[lo] : 0;
}

// --- sweeps ---------------------------------------------------------------------------------

bool takes_budgets(const std::string& name) {
  const SchedulerFactory& f = find_scheduler(name);
  SchedulerParams p;
  p.set("budget.stream.1", "1");
  p.set("budget.stream.2", "2");
  try {
    make_sm_schedulers(f, p, 0, 1);
    p.check_all_used(name);
  } catch (...) {
    return false;
  }
  return true;
}

std::map<std::string, std::string> budget_params(uint32_t k1_budget, uint32_t k2_budget,
                                                 const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> p;
  p["budget.stream.1"] = std::to_string(k1_budget);
  p["budget.stream.2"] = std::to_string(k2_budget);
  for (const auto& [k, v] : extra) p[k] = v;
  return p;
}

std::string multikernel_key_text(const MultiKernelSpec& spec, const WorkloadMaker& make) {
  std::string t = fmt::format("warpsim {}\nmultikernel 2\n", WARPSIM_VERSION);
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
  std::vector<std::string> keys(tasks.size());
  std::vector<size_t> todo;
  size_t hits = 0;
  if (!cache_dir.empty()) fs::create_directories(cache_dir);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (!cache_dir.empty()) {
      std::string text = multikernel_key_text(tasks[i], make);
      keys[i] = fmt::format("{}/{}.json", cache_dir, hash_hex(text));
      std::ifstream in(keys[i]);
      if (in) {
        try {
          nlohmann::json j = nlohmann::json::parse(in);
          if (j.value("key", std::string()) == text) {
            out[i] = multikernel_from_json(j.at("result"));
            ++hits;
            continue;
          }
        } catch (const std::exception&) {
          // An unreadable cache entry is run again.
        }
      }
      keys[i] += "\n" + text;  // path, then key text
    }
    todo.push_back(i);
  }
  if (cached) *cached = hits;
  std::atomic<size_t> next{0}, done{hits};
  std::mutex m;
  std::exception_ptr error;
  auto worker = [&] {
    while (true) {
      size_t t = next.fetch_add(1);
      if (t >= todo.size()) return;
      {
        std::lock_guard<std::mutex> lock(m);
        if (error) return;
      }
      size_t i = todo[t];
      try {
        out[i] = run_multikernel(tasks[i], make);
        if (!cache_dir.empty()) {
          size_t nl = keys[i].find('\n');
          nlohmann::json j;
          j["key"] = keys[i].substr(nl + 1);
          j["result"] = to_json(out[i]);
          write_json_atomic(keys[i].substr(0, nl), j);
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (!error) error = std::current_exception();
        return;
      }
      size_t d = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(m);
        progress(d, tasks.size());
      }
    }
  };
  int n = std::max(1, std::min<int>(jobs, int(todo.size())));
  if (n == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int k = 0; k < n; ++k) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  if (error) std::rethrow_exception(error);
  return out;
}

QosSweepResult run_qos_sweep(const QosSweepSpec& spec, const WorkloadMaker& make,
                             const std::function<void(size_t, size_t)>& progress) {
  if (spec.pairs.empty()) throw Error("qos: no pair");
  if (spec.schedulers.empty()) throw Error("qos: no scheduler");
  if (std::find(spec.schedulers.begin(), spec.schedulers.end(), spec.baseline) == spec.schedulers.end())
    throw Error(fmt::format("qos: the baseline scheduler '{}' must be among the schedulers", spec.baseline));
  QosSweepResult res;
  struct Variant {
    std::string scheduler;
    uint32_t budget;
    std::map<std::string, std::string> params;
  };
  std::vector<Variant> variants;
  for (const auto& s : spec.schedulers) {
    if (takes_budgets(s)) {
      if (spec.budgets.empty()) throw Error(fmt::format("qos: scheduler '{}' needs --budgets", s));
      res.budgeted.push_back(s);
      for (uint32_t b : spec.budgets) {
        if (b == 0) throw Error("qos: budgets must be positive");
        variants.push_back({s, b, budget_params(spec.k1_budget, b, spec.extra_budgets)});
      }
    } else {
      variants.push_back({s, 0, {}});
    }
  }
  auto base_spec = [&] {
    MultiKernelSpec m;
    m.gpu = spec.gpu;
    m.size = spec.size;
    m.seed = spec.seed;
    m.delay = spec.delay;
    m.share = 2;
    return m;
  };
  // Tasks: every pair under every variant, then every kernel alone (same stream, scheduler and
  // parameters as in the pair, grid fitted for two kernels), deduplicated.
  std::vector<MultiKernelSpec> tasks;
  std::map<std::string, size_t> alone_index;
  struct Plan {
    size_t pair, variant, shared, alone1, alone2;
  };
  std::vector<Plan> plans;
  auto alone_task = [&](const std::string& w, uint32_t stream, const Variant& v) {
    // Alone, a kernel only meets its own stream's budget: the others are left out, and a
    // scheduler without budgets runs it on stream 1, so equal runs are made once.
    std::map<std::string, std::string> params;
    if (v.budget == 0) stream = 1;
    for (const auto& [k, val] : v.params)
      if (k.rfind("budget.stream.", 0) != 0 || k == fmt::format("budget.stream.{}", stream)) params[k] = val;
    std::string key = fmt::format("{}|{}|{}|{}", w, stream, v.scheduler, params_text(params));
    auto it = alone_index.find(key);
    if (it != alone_index.end()) return it->second;
    MultiKernelSpec m = base_spec();
    m.workloads = {w};
    m.streams = {stream};
    m.scheduler = {v.scheduler, params};
    tasks.push_back(m);
    alone_index[key] = tasks.size() - 1;
    return tasks.size() - 1;
  };
  for (size_t p = 0; p < spec.pairs.size(); ++p)
    for (size_t v = 0; v < variants.size(); ++v) {
      MultiKernelSpec m = base_spec();
      m.workloads = {spec.pairs[p].first, spec.pairs[p].second};
      m.scheduler = {variants[v].scheduler, variants[v].params};
      tasks.push_back(m);
      size_t shared = tasks.size() - 1;
      size_t a1 = alone_task(spec.pairs[p].first, 1, variants[v]);
      size_t a2 = alone_task(spec.pairs[p].second, 2, variants[v]);
      plans.push_back({p, v, shared, a1, a2});
    }
  std::vector<MultiKernelResult> results = run_many(tasks, spec.jobs, make, progress, spec.cache_dir, &res.cached);
  res.runs = tasks.size();
  for (const Plan& pl : plans) {
    const MultiKernelResult& r = results[pl.shared];
    QosRow row;
    row.k1 = spec.pairs[pl.pair].first;
    row.k2 = spec.pairs[pl.pair].second;
    row.pair = row.k1 + ":" + row.k2;
    row.scheduler = variants[pl.variant].scheduler;
    row.budget = variants[pl.variant].budget;
    row.rt1 = double(r.sides[0].response());
    row.rt2 = double(r.sides[1].response());
    row.alone1 = double(results[pl.alone1].sides[0].response());
    row.alone2 = double(results[pl.alone2].sides[0].response());
    row.avg_exec = (row.rt1 + row.rt2) / 2;
    row.shared_sms = r.shared_sms;
    row.sms = r.sms;
    row.verified = r.sides[0].verified && r.sides[1].verified && results[pl.alone1].sides[0].verified &&
                   results[pl.alone2].sides[0].verified;
    res.rows.push_back(row);
  }
  normalise_rows(res.rows, spec.baseline);
  return res;
}

// --- output ---------------------------------------------------------------------------------

nlohmann::json rows_to_json(const std::vector<QosRow>& rows) {
  nlohmann::json a = nlohmann::json::array();
  for (const QosRow& r : rows)
    a.push_back({{"pair", r.pair},
                 {"k1", r.k1},
                 {"k2", r.k2},
                 {"scheduler", r.scheduler},
                 {"budget", r.budget},
                 {"best", r.best},
                 {"rt1", r.rt1},
                 {"rt2", r.rt2},
                 {"alone1", r.alone1},
                 {"alone2", r.alone2},
                 {"norm_rt1", r.norm_rt1},
                 {"norm_rt2", r.norm_rt2},
                 {"k2_speedup", r.k2_speedup},
                 {"avg_exec", r.avg_exec},
                 {"norm_avg_exec", r.norm_avg_exec},
                 {"stp", r.stp},
                 {"antt", r.antt},
                 {"shared_sms", r.shared_sms},
                 {"sms", r.sms},
                 {"verified", r.verified}});
  return a;
}

std::string rows_to_csv(const std::vector<QosRow>& rows) {
  std::string s =
      "pair,k1,k2,scheduler,budget,best,rt1,rt2,alone1,alone2,norm_rt1,norm_rt2,k2_speedup,avg_exec,"
      "norm_avg_exec,stp,antt,shared_sms,sms,verified\n";
  for (const QosRow& r : rows)
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{:.6g},{:.6g},{:.6g},{},{:.6g},{:.6g},{:.6g},{},{},{}\n", r.pair,
                     r.k1, r.k2, r.scheduler, r.budget, r.best ? 1 : 0, r.rt1, r.rt2, r.alone1, r.alone2, r.norm_rt1,
                     r.norm_rt2, r.k2_speedup, r.avg_exec, r.norm_avg_exec, r.stp, r.antt, r.shared_sms, r.sms,
                     r.verified ? 1 : 0);
  return s;
}

double mean_over_pairs(const std::vector<QosRow>& rows, const std::string& scheduler, double QosRow::*column) {
  double log_sum = 0;
  size_t n = 0;
  for (const QosRow& r : rows)
    if (r.scheduler == scheduler && r.best && r.*column > 0) {
      log_sum += std::log(r.*column);
      ++n;
    }
  return n ? std::exp(log_sum / double(n)) : std::nan("");
}

QosCharts qos_charts(const std::vector<QosRow>& rows, const std::vector<std::string>& schedulers,
                     const std::string& baseline) {
  std::vector<std::string> pairs;
  for (const QosRow& r : rows)
    if (std::find(pairs.begin(), pairs.end(), r.pair) == pairs.end()) pairs.push_back(r.pair);
  auto value = [&](const std::string& pair, const std::string& sched, double QosRow::*col) {
    for (const QosRow& r : rows)
      if (r.pair == pair && r.scheduler == sched && r.best) return r.*col;
    return std::nan("");
  };
  auto series = [&](const std::string& name, const std::string& sched, double QosRow::*col) {
    svg::Series s{name, {}};
    for (const auto& p : pairs) s.values.push_back(value(p, sched, col));
    s.values.push_back(mean_over_pairs(rows, sched, col));
    return s;
  };
  // Short labels: "_pt" dropped, a homogeneous pair named once.
  auto strip = [](std::string w) {
    if (w.size() > 3 && w.compare(w.size() - 3, 3, "_pt") == 0) w.resize(w.size() - 3);
    return w;
  };
  std::vector<std::string> cats;
  for (const auto& p : pairs) {
    std::string k1, k2;
    for (const QosRow& r : rows)
      if (r.pair == p) {
        k1 = r.k1;
        k2 = r.k2;
      }
    cats.push_back(k1 == k2 ? strip(k1) : strip(k1) + ":" + strip(k2));
  }
  cats.push_back("mean");
  QosCharts c;
  svg::BarChart rt;
  rt.title = fmt::format("Response times, normalised to K1 under {} (best budget)", baseline);
  rt.y_label = "response time / K1 " + baseline;
  rt.categories = cats;
  for (const auto& s : schedulers) {
    rt.series.push_back(series("K1 " + s, s, &QosRow::norm_rt1));
    rt.series.push_back(series("K2 " + s, s, &QosRow::norm_rt2));
  }
  rt.reference = 1.0;
  rt.width = std::max(900, int(cats.size()) * 110);
  rt.height = 400;
  c.response = svg::grouped_bars(rt);
  svg::BarChart sp;
  sp.title = fmt::format("K2 speedup over {}", baseline);
  sp.y_label = "K2 response " + baseline + " / K2 response";
  sp.categories = cats;
  for (const auto& s : schedulers)
    if (s != baseline) sp.series.push_back(series(s, s, &QosRow::k2_speedup));
  sp.reference = 1.0;
  sp.width = rt.width;
  sp.height = rt.height;
  c.speedup = svg::grouped_bars(sp);
  svg::BarChart av;
  av.title = fmt::format("Average execution time of K1 and K2, normalised to {}", baseline);
  av.y_label = "mean response / mean response " + baseline;
  av.categories = cats;
  for (const auto& s : schedulers) av.series.push_back(series(s, s, &QosRow::norm_avg_exec));
  av.reference = 1.0;
  av.width = rt.width;
  av.height = rt.height;
  c.avg_exec = svg::grouped_bars(av);
  return c;
}

}  // namespace warpsim::experiment

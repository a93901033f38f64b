#include "experiment/multikernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include "core/error.h"
#include "timing/gpu.h"
#include "workloads/bundled.h"

namespace warpsim::experiment {

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
  void produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) override;
  void on_kernel_done() override { inner_->on_kernel_done(); }
  int source_line(uint32_t pc) const override { return inner_->source_line(pc); }

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
  const CoreConfig* core_config() const override;

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

void SideKernel::produce_cta(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
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
const CoreConfig* SideTarget::core_config() const { return coord_->gpu ? coord_->gpu->core_config() : nullptr; }

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

}  // namespace

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

uint32_t fitted_grid(const GpuConfig& gpu, const CtaDemand& cta, uint32_t share) {
  if (cta.threads == 0) throw Error("fitted grid: empty block");
  return std::max<uint32_t>(1, ctas_per_sm(gpu.core, cta, share)) * gpu.core.num_sms;
}

namespace {

// The largest demand among the module's kernels for CTAs of `block` threads.
CtaDemand bundled_demand(const BundledWorkload& b, LaunchTarget& target, uint32_t block) {
  Runtime probe(&target);
  ModuleHandle m = b.load(probe);
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

}  // namespace warpsim::experiment

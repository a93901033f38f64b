#include "ptx/executor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "ptx/device_printf.h"
#include "ptx/ops.h"
#include "ptx/texture_query.h"
#include "ptx/wmma.h"

namespace warpsim::ptx {

namespace {
// Calls nested deeper than this stop the kernel (unbounded recursion), as does a warp's saved
// state of re-entered functions (registers and frames) beyond kMaxSavedBytes.
constexpr uint32_t kMaxCallDepth = 1024;
constexpr size_t kMaxSavedBytes = size_t(64) << 20;

std::string count(uint32_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
}  // namespace

CtaExecutor::CtaExecutor(std::shared_ptr<const Program> prog, const Launch* launch)
    : prog_(std::move(prog)), launch_(launch) {
  threads_ = uint32_t(launch_->block.count());
  nwarps_ = (threads_ + 31) / 32;
  shared_size_ = prog_->dyn_shared_offset + launch_->dynamic_shared;
  if (launch_->dynamic_shared == 0) shared_size_ = std::max(prog_->static_shared, prog_->dyn_shared_offset);
  local_size_ = prog_->local_bytes;
  regs_.assign(size_t(nwarps_) * prog_->num_regs * 32, 0);
  shared_.assign(shared_size_, 0);
  local_.assign(size_t(threads_) * local_size_, 0);
  warps_.resize(nwarps_);
  pf_last_.assign(prog_->insts.size(), 0);
  for (uint32_t w = 0; w < nwarps_; ++w) {
    warps_[w].regs = regs_.data() + size_t(w) * prog_->num_regs * 32;
    warps_[w].stack.reserve(16);
    warps_[w].frames.reserve(8);
    warps_[w].active.assign(prog_->funcs.size(), 0);
    for (const auto& c : prog_->consts)
      for (int l = 0; l < 32; ++l) warps_[w].regs[size_t(c.index) * 32 + l] = c.value;
  }
}

CtaExecutor::~CtaExecutor() = default;

void CtaExecutor::init_warp(Warp& w, uint32_t idx, uint32_t sm_id) {
  w.id = idx;
  w.stack.clear();
  w.frames.clear();
  std::fill(w.active.begin(), w.active.end(), 0);
  w.saved_regs.clear();
  w.saved_local.clear();
  w.count = 0;
  w.state = Warp::Running;
  w.last_exit = false;
  uint32_t first = idx * 32;
  uint32_t n = std::min<uint32_t>(32, threads_ - first);
  w.live = n == 32 ? 0xffffffffu : ((1u << n) - 1);
  w.stack.push_back({0, kNone, w.live});
  const Dim3& b = launch_->block;
  const Dim3& g = launch_->grid;
  for (const auto& s : prog_->specials) {
    uint64_t* r = w.regs + size_t(s.index) * 32;
    auto fill = [&](auto f) {
      for (uint32_t l = 0; l < 32; ++l) r[l] = f(first + l, l);
    };
    auto uniform = [&](uint64_t v) {
      for (uint32_t l = 0; l < 32; ++l) r[l] = v;
    };
    switch (s.which) {
      case Special::TidX:
        if (b.y == 1 && b.z == 1)
          fill([&](uint32_t t, uint32_t) { return t; });
        else
          fill([&](uint32_t t, uint32_t) { return t % b.x; });
        break;
      case Special::TidY:
        fill([&](uint32_t t, uint32_t) { return (t / b.x) % b.y; });
        break;
      case Special::TidZ:
        fill([&](uint32_t t, uint32_t) { return t / (b.x * b.y); });
        break;
      case Special::NtidX:
        uniform(b.x);
        break;
      case Special::NtidY:
        uniform(b.y);
        break;
      case Special::NtidZ:
        uniform(b.z);
        break;
      case Special::CtaidX:
        uniform(ctaid_[0]);
        break;
      case Special::CtaidY:
        uniform(ctaid_[1]);
        break;
      case Special::CtaidZ:
        uniform(ctaid_[2]);
        break;
      case Special::NctaidX:
        uniform(g.x);
        break;
      case Special::NctaidY:
        uniform(g.y);
        break;
      case Special::NctaidZ:
        uniform(g.z);
        break;
      case Special::LaneId:
        fill([](uint32_t, uint32_t l) { return l; });
        break;
      case Special::WarpId:
        uniform(idx);
        break;
      case Special::NWarpId:
        uniform(nwarps_);
        break;
      case Special::SmId:
        uniform(sm_id);
        break;
      case Special::NSmId:
        uniform(1);
        break;
      case Special::GridId:
        uniform(0);
        break;
      case Special::LanemaskEq:
        fill([](uint32_t, uint32_t l) { return uint64_t(1u << l); });
        break;
      case Special::LanemaskLt:
        fill([](uint32_t, uint32_t l) { return uint64_t((1u << l) - 1); });
        break;
      case Special::LanemaskLe:
        fill([](uint32_t, uint32_t l) { return uint64_t(l == 31 ? 0xffffffffu : (2u << l) - 1); });
        break;
      case Special::LanemaskGt:
        fill([](uint32_t, uint32_t l) { return uint64_t(l == 31 ? 0u : ~((2u << l) - 1)); });
        break;
      case Special::LanemaskGe:
        fill([](uint32_t, uint32_t l) { return uint64_t(~((1u << l) - 1)); });
        break;
      default:
        if (s.which >= Special::EnvReg0 && s.which <= Special::EnvRegLast) {
          const uint32_t n = uint32_t(s.which) - uint32_t(Special::EnvReg0);
          const DevPtr ws = launch_->grid_workspace;
          uniform(n == 1 ? ws >> 32 : n == 2 ? ws & 0xffffffffu : 0);
        }
        break;
    }
  }
}

void CtaExecutor::run(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
  begin(cta_id, sm_id, out);
  uint64_t last = 0;
  uint32_t stuck = 0;
  while (!resume()) {
    const uint64_t now = poll_state();
    stuck = now == last ? stuck + 1 : 0;
    last = now;
    if (stuck >= kStuckRounds)
      throw Error("kernel '" + launch_->kernel + "': CTA (" + std::to_string(ctaid_[0]) + "," +
                  std::to_string(ctaid_[1]) + "," + std::to_string(ctaid_[2]) +
                  ") waits for a write none of its warps makes (" + std::to_string(kStuckRounds) +
                  " rounds without change): " + describe_waits() +
                  ". The CTAs of an ordinary launch run one after another here, so that one cannot wait for "
                  "another; a grid-wide barrier needs cudaLaunchCooperativeKernel");
  }
}

void CtaExecutor::begin(uint32_t cta_id, uint32_t sm_id, CtaStreams& out) {
  const Dim3& g = launch_->grid;
  ctaid_[0] = cta_id % g.x;
  ctaid_[1] = (cta_id / g.x) % g.y;
  ctaid_[2] = cta_id / (g.x * g.y);
  out.cta_id = cta_id;
  out.warps.resize(nwarps_);
  std::fill(shared_.begin(), shared_.end(), 0);
  std::fill(local_.begin(), local_.end(), 0);
  for (uint32_t i = 0; i < nwarps_; ++i) {
    out.warps[i].clear();
    warps_[i].out = &out.warps[i];
    init_warp(warps_[i], i, sm_id);
  }
  std::fill(std::begin(bar_waiting_), std::end(bar_waiting_), 0);
  std::fill(std::begin(bar_arrived_), std::end(bar_arrived_), 0);
  std::fill(std::begin(bar_red_), std::end(bar_red_), BarrierReduction{});
  cache_page_ = ~uint64_t(0);
}

bool CtaExecutor::resume() {
  for (auto& w : warps_)
    if (w.state == Warp::Polling) w.state = Warp::Running;
  for (;;) {
    for (auto& w : warps_)
      if (w.state == Warp::Running) run_warp(w);
    uint32_t not_done = 0, polling = 0;
    for (auto& w : warps_) {
      not_done += w.state != Warp::Done;
      polling += w.state == Warp::Polling;
    }
    if (not_done == 0) break;
    bool released = false;
    for (int b = 0; b < 16; ++b) {
      if (bar_waiting_[b] == 0) continue;
      uint32_t expected = bar_count_[b] ? (bar_count_[b] + 31) / 32 : not_done;
      if (bar_waiting_[b] + bar_arrived_[b] >= expected) {
        for (auto& w : warps_)
          if (w.state == Warp::AtBarrier && w.barrier == b) {
            w.state = Warp::Running;
            const Inst& bar = prog_->insts[w.barrier_inst];
            if (bar.mods & kModRed) bar_red_[b].write(bar, w.regs + size_t(bar.d[0]) * 32, w.barrier_lanes);
          }
        bar_waiting_[b] = bar_arrived_[b] = bar_count_[b] = 0;
        bar_red_[b] = BarrierReduction{};
        released = true;
      }
    }
    if (released) continue;
    if (polling) return false;  // the CTA waits for another CTA's write
    std::string msg = "kernel '" + launch_->kernel + "': barrier deadlock in CTA (" + std::to_string(ctaid_[0]) + "," +
                      std::to_string(ctaid_[1]) + "," + std::to_string(ctaid_[2]) + "): ";
    uint32_t exited = 0;
    for (auto& w : warps_) {
      if (w.state == Warp::AtBarrier) {
        const Inst& bar = prog_->insts[w.barrier_inst];
        char where_bar[160];
        std::snprintf(where_bar, sizeof where_bar, " (pc 0x%x, %s:%d)", bar.tmpl.pc, prog_->file.c_str(), bar.line);
        msg += "warp " + std::to_string(w.id) + " waits at barrier " + std::to_string(w.barrier) + where_bar + "; ";
      }
      exited += w.state == Warp::Done;
    }
    msg += std::to_string(exited) + " of " + std::to_string(nwarps_) + " warps have exited; no barrier can complete";
    throw Error(msg);
  }
  for (auto& w : warps_) warp_insts_ += w.out->insts.size();
  return true;
}

uint64_t CtaExecutor::poll_state() const {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  const size_t words = size_t(prog_->num_regs) * 32;
  for (const auto& w : warps_) {
    mix(w.state);
    if (w.state != Warp::Polling) continue;  // barriers and exited warps do not change
    for (const Entry& e : w.stack) mix((uint64_t(e.pc) << 32 | e.rpc) ^ (uint64_t(e.mask) << 16));
    for (size_t i = 0; i < words; ++i) mix(w.regs[i]);
  }
  return h;
}

std::string CtaExecutor::describe_waits() const {
  std::string s;
  for (const auto& w : warps_) {
    if (w.state != Warp::Polling && w.state != Warp::AtBarrier) continue;
    const bool poll = w.state == Warp::Polling;
    const Inst& in = prog_->insts[poll ? w.poll_inst : w.barrier_inst];
    if (!s.empty()) s += "; ";
    s += where(w, in, std::countr_zero(w.live)) + (poll ? ": polls global memory" : ": waits at a barrier");
  }
  return s;
}

std::string CtaExecutor::trap_hint() const {
  bool reads_workspace = false;
  for (const auto& sp : prog_->specials)
    reads_workspace |= sp.which == Special(int(Special::EnvReg0) + 1) || sp.which == Special(int(Special::EnvReg0) + 2);
  if (!reads_workspace || launch_->cooperative()) return "";
  return " (the kernel reads the grid workspace of cooperative launches, %envreg1/%envreg2, which is null because "
         "it was not launched with cudaLaunchCooperativeKernel: cooperative_groups::this_grid().sync() traps "
         "here)";
}

std::string CtaExecutor::where(const Warp& w, const Inst& in, int lane) const {
  uint32_t t = w.id * 32 + uint32_t(lane);
  const Dim3& b = launch_->block;
  char buf[256];
  std::snprintf(buf, sizeof buf, "kernel '%s', CTA (%u,%u,%u), thread (%u,%u,%u), pc 0x%x (%s:%d)",
                launch_->kernel.c_str(), ctaid_[0], ctaid_[1], ctaid_[2], t % b.x, (t / b.x) % b.y, t / (b.x * b.y),
                in.tmpl.pc, prog_->file.c_str(), in.line);
  return buf;
}

void CtaExecutor::mem_error(Warp& w, const Inst& in, int lane, const char* what, Space sp, uint64_t addr,
                            uint32_t bytes, bool write) {
  std::string msg = where(w, in, lane) + ": " + what + " " + space_name(sp) + " " + (write ? "write" : "read") +
                    " of " + std::to_string(bytes) + " bytes at address " + hex(addr);
  // Under memcheck, the invalid accesses found before the fault come with it.
  if (launch_->memcheck && launch_->memcheck->total) {
    msg += '\n';
    msg += launch_->memcheck->report(launch_->kernel);
  }
  throw Error(msg);
}

std::string MemcheckLog::report(const std::string& kernel) const {
  std::string s = "memcheck: kernel '" + kernel + "': " + std::to_string(total) + " invalid global " +
                  (total == 1 ? "access" : "accesses") + " (" + std::to_string(entries.size()) + " distinct)";
  for (const auto& e : entries) {
    s += "\n  " + e.text;
    if (e.count > 1) s += " [" + std::to_string(e.count - 1) + " more like it]";
  }
  if (dropped)
    s += "\n  ... " + std::to_string(dropped) + " more accesses of further kinds (only the first " +
         std::to_string(kMaxEntries) + " kinds are listed)";
  return s;
}

// memcheck: an access inside the mapped device heap (it succeeds, as without memcheck) but not
// wholly inside one live allocation's requested bytes is recorded.
void CtaExecutor::memcheck_access(Warp& w, const Inst& in, int lane, Space sp, uint64_t addr, uint64_t a,
                                  uint32_t bytes, bool write) {
  const DeviceMemory& mem = *launch_->memory;
  if (mem.in_allocation(a, bytes)) return;
  MemcheckLog& log = *launch_->memcheck;
  ++log.total;
  DeviceMemory::AccessFault f = mem.describe_access(a, bytes);
  // The allocation named in the description (its address), to tell kinds apart.
  std::string alloc = f.where.substr(f.where.find(" at ") == std::string::npos ? f.where.size() : f.where.find(" at "));
  auto key = std::make_tuple(in.tmpl.pc, write, f.after_free, alloc);
  auto it = log.index.find(key);
  if (it != log.index.end()) {
    ++log.entries[it->second].count;
    return;
  }
  if (log.entries.size() >= MemcheckLog::kMaxEntries) {
    ++log.dropped;
    return;
  }
  log.index.emplace(key, log.entries.size());
  std::string text = where(w, in, lane) + ": " + (f.after_free ? "use after free: " : "out-of-bounds ") +
                     space_name(sp) + " " + (write ? "write" : "read") + " of " + std::to_string(bytes) +
                     " bytes at address " + hex(addr) + ", " + f.where;
  log.entries.push_back({std::move(text), 1});
}

uint8_t* CtaExecutor::resolve(Warp& w, const Inst& in, int lane, Space sp, uint64_t addr, uint32_t bytes, bool write,
                              MemSpace& tspace, uint64_t& taddr) {
  if (addr & (bytes - 1)) mem_error(w, in, lane, "misaligned", sp, addr, bytes, write);
  Space real = sp;
  uint64_t a = addr;
  if (sp == Space::Generic) {
    if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize)
      real = Space::Shared, a = addr - kSharedWindow;
    else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize)
      real = Space::Local, a = addr - kLocalWindow;
    else
      real = Space::Global;
  }
  if (real == Space::Param && in.param_frame) real = Space::Local;
  // The shared and local state spaces are 32-bit windows (the hardware's LDS/LDL take 32-bit
  // addresses): a 32-bit base register plus an offset wraps modulo 2^32, e.g. [%r+imm] with %r
  // "negative" and the immediate bringing the sum back into range.
  if (sp == Space::Shared || sp == Space::Local) a = uint32_t(a);
  switch (real) {
    case Space::Global:
    case Space::Const: {
      tspace = real == Space::Const ? MemSpace::Const : MemSpace::Global;
      taddr = a;
      uint8_t* p = write ? launch_->memory->write_ptr(a) : const_cast<uint8_t*>(launch_->memory->read_ptr(a));
      if (!p) mem_error(w, in, lane, "out-of-bounds", sp, addr, bytes, write);
      if (launch_->memcheck) memcheck_access(w, in, lane, sp, addr, a, bytes, write);
      return p;
    }
    case Space::Shared:
      tspace = MemSpace::Shared;
      taddr = a;
      if (a + bytes > shared_size_ || a + bytes < a) mem_error(w, in, lane, "out-of-bounds", sp, addr, bytes, write);
      return shared_.data() + a;
    case Space::Local: {
      tspace = sp == Space::Param ? MemSpace::Param : MemSpace::Local;
      if (a + bytes > local_size_ || a + bytes < a) mem_error(w, in, lane, "out-of-bounds", sp, addr, bytes, write);
      // The timing model places local memory itself (LdstUnit::expand: word k of every
      // resident thread side by side), so it gets the offset in the thread's local window.
      taddr = a;
      return local_.data() + size_t(w.id * 32 + uint32_t(lane)) * local_size_ + a;
    }
    case Space::Param:
      tspace = MemSpace::Param;
      taddr = a;
      if (write) mem_error(w, in, lane, "write to kernel parameter:", sp, addr, bytes, write);
      if (a + bytes > launch_->params.size() || a + bytes < a)
        mem_error(w, in, lane, "out-of-bounds", sp, addr, bytes, write);
      return const_cast<uint8_t*>(launch_->params.data()) + a;
    default:
      mem_error(w, in, lane, "unsupported state space in", sp, addr, bytes, write);
  }
}

void CtaExecutor::emit(Warp& w, const Inst& in, uint32_t mask, uint32_t simt_mask) {
  emit_access(w, in, mask, simt_mask, in.tmpl.addr_index, in.tmpl.space);
}

void CtaExecutor::emit_access(Warp& w, const Inst& in, uint32_t mask, uint32_t simt_mask, uint32_t addr_index,
                              MemSpace space) {
  WarpInst wi = in.tmpl;
  wi.active_mask = mask;
  wi.addr_index = addr_index;
  wi.space = space;
  if (simt_mask != w.live) wi.flags |= kFlagDiverged;
  w.out->insts.push_back(wi);
  thread_insts_ += popc32(uint32_t(mask));
}

void CtaExecutor::remove_lanes(Warp& w, uint32_t lanes) {
  w.live &= ~lanes;
  for (auto& e : w.stack) e.mask &= ~lanes;
}

void CtaExecutor::do_call_copies(Warp& w, const CallInfo& ci, bool rets, uint32_t lanes) {
  const auto& copies = rets ? ci.rets : ci.args;
  for (const auto& c : copies)
    for_lanes(lanes, [&](int l) {
      uint8_t* base = local_.data() + size_t(w.id * 32 + uint32_t(l)) * local_size_;
      std::memmove(base + c.to, base + c.from, c.bytes);
    });
}

// A call executed by `exec` (not empty). The caller's entry already points after the call; each
// callee runs on an entry of its own pushed above it, so the caller resumes when every callee
// has returned. Lanes of an indirect call that reach different functions run one function after
// the other (the lowest lane's first), as a divergent branch does.
void CtaExecutor::exec_call(Warp& w, const Inst& in, uint32_t exec) {
  if (in.target != kNone) {
    enter(w, in, prog_->insts[in.target].func, in.call_index, exec);
    return;
  }
  const uint64_t* t = w.regs + size_t(in.s[0]) * 32;
  const int l0 = std::countr_zero(exec);
  const uint64_t a0 = t[l0];
  uint32_t same = 0;
  for_lanes(exec, [&](int l) { same |= uint32_t(t[l] == a0) << l; });
  uint32_t call = kNone;
  if (same == exec) {
    uint32_t f = indirect_callee(w, in, l0, call);
    enter(w, in, f, call, exec);
    return;
  }
  struct Group {
    uint32_t func, call, lanes;
  };
  Group groups[32];
  int n = 0;
  for (uint32_t rest = exec; rest;) {
    const int l = std::countr_zero(rest);
    const uint64_t a = t[l];
    uint32_t lanes = 0;
    for_lanes(rest, [&](int k) { lanes |= uint32_t(t[k] == a) << k; });
    rest &= ~lanes;
    uint32_t f = indirect_callee(w, in, l, call);
    groups[n++] = {f, call, lanes};
  }
  for (int i = n; i-- > 0;) enter(w, in, groups[i].func, groups[i].call, groups[i].lanes);
}

// The function lane `lane` of indirect call `in` reaches, and the copies of that call.
uint32_t CtaExecutor::indirect_callee(Warp& w, const Inst& in, int lane, uint32_t& call) {
  const uint64_t a = w.regs[size_t(in.s[0]) * 32 + uint32_t(lane)];
  const auto& targets = prog_->targets;
  auto it =
      std::lower_bound(targets.begin(), targets.end(), a, [](const FuncTarget& t, uint64_t v) { return t.addr < v; });
  if (it == targets.end() || it->addr != a)
    throw Error(where(w, in, lane) + ": indirect call through " + hex(a) +
                (a == 0 ? " (a null function pointer)" : "") + ", which is not the address of a function");
  if (it->func == kNone) throw Error(where(w, in, lane) + ": indirect call to '" + it->name + "', " + it->why);
  const IndirectCall& ic = prog_->indirect[in.call_index];
  call = ic.call_of[it->func];
  if (call == kNone) {
    const FuncInfo& fi = prog_->funcs[it->func];
    throw Error(where(w, in, lane) + ": indirect call to '" + it->name + "' passes " + count(ic.nargs, "argument") +
                " and " + count(ic.nrets, "return value") + ", the function declares " +
                count(fi.nparams, "parameter") + " and " + count(fi.nrets, "return value"));
  }
  return it->func;
}

// Starts an activation of `func` for `lanes`: saves the function's registers and frame when it
// is already active, copies the arguments, and pushes the frame and the callee's entry.
void CtaExecutor::enter(Warp& w, const Inst& in, uint32_t func, uint32_t call, uint32_t lanes) {
  const FuncInfo& fi = prog_->funcs[func];
  if (w.frames.size() >= kMaxCallDepth)
    throw Error(where(w, in, std::countr_zero(lanes)) + ": call depth limit of " + std::to_string(kMaxCallDepth) +
                " exceeded calling '" + fi.name + "' (unbounded recursion?)");
  Frame f{call, func, uint32_t(w.stack.size()), lanes, kNoSave, 0};
  if (w.active[func] != 0) {
    const size_t nregs = size_t(fi.reg_end - fi.reg_first) * 32;
    f.saved_regs = w.saved_regs.size();
    f.saved_local = w.saved_local.size();
    if ((f.saved_regs + nregs) * 8 + f.saved_local + size_t(popc32(lanes)) * fi.frame_size > kMaxSavedBytes)
      throw Error(where(w, in, std::countr_zero(lanes)) + ": recursion too deep calling '" + fi.name +
                  "': the saved registers and frames of " + std::to_string(w.frames.size()) + " active calls exceed " +
                  std::to_string(kMaxSavedBytes >> 20) + " MiB");
    const uint64_t* r = w.regs + size_t(fi.reg_first) * 32;
    w.saved_regs.insert(w.saved_regs.end(), r, r + nregs);
    for_lanes(lanes, [&](int l) {
      const uint8_t* p = local_.data() + size_t(w.id * 32 + uint32_t(l)) * local_size_ + fi.frame_base;
      w.saved_local.insert(w.saved_local.end(), p, p + fi.frame_size);
    });
  }
  ++w.active[func];
  do_call_copies(w, prog_->calls[call], false, lanes);
  w.frames.push_back(f);
  w.stack.push_back({fi.first, kNone, lanes});
}

// Ends activation `f`: copies the return values of `lanes` back (copy_rets) and restores what
// entering it saved.
void CtaExecutor::leave(Warp& w, const Frame& f, uint32_t lanes, bool copy_rets) {
  const CallInfo& ci = prog_->calls[f.call];
  --w.active[f.func];
  if (f.saved_regs == kNoSave) {
    if (copy_rets) do_call_copies(w, ci, true, lanes);
    return;
  }
  // The return values leave the callee's frame before it is restored: the caller may be an
  // older activation of the same function, whose frame is the same memory.
  auto lane_base = [&](int l) { return local_.data() + size_t(w.id * 32 + uint32_t(l)) * local_size_; };
  ret_buf_.clear();
  if (copy_rets)
    for_lanes(lanes, [&](int l) {
      for (const auto& c : ci.rets)
        ret_buf_.insert(ret_buf_.end(), lane_base(l) + c.from, lane_base(l) + c.from + c.bytes);
    });
  const FuncInfo& fi = prog_->funcs[f.func];
  std::copy(w.saved_regs.begin() + ptrdiff_t(f.saved_regs), w.saved_regs.end(), w.regs + size_t(fi.reg_first) * 32);
  w.saved_regs.resize(f.saved_regs);
  size_t k = f.saved_local;
  for_lanes(f.lanes, [&](int l) {
    std::memcpy(lane_base(l) + fi.frame_base, w.saved_local.data() + k, fi.frame_size);
    k += fi.frame_size;
  });
  w.saved_local.resize(f.saved_local);
  if (copy_rets) {
    size_t off = 0;
    for_lanes(lanes, [&](int l) {
      for (const auto& c : ci.rets) {
        std::memcpy(lane_base(l) + c.to, ret_buf_.data() + off, c.bytes);
        off += c.bytes;
      }
    });
  }
}

// Activations whose entry is gone (every lane exited inside them): restored, no return values.
void CtaExecutor::drop_frames(Warp& w) {
  while (!w.frames.empty() && w.frames.back().depth >= w.stack.size()) {
    Frame f = w.frames.back();
    w.frames.pop_back();
    leave(w, f, 0, false);
  }
}

template <uint32_t ES, bool LOAD, Space SP>
void CtaExecutor::mem_fast(Warp& w, const Inst& in, uint32_t exec, uint64_t* taddrs) {
  const uint32_t total = ES * in.vec;
  const bool sgn = in.sgn;
  const uint64_t* base = in.addr_reg != kNone ? w.regs + size_t(in.addr_reg) * 32 : nullptr;
  const int64_t off = in.offset;
  uint64_t* R = w.regs;
  if (exec == 0xffffffffu && in.vec == 1 && base) {
    // Whole-warp fast path: every lane aligned and inside shared memory, or inside one page.
    uint8_t* region = nullptr;
    if constexpr (SP == Space::Shared) {
      const uint64_t lim = shared_size_ >= ES ? shared_size_ - ES : 0;
      uint64_t bad = shared_size_ < ES;
      for (int l = 0; l < 32; ++l) {
        uint64_t a = uint32_t(base[l] + uint64_t(off));  // the shared window is 32-bit
        taddrs[l] = a;
        bad |= uint64_t(a > lim) | (a & (ES - 1));
      }
      if (!bad) region = shared_.data();
    } else {
      const uint64_t a0 = base[0] + uint64_t(off);
      uint64_t diff = 0, mis = 0;
      for (int l = 0; l < 32; ++l) {
        uint64_t a = base[l] + uint64_t(off);
        taddrs[l] = a;
        diff |= a ^ a0;
        mis |= a;
      }
      if ((mis & (ES - 1)) == 0 && (diff >> DeviceMemory::kPageBits) == 0) {
        uint8_t* p = global_page_ptr(a0, !LOAD);
        if (p) region = p - a0;
        // Strided stream (the same instruction moved by a page or more since its last
        // execution): prefetch two strides ahead.
        uint64_t& last = pf_last_[size_t(&in - prog_->insts.data())];
        const int64_t stride = int64_t(a0 - last);
        last = a0;
        if ((stride >= 2048 || stride <= -2048) && stride < (int64_t(1) << 30) && stride > -(int64_t(1) << 30)) {
          if (const uint8_t* q = launch_->memory->materialized_ptr(a0 + uint64_t(2 * stride))) {
            __builtin_prefetch(q, LOAD ? 0 : 1);
            __builtin_prefetch(q + 64, LOAD ? 0 : 1);
          }
        }
      }
    }
    if (region) {
      if constexpr (LOAD) {
        if (in.d[0] == kNone) return;
        uint64_t* d = R + size_t(in.d[0]) * 32;
        if (ES < 8 && sgn) {
          for (int l = 0; l < 32; ++l) {
            uint64_t x = 0;
            std::memcpy(&x, region + taddrs[l], ES);
            if constexpr (ES < 8) x = uint64_t(int64_t(x << (64 - ES * 8)) >> (64 - ES * 8));
            d[l] = x;
          }
        } else {
          for (int l = 0; l < 32; ++l) {
            uint64_t x = 0;
            std::memcpy(&x, region + taddrs[l], ES);
            d[l] = x;
          }
        }
      } else {
        const uint64_t* v = R + size_t(in.s[0]) * 32;
        for (int l = 0; l < 32; ++l) std::memcpy(region + taddrs[l], &v[l], ES);
      }
      return;
    }
  }
  for_lanes(exec, [&](int l) {
    uint64_t addr = (base ? base[l] : 0) + uint64_t(off);
    // A 32-bit register plus an offset wraps modulo 2^32 in the 32-bit shared window (nvcc emits
    // [%r+imm] with %r "negative" and the immediate bringing it back in range).
    if constexpr (SP == Space::Shared) addr = uint32_t(addr);
    taddrs[l] = addr;
    uint8_t* p = nullptr;
    if (!(addr & (total - 1))) {
      if constexpr (SP == Space::Shared) {
        if (addr + total <= shared_size_) p = shared_.data() + addr;
      } else {
        p = global_page_ptr(addr, !LOAD);
      }
    }
    if (!p) {
      MemSpace ts;
      p = resolve(w, in, l, in.space, addr, total, !LOAD, ts, taddrs[l]);
    }
    for (uint32_t v = 0; v < in.vec; ++v) {
      uint8_t* q = p + v * ES;
      if constexpr (LOAD) {
        if (in.d[v] == kNone) continue;
        uint64_t x = 0;
        std::memcpy(&x, q, ES);
        if (ES < 8 && sgn && ((x >> (ES * 8 - 1)) & 1)) x |= ~uint64_t(0) << (ES * 8 % 64);
        R[size_t(in.d[v]) * 32 + l] = x;
      } else {
        uint64_t x = R[size_t(in.s[v]) * 32 + l];
        std::memcpy(q, &x, ES);
      }
    }
  });
}

template <Space SP>
void CtaExecutor::mem_dispatch(Warp& w, const Inst& in, uint32_t exec, uint64_t* taddrs) {
  const bool ld = in.op == Op::Ld;
  switch (in.esize) {
    case 1:
      ld ? mem_fast<1, true, SP>(w, in, exec, taddrs) : mem_fast<1, false, SP>(w, in, exec, taddrs);
      break;
    case 2:
      ld ? mem_fast<2, true, SP>(w, in, exec, taddrs) : mem_fast<2, false, SP>(w, in, exec, taddrs);
      break;
    case 4:
      ld ? mem_fast<4, true, SP>(w, in, exec, taddrs) : mem_fast<4, false, SP>(w, in, exec, taddrs);
      break;
    default:
      ld ? mem_fast<8, true, SP>(w, in, exec, taddrs) : mem_fast<8, false, SP>(w, in, exec, taddrs);
      break;
  }
}

void CtaExecutor::exec_mem(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask) {
  WarpStream& out = *w.out;
  uint32_t ai = uint32_t(out.addrs.size());
  out.addrs.resize(ai + 32, 0);
  uint64_t* taddrs = out.addrs.data() + ai;
  if (in.space == Space::Param && !in.param_frame && in.addr_reg == kNone && in.op == Op::Ld && in.vec == 1) {
    // Kernel parameter: one uniform value for every lane.
    const uint32_t es = in.esize;
    uint64_t a = uint64_t(in.offset);
    int l0 = std::countr_zero(exec | 0x80000000u);
    if (a + es > launch_->params.size() || (a & (es - 1))) {
      MemSpace ts;
      resolve(w, in, l0, in.space, a, es, false, ts, taddrs[l0]);
    }
    uint64_t x = 0;
    std::memcpy(&x, launch_->params.data() + a, es);
    if (in.sgn && es < 8 && ((x >> (es * 8 - 1)) & 1)) x |= ~uint64_t(0) << (es * 8);
    if (in.d[0] != kNone) {
      uint64_t* d = w.regs + size_t(in.d[0]) * 32;
      for_lanes(exec, [&](int l) { d[l] = x; });
    }
    for_lanes(exec, [&](int l) { taddrs[l] = a; });
    emit_access(w, in, exec, simt_mask, ai, in.tmpl.space);
    return;
  }
  if (in.space == Space::Global || in.space == Space::Const || in.space == Space::Shared) {
    if (in.space == Space::Shared)
      mem_dispatch<Space::Shared>(w, in, exec, taddrs);
    else
      mem_dispatch<Space::Global>(w, in, exec, taddrs);
    emit_access(w, in, exec, simt_mask, ai, in.tmpl.space);
    return;
  }
  const uint32_t esize = in.esize;
  const uint32_t total = esize * in.vec;
  const bool is_ld = in.op == Op::Ld;
  const bool sgn = in.sgn;
  const uint64_t* base = in.addr_reg != kNone ? w.regs + size_t(in.addr_reg) * 32 : nullptr;
  MemSpace tspace = in.tmpl.space;
  bool first = true;
  uint64_t* R = w.regs;
  for_lanes(exec, [&](int l) {
    uint64_t addr = (base ? base[l] : 0) + uint64_t(in.offset);
    MemSpace ts;
    uint8_t* p = resolve(w, in, l, in.space, addr, total, !is_ld, ts, taddrs[l]);
    if (first) {
      tspace = ts;
      first = false;
    }
    for (uint32_t v = 0; v < in.vec; ++v) {
      uint8_t* q = p + v * esize;
      if (is_ld) {
        if (in.d[v] == kNone) continue;
        uint64_t x = 0;
        std::memcpy(&x, q, esize);
        if (sgn && esize < 8 && ((x >> (esize * 8 - 1)) & 1)) x |= ~uint64_t(0) << (esize * 8);
        R[size_t(in.d[v]) * 32 + l] = x;
      } else {
        uint64_t x = R[size_t(in.s[v]) * 32 + l];
        std::memcpy(q, &x, esize);
      }
    }
  });
  emit_access(w, in, exec, simt_mask, ai, tspace);
}

void CtaExecutor::exec_atomic(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask) {
  WarpStream& out = *w.out;
  uint32_t ai = uint32_t(out.addrs.size());
  out.addrs.resize(ai + 32, 0);
  uint64_t* taddrs = out.addrs.data() + ai;
  const uint32_t size = in.esize;
  const uint64_t* base = in.addr_reg != kNone ? w.regs + size_t(in.addr_reg) * 32 : nullptr;
  uint64_t* R = w.regs;
  MemSpace tspace = in.tmpl.space;
  bool first = true;
  const AtomOp op = AtomOp(in.sub);
  const Type t = in.type;
  for_lanes(exec, [&](int l) {
    uint64_t addr = (base ? base[l] : 0) + uint64_t(in.offset);
    MemSpace ts;
    uint8_t* p = resolve(w, in, l, in.space, addr, size, true, ts, taddrs[l]);
    if (first) {
      tspace = ts;
      first = false;
    }
    uint64_t old = 0;
    std::memcpy(&old, p, size);
    uint64_t b = R[size_t(in.s[0]) * 32 + l];
    uint64_t nv = old;
    auto sx = [&](uint64_t v) -> int64_t { return size == 4 ? int64_t(int32_t(uint32_t(v))) : int64_t(v); };
    auto zx = [&](uint64_t v) -> uint64_t { return size == 4 ? uint64_t(uint32_t(v)) : v; };
    switch (op) {
      case AtomOp::Add:
        if (t == Type::F32)
          nv = from_f32(as_f32(old) + as_f32(b));
        else if (t == Type::F64)
          nv = from_f64(as_f64(old) + as_f64(b));
        else
          nv = old + b;
        break;
      case AtomOp::Min:
        if (type_is_signed(t))
          nv = sx(b) < sx(old) ? b : old;
        else
          nv = zx(b) < zx(old) ? b : old;
        break;
      case AtomOp::Max:
        if (type_is_signed(t))
          nv = sx(b) > sx(old) ? b : old;
        else
          nv = zx(b) > zx(old) ? b : old;
        break;
      case AtomOp::Inc:
        nv = zx(old) >= zx(b) ? 0 : old + 1;
        break;
      case AtomOp::Dec:
        nv = (zx(old) == 0 || zx(old) > zx(b)) ? b : old - 1;
        break;
      case AtomOp::And:
        nv = old & b;
        break;
      case AtomOp::Or:
        nv = old | b;
        break;
      case AtomOp::Xor:
        nv = old ^ b;
        break;
      case AtomOp::Exch:
        nv = b;
        break;
      case AtomOp::Cas:
        nv = zx(old) == zx(b) ? R[size_t(in.s[1]) * 32 + l] : old;
        break;
    }
    std::memcpy(p, &nv, size);
    if (in.op == Op::Atom) R[size_t(in.d[0]) * 32 + l] = zx(old);
  });
  emit_access(w, in, exec, simt_mask, ai, tspace);
}

// The face of a cubemap a direction (x, y, z) points at, and the face coordinates (u, v) in
// [0, 1]: the CUDA programming guide's cubemap table (the component of largest magnitude picks
// the face; ties go to x, then y).
static int cube_face(double x, double y, double z, double& u, double& v) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  int face;
  double m, sc, tc;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az, sc = z >= 0 ? x : -x, tc = -y;
  }
  if (m == 0) m = 1;  // the zero vector: the centre of face 0
  u = (sc / m + 1) / 2;
  v = (tc / m + 1) / 2;
  return face;
}

const TextureDesc& CtaExecutor::texture(Warp& w, const Inst& in, int lane, uint64_t h) {
  if (!last_tex_ || h != last_tex_handle_) {
    auto it = launch_->textures ? launch_->textures->find(h) : TextureTable::const_iterator();
    if (!launch_->textures || it == launch_->textures->end())
      throw Error(where(w, in, lane) + ": invalid texture object " + hex(h));
    last_tex_ = &it->second;
    last_tex_handle_ = h;
  }
  return *last_tex_;
}

// txq: an attribute of each lane's texture object.
void CtaExecutor::exec_txq(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask) {
  uint64_t* R = w.regs;
  const uint64_t* handle = R + size_t(in.addr_reg) * 32;
  for_lanes(exec, [&](int l) {
    R[size_t(in.d[0]) * 32 + l] = texture_query(texture(w, in, l, handle[l]), TexQuery(in.sub));
  });
  emit(w, in, exec, simt_mask);
}

// tex and tld4. tld4 returns one component of the 4 texels a bilinear filter at the
// coordinates would weigh, counter-clockwise from the lower left: (i0, j1), (i1, j1),
// (i1, j0), (i0, j0), with i0 = floor(x - 0.5), j0 = floor(y - 0.5), i1 = i0 + 1,
// j1 = j0 + 1 (the texture's address mode applies to each); its memory access is that of a
// filtered tex.
void CtaExecutor::exec_tex(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask) {
  WarpStream& out = *w.out;
  uint32_t ai = uint32_t(out.addrs.size());
  out.addrs.resize(ai + 32, 0);
  uint64_t* taddrs = out.addrs.data() + ai;
  uint64_t* R = w.regs;
  const uint64_t* handle = R + size_t(in.addr_reg) * 32;
  const bool gather = in.op == Op::Tld4;
  const TexGeom geom = TexGeom(in.sub);
  const bool layered = geom == TexGeom::A1D || geom == TexGeom::A2D || geom == TexGeom::ACube;
  const bool cube = geom == TexGeom::Cube || geom == TexGeom::ACube;
  // Dimensions filtered and addressed: 1 (x), 2 (x, y) or 3 (x, y, z of a 3D texture).
  const int dims = geom == TexGeom::D1 || geom == TexGeom::A1D ? 1 : geom == TexGeom::D3 ? 3 : 2;
  for_lanes(exec, [&](int l) {
    uint64_t h = handle[l];
    const TextureDesc& d = texture(w, in, l, h);
    if (layered != d.layered || cube != d.cubemap || (dims < 3 && !layered && !cube && d.depth > 1)) {
      static const char* kGeom[] = {"?", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
      const char* kind = d.cubemap     ? (d.layered ? "a layered cubemap" : "a cubemap")
                         : d.layered   ? "a layered"
                         : d.depth > 1 ? "a 3D"
                                       : "a 1D or 2D";
      throw Error(where(w, in, l) + ": " + (gather ? "tld4." : "tex.") + kGeom[size_t(geom)] +
                  " does not match the texture object " + hex(h) + " (" + kind + " texture)");
    }
    const uint32_t cbytes = d.channel_bits / 8;
    const uint32_t ebytes = cbytes * d.channels;
    const uint64_t pitch = d.pitch ? d.pitch : uint64_t(d.width) * ebytes;
    const uint64_t slice_bytes = pitch * d.height;
    // Texel lookup in dimension `dim` with its address mode; returns false for border texels.
    auto texel_index = [&](int64_t i, uint32_t n, int dim, int64_t& out_i) {
      if (n == 0) return false;
      switch (cube ? TextureDesc::Clamp : d.address[dim]) {
        case TextureDesc::Clamp:
          out_i = std::clamp<int64_t>(i, 0, int64_t(n) - 1);
          return true;
        case TextureDesc::Wrap:
          out_i = ((i % int64_t(n)) + int64_t(n)) % int64_t(n);
          return true;
        case TextureDesc::Mirror: {
          int64_t p = ((i % (2 * int64_t(n))) + 2 * int64_t(n)) % (2 * int64_t(n));
          out_i = p < int64_t(n) ? p : 2 * int64_t(n) - 1 - p;
          return true;
        }
        case TextureDesc::Border:
          out_i = i;
          return i >= 0 && i < int64_t(n);
      }
      return false;
    };
    // `slice`: the layer, or the face of a cubemap (layer * 6 + face); z: the depth of a 3D texture.
    uint64_t slice = 0;
    auto fetch = [&](int64_t x, int64_t y, int64_t z, double outv[4], bool record) {
      for (int c = 0; c < 4; ++c) outv[c] = 0;
      int64_t xi = 0, yi = 0, zi = 0;
      if (!texel_index(x, d.width, 0, xi)) return;
      if (dims >= 2 && !texel_index(y, d.height, 1, yi)) return;
      if (dims == 3 && !texel_index(z, d.depth, 2, zi)) return;
      uint64_t addr = d.data + (slice + uint64_t(zi)) * slice_bytes + uint64_t(yi) * pitch + uint64_t(xi) * ebytes;
      if (record) taddrs[l] = addr;
      for (uint32_t c = 0; c < d.channels && c < 4; ++c) {
        uint64_t a = addr + c * cbytes;
        const uint8_t* p = launch_->memory->read_ptr(a);
        if (!p) throw Error(where(w, in, l) + ": texture fetch outside device memory at " + hex(a));
        uint32_t raw = 0;
        std::memcpy(&raw, p, cbytes);
        if (d.is_float && cbytes == 4)
          outv[c] = std::bit_cast<float>(raw);
        else if (d.is_float && cbytes == 2)
          outv[c] = f16_to_f32(uint16_t(raw));
        else if (d.read_normalized_float)
          outv[c] = double(raw) / double((uint64_t(1) << d.channel_bits) - 1);
        else  // integers: sign-extended for a signed result
          outv[c] = in.type == Type::S32 ? double(int32_t(raw << (32 - 8 * cbytes)) >> (32 - 8 * cbytes)) : double(raw);
      }
    };
    int k = 0;  // the next coordinate register
    if (layered) {
      // The layer: an integer, clamped to the texture's layers.
      uint32_t layer = std::min<uint32_t>(uint32_t(R[size_t(in.s[0]) * 32 + l]), d.layers - 1);
      slice = cube ? uint64_t(layer) * 6 : layer;
      k = 1;
    }
    double res[4] = {0, 0, 0, 0};
    if (in.type2 == Type::S32) {
      int64_t c[3] = {0, 0, 0};
      for (int i = 0; i < dims; ++i) c[i] = int32_t(R[size_t(in.s[k + i]) * 32 + l]);
      fetch(c[0], c[1], c[2], res, true);
    } else {
      double c[3] = {0, 0, 0};
      for (int i = 0; i < (cube ? 3 : dims); ++i) c[i] = as_f32(R[size_t(in.s[k + i]) * 32 + l]);
      if (cube) {
        // The direction picks a face; its coordinates are normalized ones on that face.
        double u, v;
        slice += uint64_t(cube_face(c[0], c[1], c[2], u, v));
        c[0] = u * d.width, c[1] = v * d.height, c[2] = 0;
      } else if (d.normalized_coords) {
        c[0] *= d.width, c[1] *= d.height, c[2] *= d.depth;
      }
      if (gather) {
        const int64_t i0 = int64_t(std::floor(c[0] - 0.5)), j0 = int64_t(std::floor(c[1] - 0.5));
        static const int kQuad[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};  // (di, dj) of d.x, d.y, d.z, d.w
        for (int t = 0; t < 4; ++t) {
          double texel[4];
          fetch(i0 + kQuad[t][0], j0 + kQuad[t][1], 0, texel, t == 3);
          res[t] = texel[in.gather_comp];
        }
      } else if (!d.linear_filter) {
        fetch(int64_t(std::floor(c[0])), int64_t(std::floor(c[1])), int64_t(std::floor(c[2])), res, true);
      } else {
        // Linear filtering: weights of the 2, 4 or 8 nearest texels (linear, bilinear,
        // trilinear) in the dimensions filtered; layers and faces are not filtered across.
        int64_t b0[3] = {0, 0, 0};
        double f[3] = {0, 0, 0};
        for (int i = 0; i < dims; ++i) {
          double t = c[i] - 0.5;
          b0[i] = int64_t(std::floor(t));
          f[i] = t - double(b0[i]);
        }
        const int corners = 1 << dims;
        for (int corner = 0; corner < corners; ++corner) {
          double t[4], wgt = 1;
          int64_t p[3] = {b0[0], b0[1], b0[2]};
          for (int i = 0; i < dims; ++i) {
            bool up = corner >> i & 1;
            p[i] += up;
            wgt *= up ? f[i] : 1 - f[i];
          }
          fetch(p[0], p[1], p[2], t, corner == 0);
          for (int ch = 0; ch < 4; ++ch) res[ch] += wgt * t[ch];
        }
      }
    }
    for (int c = 0; c < 4; ++c) {
      if (in.d[c] == kNone) continue;
      uint64_t v;
      if (in.type == Type::F32)
        v = from_f32(float(res[c]));
      else if (in.type == Type::S32)
        v = uint32_t(int32_t(res[c]));
      else
        v = uint32_t(res[c]);
      if (in.type == Type::F32 && !(d.is_float || d.read_normalized_float)) v = uint32_t(int64_t(res[c]));
      R[size_t(in.d[c]) * 32 + l] = v;
    }
  });
  emit_access(w, in, exec, simt_mask, ai, in.tmpl.space);
}

const SurfaceDesc& CtaExecutor::surface(Warp& w, const Inst& in, int lane, uint64_t h) {
  if (!last_surf_ || h != last_surf_handle_) {
    auto it = launch_->surfaces ? launch_->surfaces->find(h) : SurfaceTable::const_iterator();
    if (!launch_->surfaces || it == launch_->surfaces->end())
      throw Error(where(w, in, lane) + ": invalid surface object " + hex(h));
    last_surf_ = &it->second;
    last_surf_handle_ = h;
  }
  return *last_surf_;
}

// suld.b / sust.b / suq. The x coordinate is a byte offset into the row; an access outside
// the surface traps (.trap), moves to the nearest location inside it (.clamp: x to the last
// whole access in the row, the others to the last row/slice) or reads zeros and writes
// nothing (.zero). Accesses are global-memory accesses to the array's memory.
void CtaExecutor::exec_surface(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask) {
  uint64_t* R = w.regs;
  const uint64_t* handle = R + size_t(in.addr_reg) * 32;
  if (in.op == Op::Suq) {
    for_lanes(exec, [&](int l) {
      R[size_t(in.d[0]) * 32 + l] = surface_query(surface(w, in, l, handle[l]), SurfQuery(in.sub));
    });
    emit(w, in, exec, simt_mask);
    return;
  }
  WarpStream& out = *w.out;
  uint32_t ai = uint32_t(out.addrs.size());
  out.addrs.resize(ai + 32, 0);
  uint64_t* saddrs = out.addrs.data() + ai;
  const SurfGeom geom = SurfGeom(in.sub);
  const bool layered = geom == SurfGeom::A1D || geom == SurfGeom::A2D;
  const uint32_t esize = in.esize, bytes = esize * in.vec;
  const bool store = in.op == Op::Sust;
  static const char* kGeom[] = {"?", "1d", "2d", "3d", "a1d", "a2d"};
  for_lanes(exec, [&](int l) {
    const SurfaceDesc& d = surface(w, in, l, handle[l]);
    if (layered != d.layered)
      throw Error(where(w, in, l) + ": " + (store ? "sust" : "suld") + ".b." + kGeom[size_t(geom)] +
                  " does not match the surface object " + hex(handle[l]) +
                  (d.layered ? " (a layered surface)" : " (not a layered surface)"));
    // Coordinates: x (bytes), y (rows), z (slices: depth or layer).
    int64_t x = 0, y = 0, z = 0;
    auto c = [&](int i) { return int64_t(int32_t(R[size_t(in.coord[i]) * 32 + l])); };
    switch (geom) {
      case SurfGeom::D1:
        x = c(0);
        break;
      case SurfGeom::D2:
        x = c(0), y = c(1);
        break;
      case SurfGeom::D3:
        x = c(0), y = c(1), z = c(2);
        break;
      case SurfGeom::A1D:
        z = int64_t(uint32_t(R[size_t(in.coord[0]) * 32 + l])), x = c(1);
        break;
      case SurfGeom::A2D:
        z = int64_t(uint32_t(R[size_t(in.coord[0]) * 32 + l])), x = c(1), y = c(2);
        break;
    }
    const int64_t row_bytes = int64_t(d.width) * d.elem_bytes;
    const bool inside =
        x >= 0 && x + bytes <= row_bytes && y >= 0 && y < int64_t(d.height) && z >= 0 && z < int64_t(d.slices);
    bool zero = false;
    if (!inside) {
      if (in.clamp == SurfClamp::Trap)
        throw Error(where(w, in, l) + ": " + (store ? "sust" : "suld") + " outside the surface (x " +
                    std::to_string(x) + " bytes, y " + std::to_string(y) + ", " + (layered ? "layer " : "z ") +
                    std::to_string(z) + "; surface of " + std::to_string(row_bytes) + " bytes x " +
                    std::to_string(d.height) + " x " + std::to_string(d.slices) + ")");
      zero = in.clamp == SurfClamp::Zero;
      int64_t last_x = row_bytes >= int64_t(bytes) ? (row_bytes - bytes) / bytes * bytes : 0;
      x = std::clamp<int64_t>(x, 0, last_x);
      y = std::clamp<int64_t>(y, 0, int64_t(d.height) - 1);
      z = std::clamp<int64_t>(z, 0, int64_t(d.slices) - 1);
    }
    const uint64_t pitch = d.pitch ? d.pitch : uint64_t(d.width) * d.elem_bytes;
    const uint64_t addr = d.data + (uint64_t(z) * d.height + uint64_t(y)) * pitch + uint64_t(x);
    saddrs[l] = addr;
    // Byte by byte: an x that is no multiple of the access size may cross a page.
    for (uint32_t i = 0; i < in.vec; ++i) {
      const uint64_t a = addr + uint64_t(i) * esize;
      if (store) {
        if (zero) continue;
        const uint64_t v = R[size_t(in.s[i]) * 32 + l];
        for (uint32_t b = 0; b < esize; ++b) {
          uint8_t* p = launch_->memory->write_ptr(a + b);
          if (!p) throw Error(where(w, in, l) + ": surface store outside device memory at " + hex(a + b));
          *p = uint8_t(v >> (8 * b));
        }
      } else {
        if (in.d[i] == kNone) continue;
        uint64_t v = 0;
        for (uint32_t b = 0; b < esize && !zero; ++b) {
          const uint8_t* p = launch_->memory->read_ptr(a + b);
          if (!p) throw Error(where(w, in, l) + ": surface load outside device memory at " + hex(a + b));
          v |= uint64_t(*p) << (8 * b);
        }
        R[size_t(in.d[i]) * 32 + l] = v;
      }
    }
  });
  emit_access(w, in, exec, simt_mask, ai, in.tmpl.space);
}

// The PTX ISA leaves the value read from a lane that does not execute the shuffle (inactive
// or predicated off) unpredictable. GPUs are observed to return 0, and code relies on it: the
// CUDA sample reduction's reduce7 ends with a shfl.down whose member mask is the lanes of a
// __ballot_sync (0-7 of a 256-thread CTA), so lane 0 adds what lanes 16 and 8, which branched
// away, give it. Such a lane contributes 0 here, not whatever its register last held.
void CtaExecutor::exec_shfl(Warp& w, const Inst& in, uint32_t exec) {
  uint64_t* R = w.regs;
  uint64_t src[32] = {};
  const uint64_t* a = R + size_t(in.s[0]) * 32;
  for_lanes(exec, [&](int lane) { src[lane] = a[lane]; });
  const uint64_t *b = R + size_t(in.s[1]) * 32, *c = R + size_t(in.s[2]) * 32;
  uint64_t* d = R + size_t(in.d[0]) * 32;
  uint64_t* p = in.d[1] != kNone ? R + size_t(in.d[1]) * 32 : nullptr;
  for_lanes(exec, [&](int lane) {
    uint32_t bval = uint32_t(b[lane]) & 0x1f, cval = uint32_t(c[lane]) & 0x1f;
    uint32_t segmask = (uint32_t(c[lane]) >> 8) & 0x1f;
    uint32_t L = uint32_t(lane);
    uint32_t max_lane = (L & segmask) | (cval & ~segmask);
    uint32_t min_lane = L & segmask;
    int32_t j = 0;
    bool ok = false;
    switch (ShflMode(in.sub)) {
      case ShflMode::Up:
        j = int32_t(L) - int32_t(bval);
        ok = j >= int32_t(max_lane);
        break;
      case ShflMode::Down:
        j = int32_t(L + bval);
        ok = j <= int32_t(max_lane);
        break;
      case ShflMode::Bfly:
        j = int32_t(L ^ bval);
        ok = j <= int32_t(max_lane);
        break;
      case ShflMode::Idx:
        j = int32_t(min_lane | (bval & ~segmask));
        ok = j <= int32_t(max_lane);
        break;
    }
    if (!ok) j = int32_t(L);
    d[lane] = uint32_t(src[j & 31]);
    if (p) p[lane] = ok;
  });
}

void CtaExecutor::exec_vote(Warp& w, const Inst& in, uint32_t exec) {
  uint64_t* R = w.regs;
  const uint64_t* a = R + size_t(in.s[0]) * 32;
  const bool neg = in.mods & kModNegSrc0;
  uint32_t ballot = 0;
  for_lanes(exec, [&](int l) {
    if (((a[l] & 1) != 0) != neg) ballot |= 1u << l;
  });
  uint64_t* d = R + size_t(in.d[0]) * 32;
  uint64_t v = 0;
  switch (VoteMode(in.sub)) {
    case VoteMode::All:
      v = ballot == exec;
      break;
    case VoteMode::Any:
      v = ballot != 0;
      break;
    case VoteMode::Uni:
      v = ballot == 0 || ballot == exec;
      break;
    case VoteMode::Ballot:
      v = ballot;
      break;
  }
  for_lanes(exec, [&](int l) { d[l] = v; });
}

// match.any: each lane gets the lanes (of the executing ones in membermask) holding its value;
// match.all: all of them when every one holds the same value (and the predicate says so), else 0.
void CtaExecutor::exec_match(Warp& w, const Inst& in, uint32_t exec) {
  uint64_t* R = w.regs;
  const uint64_t *a = R + size_t(in.s[0]) * 32, *mm = R + size_t(in.s[1]) * 32;
  const uint64_t vmask = in.type == Type::B64 ? ~uint64_t(0) : 0xffffffffull;
  uint64_t* d = R + size_t(in.d[0]) * 32;
  uint64_t* p = in.d[1] != kNone ? R + size_t(in.d[1]) * 32 : nullptr;
  const uint32_t group = exec ? exec & uint32_t(mm[std::countr_zero(exec)]) : 0;
  if (in.sub == 0) {
    for_lanes(exec, [&](int l) {
      uint32_t same = 0;
      for_lanes(group, [&](int k) {
        if (((a[k] ^ a[l]) & vmask) == 0) same |= 1u << k;
      });
      d[l] = same;
    });
    return;
  }
  bool all = true;
  const uint64_t first = group ? a[std::countr_zero(group)] : 0;
  for_lanes(group, [&](int k) { all = all && ((a[k] ^ first) & vmask) == 0; });
  for_lanes(exec, [&](int l) {
    d[l] = all ? group : 0;
    if (p) p[l] = all;
  });
}

// vprintf, __assertfail, malloc and free, lane by lane in lane order (the heap's blocks go to
// the lanes in that order). Their arguments are in each thread's
// call frame (local memory), as a call would pass them.
void CtaExecutor::exec_builtin(Warp& w, const Inst& in, uint32_t exec) {
  const CallInfo& ci = prog_->calls[in.call_index];
  for_lanes(exec, [&](int l) {
    uint8_t* frame = local_.data() + size_t(w.id * 32 + uint32_t(l)) * local_size_;
    auto arg = [&](size_t i) {
      uint64_t v = 0;
      if (i < ci.args.size()) std::memcpy(&v, frame + ci.args[i].from, std::min<uint32_t>(8, ci.args[i].bytes));
      return v;
    };
    DeviceReader read = [&](uint64_t addr, void* out, uint32_t bytes) {
      MemSpace ts;
      uint64_t ta;
      std::memcpy(out, resolve(w, in, l, Space::Generic, addr, bytes, false, ts, ta), bytes);
    };
    auto set_ret = [&](uint64_t v) {
      for (const auto& r : ci.rets) std::memcpy(frame + r.to, &v, std::min<uint32_t>(8, r.bytes));
    };
    if (BuiltinFn(in.sub) == BuiltinFn::Malloc || BuiltinFn(in.sub) == BuiltinFn::Free) {
      if (!launch_->heap) throw Error(where(w, in, l) + ": device-side malloc/free: this launch has no device heap");
      if (BuiltinFn(in.sub) == BuiltinFn::Malloc) {
        set_ret(launch_->heap->allocate(arg(0)));
        return;
      }
      if (launch_->heap->release(arg(0)) == DeviceHeap::FreeResult::NotAllocated)
        throw Error(where(w, in, l) + ": device-side free of " + hex(arg(0)) +
                    ", which is not a block that device-side malloc returned (or was freed already)");
      return;
    }
    if (BuiltinFn(in.sub) == BuiltinFn::Vprintf) {
      int count = 0;
      std::string text = format_device_printf(read_device_string(arg(0), read), arg(1), read, &count);
      std::fwrite(text.data(), 1, text.size(), stdout);
      for (const auto& r : ci.rets) {
        int32_t v = count;
        std::memcpy(frame + r.to, &v, std::min<uint32_t>(4, r.bytes));
      }
      return;
    }
    // __assertfail(message, file, line, function, char size): the device's assert message, then
    // the kernel stops as the hardware's trap does.
    const uint32_t t = w.id * 32 + uint32_t(l);
    const Dim3& b = launch_->block;
    char head[160];
    std::snprintf(head, sizeof head, ": block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `", ctaid_[0], ctaid_[1],
                  ctaid_[2], t % b.x, (t / b.x) % b.y, t / (b.x * b.y));
    std::string msg = read_device_string(arg(1), read) + ":" + std::to_string(uint32_t(arg(2))) + ": " +
                      read_device_string(arg(3), read) + head + read_device_string(arg(0), read) + "` failed.";
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", msg.c_str());
    throw Error(where(w, in, l) + ": device-side assertion failed: " + msg);
  });
}

// wmma.load / wmma.store / wmma.mma (ptx/wmma.h). A load or store takes its address and stride
// from the first executing lane (the warp executes it together) and moves each lane's
// fragment elements one by one; for the timing model lane l accesses the l-th run of the
// tile's elements in memory order.
void CtaExecutor::exec_wmma(Warp& w, const Inst& in, uint32_t exec, uint32_t simt_mask) {
  const WmmaInfo& info = prog_->wmma[in.wmma];
  uint64_t* R = w.regs;
  if (WmmaOp(in.sub) == WmmaOp::Mma) {
    if (exec) wmma_mma(R, info, exec);
    emit(w, in, exec, simt_mask);
    return;
  }
  WarpStream& out = *w.out;
  const uint32_t ai = uint32_t(out.addrs.size());
  out.addrs.resize(ai + 32, 0);
  MemSpace tspace = in.tmpl.space;
  if (exec) {
    const int l0 = std::countr_zero(exec);
    const WmmaFragment& f = info.frag;
    const uint64_t base = (in.addr_reg != kNone ? R[size_t(in.addr_reg) * 32 + l0] : 0) + uint64_t(in.offset);
    const uint64_t stride =
        info.stride_reg != kNone ? uint32_t(R[size_t(info.stride_reg) * 32 + l0]) : (info.col_major ? f.rows : f.cols);
    const uint32_t es = in.esize, n = f.per_lane(), slots = fragment_slots(f);
    const bool load = WmmaOp(in.sub) != WmmaOp::StoreD;
    const uint32_t inner = info.col_major ? f.rows : f.cols;
    for_lanes(exec, [&](int l) {
      MemSpace ts;
      uint64_t ta;
      const uint32_t run = uint32_t(l) * n;  // the lane's run in memory order
      const uint64_t run_addr = base + (uint64_t(run / inner) * stride + run % inner) * es;
      resolve(w, in, l, in.space, run_addr, es, !load, tspace, out.addrs[ai + uint32_t(l)]);
      for (uint32_t e = 0; e < (load ? slots : n); ++e) {
        const uint64_t a = base + fragment_offset(f, info.col_major, fragment_element(f, l, e), stride) * es;
        uint8_t* p = resolve(w, in, l, in.space, a, es, !load, ts, ta);
        uint32_t raw = 0;
        if (load) {
          std::memcpy(&raw, p, es);
          fragment_set(R, f, l, e, raw);
        } else {
          raw = fragment_get(R, f, l, e);
          std::memcpy(p, &raw, es);
        }
      }
    });
  }
  emit_access(w, in, exec, simt_mask, ai, tspace);
}

void CtaExecutor::run_warp(Warp& w) {
  const Inst* insts = prog_->insts.data();
  uint64_t* R = w.regs;
  const uint64_t limit = launch_->inst_limit;
  for (;;) {
    if (w.stack.empty()) {
      w.state = Warp::Done;
      return;
    }
    Entry& e = w.stack.back();
    if (e.mask == 0 || e.pc == e.rpc) {
      w.stack.pop_back();
      if (!w.frames.empty() && w.frames.back().depth >= w.stack.size()) drop_frames(w);
      continue;
    }
    const uint32_t pc = e.pc;
    const Inst& in = insts[pc];
    const uint32_t m = e.mask;
    uint32_t exec = m;
    if (in.guard != kNone) {
      const uint64_t* g = R + size_t(in.guard) * 32;
      uint32_t pm = 0;
      for_lanes(m, [&](int l) { pm |= uint32_t(g[l] & 1) << l; });
      exec = in.guard_neg ? (m & ~pm) : (m & pm);
    }
    if (in.op != Op::FuncExit && ++w.count > limit)
      throw Error(where(w, in, std::countr_zero(m)) + ": per-thread instruction limit of " + std::to_string(limit) +
                  " exceeded (runaway loop?)");
    if (in.fn) {
      if (exec) in.fn(R, in, exec);
      emit(w, in, exec, m);
      e.pc = pc + 1;
      continue;
    }
    switch (in.op) {
      case Op::Bra:
      case Op::Ret: {
        uint32_t target = in.target;
        bool entry_ret = in.op == Op::Ret && prog_->funcs[in.func].is_entry;
        // Lanes whose guard fails are not active, as for every other instruction (GPGPU-Sim
        // counts only the others as executed).
        WarpInst wi = in.tmpl;
        wi.active_mask = exec;
        if (m != w.live) wi.flags |= kFlagDiverged;
        if (entry_ret && exec == w.live) {
          wi.op = OpClass::EXIT;
          w.last_exit = true;
        }
        w.out->insts.push_back(wi);
        thread_insts_ += popc32(uint32_t(exec));
        uint32_t not_taken = m & ~exec;
        if (not_taken == 0) {
          e.pc = target;
        } else if (exec == 0) {
          e.pc = pc + 1;
        } else {
          uint32_t rpc = in.reconv;
          e.pc = rpc;
          w.stack.push_back({pc + 1, rpc, not_taken});
          w.stack.push_back({target, rpc, exec});
        }
        break;
      }
      case Op::Call:
        emit(w, in, exec, m);
        e.pc = pc + 1;                     // where the caller's lanes go on once every callee has returned
        if (exec) exec_call(w, in, exec);  // pushes entries: `e` is stale after it
        break;
      case Op::FuncExit: {
        if (prog_->funcs[in.func].is_entry || w.frames.empty()) {
          remove_lanes(w, m);
          if (!w.last_exit || w.live == 0) {
            if (!w.last_exit) {
              WarpInst wi = in.tmpl;
              wi.op = w.live == 0 ? OpClass::EXIT : OpClass::BRANCH;
              wi.active_mask = m;
              w.out->insts.push_back(wi);
              w.last_exit = w.live == 0;
            }
          }
          if (w.live == 0) {
            w.stack.clear();
            w.state = Warp::Done;
            return;
          }
          break;
        }
        // Only the activation's own entry reaches its exit (every branch inside the callee
        // reconverges before it).
        Frame f = w.frames.back();
        if (f.depth + 1 != w.stack.size())
          throw Error(where(w, in, std::countr_zero(m)) + ": internal error: return from '" +
                      prog_->funcs[in.func].name + "' on the wrong SIMT stack entry");
        w.frames.pop_back();
        leave(w, f, m, true);
        w.stack.pop_back();
        break;
      }
      case Op::Exit: {
        WarpInst wi = in.tmpl;
        wi.active_mask = exec;
        if (m != w.live) wi.flags |= kFlagDiverged;
        if (exec == 0) {
          wi.op = OpClass::BRANCH;
          w.out->insts.push_back(wi);
          e.pc = pc + 1;
          break;
        }
        e.pc = pc + 1;
        remove_lanes(w, exec);
        if (w.live != 0)
          wi.op = OpClass::BRANCH;
        else
          w.last_exit = true;
        w.out->insts.push_back(wi);
        thread_insts_ += popc32(uint32_t(exec));
        if (w.live == 0) {
          w.stack.clear();
          w.state = Warp::Done;
          return;
        }
        break;
      }
      case Op::Builtin:
        emit(w, in, exec, m);
        exec_builtin(w, in, exec);
        e.pc = pc + 1;
        break;
      case Op::Wmma:
        exec_wmma(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Trap:
        if (exec) throw Error(where(w, in, std::countr_zero(exec)) + ": trap instruction executed" + trap_hint());
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Bar: {
        emit(w, in, exec, m);
        e.pc = pc + 1;
        if (exec == 0) break;
        uint32_t b = in.sub;
        if (in.mods & kModHasCount) {
          uint32_t cnt = uint32_t(R[size_t(in.s[0]) * 32 + std::countr_zero(exec)]);
          if (cnt == 0 || cnt % 32 != 0 || cnt > nwarps_ * 32)
            throw Error(where(w, in, std::countr_zero(exec)) + ": barrier thread count " + std::to_string(cnt) +
                        " must be a non-zero multiple of 32 up to the CTA size");
          bar_count_[b] = cnt;
        }
        if (in.mods & kModArrive) {
          ++bar_arrived_[b];
          break;
        }
        if (in.mods & kModRed) bar_red_[b].add(R + size_t(in.s[1]) * 32, exec, in.mods & kModNegSrc0);
        ++bar_waiting_[b];
        w.state = Warp::AtBarrier;
        w.barrier = uint8_t(b);
        w.barrier_inst = pc;
        w.barrier_lanes = exec;
        return;
      }
      case Op::Ld:
      case Op::St:
        exec_mem(w, in, exec, m);
        e.pc = pc + 1;
        if ((in.mods & kModPoll) && exec) {
          // Another warp, or in a cooperative launch another CTA, may have to run before what
          // this warp waits for is written.
          w.state = Warp::Polling;
          w.poll_inst = pc;
          return;
        }
        break;
      case Op::Atom:
      case Op::Red:
        exec_atomic(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Tex:
      case Op::Tld4:
        exec_tex(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Txq:
        exec_txq(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Suld:
      case Op::Sust:
      case Op::Suq:
        exec_surface(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Shfl:
        exec_shfl(w, in, exec);
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Vote:
        exec_vote(w, in, exec);
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Match:
        exec_match(w, in, exec);
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
      case Op::Activemask: {
        uint64_t* d = R + size_t(in.d[0]) * 32;
        for_lanes(exec, [&](int l) { d[l] = m; });
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
      }
      case Op::Clock: {
        uint64_t* d = R + size_t(in.d[0]) * 32;
        uint64_t v = w.count * 4;
        bool narrow = type_bytes(in.type) == 4;
        for_lanes(exec, [&](int l) { d[l] = narrow ? uint32_t(v) : v; });
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
      }
      default:  // Nop, BarWarp, Membar
        emit(w, in, exec, m);
        e.pc = pc + 1;
        break;
    }
  }
}

}  // namespace warpsim::ptx

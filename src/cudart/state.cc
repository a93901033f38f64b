#include <cxxabi.h>
#include <errno.h>
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "core/json_file.h"
#include "core/occupancy.h"
#include "core/strings.h"
#include "cudart/shim.h"
#include "fatbin/cubin.h"
#include "fatbin/fatbin.h"
#include "ptx/decoder.h"
#include "ptx/ir.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/ptx_kernel.h"
#include "ptx/register_allocation.h"
#include "runtime/device_memory.h"
#include "sched/scheduler.h"
#include "timing/gpu.h"

namespace warpsim::cudart {

namespace {

// What nvcc puts in .nvFatBinSegment and passes to __cudaRegisterFatBinary.
struct FatbinWrapper {
  int magic;
  int version;
  const uint8_t* data;
  const void* filename_or_fatbins;
};
constexpr int kWrapperMagic = 0x466243b1;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string env(const char* name, const std::string& fallback = "") {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

// Items separated by newlines or ';'.
void at_exit_handler() { State::get().write_statistics(); }

// One fatbinary container in the program's memory; its header says how long it is.
std::vector<fatbin::Entry> parse_one(const uint8_t* data) {
  uint64_t body = 0;
  std::memcpy(&body, data + 8, 8);
  uint16_t hsize = uint16_t(data[6] | (data[7] << 8));
  if (body > (uint64_t(1) << 34)) throw Error("implausible fatbinary size");
  return fatbin::parse(data, size_t(hsize) + size_t(body));
}

}  // namespace

void report(const char* api, const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "warpsim: %s: %s\n", api, message.c_str());
  std::fflush(stderr);
}

void unsupported(const char* api) {
  State& s = State::get();
  std::string msg = fmt::format("{} is not implemented by the warpsim CUDA runtime (see docs/cuda-programs.md)", api);
  {
    std::lock_guard<std::recursive_mutex> lock(s.mu);
    s.errors.push_back(msg);
  }
  report(api, "not implemented by the warpsim CUDA runtime; stopping (see docs/cuda-programs.md)");
  std::exit(3);
}

State& State::get() {
  // Never destroyed: programs call into the runtime from their own atexit handlers.
  static State* s = new State();
  return *s;
}

cudaError_t State::fail(const char* api, cudaError_t code, const std::string& message) {
  report(api, message);
  errors.push_back(fmt::format("{}: {}", api, message));
  last_error = code;
  return code;
}

void State::check_sticky() {
  if (sticky != cudaSuccess) throw ShimError(sticky, "an earlier kernel failed: " + sticky_message);
}

void State::sim_failed(const Error& e) {
  cudaError_t code = dynamic_cast<const LimitError*>(&e) ? cudaErrorLaunchTimeout : cudaErrorLaunchFailure;
  std::string what = e.what();
  if (what.find("device-side assertion failed") != std::string::npos)
    code = cudaErrorAssert;  // as CUDA reports a failed assert()
  else if (what.find("address") != std::string::npos || what.find("unmapped") != std::string::npos)
    code = cudaErrorIllegalAddress;
  sticky = code;
  sticky_message = what;
  throw ShimError(code, what);
}

// ---------------------------------------------------------------- registration

void** State::register_fatbin(const void* wrapper) {
  auto m = std::make_unique<Module>();
  m->label = fmt::format("fatbinary {}", modules_.size());
  m->handle_slot = m.get();
  try {
    if (!wrapper) throw Error("null fatbinary wrapper");
    const auto* w = static_cast<const FatbinWrapper*>(wrapper);
    if (w->magic != kWrapperMagic)
      throw Error(fmt::format("bad fatbinary wrapper magic {:#x} (expected {:#x})", unsigned(w->magic),
                              unsigned(kWrapperMagic)));
    if (!w->data) throw Error("fatbinary wrapper without data");
    auto entries = parse_one(w->data);
    for (const auto& e : entries)
      if (e.kind == fatbin::EntryKind::Elf) try {
          for (const auto& [kernel, n] : fatbin::cubin_register_counts(e.payload))
            m->registers.by_target[e.arch][kernel] = n;  // a target may have several cubins
        } catch (const Error& err) {
          throw Error(fmt::format("the cubin for sm_{} (fatbinary offset {}): {}", e.arch, e.offset, err.what()));
        }
    bool has_ptx = false;
    for (const auto& e : entries) has_ptx |= e.kind == fatbin::EntryKind::Ptx;
    // Separate compilation (-rdc=true): the registered binary is the device-linked cubin;
    // the objects' own fatbinaries, with their PTX, are listed next to it.
    if (!has_ptx && w->version == 2 && w->filename_or_fatbins) {
      const auto* list = static_cast<const uint8_t* const*>(w->filename_or_fatbins);
      std::vector<std::string> ptx;
      for (size_t i = 0; i < 4096 && list[i]; ++i) {
        auto es = parse_one(list[i]);
        for (const auto& e : es)
          if (e.kind == fatbin::EntryKind::Ptx) {
            ptx.push_back(fatbin::select_ptx(es).payload);
            m->ptx_arch = std::max(m->ptx_arch, fatbin::select_ptx(es).arch);
            break;
          }
      }
      if (ptx.size() == 1)
        m->ptx = ptx[0];
      else if (ptx.size() > 1)
        m->ptx_objects = std::move(ptx);  // linked when the module loads (ptx/link.h)
    }
    if (!m->has_ptx()) {
      if (!entries.empty()) {
        m->ptx = fatbin::select_ptx(entries).payload;
        m->ptx_arch = fatbin::select_ptx(entries).arch;
      } else
        m->extract_error = "the fatbinary is empty";
    }
  } catch (const Error& e) {
    m->extract_error = e.what();
  }
  Module* p = m.get();
  by_handle_[p->handle_slot] = p;
  modules_.push_back(std::move(m));
  return reinterpret_cast<void**>(p->handle_slot);
}

void State::register_fatbin_end(void** handle) {
  auto it = by_handle_.find(handle);
  if (it == by_handle_.end()) return;
  Module& m = *it->second;
  if (rt_ && m.has_symbols && !m.loaded && m.load_error.empty()) try_load(m);
}

void State::register_function(void** handle, const void* host_fun, const char* device_name) {
  auto it = by_handle_.find(handle);
  if (it == by_handle_.end() || !host_fun || !device_name) return;
  auto f = std::make_unique<Function>();
  f->host_fun = host_fun;
  f->name = device_name;
  f->module = it->second;
  it->second->has_symbols = true;
  auto& slot = functions_[host_fun];
  if (slot) function_handles_.erase(slot.get());
  function_handles_.insert(f.get());
  slot = std::move(f);
}

void State::register_var(void** handle, const void* host_var, const char* device_name, size_t size, bool constant) {
  auto it = by_handle_.find(handle);
  if (it == by_handle_.end() || !host_var || !device_name) return;
  auto v = std::make_unique<Variable>();
  v->host_var = host_var;
  v->name = device_name;
  v->module = it->second;
  v->size = size;
  v->constant = constant;
  it->second->has_symbols = true;
  variables_[host_var] = std::move(v);
}

void State::register_managed_var(void** handle, void** host_slot, const char* device_name, size_t size) {
  if (!host_slot) return;
  register_var(handle, host_slot, device_name, size, false);
  auto it = variables_.find(host_slot);
  if (it != variables_.end()) it->second->managed_slot = host_slot;
}

void State::init_module(void** handle) {
  auto it = by_handle_.find(handle);
  if (it == by_handle_.end()) return;
  loaded(*it->second);
}

// A __managed__ variable stays at its device address (kernels use it there, timed as any
// global variable), and its pages move into host memory that the program's host code reaches
// through the pointer nvcc's code reads from `managed_slot`; that host memory is also mapped
// for the device at its own address, so a pointer the host takes to the variable works in
// kernels too.
void State::bind_managed(Module& m) {
  for (auto& [key, v] : variables_) {
    if (v->module != &m || !v->managed_slot) continue;
    uint64_t size = 0;
    DevPtr a = rt_->symbol_address(m.handle, v->name, &size);
    uint64_t bytes = mem().allocation_size(a);
    if (bytes == 0) throw Error(fmt::format("__managed__ variable '{}' has no allocation of its own", v->name));
    size_t mapped = 0;
    void* host = alloc_device_visible(bytes, &mapped);
    mem().back_with_host(a, static_cast<uint8_t*>(host));
    HostRange r;
    r.kind = HostRange::Managed;
    r.size = std::max<uint64_t>(size, 1);
    r.flags = 1;  // cudaMemAttachGlobal
    r.device = true;
    r.mapped = mapped;
    host_ranges[reinterpret_cast<uintptr_t>(host)] = r;
    *v->managed_slot = host;
  }
}

void State::unregister_fatbin(void** handle) {
  // Kernels may still be queued at exit; the statistics are written by the exit handler,
  // so there is nothing to release here.
  (void)handle;
}

// ---------------------------------------------------------------- simulator

void State::init_simulator() {
  start_seconds_ = now_seconds();
  GpuConfig cfg;
  std::string gpgpusim = env("WARPSIM_GPGPUSIM_CONFIG");
  if (!gpgpusim.empty()) {
    std::vector<std::string> unknown;
    cfg = import_gpgpusim_config(gpgpusim, &unknown);
  } else {
    cfg = load_preset(env("WARPSIM_GPU", "gtx480"));
  }
  apply_overrides(cfg, split_items(env("WARPSIM_SET"), "\n;"));
  validate(cfg);
  scheduler_ = env("WARPSIM_SCHEDULER", "gto");
  find_scheduler(scheduler_);
  SchedulerParams sp;
  for (const auto& kv : split_items(env("WARPSIM_SCHED_PARAM"), "\n;")) {
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(fmt::format("WARPSIM_SCHED_PARAM item '{}': expected key=value", kv));
    sp.set(kv.substr(0, eq), kv.substr(eq + 1));
  }
  cfg_ = std::make_unique<GpuConfig>(cfg);
  gpu_ = std::make_unique<Gpu>(*cfg_, scheduler_, sp);
  rt_ = std::make_unique<Runtime>(gpu_.get());
  std::string limit = env("WARPSIM_INST_LIMIT");
  if (!limit.empty()) rt_->set_instruction_limit(std::strtoull(limit.c_str(), nullptr, 10));
  std::string memcheck = env("WARPSIM_MEMCHECK");
  if (!memcheck.empty() && memcheck != "0") rt_->set_memcheck(true);
  json_path_ = env("WARPSIM_JSON");
  inst_stats_path_ = env("WARPSIM_INST_STATS");
  if (!inst_stats_path_.empty()) gpu_->enable_inst_profile();
  issue_log_path_ = env("WARPSIM_ISSUE_LOG");
  if (!issue_log_path_.empty()) gpu_->enable_issue_trace();
  last_kernel_.assign(1, 0);
  std::atexit(at_exit_handler);
  // Place the variables of every module registered so far, as a driver loads its module first.
  for (auto& m : modules_)
    if (m->has_symbols) try_load(*m);
}

Runtime& State::rt() {
  if (!rt_) {
    try {
      init_simulator();
    } catch (const Error& e) {
      report("warpsim", fmt::format("cannot configure the simulated GPU: {}", e.what()));
      std::exit(2);
    }
  }
  return *rt_;
}
Gpu& State::gpu() {
  rt();
  return *gpu_;
}
const GpuConfig& State::config() {
  rt();
  return *cfg_;
}
DeviceMemory& State::mem() { return rt().device_memory(); }

bool State::try_load(Module& m) {
  if (m.loaded) return true;
  if (!m.load_error.empty()) return false;
  rt();
  try {
    if (!m.has_ptx()) throw Error(fmt::format("{}: {}", m.label, m.extract_error.empty() ? "no PTX" : m.extract_error));
    std::string file = m.label;
    if (m.ptx_objects.empty()) {
      m.ast = ptx::parse_module(m.ptx, file);
      m.handle = rt_->load_module(m.ptx, file, &m.registers);
    } else {
      std::vector<Runtime::PtxObject> objects;
      std::vector<ptx::Module> parsed;
      for (size_t j = 0; j < m.ptx_objects.size(); ++j) {
        objects.push_back({m.ptx_objects[j], fmt::format("{} (device object {})", m.label, j)});
        parsed.push_back(ptx::parse_module(objects.back().text, objects.back().file));
      }
      m.ast = ptx::link_modules(std::move(parsed), file);
      m.handle = rt_->load_module(objects, file, &m.registers);
    }
    m.ast.code_base = rt_->module_code_base(m.handle);
    m.loaded = true;
  } catch (const Error& e) {
    m.load_error = !m.has_ptx() ? std::string(e.what())
                                : fmt::format("{}: the embedded PTX cannot be loaded: {}", m.label, e.what());
    report("module load", m.load_error + " (anything that needs this module stops the program)");
    return false;
  }
  try {
    bind_managed(m);
  } catch (const Error& e) {
    stop("module load", fmt::format("{}: __managed__ variables cannot be placed: {}", m.label, e.what()));
  }
  return true;
}

uint32_t State::reported_capability() {
  uint32_t cc = config().compute_capability;
  for (const auto& m : modules_)
    if (m->has_ptx()) cc = std::max(cc, m->ptx_arch);
  return cc;
}

Module& State::loaded(Module& m) {
  if (!try_load(m)) stop("module load", m.load_error);
  return m;
}

void State::stop(const char* api, const std::string& why) {
  std::string msg = fmt::format("{}; the program cannot go on in the simulator (see docs/cuda-programs.md)", why);
  errors.push_back(fmt::format("{}: {}", api, msg));
  stopped = msg;
  report(api, msg + ": stopping");
  std::exit(3);
}

const ptx::Program& State::program(Function& f) {
  if (f.program) return *f.program;
  Module& m = loaded(*f.module);
  try {
    ptx::SymbolMap symbols;
    for (const auto& v : m.ast.globals) {
      if (v.space != ptx::Space::Global && v.space != ptx::Space::Const) continue;
      uint64_t size = 0;
      DevPtr a = rt_->symbol_address(m.handle, v.name, &size);
      symbols[v.name] = ptx::ModuleSymbol{v.space, a, size};
    }
    f.program =
        ptx::with_compiled_registers(ptx::decode_kernel(m.ast, f.name, symbols, config().core.hoist_global_loads),
                                     &m.registers, config().core.register_target);
  } catch (const Error& e) {
    stop("launch", fmt::format("kernel '{}' of {} cannot be decoded: {}", f.name, m.label, e.what()));
  }
  return *f.program;
}

// ---------------------------------------------------------------- lookups

Function& State::function(const void* host_fun, const char* api) {
  auto it = functions_.find(host_fun);
  if (it == functions_.end())
    throw ShimError(cudaErrorInvalidDeviceFunction, "the function pointer is not a registered __global__ function");
  return *it->second;
}

Function& State::function_by_handle(const void* handle, const char* api) {
  auto* f = static_cast<Function*>(const_cast<void*>(handle));
  if (!f || !function_handles_.count(f)) throw ShimError(cudaErrorInvalidResourceHandle, "unknown kernel handle");
  return *f;
}

Variable& State::variable(const void* host_var, const char* api) {
  auto it = variables_.find(host_var);
  if (it == variables_.end())
    throw ShimError(cudaErrorInvalidSymbol, "the address is not a registered __device__ or __constant__ variable");
  return *it->second;
}

Stream* State::stream(const void* handle, const char* api) {
  uintptr_t h = reinterpret_cast<uintptr_t>(handle);
  if (h == 0 || h == 1 || h == 2) return nullptr;  // default, cudaStreamLegacy, cudaStreamPerThread
  auto* s = static_cast<Stream*>(const_cast<void*>(handle));
  if (!streams.count(s)) throw ShimError(cudaErrorInvalidResourceHandle, "unknown stream handle");
  return s;
}

uint32_t State::stream_id(const void* handle, const char* api) {
  Stream* s = stream(handle, api);
  return s ? s->id : 0;
}

Event& State::event(const void* handle, const char* api) {
  auto* e = static_cast<Event*>(const_cast<void*>(handle));
  if (!e || !events.count(e)) throw ShimError(cudaErrorInvalidResourceHandle, "unknown event handle");
  return *e;
}

std::pair<const uintptr_t, HostRange>* State::host_range(const void* p, size_t bytes) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = host_ranges.upper_bound(a);
  if (it == host_ranges.begin()) return nullptr;
  --it;
  size_t size = std::max<size_t>(1, it->second.size);
  if (a - it->first >= size || bytes > size - (a - it->first)) return nullptr;
  return &*it;
}

namespace {
// Addresses a kernel's generic accesses take for shared or local memory, never for host bytes.
bool in_generic_window(uint64_t a, uint64_t end) {
  return (end > ptx::kSharedWindow && a < ptx::kSharedWindow + ptx::kWindowSize) ||
         (end > ptx::kLocalWindow && a < ptx::kLocalWindow + ptx::kWindowSize);
}
bool device_addressable(uint64_t a, uint64_t end) {
  return !(end > DeviceMemory::kBase && a < DeviceMemory::kLimit) && !in_generic_window(a, end);
}
}  // namespace

bool State::map_host(const void* p, size_t bytes) {
  uint64_t a = reinterpret_cast<uintptr_t>(p);
  uint64_t end = a + std::max<size_t>(1, bytes);
  if (!device_addressable(a, end)) return false;
  mem().map_host(a, end - a);
  return true;
}

void* State::alloc_device_visible(size_t bytes, size_t* mapped) {
  size_t n = (std::max<size_t>(bytes, 1) + 4095) / 4096 * 4096;
  if (n < bytes) throw ShimError(cudaErrorMemoryAllocation, fmt::format("cannot allocate {} bytes", bytes));
  std::vector<std::pair<void*, size_t>> rejected;  // kept until the end so the next try lands elsewhere
  void* got = nullptr;
  for (int tries = 0; tries < 8 && !got; ++tries) {
    void* q = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED) break;
    uint64_t a = reinterpret_cast<uintptr_t>(q);
    if (device_addressable(a, a + n))
      got = q;
    else
      rejected.emplace_back(q, n);
  }
  for (auto& [q, len] : rejected) munmap(q, len);
  if (!got) throw ShimError(cudaErrorMemoryAllocation, fmt::format("cannot allocate {} bytes of host memory", bytes));
  try {
    mem().map_host(reinterpret_cast<uintptr_t>(got), n);
  } catch (...) {
    munmap(got, n);
    throw;
  }
  *mapped = n;
  return got;
}

void State::release_host_range(uintptr_t start) {
  auto it = host_ranges.find(start);
  if (it == host_ranges.end()) return;
  // Kernels still queued may use the bytes: let them finish first (a fault stays sticky for
  // the calls that follow; the memory is released either way).
  if (it->second.device && sticky == cudaSuccess) {
    try {
      sync_all();
    } catch (const ShimError&) {
    }
  }
  if (it->second.device) mem().unmap_host(start);
  if (it->second.mapped) munmap(reinterpret_cast<void*>(start), it->second.mapped);
  host_ranges.erase(it);
}

CudaArray& State::array(const void* handle, const char* api) {
  auto* a = static_cast<CudaArray*>(const_cast<void*>(handle));
  if (!a || !arrays.count(a)) throw ShimError(cudaErrorInvalidResourceHandle, "unknown CUDA array");
  return *a;
}

// ---------------------------------------------------------------- execution

void State::refresh_done() {
  const auto& res = gpu_->results();
  for (; results_seen_ < res.size(); ++results_seen_) {
    uint32_t id = res[results_seen_].launch_index;
    if (id >= done_.size()) {
      done_.resize(id + 1, 0);
      end_cycle_.resize(id + 1, 0);
    }
    done_[id] = 1;
    end_cycle_[id] = res[results_seen_].end_cycle;
  }
}

bool State::kernel_done(uint32_t id) {
  refresh_done();
  return id < done_.size() && done_[id];
}

void State::sync_all() {
  rt();
  check_sticky();
  try {
    gpu_->run_until_idle();
  } catch (const Error& e) {
    sim_failed(e);
  }
}

void State::sync_stream(uint32_t id) {
  rt();
  check_sticky();
  if (id == 0) return sync_all();  // the legacy default stream follows every blocking stream
  try {
    gpu_->run_until_stream_idle(id);
  } catch (const Error& e) {
    sim_failed(e);
  }
}

void State::before_stream_op(uint32_t id) {
  sync_stream(id);
  if (id == 0) return;
  bool blocking = true;
  for (Stream* s : streams)
    if (s->id == id) blocking = !(s->flags & kStreamNonBlocking);
  if (blocking && last_kernel_[0] && !kernel_done(last_kernel_[0] - 1)) sync_all();
}

void State::launch(Function& f, dim3 grid, dim3 block, void** args, size_t shared, const void* stream_handle,
                   bool cooperative, const cudaAccessPolicyWindow* window) {
  rt();
  check_sticky();
  if (Stream* st = capturing(stream_handle, "launch")) {
    if (cooperative)
      throw ShimError(cudaErrorStreamCaptureUnsupported,
                      fmt::format("cooperative launch of '{}': warpsim cannot capture cooperative launches", f.name));
    // Stream capture: the launch becomes a kernel node with a copy of its arguments.
    auto n = std::make_unique<GraphNode>();
    n->type = cudaGraphNodeTypeKernel;
    n->function = &f;
    n->grid = grid;
    n->block = block;
    n->shared = unsigned(shared);
    n->window = window ? *window : stream_window(stream_handle, "launch");
    capture_arguments(*this, *n, args, nullptr, "launch");
    capture_node(st, std::move(n));
    return;
  }
  uint32_t sid = stream_id(stream_handle, "launch");
  Module& m = loaded(*f.module);
  const ptx::Function* fn = m.ast.find_function(f.name);
  if (!fn || !fn->is_entry) stop("launch", fmt::format("{}: no kernel '{}' in the PTX", m.label, f.name));
  program(f);  // a kernel the front end cannot decode stops here, not as a launch error
  if (cooperative) check_co_resident(f, grid, block, shared);
  if (!fn->params.empty() && !args)
    throw ShimError(cudaErrorInvalidValue, fmt::format("launch of '{}': null argument array", f.name));
  KernelArgs ka;
  for (size_t i = 0; i < fn->params.size(); ++i) {
    uint64_t size = fn->params[i].size_bytes();
    const void* src = args[i];
    if (!src) throw ShimError(cudaErrorInvalidValue, fmt::format("launch of '{}': argument {} is null", f.name, i));
    switch (size) {
      case 1: {
        uint8_t v;
        std::memcpy(&v, src, 1);
        ka.add(v);
        break;
      }
      case 2: {
        uint16_t v;
        std::memcpy(&v, src, 2);
        ka.add(v);
        break;
      }
      case 4: {
        uint32_t v;
        std::memcpy(&v, src, 4);
        ka.add(v);
        break;
      }
      case 8: {
        uint64_t v;
        std::memcpy(&v, src, 8);
        ka.add(v);
        break;
      }
      default: {
        // Aggregates: a zero-padded block at least as large as the parameter.
        auto add_block = [&](auto tag) {
          decltype(tag) blk{};
          std::memcpy(blk.data(), src, size);
          ka.add(blk);
        };
        if (size <= 16)
          add_block(std::array<uint8_t, 16>{});
        else if (size <= 64)
          add_block(std::array<uint8_t, 64>{});
        else if (size <= 256)
          add_block(std::array<uint8_t, 256>{});
        else if (size <= 1024)
          add_block(std::array<uint8_t, 1024>{});
        else if (size <= 4096)
          add_block(std::array<uint8_t, 4096>{});
        else if (size <= 32768)
          add_block(std::array<uint8_t, 32768>{});
        else
          throw ShimError(cudaErrorInvalidValue,
                          fmt::format("launch of '{}': parameter {} of {} bytes is too large", f.name, i, size));
      }
    }
  }
  // Legacy default-stream semantics: work on stream 0 follows all earlier work of blocking
  // streams, and work on a blocking stream follows earlier work on stream 0.
  bool blocking = true;
  if (Stream* s = stream(stream_handle, "launch")) blocking = !(s->flags & kStreamNonBlocking);
  if (sid == 0) {
    bool others = false;
    for (size_t i = 1; i < last_kernel_.size(); ++i)
      if (last_kernel_[i] && !kernel_done(last_kernel_[i] - 1)) others = true;
    if (others) sync_all();
  } else if (blocking && last_kernel_[0] && !kernel_done(last_kernel_[0] - 1)) {
    sync_stream(0);
  }
  const AccessPolicyWindow aw = access_window(window ? *window : stream_window(stream_handle, "launch"), "launch");
  try {
    const KernelHandle k = rt_->get_kernel(m.handle, f.name);
    const Dim3 g{grid.x, grid.y, grid.z}, b{block.x, block.y, block.z};
    if (cooperative)
      rt_->launch_cooperative(k, g, b, ka, uint32_t(shared), sid, config().core.num_sms, aw);
    else
      rt_->launch(k, g, b, ka, uint32_t(shared), sid, aw);
  } catch (const Error& e) {
    std::string what = e.what();
    bool resources = what.find("does not fit") != std::string::npos;
    throw ShimError(resources ? cudaErrorLaunchOutOfResources : cudaErrorInvalidConfiguration, what);
  }
  uint32_t id = launches_++;
  if (sid >= last_kernel_.size()) last_kernel_.resize(sid + 1, 0);
  last_kernel_[sid] = id + 1;
}

void State::check_co_resident(Function& f, dim3 grid, dim3 block, size_t shared) {
  const uint32_t cc = reported_capability();
  if (cc < kCooperativeLaunchCapability)
    throw ShimError(
        cudaErrorNotSupported,
        fmt::format("cooperative launch of '{}': the device (compute capability {}.{}) does not support "
                    "cooperative launches, which need {}.{} (cudaDevAttrCooperativeLaunch is 0)",
                    f.name, cc / 10, cc % 10, kCooperativeLaunchCapability / 10, kCooperativeLaunchCapability % 10));
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads == 0 || threads > 1024) return;  // the launch itself refuses it
  const uint32_t sms = config().core.num_sms;
  const uint32_t per_sm = resident_ctas(f, uint32_t(threads), shared);
  const uint64_t fit = uint64_t(per_sm) * sms;
  const uint64_t ctas = uint64_t(grid.x) * grid.y * grid.z;
  if (ctas > fit)
    throw ShimError(cudaErrorCooperativeLaunchTooLarge,
                    fmt::format("cooperative launch of '{}': a grid of {} CTAs exceeds the {} that can be resident at "
                                "once ({} per SM of {} threads, {} bytes of dynamic shared memory, x {} SMs; see "
                                "cudaOccupancyMaxActiveBlocksPerMultiprocessor)",
                                f.name, ctas, fit, per_sm, threads, shared, sms));
}

uint32_t State::resident_ctas(Function& f, uint32_t threads, size_t dynamic_shared) {
  const CoreConfig& c = config().core;
  return ctas_per_sm(c, ptx::cta_demand(program(f), &c, threads, dynamic_shared));
}

void State::record_event(Event& e, uint32_t sid) {
  rt();
  e.recorded = true;
  e.base_cycle = gpu_->now();
  e.wait_for.clear();
  for (size_t i = 0; i < last_kernel_.size(); ++i) {
    if (sid != 0 && i != sid) continue;  // stream 0 events follow every stream's work
    uint32_t k = last_kernel_[i];
    if (k && !kernel_done(k - 1)) e.wait_for.push_back(k - 1);
  }
}

uint64_t State::event_cycle(Event& e) {
  if (!e.recorded) throw ShimError(cudaErrorInvalidResourceHandle, "the event was never recorded");
  bool all_done = true;
  for (uint32_t k : e.wait_for) all_done &= kernel_done(k);
  if (!all_done) sync_all();
  refresh_done();
  uint64_t t = e.base_cycle;
  for (uint32_t k : e.wait_for)
    if (k < done_.size() && done_[k]) t = std::max(t, end_cycle_[k]);
  return t;
}

// ---------------------------------------------------------------- statistics

void State::write_statistics() {
  std::lock_guard<std::recursive_mutex> lock(mu);
  if (!gpu_) {
    if (json_path_.empty()) json_path_ = env("WARPSIM_JSON");
    if (json_path_.empty()) return;
  }
  if (gpu_ && sticky == cudaSuccess) {
    // Kernels the program launched but never waited for still count.
    try {
      gpu_->run_until_idle();
    } catch (const Error& e) {
      sticky = cudaErrorLaunchFailure;
      sticky_message = e.what();
      errors.push_back(std::string("at exit: ") + e.what());
    }
  }
  // Outputs the user asked for that could not be written: `warpsim exec` exits non-zero on them.
  std::vector<std::string> output_errors;
  if (gpu_ && !inst_stats_path_.empty()) {
    try {
      write_inst_profile_csv(inst_stats_path_, gpu_->inst_profile());
    } catch (const std::exception& e) {
      output_errors.push_back(fmt::format("cannot write instruction statistics to {}: {}", inst_stats_path_, e.what()));
      report("warpsim", output_errors.back());
    }
  }
  if (gpu_ && !issue_log_path_.empty()) {
    try {
      write_issue_trace_tsv(issue_log_path_, *gpu_->issue_trace(), gpu_->results());
    } catch (const std::exception& e) {
      output_errors.push_back(fmt::format("cannot write the issue log to {}: {}", issue_log_path_, e.what()));
      report("warpsim", output_errors.back());
    }
  }
  if (json_path_.empty()) return;
  nlohmann::json j = gpu_ ? gpu_->to_json() : nlohmann::json::object();
  if (j.contains("kernels")) {
    for (auto& k : j["kernels"]) {
      // C++ kernels carry mangled names; add the readable form.
      std::string name = k.value("name", "");
      int status = 0;
      char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
      if (status == 0 && d) k["demangled"] = d;
      std::free(d);
    }
  }
  j["program"] = program_invocation_name ? program_invocation_name : "";
  j["launches"] = launches_;
  j["host_seconds"] = gpu_ ? now_seconds() - start_seconds_ : 0.0;
  j["errors"] = errors;
  if (!output_errors.empty()) j["output_errors"] = output_errors;
  if (sticky != cudaSuccess) j["error"] = sticky_message;
  if (!stopped.empty()) j["stopped"] = stopped;
  try {
    write_json_atomic(json_path_, j);
  } catch (const std::exception& e) {
    report("warpsim", fmt::format("cannot write statistics to {}: {}", json_path_, e.what()));
  }
}

}  // namespace warpsim::cudart

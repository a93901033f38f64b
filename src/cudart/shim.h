// The CUDA runtime shim's process-wide state: registered fatbinaries, kernels and variables,
// the simulated GPU (a timing-model Gpu behind a warpsim::Runtime), streams, events, arrays
// and the error state. Every entry point takes the state's lock, so multithreaded programs
// see the API calls one at a time.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/config.h"
#include "core/error.h"
#include "cudart/cuda_abi.h"
#include "cudart/graph.h"
#include "cudart/mem_pool.h"
#include "ptx/ast.h"
#include "ptx/register_allocation.h"
#include "runtime/runtime.h"

namespace warpsim {
class Gpu;
namespace ptx {
struct Program;
}
}  // namespace warpsim

namespace warpsim::cudart {

// Cooperative launches (cudaLaunchCooperativeKernel, cudaDevAttrCooperativeLaunch) need this
// compute capability, as on NVIDIA's GPUs (Pascal and later); the capability is the one the
// program is told (State::reported_capability).
inline constexpr uint32_t kCooperativeLaunchCapability = 60;

// An error with the CUDA error code the failing call returns.
class ShimError : public Error {
 public:
  ShimError(cudaError_t code, const std::string& what) : Error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

struct Module;

struct Function {
  const void* host_fun = nullptr;
  std::string name;  // the kernel's PTX (mangled) name
  Module* module = nullptr;
  int max_dynamic_shared = -1;                  // cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = default
  std::shared_ptr<const ptx::Program> program;  // decoded on demand (attributes, occupancy)
};

struct Variable {
  const void* host_var = nullptr;
  std::string name;
  Module* module = nullptr;
  size_t size = 0;
  bool constant = false;
  void** managed_slot = nullptr;  // __managed__: where the program's host code finds the variable
};

struct Module {
  void* handle_slot = nullptr;           // the address handed to the program as its fatbin handle
  std::string label;                     // "fatbinary N" for messages
  std::string ptx;                       // extracted PTX text
  std::vector<std::string> ptx_objects;  // separate compilation: each device object's PTX, linked at load
  bool has_ptx() const { return !ptx.empty() || !ptx_objects.empty(); }
  std::string extract_error;         // why no PTX could be extracted
  uint32_t ptx_arch = 0;             // the PTX's target, e.g. 75 for compute_75
  ptx::CompiledRegisters registers;  // from the fatbinary's cubins: per SM target, per kernel
  bool has_symbols = false;          // functions or variables were registered against it
  bool loaded = false;
  std::string load_error;
  ModuleHandle handle;
  ptx::Module ast;
};

struct Stream {
  uint32_t id = 0;
  unsigned flags = 0;
  int priority = 0;
  Capture* capture = nullptr;            // the stream capture the stream takes part in
  std::vector<GraphNode*> capture_tail;  // what the stream's next captured node depends on
  cudaAccessPolicyWindow window{};       // cudaStreamAttributeAccessPolicyWindow (num_bytes 0: none)
};

struct Event {
  unsigned flags = 0;
  bool recorded = false;
  uint64_t base_cycle = 0;         // simulated time when recorded
  std::vector<uint32_t> wait_for;  // kernels (launch ids) the event completes after
  Capture* capture = nullptr;      // recorded in a stream capture: the nodes it stands for
  std::vector<GraphNode*> captured;
};

// Host memory the shim knows: pinned allocations (cudaMallocHost, cudaHostAlloc), registered
// ranges (cudaHostRegister) and managed allocations (cudaMallocManaged). When `device` is set,
// the simulated device reaches the same bytes at the same address (DeviceMemory::map_host).
struct HostRange {
  enum Kind : uint8_t { Pinned, Registered, Managed } kind = Pinned;
  size_t size = 0;
  unsigned flags = 0;   // the cudaHostAlloc / cudaHostRegister / cudaMallocManaged flags
  bool device = false;  // mapped into the device's address space
  size_t mapped = 0;    // bytes of the shim's own host mapping (0: the program owns the memory)
};

// A CUDA array: `depth` slices of `height` rows of `pitch` bytes, packed. The slices are the
// depth of a 3D array, the layers of a layered array, or the faces of a cubemap array (6 per
// cubemap, 6 x layers for a layered cubemap).
struct CudaArray {
  DevPtr data = 0;
  size_t width = 0, height = 0, depth = 1, pitch = 0, elem_bytes = 0;  // height and depth 1 when unused
  bool three_d = false;                                                // from cudaMalloc3DArray with a depth
  bool one_d_layered = false;                                          // a layered array made with no height
  unsigned flags = 0;                                                  // cudaArrayLayered, cudaArrayCubemap, ...
  cudaChannelFormatDesc desc{};
};
inline constexpr unsigned kArrayLayered = 0x01, kArraySurfaceLoadStore = 0x02, kArrayCubemap = 0x04,
                          kArrayTextureGather = 0x08, kArrayColorAttachment = 0x20;

class State {
 public:
  static State& get();
  std::recursive_mutex mu;

  // --- registration (no simulator needed) ---
  void** register_fatbin(const void* wrapper);
  void register_fatbin_end(void** handle);
  void register_function(void** handle, const void* host_fun, const char* device_name);
  void register_var(void** handle, const void* host_var, const char* device_name, size_t size, bool constant);
  void register_managed_var(void** handle, void** host_slot, const char* device_name, size_t size);
  // __cudaInitModule: loads the module, so that its __managed__ variables have host addresses.
  void init_module(void** handle);
  void unregister_fatbin(void** handle);

  // --- the simulator, created on first use from the environment ---
  Runtime& rt();
  Gpu& gpu();
  const GpuConfig& config();
  DeviceMemory& mem();

  // --- lookups (throw ShimError) ---
  Function& function(const void* host_fun, const char* api);
  Function& function_by_handle(const void* handle, const char* api);
  Variable& variable(const void* host_var, const char* api);
  // Loads the module into the runtime if needed. A module warpsim cannot load (no PTX, PTX the
  // front end refuses) stops the program with a located message and exit status 3: whatever
  // needs it would otherwise fail only because of warpsim, and a program that ignores the
  // error would end as if it had succeeded.
  Module& loaded(Module& m);
  // The same, for loads nothing asked for yet (at registration): false on failure, no stop.
  bool try_load(Module& m);
  // Says why the program cannot go on in the simulator and exits with status 3; the exit
  // handlers write the statistics of what ran.
  [[noreturn]] void stop(const char* api, const std::string& why);
  // The preset's compute capability, or the highest PTX target of the registered fatbinaries
  // when that is higher: what the program needs to be told to run.
  uint32_t reported_capability();
  const ptx::Program& program(Function& f);  // decodes the kernel; stop()s when it cannot
  // CTAs of `f` with `threads` threads and `dynamic_shared` bytes that fit one SM at once
  // (the occupancy API, cooperative launches).
  uint32_t resident_ctas(Function& f, uint32_t threads, size_t dynamic_shared);
  Stream* stream(const void* handle, const char* api);  // null = the legacy default stream
  uint32_t stream_id(const void* handle, const char* api);
  Event& event(const void* handle, const char* api);
  CudaArray& array(const void* handle, const char* api);

  // --- execution ---
  // `window`: the launch's access policy window (cudaLaunchAttributeAccessPolicyWindow); null:
  // the stream's (cudaStreamAttributeAccessPolicyWindow).
  void launch(Function& f, dim3 grid, dim3 block, void** args, size_t shared, const void* stream,
              bool cooperative = false, const cudaAccessPolicyWindow* window = nullptr);

  // --- persisting L2 (persisting_l2.cc) ---
  // The access policy window of `stream` (the default streams share one).
  cudaAccessPolicyWindow& stream_window(const void* stream, const char* api);
  // `w` checked against the device (ShimError: a device without persisting L2, a window over
  // accessPolicyMaxWindowSize, a hitRatio outside [0, 1], an unknown property) and converted.
  AccessPolicyWindow access_window(const cudaAccessPolicyWindow& w, const char* api);
  // cudaLimitPersistingL2CacheSize.
  void set_persisting_l2_limit(size_t bytes);
  size_t persisting_l2_limit() const { return persisting_l2_limit_; }
  void sync_all();
  void sync_stream(uint32_t id);
  // Before a host-side copy on stream `id`: wait for what the copy must follow.
  void before_stream_op(uint32_t id);
  bool kernel_done(uint32_t id);
  void record_event(Event& e, uint32_t stream);
  uint64_t event_cycle(Event& e);  // runs the simulation until the event completed

  // --- errors ---
  cudaError_t fail(const char* api, cudaError_t code, const std::string& message);
  cudaError_t sticky = cudaSuccess;  // a device fault: every later call returns it
  std::string sticky_message;
  std::string stopped;  // why stop() ended the program (empty: it did not)
  cudaError_t last_error = cudaSuccess;
  std::vector<std::string> errors;  // every error message, for the statistics file
  void check_sticky();

  // --- objects owned by the program through handles ---
  std::set<Stream*> streams;
  std::set<Event*> events;
  std::set<CudaArray*> arrays;
  std::map<uintptr_t, HostRange> host_ranges;  // by start address
  // The host range holding [p, p+bytes) (null: none).
  std::pair<const uintptr_t, HostRange>* host_range(const void* p, size_t bytes = 1);
  // Host memory the device reaches at the same addresses: a fresh anonymous mapping (zeros)
  // placed where no device or generic-window address lies; throws ShimError when none is had.
  void* alloc_device_visible(size_t bytes, size_t* mapped);
  // Makes [p, p+bytes) reachable from the device at the same address; false when that address
  // range is taken by the simulated device's own addresses.
  bool map_host(const void* p, size_t bytes);
  // Forgets a host range (waits for the device first); unmaps the shim's own mapping.
  void release_host_range(uintptr_t start);
  std::map<uintptr_t, uint64_t> textures;  // texture objects the program holds
  std::set<uint64_t> surfaces;             // surface objects the program holds
  std::set<Graph*> graphs;
  std::set<GraphExec*> graph_execs;
  std::set<Capture*> captures;
  std::set<GraphNode*> graph_nodes;  // the nodes of every graph the program holds
  uint64_t next_capture_id = 1;
  // The stream behind `handle` when it takes part in a stream capture (null: it does not).
  Stream* capturing(const void* handle, const char* api);
  // Appends `n` to the capture `st` takes part in, after the stream's captured work so far.
  GraphNode* capture_node(Stream* st, std::unique_ptr<GraphNode> n);
  GraphNode& graph_node(const void* handle, const char* api);
  MemPools pools;
  // Memory of graph allocation nodes (address -> bytes): allocated when the node is made, at
  // a fixed address, and kept until the program ends (api_graph.cc).
  std::map<uint64_t, uint64_t> graph_allocations;
  uint64_t graph_allocation(uint64_t bytes);

  int device = 0;
  unsigned device_flags = 0;

  void write_statistics();  // at exit

 private:
  State() = default;
  void init_simulator();
  // A cooperative launch's CTAs must all be resident at once: throws ShimError
  // (cudaErrorCooperativeLaunchTooLarge, or cudaErrorNotSupported below compute capability 6.0).
  void check_co_resident(Function& f, dim3 grid, dim3 block, size_t shared);
  void bind_managed(Module& m);
  void refresh_done();
  void sim_failed(const Error& e);

  std::vector<std::unique_ptr<Module>> modules_;
  std::unordered_map<void*, Module*> by_handle_;
  std::unordered_map<const void*, std::unique_ptr<Function>> functions_;
  std::set<const Function*> function_handles_;  // what __cudaGetKernel handed out
  std::unordered_map<const void*, std::unique_ptr<Variable>> variables_;
  std::unique_ptr<GpuConfig> cfg_;
  std::unique_ptr<Gpu> gpu_;
  std::unique_ptr<Runtime> rt_;
  std::string scheduler_;
  std::string json_path_;
  std::string inst_stats_path_;  // WARPSIM_INST_STATS: per-instruction profile CSV
  std::string issue_log_path_;   // WARPSIM_ISSUE_LOG: every issued instruction, TSV
  uint32_t next_stream_ = 1;
  uint32_t launches_ = 0;
  std::vector<uint32_t> last_kernel_;  // per stream id: last launch id + 1 (0 = none)
  size_t persisting_l2_limit_ = 0;     // cudaLimitPersistingL2CacheSize as the L2 set it aside
  cudaAccessPolicyWindow default_stream_window_{};
  std::vector<uint8_t> done_;        // per launch id
  std::vector<uint64_t> end_cycle_;  // per launch id: its end cycle, once done
  size_t results_seen_ = 0;
  double start_seconds_ = 0;
};

// Prints "warpsim: <api>: <message>" on stderr.
void report(const char* api, const std::string& message);
// "cudaErrorInvalidValue (invalid argument)": what a failed call without a message of its own says.
std::string describe_error(cudaError_t code);
// The entry point exists but warpsim does not implement it: says so and exits non-zero.
[[noreturn]] void unsupported(const char* api);

// Runs `body` under the state's lock, turning exceptions into CUDA error codes.
template <class F>
cudaError_t guarded(const char* api, F&& body);

// Stream and kernel node attribute cudaLaunchAttributeAccessPolicyWindow (persisting_l2.cc):
// other attributes, and windows the device refuses, throw ShimError.
void set_window_attribute(State& s, const char* api, cudaAccessPolicyWindow& slot, int attr,
                          const cudaLaunchAttributeValue* v);
void get_window_attribute(const char* api, const cudaAccessPolicyWindow& slot, int attr, cudaLaunchAttributeValue* v);

template <class F>
cudaError_t guarded(const char* api, F&& body) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  try {
    cudaError_t rc = body(s);
    if (rc == cudaErrorGraphExecUpdateFailure) {
      s.last_error = rc;  // an outcome the program acts on (it instantiates the graph again)
      return rc;
    }
    if (rc != cudaSuccess) return s.fail(api, rc, describe_error(rc));
    return rc;
  } catch (const ShimError& e) {
    return s.fail(api, e.code(), e.what());
  } catch (const Error& e) {
    return s.fail(api, cudaErrorInvalidValue, e.what());
  } catch (const std::bad_alloc&) {
    return s.fail(api, cudaErrorMemoryAllocation, "out of host memory");
  } catch (const std::exception& e) {
    return s.fail(api, cudaErrorUnknown, e.what());
  }
}

}  // namespace warpsim::cudart

namespace warpsim::cudart {
// CUDA 13 layouts; api_abi.cc adapts them to the ABI generation a library variant serves.
void fill_properties(State& s, cudaDeviceProp* p);
void func_attributes(State& s, const void* func, cudaFuncAttributes* attr);
// The virtual architecture a loaded module's PTX targets (75 for `.target sm_75`).
uint32_t ptx_target_arch(const Module& m);
}  // namespace warpsim::cudart

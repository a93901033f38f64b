// Registration entry points nvcc's generated code calls, kernel launches, function attributes
// and occupancy queries.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/occupancy.h"
#include "cudart/shim.h"
#include "ptx/ir.h"
#include "ptx/register_allocation.h"

using namespace warpsim::cudart;
using warpsim::cudart::dim3;

#define CUDART_API extern "C" __attribute__((visibility("default")))

CUDART_API void** __cudaRegisterFatBinary(void* fat_cubin) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  return s.register_fatbin(fat_cubin);
}

CUDART_API void __cudaRegisterFatBinaryEnd(void** handle) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.register_fatbin_end(handle);
}

CUDART_API void __cudaUnregisterFatBinary(void** handle) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.unregister_fatbin(handle);
}

CUDART_API void __cudaRegisterFunction(void** handle, const char* host_fun, char* device_fun, const char* device_name,
                                       int thread_limit, void* tid, void* bid, void* bdim, void* gdim, int* wsize) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.register_function(handle, host_fun, device_name ? device_name : device_fun);
}

CUDART_API void __cudaRegisterVar(void** handle, char* host_var, char* device_address, const char* device_name, int ext,
                                  size_t size, int constant, int global) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.register_var(handle, host_var, device_name ? device_name : device_address, size, constant != 0);
}

CUDART_API void __cudaRegisterManagedVar(void** handle, void** host_var_ptr, char* device_address,
                                         const char* device_name, int ext, size_t size, int constant, int global) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.register_managed_var(handle, host_var_ptr, device_name ? device_name : device_address, size);
}

// Called by nvcc's host code before its first use of a __managed__ variable.
CUDART_API char __cudaInitModule(void** handle) {
  State& s = State::get();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.init_module(handle);
  return 1;
}

namespace {
// Launch configurations pushed by <<<>>> and popped by the kernel's stub, per host thread.
struct CallConfig {
  dim3 grid, block;
  size_t shared = 0;
  void* stream = nullptr;
};
thread_local std::vector<CallConfig> call_stack;
}  // namespace

CUDART_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void* stream) {
  call_stack.push_back({grid, block, shared, stream});
  return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  if (call_stack.empty()) {
    State& s = State::get();
    std::lock_guard<std::recursive_mutex> lock(s.mu);
    return s.fail("__cudaPopCallConfiguration", cudaErrorMissingConfiguration, "no launch configuration was pushed");
  }
  CallConfig c = call_stack.back();
  call_stack.pop_back();
  if (grid) *grid = c.grid;
  if (block) *block = c.block;
  if (shared) *shared = c.shared;
  if (stream) *static_cast<void**>(stream) = c.stream;
  return cudaSuccess;
}

CUDART_API cudaError_t __cudaGetKernel(void** kernel, const void* host_fun) {
  return guarded("__cudaGetKernel", [&](State& s) {
    if (!kernel) return cudaErrorInvalidValue;
    *kernel = &s.function(host_fun, "__cudaGetKernel");
    return cudaSuccess;
  });
}

CUDART_API cudaError_t __cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                          void* stream) {
  return guarded("__cudaLaunchKernel", [&](State& s) {
    s.launch(s.function_by_handle(kernel, "__cudaLaunchKernel"), grid, block, args, shared, stream);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t __cudaLaunchKernel_ptsz(const void* kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                               void* stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

CUDART_API cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                        void* stream) {
  return guarded("cudaLaunchKernel", [&](State& s) {
    s.launch(s.function(func, "cudaLaunchKernel"), grid, block, args, shared, stream);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                             void* stream) {
  return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

// Every CTA of a cooperative launch is resident at once and may wait for the others
// (cooperative_groups::this_grid().sync()); a grid that does not fit is refused
// (State::check_co_resident).
CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                                   void* stream) {
  return guarded("cudaLaunchCooperativeKernel", [&](State& s) {
    s.launch(s.function(func, "cudaLaunchCooperativeKernel"), grid, block, args, shared, stream, true);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                                        size_t shared, void* stream) {
  return cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

// cudaLaunchKernelEx (a template in the CUDA headers) calls this. Launch attributes change
// nothing warpsim models, make a cooperative launch, set the launch's L2 access policy window,
// or are refused: programmatic stream serialization (programmatic dependent launch, which Thrust
// and CUB ask for) only permits the kernel to start before the previous one in its stream ends,
// so running it after that kernel is correct; priorities, synchronisation policies and memory
// synchronisation domains are hints. An access policy window replaces the stream's (a device
// without persisting L2 refuses it). Cluster launches and programmatic events stop the program.
CUDART_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return guarded("cudaLaunchKernelExC", [&](State& s) {
    if (!config || (config->numAttrs && !config->attrs)) return cudaErrorInvalidValue;
    bool cooperative = false;
    const cudaAccessPolicyWindow* window = nullptr;
    for (unsigned i = 0; i < config->numAttrs; ++i) {
      const cudaLaunchAttribute& a = config->attrs[i];
      switch (a.id) {
        case cudaLaunchAttributeAccessPolicyWindow:
          window = &a.val.accessPolicyWindow;
          break;
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributeProgrammaticStreamSerialization:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
          break;
        case cudaLaunchAttributeCooperative:
          cooperative = a.val.cooperative != 0;
          break;
        case cudaLaunchAttributeClusterDimension:
          if (uint64_t(a.val.clusterDim.x) * a.val.clusterDim.y * a.val.clusterDim.z > 1)
            s.stop("cudaLaunchKernelExC", "thread block clusters are not supported");
          break;
        default:
          s.stop("cudaLaunchKernelExC", fmt::format("launch attribute {} is not supported", a.id));
      }
    }
    s.launch(s.function(func, "cudaLaunchKernelExC"), config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
             config->stream, cooperative, window);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return cudaLaunchKernelExC(config, func, args);
}

namespace warpsim::cudart {

uint32_t ptx_target_arch(const Module& m) {
  const std::string& t = m.ast.target;  // "sm_75", "sm_90a"
  if (t.rfind("sm_", 0) == 0) {
    uint32_t arch = 0;
    for (size_t i = 3; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) arch = arch * 10 + uint32_t(t[i] - '0');
    if (arch) return arch;
  }
  return m.ptx_arch;
}

void func_attributes(State& s, const void* func, cudaFuncAttributes* attr) {
  {
    Function& f = s.function(func, "cudaFuncGetAttributes");
    const warpsim::ptx::Program& p = s.program(f);
    Module& m = s.loaded(*f.module);
    std::memset(attr, 0, sizeof(*attr));
    attr->sharedSizeBytes = p.static_shared;
    attr->constSizeBytes = 0;
    for (const auto& v : m.ast.globals)
      if (v.space == warpsim::ptx::Space::Const) attr->constSizeBytes += v.size_bytes();
    attr->localSizeBytes = p.local_bytes;
    const auto& c = s.config().core;
    uint32_t max_threads = std::min<uint32_t>(1024, c.max_threads);
    if (p.maxntid_threads) max_threads = std::min(max_threads, p.maxntid_threads);
    uint32_t regs = warpsim::ptx::allocated_regs_per_thread(p, &c);
    // The largest block whose registers fit the SM.
    while (max_threads > 32 && warpsim::regs_per_cta(c, regs, (max_threads + 31) / 32) > c.registers) max_threads -= 32;
    if (p.reqntid[0]) max_threads = p.reqntid[0] * std::max(1u, p.reqntid[1]) * std::max(1u, p.reqntid[2]);
    attr->maxThreadsPerBlock = int(max_threads);
    attr->numRegs = int(regs);
    // Architectures as major * 10 + minor, not the PTX ISA version: the virtual architecture
    // the PTX was written for (CUB's PtxVersion picks its tuning policy by it and fails with
    // cudaErrorInvalidDeviceFunction when it is none the program was built for), and the
    // architecture the PTX is compiled for on this device.
    attr->ptxVersion = int(ptx_target_arch(m));
    attr->binaryVersion = int(s.reported_capability());
    attr->maxDynamicSharedSizeBytes = f.max_dynamic_shared >= 0
                                          ? f.max_dynamic_shared
                                          : int(std::min<uint64_t>(48 * 1024, c.shared_mem) - p.static_shared);
    attr->preferredShmemCarveout = -1;
  }
}

}  // namespace warpsim::cudart

CUDART_API cudaError_t cudaFuncSetCacheConfig(const void* func, int config) {
  return guarded("cudaFuncSetCacheConfig", [&](State& s) {
    s.function(func, "cudaFuncSetCacheConfig");
    return cudaSuccess;  // the modelled L1/shared split is fixed by the preset
  });
}

CUDART_API cudaError_t cudaFuncSetSharedMemConfig(const void* func, int config) {
  return guarded("cudaFuncSetSharedMemConfig", [&](State& s) {
    s.function(func, "cudaFuncSetSharedMemConfig");
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value) {
  return guarded("cudaFuncSetAttribute", [&](State& s) {
    Function& f = s.function(func, "cudaFuncSetAttribute");
    if (attr == 8) {  // cudaFuncAttributeMaxDynamicSharedMemorySize
      if (value < 0 || uint64_t(value) > s.config().core.shared_mem)
        throw ShimError(cudaErrorInvalidValue, fmt::format("{} bytes of dynamic shared memory exceed the SM's {}",
                                                           value, s.config().core.shared_mem));
      f.max_dynamic_shared = value;
    }
    return cudaSuccess;
  });
}

namespace {

// CTAs of `f` with `block` threads and `dyn` dynamic shared bytes that fit one SM at once.
int occupancy(State& s, Function& f, int block, size_t dyn) {
  if (block <= 0) throw ShimError(cudaErrorInvalidValue, "block size must be positive");
  return int(s.resident_ctas(f, uint32_t(block), dyn));
}

}  // namespace

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* num, const void* func, int block,
                                                                              size_t dyn, unsigned flags) {
  return guarded("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&](State& s) {
    if (!num) return cudaErrorInvalidValue;
    *num = occupancy(s, s.function(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor"), block, dyn);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num, const void* func, int block,
                                                                     size_t dyn) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num, func, block, dyn, 0);
}

CUDART_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dyn, const void* func, int num_blocks,
                                                                 int block) {
  return guarded("cudaOccupancyAvailableDynamicSMemPerBlock", [&](State& s) {
    if (!dyn || num_blocks <= 0) return cudaErrorInvalidValue;
    Function& f = s.function(func, "cudaOccupancyAvailableDynamicSMemPerBlock");
    const warpsim::ptx::Program& p = s.program(f);
    uint64_t per = s.config().core.shared_mem / uint64_t(num_blocks);
    *dyn = per > p.dyn_shared_offset ? per - p.dyn_shared_offset : 0;
    return cudaSuccess;
  });
}

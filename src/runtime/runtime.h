// The C++ runtime API: device memory, modules, symbols, textures, launches and streams
// (implemented in ptx/runtime_api.cc, next to the PTX front end it drives). The
// bundled workload drivers and the libcudart shim both stand on it.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_source.h"
#include "core/launch_target.h"
#include "core/occupancy.h"

namespace warpsim::ptx {
struct CompiledRegisters;
}  // namespace warpsim::ptx

namespace warpsim {

class DeviceMemory;
class DeviceHeap;
using DevPtr = uint64_t;  // device virtual address

struct ModuleHandle {
  uint32_t id = 0;
};
struct KernelHandle {
  uint32_t module = 0;
  uint32_t index = 0;
};

// Raw kernel parameter bytes, laid out as the kernel's .param list wants them.
class KernelArgs {
 public:
  template <class T>
  KernelArgs& add(const T& v) {
    size_t align = alignof(T) < 8 ? alignof(T) : 8;
    size_t off = (bytes_.size() + align - 1) / align * align;
    bytes_.resize(off + sizeof(T));
    std::memcpy(bytes_.data() + off, &v, sizeof(T));
    offsets_.push_back(off);
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  const std::vector<size_t>& offsets() const { return offsets_; }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<size_t> offsets_;
};

// A texture object. Its texels are rows of `pitch` bytes, `height` rows to a slice; slices
// follow each other: the depth slices of a 3D texture, the layers of a layered texture, the
// faces of a cubemap (6 per cubemap layer). `depth` and `layers` are 1 otherwise.
struct TextureDesc {
  DevPtr data = 0;
  uint32_t width = 0, height = 1;  // elements
  uint32_t pitch = 0;              // bytes per row (0 = width * element size)
  uint32_t depth = 1;              // 3D textures: slices (tex.3d)
  uint32_t layers = 1;             // layered textures: layers (tex.a1d/a2d); cubemaps: cubemap layers
  bool layered = false;            // a layered array (tex.a1d, tex.a2d, tex.acube)
  bool cubemap = false;            // 6 square faces of width x width per layer (tex.cube, tex.acube)
  uint32_t channels = 1;           // 1, 2 or 4
  uint32_t channel_bits = 32;      // 8, 16 or 32
  bool is_float = true;            // float channels (else integer)
  bool is_signed = false;          // signed integer channels
  bool normalized_coords = false;
  bool read_normalized_float = false;
  enum Address { Clamp, Wrap, Border, Mirror };
  Address address[3] = {Clamp, Clamp, Clamp};  // per dimension: x, y, z
  bool linear_filter = false;
};

// A surface object over a CUDA array (suld/sust): rows of `pitch` bytes, `height` rows to a
// slice, `slices` slices (the depth of a 3D array, the layers of a layered array, 6 faces per
// layer of a cubemap array) one after another.
struct SurfaceDesc {
  DevPtr data = 0;
  uint32_t width = 0, height = 1, slices = 1;  // elements, rows, slices
  uint32_t pitch = 0;                          // bytes per row (0 = width * elem_bytes)
  uint32_t elem_bytes = 4;                     // bytes per element (1 to 16)
  bool layered = false;                        // slices are layers (suld.b.a1d/a2d), not depth
  // The array's channel format (suq.channel_data_type, suq.channel_order).
  uint32_t channels = 1, channel_bits = 32;
  bool is_float = false, is_signed = false;
};

class Runtime {
 public:
  // `target` receives launches; the runtime does not own it.
  explicit Runtime(LaunchTarget* target);
  ~Runtime();

  DevPtr malloc(uint64_t bytes);
  void free(DevPtr p);
  void memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes);
  void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes);  // waits for queued kernels
  void memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes);
  void memset(DevPtr dst, int value, uint64_t bytes);

  // `registers`: what the compiler gave the module's kernels (null or empty: not known); a
  // kernel gets the count for the target core.register_target picks (ptx/register_allocation.h).
  ModuleHandle load_module(const std::string& ptx_text, const std::string& file_name,
                           const ptx::CompiledRegisters* registers = nullptr);
  // The PTX of several device objects (separate compilation, -rdc=true) linked into one module
  // (ptx/link.h); each object's messages name its own `file`.
  struct PtxObject {
    std::string text, file;
  };
  ModuleHandle load_module(const std::vector<PtxObject>& objects, const std::string& file_name,
                           const ptx::CompiledRegisters* registers = nullptr);
  KernelHandle get_kernel(ModuleHandle m, const std::string& name);
  // Names of the module's kernels (.entry functions with a body), in file order.
  std::vector<std::string> kernel_names(ModuleHandle m);
  // Where the module's code starts in instruction memory: the modules are laid out in the order
  // they were loaded (ptx::Module::code_base).
  uint64_t module_code_base(ModuleHandle m);
  // The kernel's .param list: name and size in bytes of each parameter, in order.
  std::vector<std::pair<std::string, uint32_t>> kernel_params(KernelHandle k);
  // What one CTA of `block_threads` threads of the kernel takes from an SM (allocated registers
  // per thread, static shared memory plus `dynamic_shared`).
  CtaDemand kernel_demand(KernelHandle k, uint32_t block_threads, uint32_t dynamic_shared = 0);
  // Address and size of a module-level variable (.global / .const).
  DevPtr symbol_address(ModuleHandle m, const std::string& name, uint64_t* size = nullptr);
  void memcpy_to_symbol(ModuleHandle m, const std::string& name, const void* src, uint64_t bytes, uint64_t offset = 0);
  void memcpy_from_symbol(void* dst, ModuleHandle m, const std::string& name, uint64_t bytes, uint64_t offset = 0);

  uint64_t create_texture(const TextureDesc& desc);  // a texture object handle for kernels
  void destroy_texture(uint64_t tex);
  uint64_t create_surface(const SurfaceDesc& desc);  // a surface object handle for kernels
  void destroy_surface(uint64_t surf);

  uint32_t create_stream();  // stream 0 is the default stream
  // `window`: the launch's L2 access policy window (cudaAccessPolicyWindow; empty: none).
  void launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared = 0,
              uint32_t stream = 0, const AccessPolicyWindow& window = {});
  // A cooperative launch (cudaLaunchCooperativeKernel): the kernel reads the address of a
  // zeroed grid workspace in %envreg1/%envreg2 (one per stream, reused: a completed grid
  // barrier leaves it as it found it) and its CTAs execute interleaved, so that they can wait
  // for each other (ptx::PtxKernel). The caller checked that every CTA fits the GPU's `num_sms`
  // SMs at once.
  void launch_cooperative(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared,
                          uint32_t stream, uint32_t num_sms, const AccessPolicyWindow& window = {});
  void synchronize();  // all streams
  void stream_synchronize(uint32_t stream);

  LaunchTarget& target() { return *target_; }
  // Per-thread instruction limit after which a kernel is stopped as a runaway (0 = none).
  void set_instruction_limit(uint64_t per_thread);
  // memcheck: check every global access of the kernels launched from now on against the live
  // allocations, byte by byte; a kernel with invalid accesses fails when it ends, with a report
  // of them (off: accesses inside the mapped device heap succeed, as on a GPU).
  void set_memcheck(bool on);
  bool memcheck() const;
  DeviceMemory& device_memory();
  // The heap of device-side malloc/free and new/delete (cudaLimitMallocHeapSize).
  DeviceHeap& device_heap();

 private:
  struct Impl;
  void enqueue_launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared,
                      uint32_t stream, DevPtr grid_workspace, uint32_t num_sms, const AccessPolicyWindow& window);
  std::unique_ptr<Impl> impl_;
  LaunchTarget* target_;
};

}  // namespace warpsim

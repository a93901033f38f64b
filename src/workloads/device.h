// The device a bundled workload's driver talks to: device memory, kernels by name, launches,
// streams, symbols and textures. Two backends implement it: warpsim's Runtime (`warpsim run`,
// src/workloads/runtime_device.h) and the CUDA runtime API (the standalone programs,
// src/workloads/standalone/cuda_device.cc), so each driver is written once and the same
// workload runs under warpsim, under `warpsim exec`, under GPGPU-Sim and on a real GPU.
// Only plain types: the standalone build compiles this with nvcc's host compiler.
#pragma once
#include <cstdint>
#include <string>

#include "runtime/runtime.h"  // DevPtr, ModuleHandle, KernelHandle, KernelArgs, TextureDesc, Dim3

namespace warpsim {

class Device {
 public:
  virtual ~Device() = default;

  virtual DevPtr malloc(uint64_t bytes) = 0;
  virtual void free(DevPtr p) = 0;
  virtual void memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) = 0;
  virtual void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) = 0;  // waits for queued kernels
  virtual void memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes) = 0;
  virtual void memset(DevPtr dst, int value, uint64_t bytes) = 0;

  // A kernel of the workload's kernel.cu by its (unmangled, extern "C") name.
  virtual KernelHandle get_kernel(ModuleHandle m, const std::string& name) = 0;
  // Arguments are raw parameter bytes at KernelArgs' offsets, in the kernel's .param order.
  virtual void launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared = 0,
                      uint32_t stream = 0) = 0;
  virtual uint32_t create_stream() = 0;  // stream 0 is the default stream
  virtual void synchronize() = 0;        // all streams

  // A module-level variable (__constant__ / __device__) of kernel.cu by name.
  virtual void memcpy_to_symbol(ModuleHandle m, const std::string& name, const void* src, uint64_t bytes,
                                uint64_t offset = 0) = 0;

  virtual uint64_t create_texture(const TextureDesc& desc) = 0;  // a texture object for kernels
  virtual void destroy_texture(uint64_t tex) = 0;
};

}  // namespace warpsim

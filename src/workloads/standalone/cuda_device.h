// Backend 2 of workloads/device.h: the CUDA runtime API. Kernels and symbols are found by name
// in the tables generated with the program (tables.h).
#pragma once
#include <vector>

#include "workloads/device.h"
#include "workloads/standalone/tables.h"

namespace warpsim {

class CudaDevice final : public Device {
 public:
  CudaDevice(const standalone::Entry* kernels, const standalone::Entry* symbols);
  ~CudaDevice() override;

  DevPtr malloc(uint64_t bytes) override;
  void free(DevPtr p) override;
  void memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) override;
  void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) override;
  void memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes) override;
  void memset(DevPtr dst, int value, uint64_t bytes) override;
  KernelHandle get_kernel(ModuleHandle m, const std::string& name) override;
  void launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared = 0,
              uint32_t stream = 0) override;
  uint32_t create_stream() override;
  void synchronize() override;
  void memcpy_to_symbol(ModuleHandle m, const std::string& name, const void* src, uint64_t bytes,
                        uint64_t offset = 0) override;
  uint64_t create_texture(const TextureDesc& desc) override;
  void destroy_texture(uint64_t tex) override;

 private:
  const standalone::Entry* kernels_;
  const standalone::Entry* symbols_;
  std::vector<void*> streams_;  // cudaStream_t; [0] is the default stream
};

}  // namespace warpsim

// Backend 1 of workloads/device.h: warpsim's own Runtime (what `warpsim run` drives).
#pragma once
#include "runtime/runtime.h"
#include "workloads/device.h"

namespace warpsim {

class RuntimeDevice final : public Device {
 public:
  explicit RuntimeDevice(Runtime& rt) : rt_(rt) {}
  DevPtr malloc(uint64_t bytes) override { return rt_.malloc(bytes); }
  void free(DevPtr p) override { rt_.free(p); }
  void memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) override { rt_.memcpy_h2d(dst, src, bytes); }
  void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) override { rt_.memcpy_d2h(dst, src, bytes); }
  void memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes) override { rt_.memcpy_d2d(dst, src, bytes); }
  void memset(DevPtr dst, int value, uint64_t bytes) override { rt_.memset(dst, value, bytes); }
  KernelHandle get_kernel(ModuleHandle m, const std::string& name) override { return rt_.get_kernel(m, name); }
  void launch(KernelHandle k, Dim3 grid, Dim3 block, const KernelArgs& args, uint32_t dynamic_shared = 0,
              uint32_t stream = 0) override {
    rt_.launch(k, grid, block, args, dynamic_shared, stream);
  }
  uint32_t create_stream() override { return rt_.create_stream(); }
  void synchronize() override { rt_.synchronize(); }
  void memcpy_to_symbol(ModuleHandle m, const std::string& name, const void* src, uint64_t bytes,
                        uint64_t offset = 0) override {
    rt_.memcpy_to_symbol(m, name, src, bytes, offset);
  }
  uint64_t create_texture(const TextureDesc& desc) override { return rt_.create_texture(desc); }
  void destroy_texture(uint64_t tex) override { rt_.destroy_texture(tex); }

 private:
  Runtime& rt_;
};

}  // namespace warpsim

// The libcudart shim (build/cudart/libcudart.so.13) loaded with dlopen into a test process,
// with the committed vector_add fatbinary registered as nvcc's generated code registers it:
// kernel _Z10vector_addPKfS0_Pfi (const float* a, const float* b, float* c, int n), c = a + b.
// Tests call runtime entry points through Shim::fn; needs no CUDA toolkit.
#pragma once
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace warpsim::testsupport {

inline std::string shim_path() {
  std::string bin = WARPSIM_BINARY;
  return bin.substr(0, bin.rfind('/')) + "/cudart/libcudart.so.13";
}

struct Wrapper {
  int magic;
  int version;
  const uint8_t* data;
  const void* unused;
};

class Shim {
 public:
  // The first call loads the shim for preset `gpu`; one preset per process.
  static Shim& get(const char* gpu = "gtx480") {
    static Shim s(gpu);
    return s;
  }
  template <class F>
  F fn(const char* name) {
    void* p = dlsym(lib_, name);
    EXPECT_NE(p, nullptr) << name;
    return reinterpret_cast<F>(p);
  }
  bool ok() const { return lib_ != nullptr; }
  std::string error;
  const char kernel_host_stub = 0;  // stands for the host-side stub of the kernel
  const void* kernel() const { return &kernel_host_stub; }

 private:
  explicit Shim(const char* gpu) {
    setenv("WARPSIM_GPU", gpu, 1);
    unsetenv("WARPSIM_SET");
    unsetenv("WARPSIM_JSON");
    lib_ = dlopen(shim_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      error = dlerror();
      return;
    }
    std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/data/fatbin/vector_add_plain.fatbin";
    std::ifstream in(path, std::ios::binary);
    blob_.assign(std::istreambuf_iterator<char>(in), {});
    // The section starts with the empty device-link container; the program's follows.
    wrapper_ = {0x466243b1, 1, blob_.data() + 16, nullptr};
    auto reg = fn<void** (*)(void*)>("__cudaRegisterFatBinary");
    auto reg_fn = fn<void (*)(void**, const char*, char*, const char*, int, void*, void*, void*, void*, int*)>(
        "__cudaRegisterFunction");
    auto reg_end = fn<void (*)(void**)>("__cudaRegisterFatBinaryEnd");
    void** h = reg(&wrapper_);
    char name[] = "_Z10vector_addPKfS0_Pfi";
    reg_fn(h, &kernel_host_stub, name, name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    reg_end(h);
  }
  void* lib_ = nullptr;
  std::vector<uint8_t> blob_;
  Wrapper wrapper_{};
};

}  // namespace warpsim::testsupport

#define SHIM_OR_SKIP()                                                  \
  warpsim::testsupport::Shim& shim = warpsim::testsupport::Shim::get(); \
  if (!shim.ok()) GTEST_SKIP() << "cannot load the shim: " << shim.error

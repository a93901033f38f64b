// A CUDA program without nvcc: it drives libcudart.so.13 the way nvcc's generated host code
// does (register a fatbinary and its kernel, then runtime calls), so tests can run a CUDA
// program under `warpsim exec` on any machine.
//
//   device_identity FATBIN     prints what the runtime says about the device, then adds two
//                              vectors with the fatbinary's vector_add kernel and checks them
//
// The fatbinary is tests/data/fatbin/vector_add_plain.fatbin (kernel
// _Z10vector_addPKfS0_Pfi(const float*, const float*, float*, int)). Exit 0 when every check
// passes, 1 when one fails, 2 when the runtime cannot be loaded.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "cudart/cuda_abi.h"

using namespace warpsim::cudart;

namespace {

struct FatbinWrapper {
  int magic;
  int version;
  const uint8_t* data;
  const void* unused;
};

void* lib = nullptr;

template <class F>
F sym(const char* name) {
  void* p = dlsym(lib, name);
  if (!p) {
    std::fprintf(stderr, "device_identity: %s is missing from the runtime\n", name);
    std::exit(2);
  }
  return reinterpret_cast<F>(p);
}

const char kKernelStub = 0;  // stands for the kernel's host-side stub

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: device_identity FATBIN\n");
    return 2;
  }
  lib = dlopen("libcudart.so.13", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "device_identity: %s\n", dlerror());
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<uint8_t> blob{std::istreambuf_iterator<char>(in), {}};
  if (blob.size() < 32) {
    std::fprintf(stderr, "device_identity: cannot read the fatbinary %s\n", argv[1]);
    return 2;
  }
  // The section starts with the empty device-link container; the program's follows.
  FatbinWrapper wrapper{0x466243b1, 1, blob.data() + 16, nullptr};
  void** handle = sym<void** (*)(void*)>("__cudaRegisterFatBinary")(&wrapper);
  char name[] = "_Z10vector_addPKfS0_Pfi";
  sym<void (*)(void**, const char*, char*, const char*, int, void*, void*, void*, void*, int*)>(
      "__cudaRegisterFunction")(handle, &kKernelStub, name, name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
  sym<void (*)(void**)>("__cudaRegisterFatBinaryEnd")(handle);

  cudaDeviceProp prop;
  if (sym<int (*)(cudaDeviceProp*, int)>("cudaGetDeviceProperties")(&prop, 0) != 0) return 1;
  size_t free_bytes = 0, total_bytes = 0;
  if (sym<int (*)(size_t*, size_t*)>("cudaMemGetInfo")(&free_bytes, &total_bytes) != 0) return 1;
  std::printf("name: %s\n", prop.name);
  std::printf("compute capability: %d.%d\n", prop.major, prop.minor);
  std::printf("multiprocessors: %d\n", prop.multiProcessorCount);
  std::printf("global memory: %zu\n", prop.totalGlobalMem);
  std::printf("memory info total: %zu\n", total_bytes);

  const int n = 1000;
  std::vector<float> a(n), b(n), c(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(2 * i + 1);
  }
  auto cmalloc = sym<int (*)(void**, size_t)>("cudaMalloc");
  auto cmemcpy = sym<int (*)(void*, const void*, size_t, int)>("cudaMemcpy");
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  if (cmalloc(&da, n * 4) || cmalloc(&db, n * 4) || cmalloc(&dc, n * 4)) return 1;
  if (cmemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice) || cmemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice))
    return 1;
  int count = n;
  void* args[] = {&da, &db, &dc, &count};
  int rc = sym<int (*)(const void*, dim3, dim3, void**, size_t, void*)>("cudaLaunchKernel")(
      &kKernelStub, dim3{unsigned(n + 127) / 128, 1, 1}, dim3{128, 1, 1}, args, 0, nullptr);
  if (rc != 0 || cmemcpy(c.data(), dc, n * 4, cudaMemcpyDeviceToHost)) return 1;
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      std::printf("vector_add: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  std::printf("vector_add: PASSED\n");
  return 0;
}

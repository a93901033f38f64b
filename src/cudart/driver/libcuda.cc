// libcuda.so.1: the few CUDA driver API calls benchmark suites make next to the runtime API
// (device count, name, compute capability, memory info, context synchronisation), answered
// through warpsim's libcudart so both see the same simulated GPU. Any other driver call is
// absent and the dynamic linker stops the program naming it.
#include <cstddef>
#include <cstdio>

#include "cudart/cuda_abi.h"

using namespace warpsim::cudart;

extern "C" {
cudaError_t cudaGetDeviceCount(int*);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp*, int);
cudaError_t cudaMemGetInfo(size_t*, size_t*);
cudaError_t cudaDeviceSynchronize();
}

#define CU_API extern "C" __attribute__((visibility("default")))

namespace {
// CUresult values (the same numbers as the runtime's for these).
constexpr int kSuccess = 0, kInvalidValue = 1, kInvalidDevice = 101;
int result(cudaError_t e) { return e == cudaSuccess ? kSuccess : e; }
}  // namespace

CU_API int cuInit(unsigned flags) { return flags == 0 ? kSuccess : kInvalidValue; }

CU_API int cuDriverGetVersion(int* v) {
  if (!v) return kInvalidValue;
  *v = 13000;
  return kSuccess;
}

CU_API int cuDeviceGetCount(int* n) { return result(cudaGetDeviceCount(n)); }

CU_API int cuDeviceGet(int* dev, int ordinal) {
  if (!dev) return kInvalidValue;
  if (ordinal != 0) return kInvalidDevice;
  *dev = 0;
  return kSuccess;
}

CU_API int cuDeviceGetName(char* name, int len, int dev) {
  if (!name || len <= 0) return kInvalidValue;
  if (dev != 0) return kInvalidDevice;
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, 0)) return result(e);
  std::snprintf(name, size_t(len), "%s", p.name);
  return kSuccess;
}

CU_API int cuDeviceComputeCapability(int* major, int* minor, int dev) {
  if (!major || !minor) return kInvalidValue;
  if (dev != 0) return kInvalidDevice;
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, 0)) return result(e);
  *major = p.major;
  *minor = p.minor;
  return kSuccess;
}

CU_API int cuDeviceTotalMem_v2(size_t* bytes, int dev) {
  if (!bytes) return kInvalidValue;
  if (dev != 0) return kInvalidDevice;
  size_t free_bytes = 0;
  return result(cudaMemGetInfo(&free_bytes, bytes));
}
CU_API int cuDeviceTotalMem(size_t* bytes, int dev) { return cuDeviceTotalMem_v2(bytes, dev); }

CU_API int cuMemGetInfo_v2(size_t* free_bytes, size_t* total) { return result(cudaMemGetInfo(free_bytes, total)); }
CU_API int cuMemGetInfo(size_t* free_bytes, size_t* total) { return cuMemGetInfo_v2(free_bytes, total); }

CU_API int cuCtxSynchronize() { return result(cudaDeviceSynchronize()); }

// Entry points whose structures changed between CUDA 11, 12 and 13. This file is compiled once
// per library variant with WARPSIM_CUDART_ABI set to the major version it serves.
#include <cstring>

#include "cudart/shim.h"

#ifndef WARPSIM_CUDART_ABI
#define WARPSIM_CUDART_ABI 13
#endif

using namespace warpsim::cudart;

#define CUDART_API extern "C" __attribute__((visibility("default")))

#if WARPSIM_CUDART_ABI >= 13

CUDART_API cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  return guarded("cudaGetDeviceProperties", [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    if (d != 0) throw ShimError(cudaErrorInvalidDevice, "the simulator models one GPU (device 0)");
    fill_properties(s, p);
    return cudaSuccess;
  });
}

#else

// cudaDeviceProp of CUDA 11 and 12 has fields CUDA 13 removed (clockRate, computeMode, ...),
// so the CUDA 13 layout cannot be written into it: fail loudly instead of corrupting memory.
CUDART_API cudaError_t cudaGetDeviceProperties(void*, int) {
  unsupported("cudaGetDeviceProperties (CUDA 11/12 layout)");
}
CUDART_API cudaError_t cudaGetDeviceProperties_v2(void*, int) {
  unsupported("cudaGetDeviceProperties_v2 (CUDA 12 layout)");
}

#endif

#if WARPSIM_CUDART_ABI == 12
// CUDA 12.2 added these with a cudaMemLocation; CUDA 13 gave the plain names that signature.
// Neither looks past the range (api_memory.cc).
CUDART_API cudaError_t cudaMemPrefetchAsync(const void* p, size_t n);
CUDART_API cudaError_t cudaMemAdvise(const void* p, size_t n, int advice);
CUDART_API cudaError_t cudaMemPrefetchAsync_v2(const void* p, size_t n) { return cudaMemPrefetchAsync(p, n); }
CUDART_API cudaError_t cudaMemPrefetchAsync_v2_ptsz(const void* p, size_t n) { return cudaMemPrefetchAsync(p, n); }
CUDART_API cudaError_t cudaMemAdvise_v2(const void* p, size_t n, int advice) { return cudaMemAdvise(p, n, advice); }
#endif

CUDART_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  return guarded("cudaFuncGetAttributes", [&](State& s) {
    if (!attr) return cudaErrorInvalidValue;
    cudaFuncAttributes a;
    func_attributes(s, func, &a);
#if WARPSIM_CUDART_ABI >= 12
    *attr = a;
#else
    // CUDA 11 ends the structure after preferredShmemCarveout.
    std::memcpy(attr, &a, offsetof(cudaFuncAttributes, clusterDimMustBeSet));
#endif
    return cudaSuccess;
  });
}

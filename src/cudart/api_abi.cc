// Entry points whose structures changed between CUDA 11, 12 and 13. This file is compiled once
// per library variant with WARPSIM_CUDART_ABI set to the major version it serves.
#include <cstring>

#include "cudart/shim.h"

#ifndef WARPSIM_CUDART_ABI
#define WARPSIM_CUDART_ABI 13
#endif

using namespace warpsim::cudart;

#define CUDART_API extern "C" __attribute__((visibility("default")))

namespace {

// cudaGetDeviceProperties of every generation: `fill` writes the generation's layout.
template <class Prop>
cudaError_t device_properties(const char* api, Prop* p, int d, void (*fill)(State&, Prop*)) {
  return guarded(api, [&](State& s) {
    if (!p) return cudaErrorInvalidValue;
    if (d != 0) throw ShimError(cudaErrorInvalidDevice, "the simulator models one GPU (device 0)");
    fill(s, p);
    return cudaSuccess;
  });
}

}  // namespace

#if WARPSIM_CUDART_ABI >= 13

CUDART_API cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  return device_properties("cudaGetDeviceProperties", p, d, fill_properties);
}

#else

namespace {

// The CUDA 11 layout from the CUDA 13 one `p`, plus the fields CUDA 13 dropped.
void copy_properties11(State& s, const cudaDeviceProp& p, cudaDeviceProp11* o) {
  std::memset(o, 0, sizeof(*o));
  std::memcpy(o->name, p.name, sizeof(o->name));
  o->uuid = p.uuid;
  std::memcpy(o->luid, p.luid, sizeof(o->luid));
  o->luidDeviceNodeMask = p.luidDeviceNodeMask;
  o->totalGlobalMem = p.totalGlobalMem;
  o->sharedMemPerBlock = p.sharedMemPerBlock;
  o->regsPerBlock = p.regsPerBlock;
  o->warpSize = p.warpSize;
  o->memPitch = p.memPitch;
  o->maxThreadsPerBlock = p.maxThreadsPerBlock;
  std::memcpy(o->maxThreadsDim, p.maxThreadsDim, sizeof(o->maxThreadsDim));
  std::memcpy(o->maxGridSize, p.maxGridSize, sizeof(o->maxGridSize));
  const int khz = int(s.config().clock_mhz * 1000.0);  // as cudaDevAttrClockRate
  o->clockRate = khz;
  o->totalConstMem = p.totalConstMem;
  o->major = p.major;
  o->minor = p.minor;
  o->textureAlignment = p.textureAlignment;
  o->texturePitchAlignment = p.texturePitchAlignment;
  o->deviceOverlap = 1;
  o->multiProcessorCount = p.multiProcessorCount;
  o->kernelExecTimeoutEnabled = 0;
  o->integrated = p.integrated;
  o->canMapHostMemory = p.canMapHostMemory;
  o->computeMode = 0;  // cudaComputeModeDefault
  o->maxTexture1D = p.maxTexture1D;
  o->maxTexture1DMipmap = p.maxTexture1DMipmap;
  o->maxTexture1DLinear = 1 << 27;
  std::memcpy(o->maxTexture2D, p.maxTexture2D, sizeof(o->maxTexture2D));
  std::memcpy(o->maxTexture2DMipmap, p.maxTexture2DMipmap, sizeof(o->maxTexture2DMipmap));
  std::memcpy(o->maxTexture2DLinear, p.maxTexture2DLinear, sizeof(o->maxTexture2DLinear));
  std::memcpy(o->maxTexture2DGather, p.maxTexture2DGather, sizeof(o->maxTexture2DGather));
  std::memcpy(o->maxTexture3D, p.maxTexture3D, sizeof(o->maxTexture3D));
  std::memcpy(o->maxTexture3DAlt, p.maxTexture3DAlt, sizeof(o->maxTexture3DAlt));
  o->maxTextureCubemap = p.maxTextureCubemap;
  std::memcpy(o->maxTexture1DLayered, p.maxTexture1DLayered, sizeof(o->maxTexture1DLayered));
  std::memcpy(o->maxTexture2DLayered, p.maxTexture2DLayered, sizeof(o->maxTexture2DLayered));
  std::memcpy(o->maxTextureCubemapLayered, p.maxTextureCubemapLayered, sizeof(o->maxTextureCubemapLayered));
  o->maxSurface1D = p.maxSurface1D;
  std::memcpy(o->maxSurface2D, p.maxSurface2D, sizeof(o->maxSurface2D));
  std::memcpy(o->maxSurface3D, p.maxSurface3D, sizeof(o->maxSurface3D));
  std::memcpy(o->maxSurface1DLayered, p.maxSurface1DLayered, sizeof(o->maxSurface1DLayered));
  std::memcpy(o->maxSurface2DLayered, p.maxSurface2DLayered, sizeof(o->maxSurface2DLayered));
  o->maxSurfaceCubemap = p.maxSurfaceCubemap;
  std::memcpy(o->maxSurfaceCubemapLayered, p.maxSurfaceCubemapLayered, sizeof(o->maxSurfaceCubemapLayered));
  o->surfaceAlignment = p.surfaceAlignment;
  o->concurrentKernels = p.concurrentKernels;
  o->ECCEnabled = p.ECCEnabled;
  o->pciBusID = p.pciBusID;
  o->pciDeviceID = p.pciDeviceID;
  o->pciDomainID = p.pciDomainID;
  o->tccDriver = p.tccDriver;
  o->asyncEngineCount = p.asyncEngineCount;
  o->unifiedAddressing = p.unifiedAddressing;
  o->memoryClockRate = khz;  // as cudaDevAttrMemoryClockRate
  o->memoryBusWidth = p.memoryBusWidth;
  o->l2CacheSize = p.l2CacheSize;
  o->persistingL2CacheMaxSize = p.persistingL2CacheMaxSize;
  o->maxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
  o->streamPrioritiesSupported = p.streamPrioritiesSupported;
  o->globalL1CacheSupported = p.globalL1CacheSupported;
  o->localL1CacheSupported = p.localL1CacheSupported;
  o->sharedMemPerMultiprocessor = p.sharedMemPerMultiprocessor;
  o->regsPerMultiprocessor = p.regsPerMultiprocessor;
  o->managedMemory = p.managedMemory;
  o->isMultiGpuBoard = p.isMultiGpuBoard;
  o->multiGpuBoardGroupID = p.multiGpuBoardGroupID;
  o->hostNativeAtomicSupported = p.hostNativeAtomicSupported;
  o->singleToDoublePrecisionPerfRatio = 32;
  o->pageableMemoryAccess = p.pageableMemoryAccess;
  o->concurrentManagedAccess = p.concurrentManagedAccess;
  o->computePreemptionSupported = p.computePreemptionSupported;
  o->canUseHostPointerForRegisteredMem = p.canUseHostPointerForRegisteredMem;
  o->cooperativeLaunch = p.cooperativeLaunch;
  o->cooperativeMultiDeviceLaunch = 0;  // one device
  o->sharedMemPerBlockOptin = p.sharedMemPerBlockOptin;
  o->pageableMemoryAccessUsesHostPageTables = p.pageableMemoryAccessUsesHostPageTables;
  o->directManagedMemAccessFromHost = p.directManagedMemAccessFromHost;
  o->maxBlocksPerMultiProcessor = p.maxBlocksPerMultiProcessor;
  o->accessPolicyMaxWindowSize = p.accessPolicyMaxWindowSize;
  o->reservedSharedMemPerBlock = p.reservedSharedMemPerBlock;
}

#if WARPSIM_CUDART_ABI == 11
void fill_properties11(State& s, cudaDeviceProp11* o) {
  cudaDeviceProp p;
  fill_properties(s, &p);
  copy_properties11(s, p, o);
}
#endif

void fill_properties12(State& s, cudaDeviceProp12* o) {
  cudaDeviceProp p;
  fill_properties(s, &p);
  std::memset(o, 0, sizeof(*o));
  copy_properties11(s, p, &o->base);
  o->hostRegisterSupported = p.hostRegisterSupported;
  o->sparseCudaArraySupported = p.sparseCudaArraySupported;
  o->hostRegisterReadOnlySupported = p.hostRegisterReadOnlySupported;
  o->timelineSemaphoreInteropSupported = p.timelineSemaphoreInteropSupported;
  o->memoryPoolsSupported = p.memoryPoolsSupported;
  o->gpuDirectRDMASupported = p.gpuDirectRDMASupported;
  o->gpuDirectRDMAFlushWritesOptions = p.gpuDirectRDMAFlushWritesOptions;
  o->gpuDirectRDMAWritesOrdering = p.gpuDirectRDMAWritesOrdering;
  o->memoryPoolSupportedHandleTypes = p.memoryPoolSupportedHandleTypes;
  o->deferredMappingCudaArraySupported = p.deferredMappingCudaArraySupported;
  o->ipcEventSupported = p.ipcEventSupported;
  o->clusterLaunch = p.clusterLaunch;
  o->unifiedFunctionPointers = p.unifiedFunctionPointers;
}

}  // namespace

// CUDA 11's library writes its own layout; CUDA 12's headers call the _v2 entry point, and
// its library answers the plain one with the same layout.
CUDART_API cudaError_t cudaGetDeviceProperties(void* p, int d) {
#if WARPSIM_CUDART_ABI == 12
  return device_properties("cudaGetDeviceProperties", static_cast<cudaDeviceProp12*>(p), d, fill_properties12);
#else
  return device_properties("cudaGetDeviceProperties", static_cast<cudaDeviceProp11*>(p), d, fill_properties11);
#endif
}
CUDART_API cudaError_t cudaGetDeviceProperties_v2(void* p, int d) {
  return device_properties("cudaGetDeviceProperties_v2", static_cast<cudaDeviceProp12*>(p), d, fill_properties12);
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

// ------------------------------------------------------------------ graphs and stream capture

#if WARPSIM_CUDART_ABI >= 12
CUDART_API cudaError_t cudaGraphInstantiate(void** out, void* g, unsigned long long flags) {
  return graph_instantiate(out, g, flags, "cudaGraphInstantiate");
}
CUDART_API cudaError_t cudaGraphExecUpdate(void* exec, void* g, cudaGraphExecUpdateResultInfo* info) {
  return graph_exec_update(exec, g, info);
}
#else
// CUDA 11: an error node and a log buffer instead of flags, the update result by parts.
CUDART_API cudaError_t cudaGraphInstantiate(void** out, void* g, GraphNode** error_node, char* log, size_t log_size) {
  if (error_node) *error_node = nullptr;
  if (log && log_size) log[0] = 0;
  return graph_instantiate(out, g, 0, "cudaGraphInstantiate");
}
CUDART_API cudaError_t cudaGraphExecUpdate(void* exec, void* g, GraphNode** error_node, int* result) {
  cudaGraphExecUpdateResultInfo info{};
  cudaError_t rc = graph_exec_update(exec, g, &info);
  if (error_node) *error_node = info.errorNode;
  if (result) *result = info.result;
  return rc;
}
#endif

#if WARPSIM_CUDART_ABI >= 13
CUDART_API cudaError_t cudaGraphAddDependencies(void* g, GraphNode* const* from, GraphNode* const* to,
                                                const cudaGraphEdgeData*, size_t n) {
  return graph_dependencies(g, from, to, n, false, "cudaGraphAddDependencies");
}
CUDART_API cudaError_t cudaGraphRemoveDependencies(void* g, GraphNode* const* from, GraphNode* const* to,
                                                   const cudaGraphEdgeData*, size_t n) {
  return graph_dependencies(g, from, to, n, true, "cudaGraphRemoveDependencies");
}
CUDART_API cudaError_t cudaGraphGetEdges(void* g, GraphNode** from, GraphNode** to, cudaGraphEdgeData* edges,
                                         size_t* n) {
  return graph_edges(g, from, to, edges, n);
}
CUDART_API cudaError_t cudaGraphNodeGetDependencies(GraphNode* node, GraphNode** out, cudaGraphEdgeData* edges,
                                                    size_t* n) {
  return node_neighbours(node, out, edges, n, false, "cudaGraphNodeGetDependencies");
}
CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(GraphNode* node, GraphNode** out, cudaGraphEdgeData* edges,
                                                      size_t* n) {
  return node_neighbours(node, out, edges, n, true, "cudaGraphNodeGetDependentNodes");
}
CUDART_API cudaError_t cudaStreamGetCaptureInfo(void* st, int* status, unsigned long long* id, void** g,
                                                GraphNode* const** deps, const cudaGraphEdgeData** edges, size_t* n) {
  return capture_info(st, status, id, g, deps, edges, n, "cudaStreamGetCaptureInfo");
}
CUDART_API cudaError_t cudaStreamGetCaptureInfo_ptsz(void* st, int* status, unsigned long long* id, void** g,
                                                     GraphNode* const** deps, const cudaGraphEdgeData** edges,
                                                     size_t* n) {
  return capture_info(st, status, id, g, deps, edges, n, "cudaStreamGetCaptureInfo");
}
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies(void* st, GraphNode** deps, const cudaGraphEdgeData*,
                                                           size_t n, unsigned flags) {
  return update_capture_dependencies(st, deps, n, flags, "cudaStreamUpdateCaptureDependencies");
}
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(void* st, GraphNode** deps, const cudaGraphEdgeData*,
                                                                size_t n, unsigned flags) {
  return update_capture_dependencies(st, deps, n, flags, "cudaStreamUpdateCaptureDependencies");
}
#else
// CUDA 11 and 12: no edge data in the plain names.
CUDART_API cudaError_t cudaGraphAddDependencies(void* g, GraphNode* const* from, GraphNode* const* to, size_t n) {
  return graph_dependencies(g, from, to, n, false, "cudaGraphAddDependencies");
}
CUDART_API cudaError_t cudaGraphRemoveDependencies(void* g, GraphNode* const* from, GraphNode* const* to, size_t n) {
  return graph_dependencies(g, from, to, n, true, "cudaGraphRemoveDependencies");
}
CUDART_API cudaError_t cudaGraphGetEdges(void* g, GraphNode** from, GraphNode** to, size_t* n) {
  return graph_edges(g, from, to, nullptr, n);
}
CUDART_API cudaError_t cudaGraphNodeGetDependencies(GraphNode* node, GraphNode** out, size_t* n) {
  return node_neighbours(node, out, nullptr, n, false, "cudaGraphNodeGetDependencies");
}
CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(GraphNode* node, GraphNode** out, size_t* n) {
  return node_neighbours(node, out, nullptr, n, true, "cudaGraphNodeGetDependentNodes");
}
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies(void* st, GraphNode** deps, size_t n, unsigned flags) {
  return update_capture_dependencies(st, deps, n, flags, "cudaStreamUpdateCaptureDependencies");
}
#if WARPSIM_CUDART_ABI == 12
// CUDA 12: the capture information without edges; _v3 (12.3) with them.
CUDART_API cudaError_t cudaStreamGetCaptureInfo(void* st, int* status, unsigned long long* id, void** g,
                                                GraphNode* const** deps, size_t* n) {
  return capture_info(st, status, id, g, deps, nullptr, n, "cudaStreamGetCaptureInfo");
}
CUDART_API cudaError_t cudaStreamGetCaptureInfo_v3(void* st, int* status, unsigned long long* id, void** g,
                                                   GraphNode* const** deps, const cudaGraphEdgeData** edges,
                                                   size_t* n) {
  return capture_info(st, status, id, g, deps, edges, n, "cudaStreamGetCaptureInfo_v3");
}
#else
// CUDA 11: the status and id; _v2 (11.3) adds the graph and the dependencies.
CUDART_API cudaError_t cudaStreamGetCaptureInfo(void* st, int* status, unsigned long long* id) {
  return capture_info(st, status, id, nullptr, nullptr, nullptr, nullptr, "cudaStreamGetCaptureInfo");
}
CUDART_API cudaError_t cudaStreamGetCaptureInfo_v2(void* st, int* status, unsigned long long* id, void** g,
                                                   GraphNode* const** deps, size_t* n) {
  return capture_info(st, status, id, g, deps, nullptr, n, "cudaStreamGetCaptureInfo_v2");
}
#endif
#endif

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

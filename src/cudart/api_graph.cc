// CUDA graphs: graphs built node by node, stream capture, instantiation and launch.
//
// A graph launch runs the executable graph's nodes one after another on the launch stream, in
// an order that respects every dependency: kernels are launched (and timed) like any launch on
// that stream, copies, memsets and host functions happen after the stream's earlier work.
// Independent branches of a graph therefore run in sequence, not concurrently.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cudart/shim.h"

using namespace warpsim::cudart;

#define CUDART_API extern "C" __attribute__((visibility("default")))

namespace {

// A graph the program holds, or one a stream capture is building (cudaStreamGetCaptureInfo
// hands those out, and nodes may be added to them by hand).
Graph& graph(State& s, const void* handle) {
  auto* g = static_cast<Graph*>(const_cast<void*>(handle));
  if (g && s.graphs.count(g)) return *g;
  for (Capture* c : s.captures)
    if (g && c->graph.get() == g) return *g;
  throw ShimError(cudaErrorInvalidValue, "unknown graph");
}

GraphExec& graph_exec(State& s, const void* handle) {
  auto* e = static_cast<GraphExec*>(const_cast<void*>(handle));
  if (!e || !s.graph_execs.count(e)) throw ShimError(cudaErrorInvalidValue, "unknown executable graph");
  return *e;
}

std::vector<GraphNode*> dependencies(State& s, Graph& g, GraphNode* const* deps, size_t n, const char* api) {
  if (n && !deps) throw ShimError(cudaErrorInvalidValue, "null dependency array");
  std::vector<GraphNode*> out;
  for (size_t i = 0; i < n; ++i) {
    GraphNode& d = s.graph_node(deps[i], api);
    if (d.graph != &g) throw ShimError(cudaErrorInvalidValue, fmt::format("dependency {} belongs to another graph", i));
    if (std::find(out.begin(), out.end(), &d) != out.end())
      throw ShimError(cudaErrorInvalidValue, fmt::format("dependency {} is given twice", i));
    out.push_back(&d);
  }
  return out;
}

cudaError_t add_node(State& s, GraphNode** out, void* g, GraphNode* const* deps, size_t n, const char* api,
                     std::unique_ptr<GraphNode> node) {
  if (!out) return cudaErrorInvalidValue;
  Graph& gr = graph(s, g);
  GraphNode* added = gr.add(std::move(node), dependencies(s, gr, deps, n, api));
  s.graph_nodes.insert(added);
  *out = added;
  return cudaSuccess;
}

Function& kernel_function(State& s, const void* func, const char* api) {
  try {
    return s.function(func, api);
  } catch (const ShimError&) {
    return s.function_by_handle(func, api);  // a cudaKernel_t from cudaGetKernel
  }
}

void set_kernel(State& s, GraphNode& n, const cudaKernelNodeParams& p, const char* api) {
  n.type = cudaGraphNodeTypeKernel;
  n.function = &kernel_function(s, p.func, api);
  n.grid = p.gridDim;
  n.block = p.blockDim;
  n.shared = p.sharedMemBytes;
  capture_arguments(s, n, p.kernelParams, p.extra, api);
}

void check_memset(const cudaMemsetParams& p) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4)
    throw ShimError(cudaErrorInvalidValue, fmt::format("memset element size {} (1, 2 or 4 bytes)", p.elementSize));
  if (p.height > 1 && p.pitch < p.width * p.elementSize)
    throw ShimError(cudaErrorInvalidValue, "memset row exceeds the pitch");
  if (!p.dst) throw ShimError(cudaErrorInvalidValue, "null memset destination");
}

void check_copy(const cudaMemcpy3DParms& p) {
  if (p.kind < 0 || p.kind > 4)
    throw ShimError(cudaErrorInvalidMemcpyDirection, fmt::format("invalid copy kind {}", int(p.kind)));
}

GraphNode& typed(State& s, void* node, cudaGraphNodeType type, const char* api) {
  GraphNode& n = s.graph_node(node, api);
  if (n.type != type)
    throw ShimError(cudaErrorInvalidValue, fmt::format("node is of type {}, not {}", int(n.type), int(type)));
  return n;
}

// The executable graph's copy of `node`.
GraphNode& exec_node(GraphExec& e, const void* node, cudaGraphNodeType type) {
  for (size_t i = 0; i < e.origin.size(); ++i)
    if (e.origin[i] == node) {
      if (e.order[i]->type != type) throw ShimError(cudaErrorInvalidValue, "the node's type differs");
      return *e.order[i];
    }
  throw ShimError(cudaErrorInvalidValue, "the node is not part of the executable graph's graph");
}

void destroy_graph(State& s, Graph* g) {
  for (auto& n : g->nodes) s.graph_nodes.erase(n.get());
  s.graphs.erase(g);
  delete g;
}

// Copies the capture's graph out of the streams and events that reach it.
void end_capture(State& s, Capture* c) {
  for (Stream* st : s.streams)
    if (st->capture == c) {
      st->capture = nullptr;
      st->capture_tail.clear();
    }
  for (Event* e : s.events)
    if (e->capture == c) {
      e->capture = nullptr;
      e->captured.clear();
    }
  s.captures.erase(c);
}

thread_local int capture_mode = 0;  // cudaThreadExchangeStreamCaptureMode

}  // namespace

// ------------------------------------------------------------------ graphs and nodes

CUDART_API cudaError_t cudaGraphCreate(void** out, unsigned flags) {
  return guarded("cudaGraphCreate", [&](State& s) -> cudaError_t {
    if (!out || flags != 0) return cudaErrorInvalidValue;
    auto* g = new Graph();
    s.graphs.insert(g);
    *out = g;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphDestroy(void* g) {
  return guarded("cudaGraphDestroy", [&](State& s) -> cudaError_t {
    Graph& gr = graph(s, g);
    if (!s.graphs.count(&gr)) throw ShimError(cudaErrorIllegalState, "a stream capture is building the graph");
    destroy_graph(s, &gr);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphAddKernelNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n,
                                              const cudaKernelNodeParams* p) {
  return guarded("cudaGraphAddKernelNode", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    auto node = std::make_unique<GraphNode>();
    set_kernel(s, *node, *p, "cudaGraphAddKernelNode");
    return add_node(s, out, g, deps, n, "cudaGraphAddKernelNode", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n,
                                              const cudaMemcpy3DParms* p) {
  return guarded("cudaGraphAddMemcpyNode", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    check_copy(*p);
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeMemcpy;
    node->copy = *p;
    return add_node(s, out, g, deps, n, "cudaGraphAddMemcpyNode", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(GraphNode** out, void* g, GraphNode* const* deps, size_t n, void* dst,
                                                const void* src, size_t count, int kind) {
  return guarded("cudaGraphAddMemcpyNode1D", [&](State& s) -> cudaError_t {
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeMemcpy;
    node->copy.srcPtr = cudaPitchedPtr{const_cast<void*>(src), count, count, 1};
    node->copy.dstPtr = cudaPitchedPtr{dst, count, count, 1};
    node->copy.extent = cudaExtent{count, 1, 1};
    node->copy.kind = cudaMemcpyKind(kind);
    check_copy(node->copy);
    return add_node(s, out, g, deps, n, "cudaGraphAddMemcpyNode1D", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphAddMemsetNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n,
                                              const cudaMemsetParams* p) {
  return guarded("cudaGraphAddMemsetNode", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    check_memset(*p);
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeMemset;
    node->memset = *p;
    return add_node(s, out, g, deps, n, "cudaGraphAddMemsetNode", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphAddHostNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n,
                                            const cudaHostNodeParams* p) {
  return guarded("cudaGraphAddHostNode", [&](State& s) -> cudaError_t {
    if (!p || !p->fn) return cudaErrorInvalidValue;
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeHost;
    node->host = *p;
    return add_node(s, out, g, deps, n, "cudaGraphAddHostNode", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphAddEmptyNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n) {
  return guarded("cudaGraphAddEmptyNode", [&](State& s) -> cudaError_t {
    return add_node(s, out, g, deps, n, "cudaGraphAddEmptyNode", std::make_unique<GraphNode>());
  });
}

CUDART_API cudaError_t cudaGraphDestroyNode(GraphNode* node) {
  return guarded("cudaGraphDestroyNode", [&](State& s) -> cudaError_t {
    GraphNode& n = s.graph_node(node, "cudaGraphDestroyNode");
    s.graph_nodes.erase(&n);
    n.graph->remove(&n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphClone(void** out, void* g) {
  return guarded("cudaGraphClone", [&](State& s) -> cudaError_t {
    if (!out) return cudaErrorInvalidValue;
    Graph& src = graph(s, g);
    auto* c = new Graph();
    std::unordered_map<const GraphNode*, GraphNode*> map;
    for (const auto& n : src.nodes) {
      auto copy = std::make_unique<GraphNode>();
      copy->copy_payload(*n);
      copy->cloned_from = n.get();
      std::vector<GraphNode*> deps;
      for (GraphNode* d : n->deps) deps.push_back(map.at(d));
      GraphNode* added = c->add(std::move(copy), deps);
      map[n.get()] = added;
      s.graph_nodes.insert(added);
    }
    s.graphs.insert(c);
    *out = c;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphNodeFindInClone(GraphNode** out, GraphNode* original, void* clone) {
  return guarded("cudaGraphNodeFindInClone", [&](State& s) -> cudaError_t {
    if (!out) return cudaErrorInvalidValue;
    for (const auto& n : graph(s, clone).nodes)
      if (n->cloned_from == original) {
        *out = n.get();
        return cudaSuccess;
      }
    throw ShimError(cudaErrorInvalidValue, "the node has no copy in that graph");
  });
}

namespace {
// CUDA's convention for node lists: with `out` null only the count; else up to *n entries,
// null-padded, and *n set to the count.
void list_nodes(const std::vector<GraphNode*>& nodes, GraphNode** out, size_t* n) {
  if (!n) throw ShimError(cudaErrorInvalidValue, "null count");
  if (out) {
    for (size_t i = 0; i < *n; ++i) out[i] = i < nodes.size() ? nodes[i] : nullptr;
  }
  *n = nodes.size();
}
}  // namespace

CUDART_API cudaError_t cudaGraphGetNodes(void* g, GraphNode** out, size_t* n) {
  return guarded("cudaGraphGetNodes", [&](State& s) -> cudaError_t {
    std::vector<GraphNode*> all;
    for (auto& node : graph(s, g).nodes) all.push_back(node.get());
    list_nodes(all, out, n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphGetRootNodes(void* g, GraphNode** out, size_t* n) {
  return guarded("cudaGraphGetRootNodes", [&](State& s) -> cudaError_t {
    std::vector<GraphNode*> roots;
    for (auto& node : graph(s, g).nodes)
      if (node->deps.empty()) roots.push_back(node.get());
    list_nodes(roots, out, n);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphNodeGetType(GraphNode* node, int* type) {
  return guarded("cudaGraphNodeGetType", [&](State& s) -> cudaError_t {
    if (!type) return cudaErrorInvalidValue;
    *type = s.graph_node(node, "cudaGraphNodeGetType").type;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphKernelNodeGetParams(GraphNode* node, cudaKernelNodeParams* p) {
  return guarded("cudaGraphKernelNodeGetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    GraphNode& n = typed(s, node, cudaGraphNodeTypeKernel, "cudaGraphKernelNodeGetParams");
    *p = cudaKernelNodeParams{const_cast<void*>(n.function->host_fun),          n.grid, n.block, n.shared,
                              n.arg_ptrs.empty() ? nullptr : n.arg_ptrs.data(), nullptr};
    return cudaSuccess;
  });
}

// cudaKernelNodeAttributeAccessPolicyWindow: the window the node's launches use.
CUDART_API cudaError_t cudaGraphKernelNodeSetAttribute(GraphNode* node, int attr, const cudaLaunchAttributeValue* v) {
  const char* api = "cudaGraphKernelNodeSetAttribute";
  return guarded(api, [&](State& s) {
    set_window_attribute(s, api, typed(s, node, cudaGraphNodeTypeKernel, api).window, attr, v);
    return cudaSuccess;
  });
}
CUDART_API cudaError_t cudaGraphKernelNodeGetAttribute(GraphNode* node, int attr, cudaLaunchAttributeValue* v) {
  const char* api = "cudaGraphKernelNodeGetAttribute";
  return guarded(api, [&](State& s) {
    get_window_attribute(api, typed(s, node, cudaGraphNodeTypeKernel, api).window, attr, v);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphKernelNodeSetParams(GraphNode* node, const cudaKernelNodeParams* p) {
  return guarded("cudaGraphKernelNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    set_kernel(s, typed(s, node, cudaGraphNodeTypeKernel, "cudaGraphKernelNodeSetParams"), *p,
               "cudaGraphKernelNodeSetParams");
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphMemcpyNodeGetParams(GraphNode* node, cudaMemcpy3DParms* p) {
  return guarded("cudaGraphMemcpyNodeGetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    *p = typed(s, node, cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNodeGetParams").copy;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams(GraphNode* node, const cudaMemcpy3DParms* p) {
  return guarded("cudaGraphMemcpyNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    check_copy(*p);
    typed(s, node, cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNodeSetParams").copy = *p;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphMemsetNodeGetParams(GraphNode* node, cudaMemsetParams* p) {
  return guarded("cudaGraphMemsetNodeGetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    *p = typed(s, node, cudaGraphNodeTypeMemset, "cudaGraphMemsetNodeGetParams").memset;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphMemsetNodeSetParams(GraphNode* node, const cudaMemsetParams* p) {
  return guarded("cudaGraphMemsetNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    check_memset(*p);
    typed(s, node, cudaGraphNodeTypeMemset, "cudaGraphMemsetNodeSetParams").memset = *p;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphHostNodeGetParams(GraphNode* node, cudaHostNodeParams* p) {
  return guarded("cudaGraphHostNodeGetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    *p = typed(s, node, cudaGraphNodeTypeHost, "cudaGraphHostNodeGetParams").host;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphHostNodeSetParams(GraphNode* node, const cudaHostNodeParams* p) {
  return guarded("cudaGraphHostNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p || !p->fn) return cudaErrorInvalidValue;
    typed(s, node, cudaGraphNodeTypeHost, "cudaGraphHostNodeSetParams").host = *p;
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ memory nodes
//
// A graph's allocation gets its device memory when the node is made (cudaGraphAddMemAllocNode,
// or cudaMallocAsync on a capturing stream) and keeps it, at the same address, until the
// program ends: launching an allocation or free node does nothing, and freeing the memory
// outside the graph (cudaFree, cudaFreeAsync) releases nothing, so every launch of the graph
// finds it where the node said.

namespace warpsim::cudart {

uint64_t State::graph_allocation(uint64_t bytes) {
  if (bytes == 0) throw ShimError(cudaErrorInvalidValue, "allocation of 0 bytes");
  uint64_t a = 0;
  try {
    a = rt().malloc(bytes);
  } catch (const Error& e) {
    throw ShimError(cudaErrorMemoryAllocation, e.what());
  }
  graph_allocations[a] = bytes;
  return a;
}

}  // namespace warpsim::cudart

CUDART_API cudaError_t cudaGraphAddMemAllocNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n,
                                                cudaMemAllocNodeParams* p) {
  return guarded("cudaGraphAddMemAllocNode", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    if (p->poolProps.allocType != cudaMemAllocationTypePinned ||
        p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0)
      throw ShimError(cudaErrorInvalidValue, "graph allocations are pinned memory of device 0");
    graph(s, g);
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeMemAlloc;
    node->mem_bytes = p->bytesize;
    node->mem_addr = s.graph_allocation(p->bytesize);
    p->dptr = reinterpret_cast<void*>(uintptr_t(node->mem_addr));
    return add_node(s, out, g, deps, n, "cudaGraphAddMemAllocNode", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphAddMemFreeNode(GraphNode** out, void* g, GraphNode* const* deps, size_t n, void* dptr) {
  return guarded("cudaGraphAddMemFreeNode", [&](State& s) -> cudaError_t {
    auto it = s.graph_allocations.find(reinterpret_cast<uintptr_t>(dptr));
    if (it == s.graph_allocations.end())
      throw ShimError(cudaErrorInvalidValue, fmt::format("{} is not memory allocated by a graph", dptr));
    auto node = std::make_unique<GraphNode>();
    node->type = cudaGraphNodeTypeMemFree;
    node->mem_addr = it->first;
    node->mem_bytes = it->second;
    return add_node(s, out, g, deps, n, "cudaGraphAddMemFreeNode", std::move(node));
  });
}

CUDART_API cudaError_t cudaGraphMemAllocNodeGetParams(GraphNode* node, cudaMemAllocNodeParams* p) {
  return guarded("cudaGraphMemAllocNodeGetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    GraphNode& nd = typed(s, node, cudaGraphNodeTypeMemAlloc, "cudaGraphMemAllocNodeGetParams");
    std::memset(p, 0, sizeof(*p));
    p->poolProps.allocType = cudaMemAllocationTypePinned;
    p->poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
    p->bytesize = nd.mem_bytes;
    p->dptr = reinterpret_cast<void*>(uintptr_t(nd.mem_addr));
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphMemFreeNodeGetParams(GraphNode* node, void** dptr) {
  return guarded("cudaGraphMemFreeNodeGetParams", [&](State& s) -> cudaError_t {
    if (!dptr) return cudaErrorInvalidValue;
    *dptr = reinterpret_cast<void*>(
        uintptr_t(typed(s, node, cudaGraphNodeTypeMemFree, "cudaGraphMemFreeNodeGetParams").mem_addr));
    return cudaSuccess;
  });
}

// Graph memory is never given back, so the current and high, used and reserved amounts are all
// the bytes of every graph allocation made so far.
CUDART_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void* value) {
  return guarded("cudaDeviceGetGraphMemAttribute", [&](State& s) -> cudaError_t {
    if (device != 0) throw ShimError(cudaErrorInvalidDevice, "the simulator models one GPU (device 0)");
    if (!value || attr < 0 || attr > 3) return cudaErrorInvalidValue;
    uint64_t total = 0;
    for (const auto& [a, bytes] : s.graph_allocations) total += bytes;
    std::memcpy(value, &total, 8);
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void* value) {
  return guarded("cudaDeviceSetGraphMemAttribute", [&](State& s) -> cudaError_t {
    if (device != 0) throw ShimError(cudaErrorInvalidDevice, "the simulator models one GPU (device 0)");
    uint64_t v = 1;
    if (value) std::memcpy(&v, value, 8);
    // Only the high watermarks (1, 3) can be set, and only to 0; they stay at the current amount.
    if ((attr != 1 && attr != 3) || v != 0)
      throw ShimError(cudaErrorInvalidValue, "only a high watermark can be reset (to 0)");
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaDeviceGraphMemTrim(int device) {
  return guarded("cudaDeviceGraphMemTrim", [&](State& s) -> cudaError_t {
    if (device != 0) throw ShimError(cudaErrorInvalidDevice, "the simulator models one GPU (device 0)");
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ instantiation and launch

namespace warpsim::cudart {

cudaError_t graph_instantiate(void** out, void* g, unsigned long long flags, const char* api) {
  return guarded(api, [&](State& s) -> cudaError_t {
    if (!out) return cudaErrorInvalidValue;
    Graph& gr = graph(s, g);
    if (flags & 4)
      s.stop(api, "graphs launched from the device (cudaGraphInstantiateFlagDeviceLaunch) are not supported");
    if (flags & ~0xfull) throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
    auto e = std::make_unique<GraphExec>();
    e->flags = flags;
    for (GraphNode* n : topological_order(gr)) {
      auto copy = std::make_unique<GraphNode>();
      copy->copy_payload(*n);
      e->order.push_back(std::move(copy));
      e->origin.push_back(n);
    }
    *out = e.get();
    s.graph_execs.insert(e.release());
    return cudaSuccess;
  });
}

// The executable graph takes the parameters of `g` when `g` has as many nodes of the same types
// in the same order (its topological order); otherwise nothing changes.
cudaError_t graph_exec_update(void* exec, void* g, cudaGraphExecUpdateResultInfo* info) {
  return guarded("cudaGraphExecUpdate", [&](State& s) -> cudaError_t {
    GraphExec& e = graph_exec(s, exec);
    std::vector<GraphNode*> order = topological_order(graph(s, g));
    if (info) *info = cudaGraphExecUpdateResultInfo{0, nullptr, nullptr};
    if (order.size() != e.order.size()) {
      if (info) info->result = 2;  // cudaGraphExecUpdateErrorTopologyChanged
      return cudaErrorGraphExecUpdateFailure;
    }
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i]->type != e.order[i]->type) {
        if (info) *info = cudaGraphExecUpdateResultInfo{3, order[i], nullptr};  // ...NodeTypeChanged
        return cudaErrorGraphExecUpdateFailure;
      }
    for (size_t i = 0; i < order.size(); ++i) {
      e.order[i]->copy_payload(*order[i]);
      e.origin[i] = order[i];
    }
    return cudaSuccess;
  });
}

}  // namespace warpsim::cudart

CUDART_API cudaError_t cudaGraphInstantiateWithFlags(void** out, void* g, unsigned long long flags) {
  return graph_instantiate(out, g, flags, "cudaGraphInstantiateWithFlags");
}

CUDART_API cudaError_t cudaGraphExecDestroy(void* exec) {
  return guarded("cudaGraphExecDestroy", [&](State& s) -> cudaError_t {
    GraphExec& e = graph_exec(s, exec);
    s.graph_execs.erase(&e);
    delete &e;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphExecGetFlags(void* exec, unsigned long long* flags) {
  return guarded("cudaGraphExecGetFlags", [&](State& s) -> cudaError_t {
    if (!flags) return cudaErrorInvalidValue;
    *flags = graph_exec(s, exec).flags;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(void* exec, GraphNode* node, const cudaKernelNodeParams* p) {
  return guarded("cudaGraphExecKernelNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    GraphNode& n = exec_node(graph_exec(s, exec), node, cudaGraphNodeTypeKernel);
    set_kernel(s, n, *p, "cudaGraphExecKernelNodeSetParams");
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(void* exec, GraphNode* node, const cudaMemcpy3DParms* p) {
  return guarded("cudaGraphExecMemcpyNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    check_copy(*p);
    exec_node(graph_exec(s, exec), node, cudaGraphNodeTypeMemcpy).copy = *p;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(void* exec, GraphNode* node, const cudaMemsetParams* p) {
  return guarded("cudaGraphExecMemsetNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p) return cudaErrorInvalidValue;
    check_memset(*p);
    exec_node(graph_exec(s, exec), node, cudaGraphNodeTypeMemset).memset = *p;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(void* exec, GraphNode* node, const cudaHostNodeParams* p) {
  return guarded("cudaGraphExecHostNodeSetParams", [&](State& s) -> cudaError_t {
    if (!p || !p->fn) return cudaErrorInvalidValue;
    exec_node(graph_exec(s, exec), node, cudaGraphNodeTypeHost).host = *p;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaGraphLaunch(void* exec, void* stream) {
  return guarded("cudaGraphLaunch", [&](State& s) -> cudaError_t {
    GraphExec& e = graph_exec(s, exec);
    s.check_sticky();
    if (s.capturing(stream, "cudaGraphLaunch"))
      s.stop("cudaGraphLaunch", "launching a graph into a stream capture (a child graph) is not supported");
    launch_graph(s, e, stream);
    return cudaSuccess;
  });
}

// Graphs need no upload: the simulator reads the nodes when the graph is launched.
CUDART_API cudaError_t cudaGraphUpload(void* exec, void* stream) {
  return guarded("cudaGraphUpload", [&](State& s) -> cudaError_t {
    graph_exec(s, exec);
    s.stream_id(stream, "cudaGraphUpload");
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ edges

namespace warpsim::cudart {

cudaError_t graph_dependencies(void* g, GraphNode* const* from, GraphNode* const* to, size_t n, bool remove,
                               const char* api) {
  return guarded(api, [&](State& s) -> cudaError_t {
    Graph& gr = graph(s, g);
    if (n && (!from || !to)) return cudaErrorInvalidValue;
    for (size_t i = 0; i < n; ++i) {
      GraphNode& a = s.graph_node(from[i], api);
      GraphNode& b = s.graph_node(to[i], api);
      if (a.graph != &gr || b.graph != &gr)
        throw ShimError(cudaErrorInvalidValue, fmt::format("edge {} joins nodes of another graph", i));
      auto it = std::find(b.deps.begin(), b.deps.end(), &a);
      if (remove) {
        if (it == b.deps.end()) throw ShimError(cudaErrorInvalidValue, fmt::format("edge {} does not exist", i));
        b.deps.erase(it);
      } else {
        if (it != b.deps.end()) throw ShimError(cudaErrorInvalidValue, fmt::format("edge {} exists already", i));
        b.deps.push_back(&a);
      }
    }
    return cudaSuccess;
  });
}

cudaError_t graph_edges(void* g, GraphNode** from, GraphNode** to, cudaGraphEdgeData* edges, size_t* n) {
  return guarded("cudaGraphGetEdges", [&](State& s) -> cudaError_t {
    if (!n) return cudaErrorInvalidValue;
    std::vector<std::pair<GraphNode*, GraphNode*>> all;
    for (auto& b : graph(s, g).nodes)
      for (GraphNode* a : b->deps) all.emplace_back(a, b.get());
    if (from && to) {
      for (size_t i = 0; i < *n; ++i) {
        from[i] = i < all.size() ? all[i].first : nullptr;
        to[i] = i < all.size() ? all[i].second : nullptr;
        if (edges) edges[i] = cudaGraphEdgeData{};
      }
    } else if (from || to) {
      return cudaErrorInvalidValue;
    }
    *n = all.size();
    return cudaSuccess;
  });
}

cudaError_t node_neighbours(GraphNode* node, GraphNode** out, cudaGraphEdgeData* edges, size_t* n, bool dependents,
                            const char* api) {
  return guarded(api, [&](State& s) -> cudaError_t {
    GraphNode& nd = s.graph_node(node, api);
    std::vector<GraphNode*> list;
    if (dependents) {
      for (auto& o : nd.graph->nodes)
        if (std::find(o->deps.begin(), o->deps.end(), &nd) != o->deps.end()) list.push_back(o.get());
    } else {
      list = nd.deps;
    }
    if (out && edges && n)
      for (size_t i = 0; i < *n; ++i) edges[i] = cudaGraphEdgeData{};
    list_nodes(list, out, n);
    return cudaSuccess;
  });
}

// ------------------------------------------------------------------ stream capture

cudaError_t capture_info(void* stream, int* status, unsigned long long* id, void** g, GraphNode* const** deps,
                         const cudaGraphEdgeData** edges, size_t* n, const char* api) {
  return guarded(api, [&](State& s) -> cudaError_t {
    if (!status) return cudaErrorInvalidValue;
    Stream* st = s.capturing(stream, api);
    *status = st ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    if (!st) return cudaSuccess;
    if (id) *id = st->capture->id;
    if (g) *g = st->capture->graph.get();
    if (deps) *deps = st->capture_tail.empty() ? nullptr : st->capture_tail.data();
    if (edges) {
      static const cudaGraphEdgeData kDefault[64] = {};
      if (st->capture_tail.size() > 64) throw ShimError(cudaErrorNotSupported, "more than 64 capture dependencies");
      *edges = kDefault;
    }
    if (n) *n = st->capture_tail.size();
    return cudaSuccess;
  });
}

// flags 0 adds the nodes to the stream's capture dependencies, 1 replaces them.
cudaError_t update_capture_dependencies(void* stream, GraphNode** deps, size_t n, unsigned flags, const char* api) {
  return guarded(api, [&](State& s) -> cudaError_t {
    Stream* st = s.capturing(stream, api);
    if (!st) throw ShimError(cudaErrorIllegalState, "the stream is not capturing");
    if (flags > 1) throw ShimError(cudaErrorInvalidValue, fmt::format("invalid flags {:#x}", flags));
    std::vector<GraphNode*> add = dependencies(s, *st->capture->graph, deps, n, api);
    if (flags == 1) st->capture_tail.clear();
    for (GraphNode* d : add)
      if (std::find(st->capture_tail.begin(), st->capture_tail.end(), d) == st->capture_tail.end())
        st->capture_tail.push_back(d);
    return cudaSuccess;
  });
}

}  // namespace warpsim::cudart

CUDART_API cudaError_t cudaStreamBeginCapture(void* stream, int mode) {
  return guarded("cudaStreamBeginCapture", [&](State& s) -> cudaError_t {
    Stream* st = s.stream(stream, "cudaStreamBeginCapture");
    if (!st) throw ShimError(cudaErrorStreamCaptureUnsupported, "the default stream cannot be captured");
    if (mode < 0 || mode > 2) throw ShimError(cudaErrorInvalidValue, fmt::format("invalid capture mode {}", mode));
    if (st->capture) throw ShimError(cudaErrorIllegalState, "the stream is capturing already");
    auto* c = new Capture();
    c->id = s.next_capture_id++;
    c->graph = std::make_unique<Graph>();
    c->origin = st;
    c->mode = mode;
    s.captures.insert(c);
    st->capture = c;
    st->capture_tail.clear();
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamEndCapture(void* stream, void** out) {
  return guarded("cudaStreamEndCapture", [&](State& s) -> cudaError_t {
    if (!out) return cudaErrorInvalidValue;
    Stream* st = s.stream(stream, "cudaStreamEndCapture");
    if (!st || !st->capture) throw ShimError(cudaErrorIllegalState, "the stream is not capturing");
    Capture* c = st->capture;
    if (c->origin != st)
      throw ShimError(cudaErrorStreamCaptureUnmatched, "the capture must end in the stream that began it");
    Graph* g = c->graph.release();
    end_capture(s, c);
    delete c;
    s.graphs.insert(g);
    *out = g;
    return cudaSuccess;
  });
}

CUDART_API cudaError_t cudaStreamIsCapturing(void* stream, int* status) {
  return guarded("cudaStreamIsCapturing", [&](State& s) -> cudaError_t {
    if (!status) return cudaErrorInvalidValue;
    *status =
        s.capturing(stream, "cudaStreamIsCapturing") ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
  });
}

// The mode is kept per thread and exchanged; the shim does not check calls against it.
CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int* mode) {
  return guarded("cudaThreadExchangeStreamCaptureMode", [&](State&) {
    if (!mode || *mode < 0 || *mode > 2) return cudaErrorInvalidValue;
    std::swap(*mode, capture_mode);
    return cudaSuccess;
  });
}

// CUDA graphs in the shim: graphs of kernel, copy, memset, host-function and empty nodes, built
// node by node or captured from streams, and their executable snapshots (cudaGraphExec_t).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "cudart/cuda_abi.h"

namespace warpsim::cudart {

struct Function;
struct Graph;
struct Stream;
class State;

struct GraphNode {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  Graph* graph = nullptr;
  std::vector<GraphNode*> deps;            // nodes this one follows
  const GraphNode* cloned_from = nullptr;  // cudaGraphNodeFindInClone
  // kernel nodes
  Function* function = nullptr;
  dim3 grid, block;
  unsigned shared = 0;
  cudaAccessPolicyWindow window{};         // kernel nodes: cudaKernelNodeAttributeAccessPolicyWindow
  std::vector<std::vector<uint8_t>> args;  // each argument's bytes, copied when the node is made
  std::vector<void*> arg_ptrs;             // into `args`: the kernelParams the node hands out
  // copy, memset and host-function nodes
  cudaMemcpy3DParms copy{};
  cudaMemsetParams memset{};
  cudaHostNodeParams host{};
  // memory allocation and free nodes: the allocation's address and size
  uint64_t mem_addr = 0, mem_bytes = 0;

  // Copies everything but the graph and the dependencies (their meaning depends on the graph).
  void copy_payload(const GraphNode& o);
  void point_args();  // rebuilds arg_ptrs after `args` changed or moved
};

struct Graph {
  std::vector<std::unique_ptr<GraphNode>> nodes;  // in creation order
  GraphNode* add(std::unique_ptr<GraphNode> n, const std::vector<GraphNode*>& deps);
  bool contains(const GraphNode* n) const { return n && n->graph == this; }
  void remove(GraphNode* n);  // with every edge to and from it
};

// An executable graph: copies of the nodes taken at instantiation, in an order in which every
// node comes after its dependencies. Later changes to the graph do not reach it.
struct GraphExec {
  std::vector<std::unique_ptr<GraphNode>> order;
  std::vector<const GraphNode*> origin;  // the graph node each copy was taken from
  unsigned long long flags = 0;
};

// A stream capture in progress: the graph it builds, and the stream that began it.
struct Capture {
  uint64_t id = 0;
  std::unique_ptr<Graph> graph;
  Stream* origin = nullptr;
  int mode = 0;  // cudaStreamCaptureMode
};

// The graph's nodes in a dependency-respecting order (creation order among ready nodes);
// throws ShimError when the dependencies form a cycle.
std::vector<GraphNode*> topological_order(const Graph& g);

// Copies the kernel's arguments out of `args` by the sizes of its PTX parameters.
void capture_arguments(State& s, GraphNode& n, void** args, void** extra, const char* api);

// Runs an executable graph's nodes on `stream`, one after another in the instantiated order:
// kernels are launched (and timed) as any launch, copies, memsets and host functions happen
// after the stream's earlier work.
void launch_graph(State& s, GraphExec& e, void* stream);

// Entry points whose signatures differ between CUDA 11, 12 and 13 (api_abi.cc gives each
// library variant its own): the shared bodies.
cudaError_t graph_instantiate(void** out, void* graph, unsigned long long flags, const char* api);
cudaError_t graph_exec_update(void* exec, void* graph, cudaGraphExecUpdateResultInfo* info);
cudaError_t graph_dependencies(void* graph, GraphNode* const* from, GraphNode* const* to, size_t n, bool remove,
                               const char* api);
cudaError_t graph_edges(void* graph, GraphNode** from, GraphNode** to, cudaGraphEdgeData* edges, size_t* n);
cudaError_t node_neighbours(GraphNode* node, GraphNode** out, cudaGraphEdgeData* edges, size_t* n, bool dependents,
                            const char* api);
cudaError_t capture_info(void* stream, int* status, unsigned long long* id, void** graph, GraphNode* const** deps,
                         const cudaGraphEdgeData** edges, size_t* n, const char* api);
cudaError_t update_capture_dependencies(void* stream, GraphNode** deps, size_t n, unsigned flags, const char* api);

}  // namespace warpsim::cudart

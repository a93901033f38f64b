// Graph structure, stream capture bookkeeping and graph execution (see graph.h).
#include "cudart/graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "cudart/shim.h"

namespace warpsim::cudart {

void copy_3d(State& s, const cudaMemcpy3DParms& p, uint32_t stream);
void memset_2d(State& s, const cudaMemsetParams& p, uint32_t stream);

void GraphNode::copy_payload(const GraphNode& o) {
  type = o.type;
  function = o.function;
  grid = o.grid;
  block = o.block;
  shared = o.shared;
  window = o.window;
  args = o.args;
  copy = o.copy;
  memset = o.memset;
  host = o.host;
  mem_addr = o.mem_addr;
  mem_bytes = o.mem_bytes;
  point_args();
}

void GraphNode::point_args() {
  arg_ptrs.clear();
  for (auto& a : args) arg_ptrs.push_back(a.data());
}

GraphNode* Graph::add(std::unique_ptr<GraphNode> n, const std::vector<GraphNode*>& deps) {
  n->graph = this;
  n->deps = deps;
  nodes.push_back(std::move(n));
  return nodes.back().get();
}

void Graph::remove(GraphNode* n) {
  for (auto& o : nodes) o->deps.erase(std::remove(o->deps.begin(), o->deps.end(), n), o->deps.end());
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [&](const auto& p) { return p.get() == n; }), nodes.end());
}

std::vector<GraphNode*> topological_order(const Graph& g) {
  std::unordered_map<const GraphNode*, size_t> index;
  for (size_t i = 0; i < g.nodes.size(); ++i) index[g.nodes[i].get()] = i;
  std::vector<size_t> waiting(g.nodes.size(), 0);
  std::vector<std::vector<size_t>> dependents(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const GraphNode* d : g.nodes[i]->deps) {
      auto it = index.find(d);
      if (it == index.end()) continue;  // a dependency outside the graph cannot be made; ignore
      ++waiting[i];
      dependents[it->second].push_back(i);
    }
  // Ready nodes in creation order: a graph built as a chain runs in the order it was written.
  std::vector<GraphNode*> order;
  std::vector<size_t> ready;
  for (size_t i = 0; i < waiting.size(); ++i)
    if (waiting[i] == 0) ready.push_back(i);
  std::make_heap(ready.begin(), ready.end(), std::greater<>());
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), std::greater<>());
    size_t i = ready.back();
    ready.pop_back();
    order.push_back(g.nodes[i].get());
    for (size_t j : dependents[i])
      if (--waiting[j] == 0) {
        ready.push_back(j);
        std::push_heap(ready.begin(), ready.end(), std::greater<>());
      }
  }
  if (order.size() != g.nodes.size())
    throw ShimError(cudaErrorInvalidValue, fmt::format("the graph's dependencies form a cycle ({} of {} nodes can run)",
                                                       order.size(), g.nodes.size()));
  return order;
}

void capture_arguments(State& s, GraphNode& n, void** args, void** extra, const char* api) {
  if (extra) s.stop(api, "kernel arguments passed through 'extra' are not supported");
  Function& f = *n.function;
  Module& m = s.loaded(*f.module);
  const ptx::Function* fn = m.ast.find_function(f.name);
  if (!fn || !fn->is_entry) s.stop(api, fmt::format("{}: no kernel '{}' in the PTX", m.label, f.name));
  s.program(f);  // a kernel the front end cannot decode stops here
  if (!fn->params.empty() && !args)
    throw ShimError(cudaErrorInvalidValue, fmt::format("kernel '{}': null argument array", f.name));
  n.args.clear();
  for (size_t i = 0; i < fn->params.size(); ++i) {
    if (!args[i]) throw ShimError(cudaErrorInvalidValue, fmt::format("kernel '{}': argument {} is null", f.name, i));
    const auto* p = static_cast<const uint8_t*>(args[i]);
    n.args.emplace_back(p, p + fn->params[i].size_bytes());
  }
  n.point_args();
}

void launch_graph(State& s, GraphExec& e, void* stream) {
  uint32_t sid = s.stream_id(stream, "cudaGraphLaunch");
  for (auto& n : e.order) {
    switch (n->type) {
      case cudaGraphNodeTypeKernel:
        s.launch(*n->function, n->grid, n->block, n->arg_ptrs.data(), n->shared, stream, false, &n->window);
        break;
      case cudaGraphNodeTypeMemcpy:
        copy_3d(s, n->copy, sid);
        break;
      case cudaGraphNodeTypeMemset:
        memset_2d(s, n->memset, sid);
        break;
      case cudaGraphNodeTypeHost:
        s.sync_stream(sid);
        n->host.fn(n->host.userData);
        break;
      default:
        break;
    }
  }
}

// ---------------------------------------------------------------- State: capture and nodes

Stream* State::capturing(const void* handle, const char* api) {
  Stream* st = stream(handle, api);
  return st && st->capture ? st : nullptr;
}

GraphNode* State::capture_node(Stream* st, std::unique_ptr<GraphNode> n) {
  GraphNode* node = st->capture->graph->add(std::move(n), st->capture_tail);
  graph_nodes.insert(node);
  st->capture_tail.assign(1, node);
  return node;
}

GraphNode& State::graph_node(const void* handle, const char* api) {
  auto* n = static_cast<GraphNode*>(const_cast<void*>(handle));
  if (!n || !graph_nodes.count(n)) throw ShimError(cudaErrorInvalidValue, "unknown graph node");
  return *n;
}

}  // namespace warpsim::cudart

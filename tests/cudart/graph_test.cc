// CUDA graphs in the shim, driven as nvcc's code drives it (no CUDA toolkit needed): graphs
// built node by node, stream capture across forked and joined streams, argument copies at node
// creation, dependency order, parameter updates, and the corners that stop the program.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cudart/cuda_abi.h"
#include "support/cudart_shim.h"

using namespace warpsim::cudart;

namespace {

using Node = GraphNode*;
using MallocFn = int (*)(void**, size_t);
using MemcpyFn = int (*)(void*, const void*, size_t, int);
using LaunchFn = int (*)(const void*, dim3, dim3, void**, size_t, void*);

std::vector<int>* host_log = nullptr;
void log_value(void* p) { host_log->push_back(*static_cast<int*>(p)); }

// Device buffers a, b, c of n floats; a[i] = i, b[i] = 10 i.
struct Buffers {
  int n = 0;
  std::vector<float> a, b;
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  Buffers(warpsim::testsupport::Shim& shim, int count) : n(count), a(count), b(count) {
    for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = float(10 * i);
    auto cmalloc = shim.fn<MallocFn>("cudaMalloc");
    EXPECT_EQ(cmalloc(&da, n * 4), 0);
    EXPECT_EQ(cmalloc(&db, n * 4), 0);
    EXPECT_EQ(cmalloc(&dc, n * 4), 0);
  }
  std::vector<float> c(warpsim::testsupport::Shim& shim) {
    std::vector<float> out(n);
    EXPECT_EQ(shim.fn<MemcpyFn>("cudaMemcpy")(out.data(), dc, n * 4, cudaMemcpyDeviceToHost), 0);
    return out;
  }
};

}  // namespace

// memcpy and memset nodes, an empty join node, a kernel node whose argument variables change
// after it is made, a 1D copy back and host nodes: the launch runs them in dependency order.
TEST(CudaGraphs, ExplicitGraphRunsItsNodesInDependencyOrder) {
  SHIM_OR_SKIP();
  auto create = shim.fn<int (*)(void**, unsigned)>("cudaGraphCreate");
  auto add_copy =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, const cudaMemcpy3DParms*)>("cudaGraphAddMemcpyNode");
  auto add_copy1d =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, void*, const void*, size_t, int)>("cudaGraphAddMemcpyNode1D");
  auto add_memset =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, const cudaMemsetParams*)>("cudaGraphAddMemsetNode");
  auto add_empty = shim.fn<int (*)(Node*, void*, const Node*, size_t)>("cudaGraphAddEmptyNode");
  auto add_kernel =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, const cudaKernelNodeParams*)>("cudaGraphAddKernelNode");
  auto add_host =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, const cudaHostNodeParams*)>("cudaGraphAddHostNode");
  auto add_deps =
      shim.fn<int (*)(void*, const Node*, const Node*, const cudaGraphEdgeData*, size_t)>("cudaGraphAddDependencies");
  auto get_nodes = shim.fn<int (*)(void*, Node*, size_t*)>("cudaGraphGetNodes");
  auto root_nodes = shim.fn<int (*)(void*, Node*, size_t*)>("cudaGraphGetRootNodes");
  auto instantiate = shim.fn<int (*)(void**, void*, unsigned long long)>("cudaGraphInstantiate");
  auto launch = shim.fn<int (*)(void*, void*)>("cudaGraphLaunch");
  auto sync = shim.fn<int (*)(void*)>("cudaStreamSynchronize");
  auto stream_create = shim.fn<int (*)(void**)>("cudaStreamCreate");

  const int n = 300;
  Buffers buf(shim, n);
  void* g = nullptr;
  ASSERT_EQ(create(&g, 0), 0);
  Node copy_a, copy_b, zero, join, kernel, back, first, second;
  cudaMemcpy3DParms cp{};
  cp.srcPtr = cudaPitchedPtr{buf.a.data(), size_t(n) * 4, size_t(n), 1};
  cp.dstPtr = cudaPitchedPtr{buf.da, size_t(n) * 4, size_t(n), 1};
  cp.extent = cudaExtent{size_t(n) * 4, 1, 1};
  cp.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(add_copy(&copy_a, g, nullptr, 0, &cp), 0);
  ASSERT_EQ(add_copy1d(&copy_b, g, nullptr, 0, buf.db, buf.b.data(), n * 4, cudaMemcpyHostToDevice), 0);
  cudaMemsetParams ms{buf.dc, 0, 0x3f800000u, 4, size_t(n), 1};  // 1.0f in every element
  ASSERT_EQ(add_memset(&zero, g, nullptr, 0, &ms), 0);
  Node roots[] = {copy_a, copy_b, zero};
  ASSERT_EQ(add_empty(&join, g, roots, 3), 0);
  int count = n;
  void* args[] = {&buf.da, &buf.db, &buf.dc, &count};
  cudaKernelNodeParams kp{
      const_cast<void*>(shim.kernel()), dim3{unsigned(n + 63) / 64, 1, 1}, dim3{64, 1, 1}, 0, args, nullptr};
  ASSERT_EQ(add_kernel(&kernel, g, &join, 1, &kp), 0);
  count = 0;  // the node copied 300 when it was made
  void* dc_later = buf.da;
  args[2] = &dc_later;
  std::vector<float> out(n, -1.0f);
  ASSERT_EQ(add_copy1d(&back, g, &kernel, 1, out.data(), buf.dc, n * 4, cudaMemcpyDeviceToHost), 0);
  // Host nodes made in the order 2, 1, with "1 before 2" added afterwards.
  std::vector<int> log;
  host_log = &log;
  static int one = 1, two = 2;
  cudaHostNodeParams hp2{log_value, &two}, hp1{log_value, &one};
  ASSERT_EQ(add_host(&second, g, &back, 1, &hp2), 0);
  ASSERT_EQ(add_host(&first, g, &back, 1, &hp1), 0);
  ASSERT_EQ(add_deps(g, &first, &second, nullptr, 1), 0);
  size_t count_nodes = 0;
  ASSERT_EQ(get_nodes(g, nullptr, &count_nodes), 0);
  EXPECT_EQ(count_nodes, 8u);
  Node listed[4] = {};
  size_t want = 4;
  ASSERT_EQ(root_nodes(g, listed, &want), 0);
  EXPECT_EQ(want, 3u);
  EXPECT_EQ(listed[0], copy_a);
  EXPECT_EQ(listed[3], nullptr);

  void* exec = nullptr;
  ASSERT_EQ(instantiate(&exec, g, 0), 0);
  void* stream = nullptr;
  ASSERT_EQ(stream_create(&stream), 0);
  EXPECT_TRUE(log.empty());  // nothing runs before the launch
  ASSERT_EQ(launch(exec, stream), 0);
  ASSERT_EQ(sync(stream), 0);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], float(11 * i)) << i;
  EXPECT_EQ(log, (std::vector<int>{1, 2}));
  // A second launch repeats every node.
  std::fill(out.begin(), out.end(), -1.0f);
  ASSERT_EQ(launch(exec, stream), 0);
  ASSERT_EQ(sync(stream), 0);
  EXPECT_EQ(out[n - 1], float(11 * (n - 1)));
  EXPECT_EQ(log, (std::vector<int>{1, 2, 1, 2}));
}

// Kernel node parameters read back, changed in the executable graph only, and a graph whose
// dependencies form a cycle refused at instantiation.
TEST(CudaGraphs, KernelParametersAndCycles) {
  SHIM_OR_SKIP();
  auto create = shim.fn<int (*)(void**, unsigned)>("cudaGraphCreate");
  auto add_kernel =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, const cudaKernelNodeParams*)>("cudaGraphAddKernelNode");
  auto get_params = shim.fn<int (*)(Node, cudaKernelNodeParams*)>("cudaGraphKernelNodeGetParams");
  auto exec_set = shim.fn<int (*)(void*, Node, const cudaKernelNodeParams*)>("cudaGraphExecKernelNodeSetParams");
  auto add_empty = shim.fn<int (*)(Node*, void*, const Node*, size_t)>("cudaGraphAddEmptyNode");
  auto add_deps =
      shim.fn<int (*)(void*, const Node*, const Node*, const cudaGraphEdgeData*, size_t)>("cudaGraphAddDependencies");
  auto instantiate = shim.fn<int (*)(void**, void*, unsigned long long)>("cudaGraphInstantiate");
  auto launch = shim.fn<int (*)(void*, void*)>("cudaGraphLaunch");
  auto dev_sync = shim.fn<int (*)()>("cudaDeviceSynchronize");
  auto memcpy_fn = shim.fn<MemcpyFn>("cudaMemcpy");
  auto last = shim.fn<int (*)()>("cudaGetLastError");
  const int n = 128;
  Buffers buf(shim, n);
  ASSERT_EQ(memcpy_fn(buf.da, buf.a.data(), n * 4, cudaMemcpyHostToDevice), 0);
  ASSERT_EQ(memcpy_fn(buf.db, buf.b.data(), n * 4, cudaMemcpyHostToDevice), 0);
  void* g = nullptr;
  ASSERT_EQ(create(&g, 0), 0);
  int count = n;
  void* args[] = {&buf.da, &buf.db, &buf.dc, &count};
  cudaKernelNodeParams kp{const_cast<void*>(shim.kernel()), dim3{2, 1, 1}, dim3{64, 1, 1}, 0, args, nullptr};
  Node k;
  ASSERT_EQ(add_kernel(&k, g, nullptr, 0, &kp), 0);
  cudaKernelNodeParams got{};
  ASSERT_EQ(get_params(k, &got), 0);
  EXPECT_EQ(got.func, shim.kernel());
  EXPECT_EQ(got.gridDim.x, 2u);
  ASSERT_NE(got.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<int*>(got.kernelParams[3]), n);
  EXPECT_EQ(*static_cast<void**>(got.kernelParams[2]), buf.dc);
  void* exec = nullptr;
  ASSERT_EQ(instantiate(&exec, g, 0), 0);
  // The executable graph computes into a instead of c, over the first 10 elements.
  int ten = 10;
  void* args2[] = {&buf.da, &buf.db, &buf.da, &ten};
  cudaKernelNodeParams kp2 = kp;
  kp2.kernelParams = args2;
  ASSERT_EQ(exec_set(exec, k, &kp2), 0);
  ASSERT_EQ(launch(exec, nullptr), 0);
  ASSERT_EQ(dev_sync(), 0);
  std::vector<float> a(n);
  ASSERT_EQ(memcpy_fn(a.data(), buf.da, n * 4, cudaMemcpyDeviceToHost), 0);
  EXPECT_EQ(a[9], 9.0f + 90.0f);
  EXPECT_EQ(a[10], 10.0f);
  ASSERT_EQ(get_params(k, &got), 0);  // the graph's own node is unchanged
  EXPECT_EQ(*static_cast<int*>(got.kernelParams[3]), n);

  Node e1, e2;
  ASSERT_EQ(add_empty(&e1, g, &k, 1), 0);
  ASSERT_EQ(add_empty(&e2, g, &e1, 1), 0);
  ASSERT_EQ(add_deps(g, &e2, &k, nullptr, 1), 0);  // k -> e1 -> e2 -> k
  void* bad = nullptr;
  EXPECT_EQ(instantiate(&bad, g, 0), cudaErrorInvalidValue);
  EXPECT_EQ(add_deps(g, &e2, &k, nullptr, 1), cudaErrorInvalidValue);  // the edge exists already
  last();
}

// Work enqueued on a capturing stream (and on the streams it forks to through events) is
// recorded, not run; the captured graph replays it, with the kernel arguments of capture time.
TEST(CudaGraphs, StreamCaptureRecordsForkedAndJoinedStreams) {
  SHIM_OR_SKIP();
  auto stream_create = shim.fn<int (*)(void**)>("cudaStreamCreate");
  auto begin = shim.fn<int (*)(void*, int)>("cudaStreamBeginCapture");
  auto end = shim.fn<int (*)(void*, void**)>("cudaStreamEndCapture");
  auto is_capturing = shim.fn<int (*)(void*, int*)>("cudaStreamIsCapturing");
  auto info =
      shim.fn<int (*)(void*, int*, unsigned long long*, void**, Node const**, const cudaGraphEdgeData**, size_t*)>(
          "cudaStreamGetCaptureInfo");
  auto event_create = shim.fn<int (*)(void**)>("cudaEventCreate");
  auto record = shim.fn<int (*)(void*, void*)>("cudaEventRecord");
  auto wait = shim.fn<int (*)(void*, void*, unsigned)>("cudaStreamWaitEvent");
  auto memcpy_async = shim.fn<int (*)(void*, const void*, size_t, int, void*)>("cudaMemcpyAsync");
  auto memset_async = shim.fn<int (*)(void*, int, size_t, void*)>("cudaMemsetAsync");
  auto kernel_launch = shim.fn<LaunchFn>("cudaLaunchKernel");
  auto host_func = shim.fn<int (*)(void*, void (*)(void*), void*)>("cudaLaunchHostFunc");
  auto get_nodes = shim.fn<int (*)(void*, Node*, size_t*)>("cudaGraphGetNodes");
  auto node_deps = shim.fn<int (*)(Node, Node*, cudaGraphEdgeData*, size_t*)>("cudaGraphNodeGetDependencies");
  auto instantiate = shim.fn<int (*)(void**, void*, unsigned long long)>("cudaGraphInstantiate");
  auto launch = shim.fn<int (*)(void*, void*)>("cudaGraphLaunch");
  auto sync = shim.fn<int (*)(void*)>("cudaStreamSynchronize");
  auto last = shim.fn<int (*)()>("cudaGetLastError");

  const int n = 256;
  Buffers buf(shim, n);
  void *s1 = nullptr, *s2 = nullptr, *replay = nullptr, *fork = nullptr, *joined = nullptr;
  ASSERT_EQ(stream_create(&s1), 0);
  ASSERT_EQ(stream_create(&s2), 0);
  ASSERT_EQ(stream_create(&replay), 0);
  ASSERT_EQ(event_create(&fork), 0);
  ASSERT_EQ(event_create(&joined), 0);
  EXPECT_EQ(begin(nullptr, 0), cudaErrorStreamCaptureUnsupported);  // not the legacy stream
  last();
  ASSERT_EQ(begin(s1, 0), 0);
  int status = -1;
  ASSERT_EQ(is_capturing(s1, &status), 0);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  ASSERT_EQ(is_capturing(s2, &status), 0);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  std::vector<int> log;
  host_log = &log;
  static int seven = 7;
  ASSERT_EQ(record(fork, s1), 0);
  ASSERT_EQ(wait(s2, fork, 0), 0);  // s2 joins the capture
  ASSERT_EQ(is_capturing(s2, &status), 0);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  ASSERT_EQ(memcpy_async(buf.da, buf.a.data(), n * 4, cudaMemcpyHostToDevice, s1), 0);
  ASSERT_EQ(memcpy_async(buf.db, buf.b.data(), n * 4, cudaMemcpyHostToDevice, s2), 0);
  ASSERT_EQ(memset_async(buf.dc, 0xff, n * 4, s2), 0);
  ASSERT_EQ(record(joined, s2), 0);
  ASSERT_EQ(wait(s1, joined, 0), 0);
  unsigned long long id = 0;
  void* building = nullptr;
  Node const* deps = nullptr;
  size_t ndeps = 0;
  ASSERT_EQ(info(s1, &status, &id, &building, &deps, nullptr, &ndeps), 0);
  EXPECT_EQ(status, cudaStreamCaptureStatusActive);
  EXPECT_NE(id, 0u);
  EXPECT_NE(building, nullptr);
  EXPECT_EQ(ndeps, 2u);  // s1's copy and s2's memset
  // A node added by hand to the graph being built, made the stream's only dependency.
  auto add_empty = shim.fn<int (*)(Node*, void*, const Node*, size_t)>("cudaGraphAddEmptyNode");
  auto update_deps =
      shim.fn<int (*)(void*, Node*, const cudaGraphEdgeData*, size_t, unsigned)>("cudaStreamUpdateCaptureDependencies");
  Node manual = nullptr;
  ASSERT_EQ(add_empty(&manual, building, deps, ndeps), 0);
  ASSERT_EQ(update_deps(s1, &manual, nullptr, 1, 1), 0);  // cudaStreamSetCaptureDependencies
  EXPECT_EQ(shim.fn<int (*)(void*)>("cudaGraphDestroy")(building), cudaErrorIllegalState);
  last();
  int count = n;
  void* args[] = {&buf.da, &buf.db, &buf.dc, &count};
  ASSERT_EQ(kernel_launch(shim.kernel(), dim3{unsigned(n + 63) / 64, 1, 1}, dim3{64, 1, 1}, args, 0, s1), 0);
  count = 1;  // captured with n
  ASSERT_EQ(host_func(s1, log_value, &seven), 0);
  EXPECT_EQ(sync(s1), cudaErrorStreamCaptureUnsupported);
  last();
  EXPECT_TRUE(log.empty()) << "captured work must not run";
  void* g = nullptr;
  EXPECT_EQ(end(s2, &g), cudaErrorStreamCaptureUnmatched);  // only the stream that began it
  last();
  ASSERT_EQ(end(s1, &g), 0);
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(is_capturing(s2, &status), 0);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  size_t nodes = 0;
  ASSERT_EQ(get_nodes(g, nullptr, &nodes), 0);
  ASSERT_EQ(nodes, 6u);
  std::vector<Node> all(nodes);
  ASSERT_EQ(get_nodes(g, all.data(), &nodes), 0);
  size_t kdeps = 0;
  ASSERT_EQ(node_deps(all[3], nullptr, nullptr, &kdeps), 0);  // the empty node follows both branches
  EXPECT_EQ(kdeps, 2u);
  Node kdep[2] = {};
  kdeps = 2;
  ASSERT_EQ(node_deps(all[4], kdep, nullptr, &kdeps), 0);  // the kernel follows the empty node only
  EXPECT_EQ(kdeps, 1u);
  EXPECT_EQ(kdep[0], manual);
  std::vector<float> c = buf.c(shim);
  EXPECT_NE(c[5], 55.0f);  // not computed yet

  void* exec = nullptr;
  ASSERT_EQ(instantiate(&exec, g, 0), 0);
  ASSERT_EQ(launch(exec, replay), 0);
  ASSERT_EQ(sync(replay), 0);
  c = buf.c(shim);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], float(11 * i)) << i;
  EXPECT_EQ(log, (std::vector<int>{7}));
}

// Unsupported corners stop the program with the call's name and exit status 3.
TEST(CudaGraphs, UnsupportedCornersStopTheProgram) {
  SHIM_OR_SKIP();
  auto stream_create = shim.fn<int (*)(void**)>("cudaStreamCreate");
  auto begin = shim.fn<int (*)(void*, int)>("cudaStreamBeginCapture");
  auto create = shim.fn<int (*)(void**, unsigned)>("cudaGraphCreate");
  auto instantiate = shim.fn<int (*)(void**, void*, unsigned long long)>("cudaGraphInstantiate");
  auto launch = shim.fn<int (*)(void*, void*)>("cudaGraphLaunch");
  auto from_pool = shim.fn<int (*)(void**, size_t, void*, void*)>("cudaMallocFromPoolAsync");
  auto default_pool = shim.fn<int (*)(void**, int)>("cudaDeviceGetDefaultMemPool");
  auto add_child = shim.fn<int (*)(Node*, void*, const Node*, size_t, void*)>("cudaGraphAddChildGraphNode");
  void *s = nullptr, *g = nullptr, *exec = nullptr;
  ASSERT_EQ(stream_create(&s), 0);
  ASSERT_EQ(create(&g, 0), 0);
  ASSERT_EQ(instantiate(&exec, g, 0), 0);
  EXPECT_EXIT(instantiate(&exec, g, 4), ::testing::ExitedWithCode(3), "cudaGraphInstantiate.*device");
  Node child;
  EXPECT_EXIT(add_child(&child, g, nullptr, 0, g), ::testing::ExitedWithCode(3), "cudaGraphAddChildGraphNode");
  ASSERT_EQ(begin(s, 0), 0);
  EXPECT_EXIT(launch(exec, s), ::testing::ExitedWithCode(3),
              "cudaGraphLaunch: launching a graph into a stream capture");
  void *p = nullptr, *pool = nullptr;
  ASSERT_EQ(default_pool(&pool, 0), 0);
  EXPECT_EXIT(from_pool(&p, 64, pool, s), ::testing::ExitedWithCode(3),
              "cudaMallocFromPoolAsync: allocation from a given pool during stream capture");
}

// Graph allocations: an allocation node's memory has one address for every launch of the
// graph; kernels write it, a copy node reads it, a free node ends it; freeing it outside the
// graph releases nothing. cudaMallocAsync/cudaFreeAsync on a capturing stream make such nodes.
TEST(CudaGraphs, MemoryNodesKeepTheirAddressAcrossLaunches) {
  SHIM_OR_SKIP();
  auto create = shim.fn<int (*)(void**, unsigned)>("cudaGraphCreate");
  auto add_alloc =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, cudaMemAllocNodeParams*)>("cudaGraphAddMemAllocNode");
  auto add_free = shim.fn<int (*)(Node*, void*, const Node*, size_t, void*)>("cudaGraphAddMemFreeNode");
  auto add_kernel =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, const cudaKernelNodeParams*)>("cudaGraphAddKernelNode");
  auto add_copy1d =
      shim.fn<int (*)(Node*, void*, const Node*, size_t, void*, const void*, size_t, int)>("cudaGraphAddMemcpyNode1D");
  auto alloc_params = shim.fn<int (*)(Node, cudaMemAllocNodeParams*)>("cudaGraphMemAllocNodeGetParams");
  auto instantiate = shim.fn<int (*)(void**, void*, unsigned long long)>("cudaGraphInstantiate");
  auto launch = shim.fn<int (*)(void*, void*)>("cudaGraphLaunch");
  auto dev_sync = shim.fn<int (*)()>("cudaDeviceSynchronize");
  auto graph_mem = shim.fn<int (*)(int, int, void*)>("cudaDeviceGetGraphMemAttribute");
  auto cfree = shim.fn<int (*)(void*)>("cudaFree");
  auto memcpy_fn = shim.fn<MemcpyFn>("cudaMemcpy");
  auto stream_create = shim.fn<int (*)(void**)>("cudaStreamCreate");
  auto begin = shim.fn<int (*)(void*, int)>("cudaStreamBeginCapture");
  auto end = shim.fn<int (*)(void*, void**)>("cudaStreamEndCapture");
  auto malloc_async = shim.fn<int (*)(void**, size_t, void*)>("cudaMallocAsync");
  auto free_async = shim.fn<int (*)(void*, void*)>("cudaFreeAsync");
  auto get_nodes = shim.fn<int (*)(void*, Node*, size_t*)>("cudaGraphGetNodes");
  auto node_type = shim.fn<int (*)(Node, int*)>("cudaGraphNodeGetType");
  auto last = shim.fn<int (*)()>("cudaGetLastError");
  const int n = 200;
  Buffers buf(shim, n);
  ASSERT_EQ(memcpy_fn(buf.da, buf.a.data(), n * 4, cudaMemcpyHostToDevice), 0);
  ASSERT_EQ(memcpy_fn(buf.db, buf.b.data(), n * 4, cudaMemcpyHostToDevice), 0);
  void* g = nullptr;
  ASSERT_EQ(create(&g, 0), 0);
  cudaMemAllocNodeParams ap{};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
  ap.bytesize = n * 4;
  Node alloc, kernel, copy, freed;
  ASSERT_EQ(add_alloc(&alloc, g, nullptr, 0, &ap), 0);
  void* mem = ap.dptr;
  ASSERT_NE(mem, nullptr);
  int count = n;
  void* args[] = {&buf.da, &buf.db, &mem, &count};
  cudaKernelNodeParams kp{const_cast<void*>(shim.kernel()), dim3{4, 1, 1}, dim3{64, 1, 1}, 0, args, nullptr};
  ASSERT_EQ(add_kernel(&kernel, g, &alloc, 1, &kp), 0);
  std::vector<float> out(n, -1.0f);
  ASSERT_EQ(add_copy1d(&copy, g, &kernel, 1, out.data(), mem, n * 4, cudaMemcpyDeviceToHost), 0);
  ASSERT_EQ(add_free(&freed, g, &copy, 1, mem), 0);
  EXPECT_EQ(add_free(&freed, g, &copy, 1, buf.dc), cudaErrorInvalidValue);  // not graph memory
  last();
  cudaMemAllocNodeParams back{};
  ASSERT_EQ(alloc_params(alloc, &back), 0);
  EXPECT_EQ(back.dptr, mem);
  EXPECT_EQ(back.bytesize, size_t(n) * 4);
  uint64_t used = 0;
  ASSERT_EQ(graph_mem(0, 0, &used), 0);  // cudaGraphMemAttrUsedMemCurrent
  EXPECT_EQ(used, uint64_t(n) * 4);
  void* exec = nullptr;
  ASSERT_EQ(instantiate(&exec, g, 0), 0);
  for (int rep = 0; rep < 2; ++rep) {
    std::fill(out.begin(), out.end(), -1.0f);
    ASSERT_EQ(launch(exec, nullptr), 0);
    ASSERT_EQ(dev_sync(), 0);
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], float(11 * i)) << rep << ": " << i;
  }
  EXPECT_EQ(cfree(mem), 0);  // releases nothing: the next launch still has it
  std::fill(out.begin(), out.end(), -1.0f);
  ASSERT_EQ(launch(exec, nullptr), 0);
  ASSERT_EQ(dev_sync(), 0);
  EXPECT_EQ(out[n - 1], float(11 * (n - 1)));

  // Captured: cudaMallocAsync and cudaFreeAsync become allocation and free nodes.
  void* s = nullptr;
  ASSERT_EQ(stream_create(&s), 0);
  ASSERT_EQ(begin(s, 0), 0);
  void* tmp = nullptr;
  ASSERT_EQ(malloc_async(&tmp, 64, s), 0);
  ASSERT_NE(tmp, nullptr);
  EXPECT_EQ(free_async(buf.da, s), cudaErrorInvalidValue);  // a graph frees only graph memory
  last();
  ASSERT_EQ(free_async(tmp, s), 0);
  void* cg = nullptr;
  ASSERT_EQ(end(s, &cg), 0);
  Node nodes[2] = {};
  size_t count_nodes = 2;
  ASSERT_EQ(get_nodes(cg, nodes, &count_nodes), 0);
  ASSERT_EQ(count_nodes, 2u);
  int t0 = -1, t1 = -1;
  ASSERT_EQ(node_type(nodes[0], &t0), 0);
  ASSERT_EQ(node_type(nodes[1], &t1), 0);
  EXPECT_EQ(t0, cudaGraphNodeTypeMemAlloc);
  EXPECT_EQ(t1, cudaGraphNodeTypeMemFree);
}

// The CUDA 11 and 12 libraries carry those versions' signatures under their own names.
TEST(CudaGraphs, OlderLibrariesHaveTheirCaptureInfoVariants) {
  std::string path = warpsim::testsupport::shim_path();
  std::string p12 = path, p11 = path;
  p12.replace(p12.rfind(".13"), 3, ".12");
  p11.replace(p11.rfind(".13"), 3, ".11.0");
  void* l12 = dlopen(p12.c_str(), RTLD_NOW | RTLD_LOCAL);
  void* l11 = dlopen(p11.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!l12 || !l11) GTEST_SKIP() << dlerror();
  EXPECT_NE(dlsym(l12, "cudaStreamGetCaptureInfo_v3"), nullptr);
  EXPECT_NE(dlsym(l11, "cudaStreamGetCaptureInfo_v2"), nullptr);
  EXPECT_NE(dlsym(l11, "cudaGraphInstantiate"), nullptr);
  EXPECT_NE(dlsym(l12, "cudaGraphLaunch"), nullptr);
}

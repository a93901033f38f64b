// CUDA graphs: one built node by node (copy, memset, kernels, host function, empty node and
// dependencies) and one captured from three streams forked and joined by events, each
// launched several times; kernel nodes keep the argument values they were given; an executable
// graph takes new kernel parameters and is updated from a graph of the same shape. Prints
// "graphs: ok" when every result is right.
#include <cstring>
#include <vector>

#include "common.h"

__global__ void add_scaled(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

__global__ void sum_into(const float* y, float* out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += y[i];
    *out = s;
  }
}

namespace {

int host_calls = 0;
float seen_total = 0;
void CUDART_CB note_total(void* p) {
  ++host_calls;
  seen_total = *static_cast<float*>(p);
}

bool near(float a, float b) { return a == b || (a - b) * (a - b) < 1e-6f * b * b; }

}  // namespace

int main() {
  const int n = 1000;
  float *x = nullptr, *y = nullptr, *total = nullptr, *hx = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&total, sizeof(float)));
  CHECK(cudaMallocHost(&hx, n * sizeof(float)));
  for (int i = 0; i < n; ++i) hx[i] = float(i % 10);
  float expect_x = 0;
  for (int i = 0; i < n; ++i) expect_x += hx[i];
  float host_total = 0;
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // --- built node by node: copy x in, zero y, y += 2x, y += 3x, total = sum(y), copy out, host
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t copy_in, zero, k1, k2, sum, copy_out, host, join;
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(hx, n * sizeof(float), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(x, n * sizeof(float), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaGraphAddMemcpyNode(&copy_in, g, nullptr, 0, &cp));
  cudaMemsetParams ms = {};
  ms.dst = y;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  CHECK(cudaGraphAddMemsetNode(&zero, g, nullptr, 0, &ms));
  cudaGraphNode_t roots[] = {copy_in, zero};
  CHECK(cudaGraphAddEmptyNode(&join, g, roots, 2));
  float a = 2.0f;
  int count = n;
  void* args1[] = {&y, &x, &a, &count};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add_scaled;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args1;
  CHECK(cudaGraphAddKernelNode(&k1, g, &join, 1, &kp));
  a = 3.0f;  // the first node keeps 2.0: arguments are copied when the node is made
  CHECK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  void* args2[] = {&y, &total, &count};
  cudaKernelNodeParams sp = {};
  sp.func = (void*)sum_into;
  sp.gridDim = dim3(1);
  sp.blockDim = dim3(32);
  sp.kernelParams = args2;
  CHECK(cudaGraphAddKernelNode(&sum, g, &k2, 1, &sp));
  CHECK(cudaGraphAddMemcpyNode1D(&copy_out, g, &sum, 1, &host_total, total, sizeof(float), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {note_total, &host_total};
  CHECK(cudaGraphAddHostNode(&host, g, &copy_out, 1, &hp));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(k1, &type));
  if (nodes != 8 || type != cudaGraphNodeTypeKernel) {
    std::printf("graph has %zu nodes, kernel node type %d\n", nodes, int(type));
    return 1;
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int rep = 0; rep < 3; ++rep) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  if (host_calls != 3 || !near(seen_total, 5 * expect_x)) {
    std::printf("manual graph: %d host calls, total %f (want 3, %f)\n", host_calls, seen_total, 5 * expect_x);
    return 1;
  }
  // New parameters for the second kernel of the executable graph only.
  a = -1.0f;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, k2, &kp));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  if (!near(seen_total, 1 * expect_x)) {
    std::printf("after cudaGraphExecKernelNodeSetParams: total %f (want %f)\n", seen_total, expect_x);
    return 1;
  }
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, g));
  CHECK(cudaGraphGetNodes(clone, nullptr, &nodes));
  if (nodes != 8) return 1;
  CHECK(cudaGraphDestroy(clone));

  // --- captured: stream s1 forks to s2 and s3 through an event, they join back through events
  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreate(&s3));
  cudaEvent_t fork, done2, done3;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&done2));
  CHECK(cudaEventCreate(&done3));
  float scale = 4.0f;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s1, &status));
  if (status != cudaStreamCaptureStatusActive) return 1;
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamWaitEvent(s3, fork, 0));
  CHECK(cudaMemcpyAsync(x, hx, n * sizeof(float), cudaMemcpyDefault, s2));
  CHECK(cudaEventRecord(done2, s2));
  CHECK(cudaMemsetAsync(y, 0, n * sizeof(float), s3));
  CHECK(cudaEventRecord(done3, s3));
  CHECK(cudaStreamWaitEvent(s1, done2, 0));
  CHECK(cudaStreamWaitEvent(s1, done3, 0));
  add_scaled<<<(n + 127) / 128, 128, 0, s1>>>(y, x, scale, n);
  scale = 100.0f;  // captured launches keep their argument values too
  sum_into<<<1, 32, 0, s1>>>(y, total, n);
  CHECK(cudaMemcpyAsync(&host_total, total, sizeof(float), cudaMemcpyDefault, s1));
  CHECK(cudaLaunchHostFunc(s1, note_total, &host_total));
  cudaGraph_t captured;
  CHECK(cudaStreamEndCapture(s1, &captured));
  CHECK(cudaStreamIsCapturing(s1, &status));
  if (status != cudaStreamCaptureStatusNone || host_calls != 4) {
    std::printf("capture ran work: status %d, %d host calls\n", int(status), host_calls);
    return 1;
  }
  CHECK(cudaGraphGetNodes(captured, nullptr, &nodes));
  if (nodes != 6) {
    std::printf("captured graph has %zu nodes (want 6)\n", nodes);
    return 1;
  }
  cudaGraphExec_t cexec;
  CHECK(cudaGraphInstantiateWithFlags(&cexec, captured, 0));
  for (int rep = 0; rep < 2; ++rep) CHECK(cudaGraphLaunch(cexec, stream));
  CHECK(cudaStreamSynchronize(stream));
  if (host_calls != 6 || !near(seen_total, 4 * expect_x)) {
    std::printf("captured graph: %d host calls, total %f (want 6, %f)\n", host_calls, seen_total, 4 * expect_x);
    return 1;
  }
  // The same shape captured again with another scale: the executable graph takes its parameters.
  scale = 7.0f;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamWaitEvent(s3, fork, 0));
  CHECK(cudaMemcpyAsync(x, hx, n * sizeof(float), cudaMemcpyDefault, s2));
  CHECK(cudaEventRecord(done2, s2));
  CHECK(cudaMemsetAsync(y, 0, n * sizeof(float), s3));
  CHECK(cudaEventRecord(done3, s3));
  CHECK(cudaStreamWaitEvent(s1, done2, 0));
  CHECK(cudaStreamWaitEvent(s1, done3, 0));
  add_scaled<<<(n + 127) / 128, 128, 0, s1>>>(y, x, scale, n);
  sum_into<<<1, 32, 0, s1>>>(y, total, n);
  CHECK(cudaMemcpyAsync(&host_total, total, sizeof(float), cudaMemcpyDefault, s1));
  CHECK(cudaLaunchHostFunc(s1, note_total, &host_total));
  cudaGraph_t again;
  CHECK(cudaStreamEndCapture(s1, &again));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(cexec, again, &info));
  CHECK(cudaGraphLaunch(cexec, stream));
  CHECK(cudaStreamSynchronize(stream));
  if (info.result != cudaGraphExecUpdateSuccess || !near(seen_total, 7 * expect_x)) {
    std::printf("updated graph: result %d, total %f (want %f)\n", int(info.result), seen_total, 7 * expect_x);
    return 1;
  }
  // A graph of another shape is refused.
  if (cudaGraphExecUpdate(cexec, g, &info) != cudaErrorGraphExecUpdateFailure) return 1;
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(cexec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaGraphDestroy(again));
  std::printf("graphs: ok\n");
  return 0;
}

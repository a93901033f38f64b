// Every thread reads 4-byte words of a 1 MB buffer with ld.global.cg, a warp's 32 lanes one
// 128-byte line: after the host-to-device copy every load is an L2 hit, so the difference between
// a launch of N iterations and one of 2N is the time the GPU takes for N loads of every thread
// under load (the L2-hit throughput). docs/fidelity.md ("Remaining differences", TITAN V)
// compares it with GPGPU-Sim.
//   l2_hit_stream [BLOCKS [N]]      BLOCKS blocks of 256 threads (default 160), N = 20
#include <cstdio>
#include <cstdlib>

__global__ void stream(const unsigned* buf, unsigned mask, int iters, unsigned* sink) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  unsigned s = 0;
  for (int i = 0; i < iters; i++) s += __ldcg(buf + ((tid + i * stride) & mask));
  if (s == 0xdeadbeef) *sink = s;  // never true: keeps the loads
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? atoi(argv[1]) : 160, iters = argc > 2 ? atoi(argv[2]) : 20;
  const size_t words = 1 << 18;
  unsigned *buf, *sink;
  if (cudaMalloc(&buf, words * 4) != cudaSuccess || cudaMalloc(&sink, 4) != cudaSuccess) return 1;
  unsigned* h = static_cast<unsigned*>(calloc(words, 4));
  cudaMemcpy(buf, h, words * 4, cudaMemcpyHostToDevice);
  stream<<<blocks, 256>>>(buf, unsigned(words - 1), iters, sink);
  stream<<<blocks, 256>>>(buf, unsigned(words - 1), 2 * iters, sink);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  printf("blocks %d iterations %d %d\n", blocks, iters, 2 * iters);
  free(h);
  return 0;
}

// One thread chases pointers through 64 lines (8 KB) with ld.global.cg: after the host-to-device
// copy every load is an L2 hit, so the difference between a launch of N steps and one of 2N,
// divided by N, is the round trip of a dependent L2 hit plus the two integer instructions that
// turn the loaded index into the next address. docs/fidelity.md, "The interconnect's latency",
// compares it with GPGPU-Sim (data/reference/gpgpusim/l2_hit_chase.tsv).
//   l2_hit_chase [N]      two launches, N and 2N steps (default 500)
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void chase(const unsigned* next, unsigned first, int steps, unsigned* sink) {
  unsigned p = first;
  for (int i = 0; i < steps; i++) p = __ldcg(next + p);
  *sink = p;
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 500;
  const size_t slots = 64, stride = 32;  // 128-byte lines
  std::vector<unsigned> h(slots * stride, 0);
  for (size_t i = 0; i < slots; i++) h[i * stride] = unsigned(((i * 37 + 11) % slots) * stride);
  unsigned *next, *sink;
  if (cudaMalloc(&next, h.size() * 4) != cudaSuccess || cudaMalloc(&sink, 4) != cudaSuccess) return 1;
  cudaMemcpy(next, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  chase<<<1, 1>>>(next, 0, steps, sink);
  chase<<<1, 1>>>(next, 0, 2 * steps, sink);
  unsigned r = 0;
  if (cudaMemcpy(&r, sink, 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  printf("steps %d %d end %u\n", steps, 2 * steps, r);
  return 0;
}

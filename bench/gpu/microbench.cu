// Microbenchmarks that characterise a GPU preset against the real GPU: latencies measured with
// clock64() by one thread or one warp, throughputs per SM with clock64() spans, bandwidths with
// CUDA events. The same binary runs on a GPU and under `warpsim exec`; each figure is sized so
// that the simulation takes seconds, not hours (fewer steps and smaller footprints than a
// hardware-only benchmark would use; each still measures one mechanism).
// Build: nvcc -O2 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
//          -cudart shared -o microbench microbench.cu
// Output, TSV: "name<TAB>value<TAB>unit" per figure as the program measures it itself (clock64()
// and CUDA events: right on a GPU; under a simulator whose clock64() is not the timing model's
// cycle, only the event figures are), and one line per kernel launch,
// "launch<TAB>index<TAB>figure<TAB>units<TAB>kind", from which the same figures follow from each
// launch's cycles as a profiler (ncu gpc__cycles_elapsed.max) or the simulator (--json) reports
// them: every figure is measured by two launches of one kernel that differ only in the amount of
// work (kind "latency": cycles per unit of the difference; kind "rate": units of the difference
// per cycle; "rate_ghz": units per cycle times the clock in GHz), which cancels launch and
// start-up costs; "once" launches (warm-ups) count for nothing.
// Arguments: --only PREFIX (figures whose name starts with PREFIX; repeatable), --list (the
// names, nothing measured).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t err_ = (x);                                                            \
    if (err_ != cudaSuccess) {                                                         \
      fprintf(stderr, "microbench: %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

// Dependent fused multiply-adds: 4 per iteration, each waits for the last.
__global__ void dependent_fma(float* out, int iters, long long* cycles) {
  float v = threadIdx.x * 1e-3f;
  long long start = clock64();
  for (int i = 0; i < iters; i++) {
    v = fmaf(v, 0.999f, 0.001f);
    v = fmaf(v, 0.999f, 0.001f);
    v = fmaf(v, 0.999f, 0.001f);
    v = fmaf(v, 0.999f, 0.001f);
  }
  long long stop = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) *cycles = stop - start;
}

// Dependent __sinf: the special-function unit's latency.
__global__ void dependent_sin(float* out, int iters, long long* cycles) {
  float v = 1.0f + threadIdx.x * 1e-3f;
  long long start = clock64();
  for (int i = 0; i < iters; i++) {
    v = __sinf(v);
    v = __sinf(v);
    v = __sinf(v);
    v = __sinf(v);
  }
  long long stop = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) *cycles = stop - start;
}

// Eight independent FMA chains per thread; every block records its SM and its clock span so
// that throughput is per SM, free of launch overhead.
__global__ void independent_fma(float* out, int iters, long long* spans) {
  float a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5, g = a + 6, h = a + 7;
  __syncthreads();
  long long start = clock64();
  for (int i = 0; i < iters; i++) {
    a = fmaf(a, 0.999f, 0.001f); b = fmaf(b, 0.999f, 0.001f); c = fmaf(c, 0.999f, 0.001f); d = fmaf(d, 0.999f, 0.001f);
    e = fmaf(e, 0.999f, 0.001f); f = fmaf(f, 0.999f, 0.001f); g = fmaf(g, 0.999f, 0.001f); h = fmaf(h, 0.999f, 0.001f);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d + e + f + g + h;
  __syncthreads();
  long long stop = clock64();
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    spans[3 * blockIdx.x] = sm;
    spans[3 * blockIdx.x + 1] = start;
    spans[3 * blockIdx.x + 2] = stop;
  }
}

// Pointer chases, one dependent load per step: .ca (through the L1) and .cg (L2 only).
__global__ void chase_ca(const unsigned* __restrict__ next, unsigned first, int steps, unsigned* sink, long long* cycles) {
  unsigned p = first;
  for (int i = 0; i < 64; i++) p = __ldca(next + p);
  long long start = clock64();
  for (int i = 0; i < steps; i++) p = __ldca(next + p);
  long long stop = clock64();
  *sink = p;
  *cycles = stop - start;
}

__global__ void chase_cg(const unsigned* next, unsigned first, int steps, unsigned* sink, long long* cycles) {
  unsigned p = first;
  for (int i = 0; i < 64; i++) p = __ldcg(next + p);
  long long start = clock64();
  for (int i = 0; i < steps; i++) p = __ldcg(next + p);
  long long stop = clock64();
  *sink = p;
  *cycles = stop - start;
}

__global__ void chase_shared(int steps, unsigned* sink, long long* cycles) {
  __shared__ unsigned ring[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) ring[i] = (i * 97 + 13) % 1024;
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned p = 0;
  long long start = clock64();
  for (int i = 0; i < steps; i++) p = ring[p];
  long long stop = clock64();
  *sink = p;
  *cycles = stop - start;
}

__global__ void barrier_loop(int iters, long long* cycles) {
  long long start = clock64();
  for (int i = 0; i < iters; i++) __syncthreads();
  long long stop = clock64();
  if (threadIdx.x == 0) *cycles = stop - start;
}

__global__ void copy(const float4* __restrict__ src, float4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}

__global__ void empty() {}

namespace {

std::vector<std::string> g_only;
int g_launches = 0;

bool wanted(const std::string& name) {
  if (g_only.empty()) return true;
  for (const auto& p : g_only)
    if (name.compare(0, p.size(), p) == 0) return true;
  return false;
}

void report(const std::string& name, double value, const char* unit) {
  printf("%s\t%.3f\t%s\n", name.c_str(), value, unit);
  fflush(stdout);
}

// Call right before each kernel launch, in launch order.
void launch(const std::string& figure, double units, const char* kind) {
  printf("launch\t%d\t%s\t%.0f\t%s\n", g_launches++, figure.c_str(), units, kind);
}

long long read_cycles(long long* d) {
  long long c = 0;
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&c, d, sizeof c, cudaMemcpyDeviceToHost));
  return c;
}

// Per SM: warp FMAs of its blocks over the clock span from its first start to its last stop.
double ipc_per_sm(const std::vector<long long>& h, int blocks, int nsm, int warps_per_block, int iters) {
  std::vector<long long> first(nsm, -1), last(nsm, -1), count(nsm, 0);
  for (int b = 0; b < blocks; b++) {
    int sm = int(h[3 * b]);
    if (sm < 0 || sm >= nsm) continue;
    if (first[sm] < 0 || h[3 * b + 1] < first[sm]) first[sm] = h[3 * b + 1];
    if (h[3 * b + 2] > last[sm]) last[sm] = h[3 * b + 2];
    count[sm]++;
  }
  double sum = 0;
  int used = 0;
  for (int sm = 0; sm < nsm; sm++) {
    if (count[sm] == 0 || last[sm] <= first[sm]) continue;
    sum += double(count[sm]) * warps_per_block * iters * 8 / double(last[sm] - first[sm]);
    used++;
  }
  return used ? sum / used : 0.0;
}

// One random cycle over the 128-byte (or `stride_bytes`) slots of `bytes`, which defeats
// prefetching; two chases of `steps` and 2 x `steps` loads from disjoint parts of the cycle
// (so that the first does not warm the lines of the second); cycles per load of the longer.
double chase(const std::string& name, bool cg, size_t bytes, size_t stride_bytes, unsigned* next, unsigned* sink,
             long long* cycles) {
  size_t words = bytes / 4, stride = stride_bytes / 4, slots = words / stride;
  std::vector<unsigned> h(words, 0);
  std::vector<size_t> order(slots);
  for (size_t i = 0; i < slots; i++) order[i] = i;
  unsigned long long s = 88172645463325252ull;  // xorshift: the same cycle on every platform
  for (size_t i = slots - 1; i > 0; i--) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    size_t j = s % (i + 1);
    size_t t = order[i]; order[i] = order[j]; order[j] = t;
  }
  for (size_t i = 0; i < slots; i++) h[order[i] * stride] = unsigned(order[(i + 1) % slots] * stride);
  CHECK(cudaMemcpy(next, h.data(), words * 4, cudaMemcpyHostToDevice));
  const int steps = 2000;
  long long c[2];
  for (int k = 0; k < 2; k++) {
    int n = steps * (k + 1);
    unsigned first = unsigned(order[(size_t(k) * 3 * steps) % slots] * stride);
    launch(name, n, "latency");
    if (cg) chase_cg<<<1, 1>>>(next, first, n, sink, cycles);
    else chase_ca<<<1, 1>>>(next, first, n, sink, cycles);
    c[k] = read_cycles(cycles);
  }
  return double(c[1]) / (2 * steps);
}

}  // namespace

int main(int argc, char** argv) {
  bool list = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--only") && i + 1 < argc) g_only.push_back(argv[++i]);
    else if (!strcmp(argv[i], "--list")) list = true;
    else { fprintf(stderr, "usage: %s [--only PREFIX]... [--list]\n", argv[0]); return 2; }
  }
  const size_t footprints_kb[] = {8, 32, 128, 1024, 8192, 32768, 131072};
  std::vector<std::string> names = {"fma_dependent_latency", "sfu_sin_dependent_latency", "shared_load_latency",
                                    "syncthreads_1024_threads", "fma_warp_ipc_per_sm"};
  for (int cg = 0; cg < 2; cg++)
    for (size_t kb : footprints_kb) names.push_back(std::string(cg ? "chase_cg_" : "chase_ca_") + std::to_string(kb) + "KB_stride128");
  names.push_back("chase_cg_131072KB_stride4096");
  for (const char* n : {"copy_bandwidth_dram", "copy_bandwidth_l2", "empty_kernel_launch_interval"}) names.push_back(n);
  if (list) {
    for (const auto& n : names) printf("%s\n", n.c_str());
    return 0;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  printf("device\t%s\t-\n", prop.name);
  printf("sms\t%d\tcount\n", prop.multiProcessorCount);
  printf("sm_clock_khz\t%d\tkHz\n", clock_khz);
  float* out;
  long long* cycles;
  unsigned* sink;
  CHECK(cudaMalloc(&out, 1 << 24));
  CHECK(cudaMalloc(&cycles, 8));
  CHECK(cudaMalloc(&sink, 4));

  if (wanted("fma_dependent_latency")) {
    const int iters = 512;
    launch("fma_dependent_latency", 0, "once");  // the first launch loads the code
    dependent_fma<<<1, 32>>>(out, iters, cycles);
    read_cycles(cycles);
    long long c = 0;
    for (int k = 1; k <= 2; k++) {
      launch("fma_dependent_latency", 4.0 * iters * k, "latency");
      dependent_fma<<<1, 32>>>(out, iters * k, cycles);
      c = read_cycles(cycles);
    }
    report("fma_dependent_latency", double(c) / (8.0 * iters), "cycles");
  }
  if (wanted("sfu_sin_dependent_latency")) {
    const int iters = 128;
    long long c = 0;
    for (int k = 1; k <= 2; k++) {
      launch("sfu_sin_dependent_latency", 4.0 * iters * k, "latency");
      dependent_sin<<<1, 32>>>(out, iters * k, cycles);
      c = read_cycles(cycles);
    }
    report("sfu_sin_dependent_latency", double(c) / (8.0 * iters), "cycles");
  }
  if (wanted("shared_load_latency")) {
    const int steps = 2000;
    long long c = 0;
    for (int k = 1; k <= 2; k++) {
      launch("shared_load_latency", double(steps) * k, "latency");
      chase_shared<<<1, 32>>>(steps * k, sink, cycles);
      c = read_cycles(cycles);
    }
    report("shared_load_latency", double(c) / (2.0 * steps), "cycles");
  }
  if (wanted("syncthreads_1024_threads")) {
    const int iters = 500;
    long long c = 0;
    for (int k = 1; k <= 2; k++) {
      launch("syncthreads_1024_threads", double(iters) * k, "latency");
      barrier_loop<<<1, 1024>>>(iters * k, cycles);
      c = read_cycles(cycles);
    }
    report("syncthreads_1024_threads", double(c) / (2.0 * iters), "cycles");
  }
  if (wanted("fma_warp_ipc_per_sm")) {
    // Eight resident blocks of 256 threads per SM (2048 threads); the units are warp FMAs per SM.
    const int nsm = prop.multiProcessorCount, blocks = nsm * 8, threads = 256, iters = 128;
    long long* spans;
    CHECK(cudaMalloc(&spans, sizeof(long long) * 3 * blocks));
    std::vector<long long> h(3 * blocks);
    for (int k = 1; k <= 2; k++) {
      launch("fma_warp_ipc_per_sm", 8.0 * (threads / 32) * iters * k * 8, "rate");
      independent_fma<<<blocks, threads>>>(out, iters * k, spans);
      CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaMemcpy(h.data(), spans, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    report("fma_warp_ipc_per_sm", ipc_per_sm(h, blocks, nsm, threads / 32, 2 * iters), "warp-insts/cycle/SM");
    CHECK(cudaFree(spans));
  }
  unsigned* next = nullptr;
  for (const auto& n : names)
    if (n.compare(0, 6, "chase_") == 0 && wanted(n) && !next) CHECK(cudaMalloc(&next, (size_t)128 << 20));
  for (int cg = 0; cg < 2; cg++)
    for (size_t kb : footprints_kb) {
      std::string name = std::string(cg ? "chase_cg_" : "chase_ca_") + std::to_string(kb) + "KB_stride128";
      if (wanted(name)) report(name, chase(name, cg, kb << 10, 128, next, sink, cycles), "cycles");
    }
  if (wanted("chase_cg_131072KB_stride4096"))
    report("chase_cg_131072KB_stride4096", chase("chase_cg_131072KB_stride4096", true, (size_t)128 << 20, 4096, next, sink, cycles), "cycles");
  if (next) CHECK(cudaFree(next));
  // Copy bandwidth, bytes read plus bytes written: from DRAM (footprints beyond the L2) and
  // from the L2 (footprints that stay resident after a warm-up copy). Two copies of n and 2n
  // elements; the event figure times the longer one alone.
  struct Copy { const char* name; size_t bytes; bool warm; };
  const Copy copies[] = {{"copy_bandwidth_dram", (size_t)64 << 20, false}, {"copy_bandwidth_l2", (size_t)8 << 20, true}};
  for (const Copy& c : copies) {
    if (!wanted(c.name)) continue;
    float4 *a, *b;
    CHECK(cudaMalloc(&a, 2 * c.bytes));
    CHECK(cudaMalloc(&b, 2 * c.bytes));
    CHECK(cudaMemset(a, 0, 2 * c.bytes));
    size_t n = c.bytes / 16;
    int blocks = prop.multiProcessorCount * 8;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    if (c.warm) {
      launch(c.name, 0, "once");
      copy<<<blocks, 512>>>(a, b, 2 * n);
    }
    CHECK(cudaDeviceSynchronize());
    launch(c.name, 2.0 * c.bytes, "rate_ghz");
    copy<<<blocks, 512>>>(a, b, n);
    CHECK(cudaEventRecord(e0));
    launch(c.name, 4.0 * c.bytes, "rate_ghz");
    copy<<<blocks, 512>>>(a, b, 2 * n);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    report(c.name, 4.0 * c.bytes / (ms * 1e-3) / 1e9, "GB/s");
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
  }
  if (wanted("empty_kernel_launch_interval")) {
    const int launches = 100;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    launch("empty_kernel_launch_interval", 0, "once");
    empty<<<1, 32>>>();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e0));
    for (int r = 0; r < launches; r++) {
      launch("empty_kernel_launch_interval", 0, "once");
      empty<<<1, 32>>>();
    }
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    report("empty_kernel_launch_interval", ms * 1000.0 / launches, "us");
  }
  return 0;
}

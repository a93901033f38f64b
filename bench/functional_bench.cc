// Functional execution speed of the PTX front end alone (no timing model), in executed warp
// instructions per second.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "runtime/functional_target.h"
#include "runtime/runtime.h"

namespace {

using namespace warpsim;

std::string kernel_ptx(const char* name) {
  std::ifstream f(std::string(WARPSIM_SOURCE_DIR) + "/tests/data/kernels/" + name + ".ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void report(benchmark::State& state, const FunctionalTarget& target) {
  uint64_t warp = 0, thread = 0;
  for (const auto& r : target.results()) warp += r.warp_insts, thread += r.thread_insts;
  state.counters["warp_insts/s"] = benchmark::Counter(double(warp), benchmark::Counter::kIsRate);
  state.counters["thread_insts/s"] = benchmark::Counter(double(thread), benchmark::Counter::kIsRate);
  state.counters["warp_insts"] = benchmark::Counter(double(warp) / double(state.iterations()));
}

void BM_AluLoop(benchmark::State& state) {
  FunctionalTarget target;
  Runtime rt(&target);
  auto m = rt.load_module(kernel_ptx("bench_alu"), "bench_alu.ptx");
  auto k = rt.get_kernel(m, "alu_loop");
  const uint32_t blocks = 16, threads = 256;
  DevPtr out = rt.malloc(blocks * threads * 4);
  for (auto _ : state) {
    rt.launch(k, Dim3{blocks, 1, 1}, Dim3{threads, 1, 1}, KernelArgs().add(out).add(int(state.range(0))));
    rt.synchronize();
  }
  report(state, target);
}
BENCHMARK(BM_AluLoop)->Arg(256)->Unit(benchmark::kMillisecond);

void BM_Triad(benchmark::State& state) {
  FunctionalTarget target;
  Runtime rt(&target);
  auto m = rt.load_module(kernel_ptx("bench_mem"), "bench_mem.ptx");
  auto k = rt.get_kernel(m, "triad");
  const int n = int(state.range(0));
  DevPtr a = rt.malloc(uint64_t(n) * 4), b = rt.malloc(uint64_t(n) * 4), c = rt.malloc(uint64_t(n) * 4);
  std::vector<float> init(size_t(n), 1.0f);
  rt.memcpy_h2d(a, init.data(), uint64_t(n) * 4);
  rt.memcpy_h2d(b, init.data(), uint64_t(n) * 4);
  // range(1): CTAs; n / 256 gives one element per thread, fewer CTAs make each thread loop
  // over the array with a grid-sized stride.
  const uint32_t ctas = uint32_t(state.range(1));
  for (auto _ : state) {
    rt.launch(k, Dim3{ctas, 1, 1}, Dim3{256, 1, 1}, KernelArgs().add(a).add(b).add(c).add(2.0f).add(n));
    rt.synchronize();
  }
  report(state, target);
}
BENCHMARK(BM_Triad)->Args({1 << 20, 4096})->Args({1 << 20, 64})->Unit(benchmark::kMillisecond);

void BM_Matmul(benchmark::State& state) {
  FunctionalTarget target;
  Runtime rt(&target);
  auto m = rt.load_module(kernel_ptx("matmul"), "matmul.ptx");
  auto k = rt.get_kernel(m, "matmul");
  const int n = int(state.range(0));
  std::vector<float> init(size_t(n) * n, 0.5f);
  DevPtr A = rt.malloc(uint64_t(n) * n * 4), B = rt.malloc(uint64_t(n) * n * 4), C = rt.malloc(uint64_t(n) * n * 4);
  rt.memcpy_h2d(A, init.data(), uint64_t(n) * n * 4);
  rt.memcpy_h2d(B, init.data(), uint64_t(n) * n * 4);
  for (auto _ : state) {
    rt.launch(k, Dim3{uint32_t(n / 16), uint32_t(n / 16), 1}, Dim3{16, 16, 1},
              KernelArgs().add(A).add(B).add(C).add(n).add(n).add(n));
    rt.synchronize();
  }
  report(state, target);
}
BENCHMARK(BM_Matmul)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

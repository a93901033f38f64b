// Simulation speed of the timing model on the gtx480 preset: simulated warp instructions and
// simulated cycles per host second, single-threaded. Kernels come from suite/synthetic.
//   ./build/warpsim_bench --benchmark_filter=Timing
#include <benchmark/benchmark.h>

#include "config/config_loader.h"
#include "synth/kernel_text.h"
#include "timing/gpu.h"

namespace {

void run_kernel(benchmark::State& state, const char* kernel, const char* sched) {
  warpsim::GpuConfig cfg = warpsim::load_preset("gtx480");
  auto k = warpsim::synth::load_synthetic_kernel(kernel);
  uint64_t insts = 0, cycles = 0;
  for (auto _ : state) {
    warpsim::Gpu gpu(cfg, sched);
    gpu.enqueue(k.source(), 0);
    gpu.run_until_idle();
    auto s = gpu.snapshot();
    insts += s.core.warp_insts;
    cycles += s.cycle;
  }
  state.counters["warp_insts_per_s"] = benchmark::Counter(double(insts), benchmark::Counter::kIsRate);
  state.counters["cycles_per_s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
  state.counters["warp_insts"] = double(insts) / double(state.iterations());
}

}  // namespace

BENCHMARK_CAPTURE(run_kernel, Timing_compute_alu_indep_gto, "alu_indep", "gto")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_kernel, Timing_compute_tl_friendly_gto, "tl_friendly", "gto")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_kernel, Timing_memory_stream_gto, "stream", "gto")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_kernel, Timing_memory_lrr_friendly_gto, "lrr_friendly", "gto")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_kernel, Timing_cache_thrash_gto_lrr, "thrash_gto", "lrr")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_kernel, Timing_compute_alu_indep_rlws, "alu_indep", "rlws")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_kernel, Timing_memory_stream_rlws, "stream", "rlws")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

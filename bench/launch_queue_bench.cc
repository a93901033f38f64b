// Host cost of a kernel launch queue on the gtx480 preset: N launches of a one-warp kernel are
// queued before the GPU runs, then run to completion. The time per launch should not grow with
// N (a queued launch costs the same whether it is the 10th or the 10,000th).
//   ./build/bench_launch_queue_bench --benchmark_filter=LaunchQueue
#include <benchmark/benchmark.h>

#include "config/config_loader.h"
#include "synth/synthetic_kernel.h"
#include "timing/gpu.h"

namespace {

// One CTA of one warp: a short chain of dependent SP operations.
warpsim::synth::SyntheticKernel one_warp_kernel() {
  warpsim::synth::KernelBuilder b("one_warp");
  b.grid({1, 1, 1}).block({32, 1, 1});
  b.alu(warpsim::Unit::SP, 8, /*dependent=*/true);
  return b.build();
}

// state.range(0) launches, spread round robin over state.range(1) streams.
void queued_launches(benchmark::State& state) {
  const warpsim::GpuConfig cfg = warpsim::load_preset("gtx480");
  const auto k = one_warp_kernel();
  const auto launches = uint32_t(state.range(0));
  const auto streams = uint32_t(state.range(1));
  uint64_t cycles = 0;
  for (auto _ : state) {
    warpsim::Gpu gpu(cfg, "gto");
    for (uint32_t i = 0; i < launches; ++i) gpu.enqueue(k.source(), i % streams);
    gpu.run_until_idle();
    cycles += gpu.now();
  }
  state.counters["launches"] = double(launches);
  state.counters["host_s_per_launch"] =
      benchmark::Counter(double(launches), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["cycles_per_launch"] = double(cycles) / double(state.iterations()) / double(launches);
}

}  // namespace

BENCHMARK(queued_launches)
    ->Name("LaunchQueue/one_stream")
    ->ArgNames({"launches", "streams"})
    ->Args({100, 1})
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(queued_launches)
    ->Name("LaunchQueue/four_streams")
    ->ArgNames({"launches", "streams"})
    ->Args({100, 4})
    ->Args({1000, 4})
    ->Args({10000, 4})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

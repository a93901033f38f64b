// Speed of the Accel-Sim trace front end: indexing a kernel trace and reading its CTAs
// (warp instructions per second), and recording streams with the trace writer.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <random>

#include "config/config_loader.h"
#include "timing/gpu.h"
#include "trace/trace_kernel.h"
#include "trace/trace_workload.h"
#include "trace/trace_writer.h"

namespace warpsim {
namespace {

constexpr uint32_t kCtas = 64, kWarps = 8, kInstsPerWarp = 600;

// A Volta-like instruction mix: 1 in 5 instructions accesses memory (most unit-stride, some
// scattered), the rest are FMA/integer/SFU operations.
std::vector<CtaStreams> make_ctas(KernelInfo& info) {
  info.name = "bench_kernel";
  info.grid = Dim3{kCtas, 1, 1};
  info.block = Dim3{kWarps * 32, 1, 1};
  info.inst_bytes = 16;
  std::mt19937_64 rng(7);
  std::vector<CtaStreams> ctas(kCtas);
  for (uint32_t c = 0; c < kCtas; ++c) {
    ctas[c].cta_id = c;
    ctas[c].warps.resize(kWarps);
    for (uint32_t w = 0; w < kWarps; ++w) {
      WarpStream& ws = ctas[c].warps[w];
      for (uint32_t i = 0; i < kInstsPerWarp; ++i) {
        WarpInst in;
        in.pc = i * 16;
        in.active_mask = 0xffffffffu;
        in.dst[0] = RegId(rng() % 64);
        in.src[0] = RegId(rng() % 64);
        in.src[1] = RegId(rng() % 64);
        const uint64_t kind = rng() % 10;
        if (i + 1 == kInstsPerWarp) {
          in.op = OpClass::EXIT;
          in.unit = Unit::BRANCH;
        } else if (kind < 2) {
          in.op = kind == 0 ? OpClass::LOAD : OpClass::STORE;
          in.unit = Unit::MEM;
          in.space = MemSpace::Global;
          in.width = 4;
          in.addr_index = uint32_t(ws.addrs.size());
          const uint64_t base = 0x7f0000000000ull + (uint64_t(c) * kWarps + w) * 4096 + i * 128;
          const bool scattered = rng() % 4 == 0;
          for (int l = 0; l < 32; ++l) ws.addrs.push_back(scattered ? base + (rng() % 1024) * 4 : base + 4 * l);
        } else {
          in.unit = kind < 6 ? Unit::SP : kind < 9 ? Unit::INT : Unit::SFU;
          in.latency_class = kind < 4 ? kLatMul : kind == 9 ? kLatTrans : kLatDefault;
        }
        ws.insts.push_back(in);
      }
    }
  }
  return ctas;
}

struct BenchTrace {
  std::string dir;
  KernelInfo info;
  std::vector<CtaStreams> ctas;
  BenchTrace() {
    dir = (std::filesystem::temp_directory_path() / ("warpsim_trace_bench_" + std::to_string(::getpid()))).string();
    ctas = make_ctas(info);
    write_trace(dir, info, ctas);
  }
  ~BenchTrace() { std::filesystem::remove_all(dir); }
};

BenchTrace& bench_trace() {
  static BenchTrace t;
  return t;
}

void BM_TraceIndex(benchmark::State& state) {
  const std::string path = bench_trace().dir + "/kernel-1.traceg";
  for (auto _ : state) {
    TraceKernel k(path);
    benchmark::DoNotOptimize(k.ctas_in_file());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(std::filesystem::file_size(path)));
}
BENCHMARK(BM_TraceIndex)->Unit(benchmark::kMillisecond);

void BM_TraceReadCtas(benchmark::State& state) {
  const std::string path = bench_trace().dir + "/kernel-1.traceg";
  TraceKernel k(path);
  CtaStreams cta;
  uint64_t insts = 0;
  for (auto _ : state) {
    for (uint32_t c = 0; c < kCtas; ++c) {
      k.produce_cta(c, 0, cta);
      for (const WarpStream& ws : cta.warps) insts += ws.insts.size();
    }
  }
  state.SetItemsProcessed(int64_t(insts));  // warp instructions per second
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(std::filesystem::file_size(path)));
}
BENCHMARK(BM_TraceReadCtas)->Unit(benchmark::kMillisecond);

void BM_TraceWrite(benchmark::State& state) {
  BenchTrace& t = bench_trace();
  const std::string dir = t.dir + "/write";
  uint64_t insts = 0;
  for (auto _ : state) {
    write_trace(dir, t.info, t.ctas);
    insts += uint64_t(kCtas) * kWarps * kInstsPerWarp;
  }
  state.SetItemsProcessed(int64_t(insts));
}
BENCHMARK(BM_TraceWrite)->Unit(benchmark::kMillisecond);

// Trace mode end to end: the kernel read from its trace and simulated on the GTX480 preset
// (warp instructions simulated per second of host time).
void BM_TraceSimulateGtx480(benchmark::State& state) {
  const GpuConfig cfg = load_preset("gtx480");
  uint64_t insts = 0;
  for (auto _ : state) {
    TraceWorkload wl(bench_trace().dir);
    Gpu gpu(cfg, "gto");
    wl.enqueue_all(gpu);
    gpu.run_until_idle();
    insts += gpu.results().at(0).warp_insts;
    state.counters["cycles"] = double(gpu.now());
  }
  state.SetItemsProcessed(int64_t(insts));
}
BENCHMARK(BM_TraceSimulateGtx480)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace warpsim

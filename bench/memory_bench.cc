// Speed of the memory hierarchy model: simulated cycles and requests per second for a
// bandwidth-bound stream (every cycle busy) and a latency-bound trickle (mostly idle cycles
// skipped with next_event()), plus raw cache lookups.
#include <benchmark/benchmark.h>

#include <vector>

#include "memory/cache.h"
#include "memory/memory_system.h"

namespace warpsim {
namespace {

// Sends `lines` sequential line reads (one in four a write) as fast as can_send allows.
// Returns simulated cycles.
uint64_t stream(MemorySystem& m, int nsm, uint64_t lines, uint64_t gap, bool skip) {
  std::vector<uint64_t> next(nsm, 0);
  const uint64_t per_sm = lines / nsm;
  uint64_t now = 0, done = 0, sent = 0, next_send = 0;
  MemRequest out;
  while (done < per_sm * nsm) {
    m.tick(now);
    for (int sm = 0; sm < nsm; ++sm)
      while (m.pop_response(sm, now, out)) ++done;
    bool waiting = false;
    if (now >= next_send) {
      for (int sm = 0; sm < nsm; ++sm) {
        if (next[sm] >= per_sm) continue;
        if (!m.can_send(sm, now)) {
          waiting = true;
          continue;
        }
        MemRequest r;
        r.addr = (next[sm] * nsm + uint64_t(sm)) * 128;
        r.sectors = 0xf;
        r.bytes = 128;
        r.sm = uint16_t(sm);
        r.issue_cycle = now;
        r.kind = (next[sm] % 4 == 3) ? MemKind::Write : MemKind::Read;
        m.send(r, now);
        ++next[sm];
        ++sent;
      }
      next_send = now + gap;
    }
    uint64_t step = now + 1;
    if (skip && !waiting) {
      uint64_t t = m.next_event(now);
      if (sent < per_sm * nsm) t = std::min(t, std::max(next_send, now + 1));
      if (t != UINT64_MAX) step = t;
    }
    now = step;
  }
  return now;
}

void BM_StreamBandwidthBound(benchmark::State& state) {
  GpuConfig c;
  uint64_t cycles = 0, lines = 30000;
  for (auto _ : state) {
    MemorySystem m(c);
    cycles += stream(m, int(c.core.num_sms), lines, 1, true);
  }
  state.counters["sim_cycles/s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
  state.counters["requests/s"] = benchmark::Counter(double(lines * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_StreamBandwidthBound)->Unit(benchmark::kMillisecond);

void BM_TrickleLatencyBound(benchmark::State& state) {
  GpuConfig c;
  const bool skip = state.range(0) != 0;
  uint64_t cycles = 0, lines = 3000;
  for (auto _ : state) {
    MemorySystem m(c);
    cycles += stream(m, int(c.core.num_sms), lines, 400, skip);
  }
  state.counters["sim_cycles/s"] = benchmark::Counter(double(cycles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrickleLatencyBound)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_CacheReadHit(benchmark::State& state) {
  CacheConfig cfg;
  cfg.size = 64 * 1024;
  cfg.assoc = 8;
  cfg.sector = 32;
  Cache c(cfg);
  for (uint64_t a = 0; a < 32 * 1024; a += 128) c.fill(c.read(a, 0xf, 0, 0).mshr, 0);
  uint64_t a = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.read(a, 0x1, 0, 0));
    a = (a + 128) & (32 * 1024 - 1);
  }
}
BENCHMARK(BM_CacheReadHit);

}  // namespace
}  // namespace warpsim

// Checks that the memory system does not touch the heap per cycle once its queues have grown
// to their working size. Replaces the global allocation functions of this test program to
// count calls made while `g_counting` is set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "memory/memory_system.h"

// The replacements below pair malloc with free, which GCC cannot see through when it inlines
// them next to a new-expression.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
bool g_counting = false;
size_t g_allocs = 0;
}  // namespace

void* operator new(size_t n) {
  if (g_counting) ++g_allocs;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace warpsim {
namespace {

// Streams `lines` reads (and every fourth line also a write) from all SMs; counts allocations
// inside the memory system's calls only.
size_t run_phase(MemorySystem& m, uint64_t& now, uint64_t base, uint64_t lines, int nsm) {
  std::vector<uint64_t> next(nsm, 0);
  uint64_t done = 0, per_sm = lines / nsm;
  size_t allocs = 0;
  MemRequest out;
  while (done < per_sm * nsm) {
    g_allocs = 0;
    g_counting = true;
    m.tick(now);
    for (int sm = 0; sm < nsm; ++sm)
      while (m.pop_response(sm, now, out)) ++done;
    for (int sm = 0; sm < nsm; ++sm) {
      if (next[sm] < per_sm && m.can_send(sm, now)) {
        MemRequest r;
        r.addr = base + (next[sm] * nsm + uint64_t(sm)) * 128;
        r.sectors = 0xf;
        r.bytes = 128;
        r.sm = uint16_t(sm);
        r.issue_cycle = now;
        r.kind = (next[sm] % 4 == 3) ? MemKind::Write : MemKind::Read;
        m.send(r, now);
        ++next[sm];
      }
    }
    m.next_event(now);
    g_counting = false;
    allocs += g_allocs;
    ++now;
  }
  return allocs;
}

TEST(MemorySystemSteadyState, NoHeapAllocationPerCycle) {
  GpuConfig c;
  MemorySystem m(c);
  uint64_t now = 0;
  const int nsm = int(c.core.num_sms);
  run_phase(m, now, 0, 6000, nsm);  // warm-up: queues reach their working size
  EXPECT_EQ(run_phase(m, now, 64ull << 20, 6000, nsm), 0u);
}

}  // namespace
}  // namespace warpsim

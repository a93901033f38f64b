// The unified L1/shared SRAM (core.unified_l1_shared): each kernel's L1D is what the smallest
// shared-memory carve-out holding its resident CTAs' shared memory leaves.
#include "core/l1_carveout.h"

#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "core/error.h"
#include "memory/cache.h"
#include "synth/kernel_text.h"
#include "timing/gpu.h"

namespace warpsim {
namespace {

TEST(L1Carveout, WaysFollowTheSmallestCarveoutThatHoldsTheSharedMemory) {
  GpuConfig cfg = load_preset("titanv");  // 128 KB unified; carve-outs 0,8,16,32,64,96 KB; 4 sets
  ASSERT_TRUE(l1_carveout_enabled(cfg));
  EXPECT_EQ(l1d_max_ways(cfg), 256u);
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 0, 8), 256u);         // no shared memory: 128 KB of L1
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 4096, 2), 240u);      // 8 KB
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 6000, 2), 224u);      // 12000 B: 16 KB
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 10000, 2), 192u);     // 20000 B: 32 KB
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 40 * 1024, 2), 64u);  // 80 KB -> 96 KB carve-out, 32 KB L1
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 48 * 1024, 4), 64u);  // more than the largest: the largest
  const CacheConfig storage = l1d_storage(cfg);
  EXPECT_EQ(storage.size, 128u * 1024);
  EXPECT_EQ(storage.assoc, 256u);
  cfg.core.unified_l1_shared = 0;  // a fixed L1D
  EXPECT_FALSE(l1_carveout_enabled(cfg));
  EXPECT_EQ(l1d_ways_for_kernel(cfg, 40 * 1024, 2), cfg.l1d.assoc);
  EXPECT_EQ(l1d_storage(cfg).size, cfg.l1d.size);
}

TEST(L1Carveout, BadConfigurationsAreRejected) {
  GpuConfig cfg = load_preset("titanv");
  cfg.core.shared_carveouts = "0,8,x";
  EXPECT_THROW(validate(cfg), Error);
  cfg.core.shared_carveouts = "0,128";  // the carve-out would take the whole SRAM
  EXPECT_THROW(validate(cfg), Error);
  cfg.core.shared_carveouts = "0,96";
  cfg.core.unified_l1_shared = 100000;  // not whole ways of 4 x 128 B
  EXPECT_THROW(validate(cfg), Error);
}

TEST(L1Carveout, FewerActiveWaysHoldFewerLinesAndWriteBackDirtyOnes) {
  CacheConfig c;
  c.enabled = true;
  c.size = 8 * 128;  // one set of 8 ways
  c.line = c.sector = 128;
  c.assoc = 8;
  c.write_policy = "write_back";
  c.write_allocate = "allocate";
  c.mshr_entries = 16;
  c.mshr_merge = 4;
  Cache cache(c);
  for (uint64_t i = 0; i < 8; ++i) cache.write(i * 128, 1, i);  // eight dirty lines
  for (uint64_t i = 0; i < 8; ++i) EXPECT_TRUE(cache.probe(i * 128, 1));
  cache.set_active_ways(2);
  EXPECT_EQ(cache.ways(), 2u);
  EXPECT_EQ(cache.evictions().size(), 6u);
  int present = 0;
  for (uint64_t i = 0; i < 8; ++i) present += cache.probe(i * 128, 1);
  EXPECT_EQ(present, 2);
  cache.set_active_ways(8);  // growing back brings nothing back
  present = 0;
  for (uint64_t i = 0; i < 8; ++i) present += cache.probe(i * 128, 1);
  EXPECT_EQ(present, 2);
  EXPECT_THROW(cache.set_active_ways(9), Error);
  EXPECT_THROW(cache.set_active_ways(0), Error);
}

// A kernel that re-reads 64 KB per SM: it fits the L1D when the kernel uses no shared memory
// (128 KB of L1), not when its CTAs take the largest carve-out (32 KB of L1).
uint64_t l1_misses(uint32_t shared_bytes, uint32_t unified) {
  GpuConfig cfg = load_preset("titanv");
  cfg.core.unified_l1_shared = unified;
  Gpu gpu(cfg, "gto");
  const std::string text = "kernel reuse grid=" + std::to_string(cfg.core.num_sms) +
                           " block=256 regs=16 shared=" + std::to_string(shared_bytes) +
                           "\nloop 256\n  ld.global pattern=percta footprint=64K width=4 step=1K use\nend\nexit\n";
  gpu.enqueue(synth::parse_kernel(text).source(), 0);
  gpu.run_until_idle();
  return gpu.snapshot().core.l1d_misses;
}

TEST(L1Carveout, TheKernelsSharedMemoryDecidesWhatFitsTheL1) {
  const uint64_t roomy = l1_misses(0, 128 * 1024), cramped = l1_misses(90 * 1024, 128 * 1024);
  EXPECT_GT(cramped, 2 * roomy) << "no shared memory: " << roomy << " misses; 90 KB of it: " << cramped;
  // Without the unified SRAM the L1D is l1d.size (32 KB) whatever the kernel's shared memory.
  EXPECT_EQ(l1_misses(0, 0), l1_misses(90 * 1024, 0));
  EXPECT_GT(l1_misses(0, 0), 2 * roomy);
}

}  // namespace
}  // namespace warpsim

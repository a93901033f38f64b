// Packed CTA streams (timing/packed_cta.h, timing/lane_address_codec.h): packing gives back
// exactly the instructions and addresses the front end produced, in a fraction of the memory,
// and a run whose resident streams exceed stream_memory_limit_mb stops with an error.
#include "timing/packed_cta.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <string>

#include "config/config_loader.h"
#include "core/error.h"
#include "synth/synthetic_kernel.h"
#include "timing/gpu.h"
#include "timing/lane_address_codec.h"

namespace warpsim {
namespace {

using synth::AccessPattern;
using synth::KernelBuilder;

// Encodes `addrs` under `mask`, checks that decoding gives them back, and returns the words used.
size_t round_trip(const std::array<uint64_t, 32>& addrs, uint32_t mask) {
  std::vector<uint32_t> words = {0xdeadbeef};  // a record appends after what is there
  lane_addresses::encode(addrs.data(), mask, words);
  std::array<uint64_t, 32> back;
  back.fill(0x5555);
  const uint32_t* end = lane_addresses::decode(words.data() + 1, mask, back.data());
  EXPECT_EQ(end, words.data() + words.size()) << "the record's end";
  for (int l = 0; l < 32; ++l) EXPECT_EQ(back[l], addrs[l]) << "lane " << l << " mask " << std::hex << mask;
  return words.size() - 1;
}

// The addresses of `mask`'s lanes from f(lane), the others 0.
template <class F>
std::array<uint64_t, 32> lanes(uint32_t mask, F f) {
  std::array<uint64_t, 32> a{};
  for (int l = 0; l < 32; ++l)
    if (mask >> l & 1) a[l] = f(l);
  return a;
}

TEST(LaneAddressCodec, StridedAndBroadcastAccessesTakeFourWords) {
  for (uint32_t mask : {0xffffffffu, 0x0000ffffu, 0x80000001u, 0x00000100u, 0x0f0f0f0fu}) {
    EXPECT_EQ(round_trip(lanes(mask, [](int l) { return 0x7f0000001000ull + 4 * l; }), mask), 4u);
    EXPECT_EQ(round_trip(lanes(mask, [](int) { return 0x1234ull; }), mask), 4u);                      // broadcast
    EXPECT_EQ(round_trip(lanes(mask, [](int l) { return 0x100000ull - 16 * l; }), mask), 4u);         // descending
    EXPECT_EQ(round_trip(lanes(mask, [](int l) { return 0x40ull + 0x7fff0000ull * l; }), mask), 4u);  // large stride
  }
  EXPECT_EQ(round_trip({}, 0), 4u);  // no lane active
}

TEST(LaneAddressCodec, NearbyScatteredFarAndDirtyInactiveLanes) {
  std::mt19937_64 rng(3);
  const uint32_t mask = 0xfffffff0u;  // 28 lanes
  const uint64_t base = 0x7f2b2d500000ull;
  // Scattered within 2 GB of the first active lane: a base and a 32-bit offset per lane.
  auto near = lanes(mask, [&](int) { return base + (rng() % (1u << 30)) - (1u << 29); });
  EXPECT_EQ(round_trip(near, mask), 3u + 28);
  // Farther apart than 32 bits: each active lane's 64-bit address.
  auto far = lanes(mask, [&](int l) { return l % 2 ? base : base + (uint64_t(5) << 40); });
  EXPECT_EQ(round_trip(far, mask), 1u + 2 * 28);
  // A stride that does not fit 32 bits is not a stride record.
  auto wide = lanes(mask, [&](int l) { return uint64_t(l) << 33; });
  EXPECT_EQ(round_trip(wide, mask), 1u + 2 * 28);
  // An inactive lane that is not 0 is kept as it is: all 32 lanes.
  auto dirty = lanes(mask, [&](int l) { return base + 4 * l; });
  dirty[1] = 0x99;
  EXPECT_EQ(round_trip(dirty, mask), 1u + 64);
  // Addresses near the top of the 64-bit space wrap as the decoder computes them.
  auto top = lanes(0xffffffffu, [](int l) { return ~uint64_t(0) - 8 * uint64_t(31 - l); });
  EXPECT_EQ(round_trip(top, 0xffffffffu), 4u);
}

TEST(LaneAddressCodec, RandomAddressesRoundTrip) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t mask = uint32_t(rng());
    const uint64_t base = rng() >> (rng() % 64);
    const int shape = int(rng() % 3);
    auto a = lanes(mask, [&](int l) {
      if (shape == 0) return base + uint64_t(int64_t(rng() % 64) - 32) * l;  // near a stride
      if (shape == 1) return base + (rng() >> (rng() % 64));                 // anything
      return base;
    });
    round_trip(a, mask);
  }
}

// A CTA from the synthetic front end: loops, divergence-free loads and stores of several
// patterns, shared memory with bank conflicts, barriers.
CtaStreams sample_cta(uint32_t iterations) {
  KernelBuilder b("packed");
  b.grid({2, 1, 1}).block({96, 1, 1}).shared_bytes(4096);
  b.loop(iterations, [&](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::per_cta(64 * 1024), 4, 2, /*use=*/true);
    l.load(MemSpace::Global, AccessPattern::random(1 << 22, 5), 4, 1);
    l.alu(Unit::SP, 6, /*dependent=*/true);
    l.load(MemSpace::Shared, AccessPattern::bank_conflict(2), 4, 1, true);
    l.barrier();
    l.store(MemSpace::Global, AccessPattern::strided(4), 4, 1, true);
  });
  CtaStreams out;
  b.build().generate_cta(1, out);
  return out;
}

void expect_same_stream(const WarpStream& a, const WarpStream& b) {
  ASSERT_EQ(a.insts.size(), b.insts.size());
  for (size_t i = 0; i < a.insts.size(); ++i) {
    WarpInst x = a.insts[i], y = b.insts[i];
    ASSERT_EQ(x.addr_index == kNoAddr, y.addr_index == kNoAddr) << "instruction " << i;
    if (x.addr_index != kNoAddr) {
      for (uint32_t l = 0; l < 32; ++l) {
        ASSERT_EQ(a.addrs[x.addr_index + l], b.addrs[y.addr_index + l]) << "instruction " << i << " lane " << l;
      }
    }
    x.addr_index = y.addr_index = 0;
    ASSERT_EQ(std::memcmp(&x, &y, sizeof x), 0) << "instruction " << i;
  }
}

TEST(PackedCta, UnpacksToTheSameStreamsInAFractionOfTheMemory) {
  const CtaStreams cta = sample_cta(50);
  ASSERT_EQ(cta.warps.size(), 3u);
  CtaPacker packer;
  PackedCta packed;
  packer.pack(cta, packed);
  EXPECT_EQ(packed.cta_id, cta.cta_id);
  ASSERT_EQ(packed.warps.size(), cta.warps.size());
  uint64_t raw = 0;
  size_t insts = 0;
  for (uint32_t w = 0; w < cta.warps.size(); ++w) {
    SCOPED_TRACE(w);
    expect_same_stream(packed.unpack(w), cta.warps[w]);
    raw += cta.warps[w].insts.size() * sizeof(WarpInst) + cta.warps[w].addrs.size() * sizeof(uint64_t);
    insts += cta.warps[w].insts.size();
  }
  // A loop's instructions repeat: the table holds each static instruction once per mask.
  EXPECT_LT(packed.table.size() * 10, insts);
  EXPECT_LT(packed.bytes() * 4, raw) << packed.bytes() << " of " << raw;
  // The packer's lookup starts afresh for each CTA: packing again gives the same result.
  PackedCta again;
  packer.pack(sample_cta(3), again);
  packer.pack(cta, again);
  EXPECT_EQ(again.table.size(), packed.table.size());
  for (uint32_t w = 0; w < cta.warps.size(); ++w) EXPECT_EQ(again.warps[w].codes, packed.warps[w].codes);
}

TEST(PackedCta, AddressesOutsideTheWarpsPoolAreReported) {
  CtaStreams cta = sample_cta(1);
  WarpStream& ws = cta.warps[1];
  size_t i = 0;
  while (ws.insts[i].addr_index == kNoAddr) ++i;
  ws.insts[i].addr_index = uint32_t(ws.addrs.size()) - 16;
  CtaPacker packer;
  PackedCta packed;
  try {
    packer.pack(cta, packed);
    FAIL() << "packed addresses outside the pool";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("warp 1"), std::string::npos) << e.what();
  }
}

GpuConfig small_gpu() {
  GpuConfig cfg = load_preset("gtx480");
  cfg.core.num_sms = 2;
  cfg.l2.partitions = 2;
  return cfg;
}

synth::SyntheticKernel long_kernel() {
  KernelBuilder b("long_ctas");
  b.grid({8, 1, 1}).block({256, 1, 1});
  b.loop(200, [&](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::random(1 << 22, 9), 4, 1);
    l.alu(Unit::SP, 4);
  });
  return b.build();
}

TEST(StreamMemoryLimit, ARunOverTheLimitStopsWithAnErrorNamingTheKernelAndTheKey) {
  GpuConfig cfg = small_gpu();
  cfg.stream_memory_limit_mb = 1;  // the 8 CTAs (up to 8 resident per SM) need several MB
  Gpu g(cfg, "gto");
  g.enqueue(long_kernel().source(), 0);
  try {
    g.run_until_idle();
    FAIL() << "ran past the stream memory limit";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("kernel 'long_ctas'"), std::string::npos) << m;
    EXPECT_NE(m.find("--set stream_memory_limit_mb="), std::string::npos) << m;
    EXPECT_NE(m.find("over stream_memory_limit_mb = 1"), std::string::npos) << m;
  }
}

TEST(StreamMemoryLimit, ARunWithinTheLimitOrWithoutOneIsUnchanged) {
  GpuConfig cfg = small_gpu();
  cfg.stream_memory_limit_mb = 64;
  Gpu a(cfg, "gto");
  a.enqueue(long_kernel().source(), 0);
  a.run_until_idle();
  cfg.stream_memory_limit_mb = 0;
  Gpu b(cfg, "gto");
  b.enqueue(long_kernel().source(), 0);
  b.run_until_idle();
  ASSERT_EQ(a.results().size(), 1u);
  EXPECT_EQ(a.now(), b.now());
  EXPECT_EQ(a.results()[0].warp_insts, b.results()[0].warp_insts);
  EXPECT_GT(a.results()[0].warp_insts, 8u * 8 * 200 * 5);
}

}  // namespace
}  // namespace warpsim

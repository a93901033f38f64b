// Line layouts of tracer versions 2 to 5, the three address compression modes, generic
// address resolution and on-demand CTA reading.
#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "trace/trace_workload.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

using trace_test::data_dir;

std::unique_ptr<TraceKernel> open_single(const std::string& dir) {
  TraceWorkload wl(data_dir() + "/" + dir);
  EXPECT_EQ(wl.num_kernels(), 1u);
  return wl.open_kernel(0);
}

TEST(AddressModes, ListStrideAndDeltas) {
  auto k = open_single("modes");
  EXPECT_EQ(k->info().num_ctas(), 2u);
  EXPECT_EQ(k->ctas_in_file(), 1u);
  EXPECT_EQ(k->info().shared_bytes_per_cta, 256u);
  EXPECT_EQ(k->info().inst_bytes, 16u);
  CtaStreams cta;
  k->produce_cta(1, 0, cta);
  EXPECT_EQ(cta.cta_id, 1u);
  ASSERT_EQ(cta.warps.size(), 2u);
  const WarpStream& ws = cta.warps[0];
  ASSERT_EQ(ws.insts.size(), 4u);
  ASSERT_EQ(ws.addrs.size(), 3u * 32);

  // Mode 0: lanes 0, 2, 3 listed.
  const WarpInst& list = ws.insts[0];
  EXPECT_EQ(list.width, 8u);
  uint64_t want0[32] = {};
  want0[0] = 0x1000;
  want0[2] = 0x2008;
  want0[3] = 0xff0;
  for (int l = 0; l < 32; ++l) EXPECT_EQ(ws.addrs[list.addr_index + l], want0[l]) << "lane " << l;

  // Mode 1: lanes 28..31 from 0x7f0000400100 down by 4. A global store in the shared window
  // keeps its address.
  const WarpInst& stride = ws.insts[1];
  EXPECT_EQ(stride.op, OpClass::STORE);
  EXPECT_EQ(stride.space, MemSpace::Global);
  for (int l = 0; l < 32; ++l)
    EXPECT_EQ(ws.addrs[stride.addr_index + l], l >= 28 ? 0x7f0000400100ull - 4 * (l - 28) : 0u) << "lane " << l;

  // Mode 2: lanes 0, 1, 31: base, +16, -32.
  const WarpInst& delta = ws.insts[2];
  for (int l = 0; l < 32; ++l) {
    uint64_t want = l == 0 ? 0x1000 : l == 1 ? 0x1010 : l == 31 ? 0xff0 : 0;
    EXPECT_EQ(ws.addrs[delta.addr_index + l], want) << "lane " << l;
  }
  EXPECT_EQ(ws.insts[3].op, OpClass::EXIT);
  EXPECT_EQ(ws.insts[3].addr_index, kNoAddr);

  // IMAD.MOV is a move (the longer table key wins over IMAD).
  const WarpStream& w1 = cta.warps[1];
  ASSERT_EQ(w1.insts.size(), 2u);
  EXPECT_EQ(w1.insts[0].unit, Unit::INT);
  EXPECT_EQ(w1.insts[0].latency_class, kLatDefault);
  EXPECT_EQ(w1.insts[0].src[0], 0);  // R255 dropped, R0 kept
  EXPECT_EQ(w1.insts[0].src[1], kNoReg);
}

TEST(AddressModes, CtaMissingFromTheFileOnlyExits) {
  auto k = open_single("modes");
  CtaStreams cta;
  k->produce_cta(0, 0, cta);
  ASSERT_EQ(cta.warps.size(), 2u);
  for (const WarpStream& ws : cta.warps) {
    ASSERT_EQ(ws.insts.size(), 1u);
    EXPECT_EQ(ws.insts[0].op, OpClass::EXIT);
    EXPECT_EQ(ws.insts[0].active_mask, 0u);
  }
}

TEST(AddressModes, CtasReadInAnyOrderAndAgain) {
  auto k = open_single("modes");
  CtaStreams a, b, c;
  k->produce_cta(1, 0, a);
  k->produce_cta(0, 0, b);
  k->produce_cta(1, 3, c);  // back to an earlier position of the file
  ASSERT_EQ(a.warps.size(), c.warps.size());
  for (size_t w = 0; w < a.warps.size(); ++w) {
    ASSERT_EQ(a.warps[w].insts.size(), c.warps[w].insts.size());
    for (size_t i = 0; i < a.warps[w].insts.size(); ++i)
      EXPECT_EQ(std::memcmp(&a.warps[w].insts[i], &c.warps[w].insts[i], sizeof(WarpInst)), 0);
    EXPECT_EQ(a.warps[w].addrs, c.warps[w].addrs);
  }
  EXPECT_THROW(k->produce_cta(2, 0, c), Error);
}

// Every version's layout of the same four instructions reads the same.
class TracerVersion : public ::testing::TestWithParam<std::pair<const char*, uint32_t>> {};

TEST_P(TracerVersion, SameInstructions) {
  auto k = open_single(GetParam().first);
  EXPECT_EQ(k->header().tracer_version, GetParam().second);
  CtaStreams cta;
  k->produce_cta(0, 0, cta);
  ASSERT_EQ(cta.warps.size(), 1u);
  const WarpStream& ws = cta.warps[0];
  ASSERT_EQ(ws.insts.size(), 4u);
  const uint32_t step = k->info().inst_bytes;
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(ws.insts[i].pc, i * step);
  EXPECT_EQ(ws.insts[0].dst[0], 2);
  EXPECT_EQ(ws.insts[0].op, OpClass::ALU);
  // LDS.U.128 with a 16-byte stride: shared offsets 0x100, 0x110, ...
  const WarpInst& lds = ws.insts[1];
  EXPECT_EQ(lds.op, OpClass::LOAD);
  EXPECT_EQ(lds.space, MemSpace::Shared);
  EXPECT_EQ(lds.width, 16u);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(ws.addrs[lds.addr_index + l], 0x100u + 16u * l);
  EXPECT_EQ(ws.insts[2].op, OpClass::BARRIER);
  EXPECT_EQ(ws.insts[2].active_mask, 0xffffu);
  EXPECT_EQ(ws.insts[2].flags, 0u);
  EXPECT_EQ(ws.insts[3].op, OpClass::EXIT);
}

INSTANTIATE_TEST_SUITE_P(Layouts, TracerVersion,
                         ::testing::Values(std::make_pair("v2", 2u), std::make_pair("v3", 3u),
                                           std::make_pair("v4_lineinfo", 4u), std::make_pair("v5", 5u)),
                         [](const auto& info) { return std::string(info.param.first); });

TEST(TracerVersion, LineinfoAndFamilies) {
  EXPECT_TRUE(open_single("v4_lineinfo")->header().lineinfo);
  EXPECT_EQ(open_single("v4_lineinfo")->opcode_table().family(), "ampere");
  EXPECT_EQ(open_single("v5")->opcode_table().family(), "turing");
  EXPECT_EQ(open_single("v3")->opcode_table().family(), "volta");
  EXPECT_EQ(open_single("v2")->opcode_table().family(), "pascal");
}

TEST(GenericAddresses, ResolvedByWindow) {
  auto k = open_single("generic");
  CtaStreams cta;
  k->produce_cta(0, 0, cta);
  const WarpStream& ws = cta.warps[0];
  ASSERT_EQ(ws.insts.size(), 5u);
  // LD in the shared window -> shared offsets.
  EXPECT_EQ(ws.insts[0].space, MemSpace::Shared);
  EXPECT_EQ(ws.addrs[ws.insts[0].addr_index + 0], 0x80u);
  EXPECT_EQ(ws.addrs[ws.insts[0].addr_index + 1], 0x84u);
  // ST in the local window -> local, offsets from the window base.
  EXPECT_EQ(ws.insts[1].space, MemSpace::Local);
  EXPECT_EQ(ws.insts[1].op, OpClass::STORE);
  EXPECT_EQ(ws.addrs[ws.insts[1].addr_index + 1], 0x14u);
  // Elsewhere -> global.
  EXPECT_EQ(ws.insts[2].space, MemSpace::Global);
  EXPECT_EQ(ws.addrs[ws.insts[2].addr_index + 1], 0x500004u);
  // Generic atomic on shared memory.
  EXPECT_EQ(ws.insts[3].op, OpClass::ATOMIC);
  EXPECT_EQ(ws.insts[3].space, MemSpace::Shared);
  EXPECT_EQ(ws.addrs[ws.insts[3].addr_index + 1], 0x44u);
  EXPECT_EQ(ws.insts[3].src[1], 7);
}

TEST(Registers, Names) {
  RegId r;
  ASSERT_TRUE(parse_sass_reg("R0", r));
  EXPECT_EQ(r, 0);
  ASSERT_TRUE(parse_sass_reg("R254", r));
  EXPECT_EQ(r, 254);
  ASSERT_TRUE(parse_sass_reg("R255", r));
  EXPECT_EQ(r, kNoReg);
  ASSERT_TRUE(parse_sass_reg("RZ", r));
  EXPECT_EQ(r, kNoReg);
  ASSERT_TRUE(parse_sass_reg("P3", r));
  EXPECT_EQ(r, 259);
  ASSERT_TRUE(parse_sass_reg("PT", r));
  EXPECT_EQ(r, kNoReg);
  ASSERT_TRUE(parse_sass_reg("UR5", r));
  EXPECT_EQ(r, 269);
  ASSERT_TRUE(parse_sass_reg("UP1", r));
  EXPECT_EQ(r, 329);
  ASSERT_TRUE(parse_sass_reg("V4000", r));
  EXPECT_EQ(r, 4000);
  EXPECT_FALSE(parse_sass_reg("R256", r));
  EXPECT_FALSE(parse_sass_reg("Q1", r));
  EXPECT_FALSE(parse_sass_reg("R", r));
  EXPECT_FALSE(parse_sass_reg("P8", r));
  for (RegId id : {RegId(0), RegId(17), RegId(255), RegId(256), RegId(262), RegId(263), RegId(264), RegId(330),
                   RegId(335), RegId(1000), RegId(65534)}) {
    ASSERT_TRUE(parse_sass_reg(sass_reg_name(id), r)) << sass_reg_name(id);
    EXPECT_EQ(r, id) << sass_reg_name(id);
  }
}

}  // namespace
}  // namespace warpsim

// Streams written with the trace writer read back field by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "trace/trace_workload.h"
#include "trace/trace_writer.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

using trace_test::read_file;
using trace_test::TempDir;

void expect_same(const CtaStreams& want, const CtaStreams& got) {
  ASSERT_EQ(want.cta_id, got.cta_id);
  ASSERT_EQ(want.warps.size(), got.warps.size());
  for (size_t w = 0; w < want.warps.size(); ++w) {
    const WarpStream& a = want.warps[w];
    const WarpStream& b = got.warps[w];
    ASSERT_EQ(a.insts.size(), b.insts.size()) << "cta " << want.cta_id << " warp " << w;
    for (size_t i = 0; i < a.insts.size(); ++i) {
      const WarpInst& x = a.insts[i];
      const WarpInst& y = b.insts[i];
      SCOPED_TRACE(::testing::Message() << "cta " << want.cta_id << " warp " << w << " inst " << i);
      EXPECT_EQ(x.pc, y.pc);
      EXPECT_EQ(x.active_mask, y.active_mask);
      for (int k = 0; k < kMaxDst; ++k) EXPECT_EQ(x.dst[k], y.dst[k]);
      for (int k = 0; k < kMaxSrc; ++k) EXPECT_EQ(x.src[k], y.src[k]);
      EXPECT_EQ(x.unit, y.unit);
      EXPECT_EQ(x.op, y.op);
      EXPECT_EQ(x.space, y.space);
      EXPECT_EQ(x.width, y.width);
      EXPECT_EQ(x.flags, y.flags);
      EXPECT_EQ(x.latency_class, y.latency_class);
      EXPECT_EQ(x.barrier_id, y.barrier_id);
      ASSERT_EQ(x.addr_index == kNoAddr, y.addr_index == kNoAddr);
      if (x.addr_index != kNoAddr) {
        for (int l = 0; l < 32; ++l) {
          EXPECT_EQ(a.addrs[x.addr_index + l], b.addrs[y.addr_index + l]) << "lane " << l;
        }
      }
    }
  }
}

// Seeded synthetic streams covering every unit, op class, space, latency class, flag and
// address pattern.
CtaStreams synth_cta(uint32_t cta_id, uint32_t warps, std::mt19937_64& rng) {
  CtaStreams c;
  c.cta_id = cta_id;
  c.warps.resize(warps);
  auto pick = [&](uint64_t n) { return uint64_t(rng() % n); };
  for (WarpStream& ws : c.warps) {
    const uint32_t n = 5 + uint32_t(pick(60));
    uint32_t pc = 0;
    for (uint32_t i = 0; i < n; ++i) {
      WarpInst in;
      in.pc = pc;
      pc += 8 * uint32_t(1 + pick(3));
      const uint64_t mk = pick(4);
      in.active_mask = mk == 0 ? 0xffffffffu : mk == 1 ? uint32_t(rng()) : mk == 2 ? 0x0000ff00u : 0u;
      const bool last = i + 1 == n;
      in.op = last ? OpClass::EXIT : OpClass(pick(uint64_t(OpClass::NOP) + 1));
      in.unit = Unit(pick(kNumUnits));
      in.latency_class = uint8_t(pick(kNumLatencyClasses));
      in.flags = uint8_t(pick(8));
      if (in.op == OpClass::BARRIER) in.barrier_id = uint8_t(pick(3));
      int nd = int(pick(kMaxDst + 1)), ns = int(pick(kMaxSrc + 1));
      for (int k = 0; k < nd; ++k) in.dst[k] = RegId(pick(2) ? pick(255) : pick(0xfffe));
      for (int k = 0; k < ns; ++k) in.src[k] = RegId(pick(2) ? pick(400) : pick(0xfffe));
      if (in.is_mem() || pick(10) == 0) {
        in.space = in.is_mem() ? MemSpace(1 + pick(6)) : MemSpace::None;
        in.width = uint8_t(1u << pick(5));
        if (pick(8) == 0) {
          in.addr_index = kNoAddr;  // e.g. a parameter load without addresses
        } else {
          in.addr_index = uint32_t(ws.addrs.size());
          ws.addrs.resize(ws.addrs.size() + 32, 0);
          const uint64_t pattern = pick(3);
          const uint64_t base = pick(2) ? 0x7f0000000000ull + pick(1 << 20) * 4 : pick(1 << 16) * 4;
          const int64_t stride = int64_t(pick(64)) - 16;
          int k = 0;
          for (int l = 0; l < 32; ++l) {
            if (!((in.active_mask >> l) & 1)) continue;
            uint64_t a = pattern == 0 ? base + uint64_t(stride * k) : pattern == 1 ? base + pick(256) * 4 : rng();
            ws.addrs[in.addr_index + l] = a;
            ++k;
          }
        }
      }
      ws.insts.push_back(in);
    }
  }
  return c;
}

TEST(TraceRoundTrip, SyntheticCtasFieldByField) {
  TempDir d;
  KernelInfo info;
  info.name = "synthetic_roundtrip";
  info.grid = Dim3{3, 2, 2};
  info.block = Dim3{16, 4, 1};  // 2 warps
  info.regs_per_thread = 40;
  info.shared_bytes_per_cta = 3072;
  info.local_bytes_per_thread = 24;
  info.inst_bytes = 8;
  std::mt19937_64 rng(12345);
  std::vector<CtaStreams> ctas;
  for (uint32_t c = 0; c < info.num_ctas(); ++c) ctas.push_back(synth_cta(c, info.warps_per_cta(), rng));
  std::vector<CtaStreams> shuffled = ctas;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  shuffled.erase(shuffled.begin() + 3);  // one CTA not recorded
  write_trace(d.str(), info, shuffled, {}, 7);

  TraceWorkload wl(d.str());
  ASSERT_EQ(wl.num_kernels(), 1u);
  EXPECT_EQ(wl.kernel_header(0).cuda_stream_id, 7u);
  EXPECT_EQ(wl.stream_of(0), 0u);
  auto k = wl.open_kernel(0);
  EXPECT_EQ(k->info().name, info.name);
  EXPECT_EQ(k->info().grid, info.grid);
  EXPECT_EQ(k->info().block, info.block);
  EXPECT_EQ(k->info().regs_per_thread, info.regs_per_thread);
  EXPECT_EQ(k->info().shared_bytes_per_cta, info.shared_bytes_per_cta);
  EXPECT_EQ(k->info().local_bytes_per_thread, info.local_bytes_per_thread);
  EXPECT_EQ(k->info().inst_bytes, info.inst_bytes);
  EXPECT_EQ(k->ctas_in_file(), info.num_ctas() - 1);
  CtaStreams got;
  for (const CtaStreams& c : shuffled) {
    k->produce_cta(c.cta_id, 0, got);
    expect_same(c, got);
  }
}

TEST(TraceRoundTrip, CompressionModesAndMnemonics) {
  TempDir d;
  KernelInfo info;
  info.name = "golden";
  info.block = Dim3{32, 1, 1};
  info.inst_bytes = 16;
  CtaStreams c;
  c.warps.resize(1);
  WarpStream& ws = c.warps[0];
  auto mem = [&](uint32_t pc, OpClass op, MemSpace sp, uint32_t mask, std::vector<uint64_t> lanes) {
    WarpInst in;
    in.pc = pc;
    in.op = op;
    in.unit = Unit::MEM;
    in.space = sp;
    in.width = 4;
    in.active_mask = mask;
    in.addr_index = uint32_t(ws.addrs.size());
    ws.addrs.resize(ws.addrs.size() + 32, 0);
    size_t k = 0;
    for (int l = 0; l < 32; ++l)
      if ((mask >> l) & 1) ws.addrs[in.addr_index + l] = lanes[k++];
    in.dst[0] = 1;
    in.src[0] = 2;
    ws.insts.push_back(in);
  };
  std::vector<uint64_t> strided;
  for (int l = 0; l < 32; ++l) strided.push_back(0x1000 + 4 * l);
  mem(0x00, OpClass::LOAD, MemSpace::Global, 0xffffffffu, strided);
  mem(0x10, OpClass::STORE, MemSpace::Global, 0x5u, {0x2000, 0x2010});
  mem(0x20, OpClass::LOAD, MemSpace::Shared, 0x3u, {0x7f0000000000ull, 0x10});
  WarpInst alu;
  alu.pc = 0x30;
  alu.unit = Unit::SP;
  alu.latency_class = kLatMul;
  alu.dst[0] = 300;
  alu.src[0] = 255;
  alu.src[1] = 256;
  ws.insts.push_back(alu);
  WarpInst bar;
  bar.pc = 0x40;
  bar.op = OpClass::BARRIER;
  bar.unit = Unit::BRANCH;
  bar.flags = kFlagBarrierArrive;
  bar.barrier_id = 3;
  ws.insts.push_back(bar);
  WarpInst ex;
  ex.pc = 0x50;
  ex.op = OpClass::EXIT;
  ex.unit = Unit::BRANCH;
  ws.insts.push_back(ex);  // not the last: stays an EXIT through an explicit modifier
  ex.pc = 0x60;
  ex.active_mask = 0xffffffffu;
  ws.insts.push_back(ex);
  write_trace(d.str(), info, {c});

  std::istringstream text(read_file(d.file("kernel-1.traceg")));
  std::vector<std::string> lines;
  for (std::string l; std::getline(text, l);)
    if (!l.empty() && l[0] != '-' && l[0] != '#') lines.push_back(l);
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0], "thread block = 0,0,0");
  EXPECT_EQ(lines[1], "warp = 0");
  EXPECT_EQ(lines[2], "insts = 7");
  EXPECT_EQ(lines[3], "0000 ffffffff 1 R1 LDG 1 R2 4 1 0x1000 4 ");
  EXPECT_EQ(lines[4], "0010 00000005 1 R1 STG 1 R2 4 2 0x2000 16 ");
  EXPECT_EQ(lines[5], "0020 00000003 1 R1 LDS 1 R2 4 0 0x00007f0000000000 0x0000000000000010 ");
  EXPECT_EQ(lines[6], "0030 00000000 1 UR36 FFMA 2 V255 P0 0 ");
  EXPECT_EQ(lines[7], "0040 00000000 0 BAR.ARV.WSB3 0 0 ");
  EXPECT_EQ(lines[8], "0050 00000000 0 EXIT.WSO7 0 0 ");
  EXPECT_EQ(lines[9], "0060 ffffffff 0 EXIT 0 0 ");

  TraceWorkload wl(d.str());
  auto k = wl.open_kernel(0);
  CtaStreams got;
  k->produce_cta(0, 0, got);
  expect_same(c, got);
}

TEST(TraceRoundTrip, RecorderWrapsAKernelSource) {
  // A kernel source producing fixed CTAs, recorded while "running".
  class Fixed : public KernelSource {
   public:
    explicit Fixed(std::vector<CtaStreams> c) : ctas_(std::move(c)) {
      info_.name = "fixed";
      info_.grid = Dim3{uint32_t(ctas_.size()), 1, 1};
      info_.block = Dim3{64, 1, 1};
    }
    const KernelInfo& info() const override { return info_; }
    void produce_cta(uint32_t id, uint32_t, CtaStreams& out) override { out = ctas_[id]; }
    void on_kernel_done() override { done = true; }
    bool done = false;

   private:
    std::vector<CtaStreams> ctas_;
    KernelInfo info_;
  };
  TempDir d;
  std::mt19937_64 rng(99);
  std::vector<CtaStreams> ctas = {synth_cta(0, 2, rng), synth_cta(1, 2, rng)};
  {
    TraceRecorder rec(d.str());
    rec.memcpy_h2d(0x1000, 256);
    auto k1 = rec.record(std::make_unique<Fixed>(ctas), 0);
    auto k2 = rec.record(std::make_unique<Fixed>(ctas), 5);
    CtaStreams tmp;
    k1->produce_cta(1, 0, tmp);
    k2->produce_cta(0, 0, tmp);
    k1->produce_cta(0, 1, tmp);
    k1->on_kernel_done();
    k2->produce_cta(1, 1, tmp);
    k2->on_kernel_done();
    rec.finish();
  }
  EXPECT_EQ(read_file(d.file("kernelslist.g")),
            "MemcpyHtoD,0x0000000000001000,256\nkernel-1.traceg\nkernel-2.traceg\n");
  TraceWorkload wl(d.str());
  ASSERT_EQ(wl.num_kernels(), 2u);
  EXPECT_EQ(wl.commands()[0].addr, 0x1000u);
  EXPECT_EQ(wl.stream_of(0), 0u);
  EXPECT_EQ(wl.stream_of(1), 1u);
  TraceWorkload::Launch l;
  while (wl.next(l)) {
    CtaStreams got;
    for (uint32_t c = 0; c < 2; ++c) {
      l.kernel->produce_cta(c, 0, got);
      expect_same(ctas[c], got);
    }
  }
}

}  // namespace
}  // namespace warpsim

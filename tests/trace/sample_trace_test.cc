// The Accel-Sim sample trace (vectorAdd of 100 floats, one block of 1024 threads, Pascal).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/launch_target.h"
#include "trace/trace_workload.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

using trace_test::sample_dir;

bool have_sample() { return std::filesystem::exists(sample_dir() + "/kernelslist.g"); }

TEST(SampleTrace, KernelsListHasThreeCopiesAndOneKernel) {
  if (!have_sample()) GTEST_SKIP() << "sample trace not present";
  TraceWorkload wl(sample_dir());
  ASSERT_EQ(wl.commands().size(), 4u);
  const uint64_t addrs[3] = {0x00007f2b2d500000ull, 0x00007f2b2d500200ull, 0x00007f2b2d500400ull};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(wl.commands()[i].kind, TraceCommand::Kind::MemcpyHtoD);
    EXPECT_EQ(wl.commands()[i].addr, addrs[i]);
    EXPECT_EQ(wl.commands()[i].bytes, 400u);  // 100 floats
    EXPECT_EQ(wl.commands()[i].line, uint32_t(i + 1));
  }
  EXPECT_EQ(wl.commands()[3].kind, TraceCommand::Kind::Kernel);
  ASSERT_EQ(wl.num_kernels(), 1u);
  EXPECT_EQ(wl.stream_of(0), 0u);
  EXPECT_EQ(wl.num_streams(), 1u);
}

TEST(SampleTrace, HeaderFields) {
  if (!have_sample()) GTEST_SKIP() << "sample trace not present";
  TraceWorkload wl(sample_dir() + "/kernelslist.g");
  const TraceKernelHeader& h = wl.kernel_header(0);
  EXPECT_EQ(h.name, "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(h.kernel_id, 1u);
  EXPECT_EQ(h.grid, (Dim3{1, 1, 1}));
  EXPECT_EQ(h.block, (Dim3{1024, 1, 1}));
  EXPECT_EQ(h.shmem, 0u);
  EXPECT_EQ(h.nregs, 8u);
  EXPECT_EQ(h.binary_version, 61u);
  EXPECT_EQ(h.cuda_stream_id, 0u);
  EXPECT_EQ(h.shmem_base, 0x00007f2b5a000000ull);
  EXPECT_EQ(h.local_base, 0x00007f2b58000000ull);
  EXPECT_EQ(h.nvbit_version, "1.5.5");
  EXPECT_EQ(h.tracer_version, 4u);
  EXPECT_FALSE(h.lineinfo);
}

TEST(SampleTrace, OneCtaOf32Warps) {
  if (!have_sample()) GTEST_SKIP() << "sample trace not present";
  TraceWorkload wl(sample_dir());
  TraceWorkload::Launch l;
  ASSERT_TRUE(wl.next(l));
  EXPECT_EQ(l.stream, 0u);
  TraceKernel& k = *l.kernel;
  EXPECT_EQ(k.info().num_ctas(), 1u);
  EXPECT_EQ(k.info().warps_per_cta(), 32u);
  EXPECT_EQ(k.info().regs_per_thread, 8u);
  EXPECT_EQ(k.info().inst_bytes, 8u);  // Pascal, control words removed
  EXPECT_EQ(k.ctas_in_file(), 1u);
  EXPECT_EQ(k.opcode_table().family(), "pascal");

  CtaStreams cta;
  k.produce_cta(0, 0, cta);
  ASSERT_EQ(cta.warps.size(), 32u);
  uint64_t total = 0, mem = 0;
  for (uint32_t w = 0; w < 32; ++w) {
    const WarpStream& ws = cta.warps[w];
    // Threads 0..99 run the body: warps 0..3 (23 instructions), the rest exit at once (9).
    EXPECT_EQ(ws.insts.size(), w < 4 ? 23u : 9u) << "warp " << w;
    EXPECT_EQ(ws.insts.back().op, OpClass::EXIT);
    total += ws.insts.size();
    for (const WarpInst& in : ws.insts) mem += in.is_mem();
    for (size_t i = 0; i + 1 < ws.insts.size(); ++i) EXPECT_NE(ws.insts[i].op, OpClass::EXIT);
  }
  EXPECT_EQ(total, 4u * 23 + 28u * 9);
  EXPECT_EQ(mem, 4u * 3);  // two LDG and one STG per working warp
  EXPECT_FALSE(wl.next(l));
}

TEST(SampleTrace, Warp3Instructions) {
  if (!have_sample()) GTEST_SKIP() << "sample trace not present";
  TraceWorkload wl(sample_dir());
  auto k = wl.open_kernel(0);
  CtaStreams cta;
  k->produce_cta(0, 0, cta);
  const WarpStream& ws = cta.warps[3];
  // 0008 -> 0, 0010 -> 8, 0018 -> 16, 0028 -> 24 (the control word at 0x20 is dropped).
  EXPECT_EQ(ws.insts[0].pc, 0u);
  EXPECT_EQ(ws.insts[1].pc, 8u);
  EXPECT_EQ(ws.insts[2].pc, 16u);
  EXPECT_EQ(ws.insts[3].pc, 24u);
  // 0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255: RZ is no dependency.
  const WarpInst& xmad = ws.insts[3];
  EXPECT_EQ(xmad.dst[0], 3);
  EXPECT_EQ(xmad.dst[1], kNoReg);
  EXPECT_EQ(xmad.src[0], 0);
  EXPECT_EQ(xmad.src[1], kNoReg);
  EXPECT_EQ(xmad.unit, Unit::INT);
  EXPECT_EQ(xmad.latency_class, kLatMul);
  // 0058 fffffff0 0 EXIT: lanes 4..31 leave, the warp goes on: not the warp's end.
  const WarpInst& early_exit = ws.insts[8];
  EXPECT_EQ(early_exit.active_mask, 0xfffffff0u);
  EXPECT_EQ(early_exit.op, OpClass::BRANCH);
  EXPECT_EQ(early_exit.unit, Unit::BRANCH);
  // 0098 0000000f 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500180 4
  const WarpInst& ldg = ws.insts[14];
  EXPECT_EQ(ldg.active_mask, 0xfu);
  EXPECT_EQ(ldg.op, OpClass::LOAD);
  EXPECT_EQ(ldg.unit, Unit::MEM);
  EXPECT_EQ(ldg.space, MemSpace::Global);
  EXPECT_EQ(ldg.width, 4u);
  EXPECT_EQ(ldg.dst[0], 4);
  EXPECT_EQ(ldg.src[0], 4);
  ASSERT_NE(ldg.addr_index, kNoAddr);
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(ws.addrs[ldg.addr_index + lane], lane < 4 ? 0x7f2b2d500180ull + 4 * lane : 0u) << lane;
  // 00d8 0000000f 0 STG.E 2 R6 R0 4 1 0x7f2b2d500580 4
  const WarpInst& stg = ws.insts[20];
  EXPECT_EQ(stg.op, OpClass::STORE);
  EXPECT_EQ(stg.src[0], 6);
  EXPECT_EQ(stg.src[1], 0);
  EXPECT_EQ(ws.addrs[stg.addr_index + 3], 0x7f2b2d500580ull + 12);
  // 00d0 FADD on SP; 0050 NOP
  EXPECT_EQ(ws.insts[19].unit, Unit::SP);
  EXPECT_EQ(ws.insts[19].op, OpClass::ALU);
  EXPECT_EQ(ws.insts[7].op, OpClass::NOP);
  EXPECT_EQ(ws.insts.back().pc, 176u);  // 0x00f0: bundle 7, second slot -> 7 * 24 + 8
}

}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {
TEST(SampleTrace, RecognisedAsTraceWorkload) {
  EXPECT_TRUE(is_trace_workload(trace_test::data_dir() + "/modes"));
  EXPECT_TRUE(is_trace_workload(trace_test::data_dir() + "/modes/kernelslist.g"));
  EXPECT_FALSE(is_trace_workload(trace_test::data_dir()));
  EXPECT_FALSE(is_trace_workload(trace_test::data_dir() + "/modes/kernel-1.traceg"));
}
}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {

// Collects what a workload enqueues.
class RecordingTarget : public LaunchTarget {
 public:
  uint32_t enqueue(std::unique_ptr<KernelSource> k, uint32_t stream, uint64_t delay) override {
    kernels.push_back(std::move(k));
    streams.push_back(stream);
    return uint32_t(kernels.size() - 1);
  }
  void run_until_idle() override {}
  uint64_t now() const override { return 0; }
  const std::vector<KernelResult>& results() const override { return results_; }
  std::vector<std::unique_ptr<KernelSource>> kernels;
  std::vector<uint32_t> streams;

 private:
  std::vector<KernelResult> results_;
};

TEST(SampleTrace, EnqueuedLazily) {
  if (!std::filesystem::exists(sample_dir() + "/kernelslist.g")) GTEST_SKIP() << "sample trace not present";
  TraceWorkload wl(sample_dir());
  RecordingTarget t;
  wl.enqueue_all(t);
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.streams[0], 0u);
  KernelSource& k = *t.kernels[0];
  EXPECT_EQ(k.info().name, "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(k.info().inst_bytes, 8u);
  EXPECT_EQ(k.info().warps_per_cta(), 32u);
  CtaStreams cta;
  k.produce_cta(0, 0, cta);
  EXPECT_EQ(cta.warps[0].insts.size(), 23u);
  k.on_kernel_done();
}

}  // namespace
}  // namespace warpsim

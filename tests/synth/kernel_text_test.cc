#include "synth/kernel_text.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace warpsim::synth {
namespace {

bool same_inst(const WarpInst& a, const WarpInst& b) {
  return a.pc == b.pc && a.active_mask == b.active_mask && a.addr_index == b.addr_index && a.dst[0] == b.dst[0] &&
         a.dst[1] == b.dst[1] && a.src[0] == b.src[0] && a.src[1] == b.src[1] && a.src[2] == b.src[2] &&
         a.src[3] == b.src[3] && a.unit == b.unit && a.op == b.op && a.space == b.space && a.width == b.width &&
         a.flags == b.flags && a.latency_class == b.latency_class && a.barrier_id == b.barrier_id;
}

// Every CTA of both kernels has identical streams.
void expect_same_kernel(const SyntheticKernel& a, const SyntheticKernel& b) {
  EXPECT_EQ(a.info.name, b.info.name);
  EXPECT_EQ(a.info.grid, b.info.grid);
  EXPECT_EQ(a.info.block, b.info.block);
  EXPECT_EQ(a.info.regs_per_thread, b.info.regs_per_thread);
  EXPECT_EQ(a.info.shared_bytes_per_cta, b.info.shared_bytes_per_cta);
  EXPECT_EQ(a.num_pcs, b.num_pcs);
  ASSERT_EQ(a.info.num_ctas(), b.info.num_ctas());
  for (uint32_t c = 0; c < a.info.num_ctas(); ++c) {
    CtaStreams ta, tb;
    a.generate_cta(c, ta);
    b.generate_cta(c, tb);
    ASSERT_EQ(ta.warps.size(), tb.warps.size());
    for (size_t w = 0; w < ta.warps.size(); ++w) {
      const WarpStream& sa = ta.warps[w];
      const WarpStream& sb = tb.warps[w];
      ASSERT_EQ(sa.insts.size(), sb.insts.size()) << "cta " << c << " warp " << w;
      for (size_t i = 0; i < sa.insts.size(); ++i)
        EXPECT_TRUE(same_inst(sa.insts[i], sb.insts[i])) << "cta " << c << " warp " << w << " inst " << i;
      EXPECT_EQ(sa.addrs, sb.addrs);
    }
  }
}

TEST(KernelText, ExampleMatchesBuilder) {
  const char* text = R"(
# per-warp reuse
kernel thrash grid=4 block=64 regs=16 shared=0
loop 3
  ld.global pattern=perwarp footprint=2048 width=4 use
  alu sp 4 dep
end
bar
exit
)";
  KernelBuilder b("thrash");
  b.grid({4}).block({64}).regs_per_thread(16).shared_bytes(0);
  b.loop(3, [](KernelBuilder& l) {
    l.load(MemSpace::Global, AccessPattern::per_warp(2048), 4, 1, true).alu(Unit::SP, 4, true);
  });
  b.barrier();
  expect_same_kernel(parse_kernel(text, "example.kern"), b.build());
}

TEST(KernelText, EveryStatementMatchesBuilder) {
  const char* text =
      R"(kernel all grid=2x1x1 block=48 regs=24 shared=8K local=16 alu_regs=6 load_regs=3
alu int 3 lat=mul
alu sfu lat=trans
alu dp 2 dep lat=div
ld.global pattern=strided stride=256 width=8 count=2 base=0x100 step=64 footprint=1M
ld.global pattern=random footprint=64K seed=9 width=16
ld.const pattern=broadcast base=32 step=4
ld.shared pattern=bank ways=8 count=2 use
ld.global pattern=percta footprint=4096 warpstride=0
st.local pattern=coalesced width=2 dep
atom.global pattern=broadcast use
alu sp 3
alu int 2 use
membar
loop warp * 2 + cta
  alu sp 1
  diverge lane % 4 == 0
    ld.global pattern=perwarp footprint=512
  else
    alu sp 1 dep
  end
end
diverge lane < 8 && warp == 1
  loop 2
    alu sp 1
  end
end
bar
)";
  KernelBuilder b("all");
  b.grid({2, 1, 1}).block({48}).regs_per_thread(24).shared_bytes(8192).local_bytes(16).registers(6, 3);
  b.alu(Unit::INT, 3, false, kLatMul)
      .alu(Unit::SFU, 1, false, kLatTrans)
      .alu(Unit::DP, 2, true, kLatDiv)
      .load(MemSpace::Global, AccessPattern::strided(256).at(0x100).every(64).wrap(1 << 20), 8, 2)
      .load(MemSpace::Global, AccessPattern::random(65536, 9), 16)
      .load(MemSpace::Const, AccessPattern::broadcast().at(32).every(4), 4)
      .load(MemSpace::Shared, AccessPattern::bank_conflict(8), 4, 2, true)
      .load(MemSpace::Global, AccessPattern::per_cta(4096).warps_apart(0), 4)
      .store(MemSpace::Local, AccessPattern::coalesced(), 2, 1, true)
      .atomic(MemSpace::Global, AccessPattern::broadcast(), 4, 1, true)
      .alu(Unit::SP, 3)
      .use_load(Unit::INT, 2)
      .membar();
  b.loop_per_warp([](uint32_t cta, uint32_t warp) { return warp * 2 + cta; },
                  [](KernelBuilder& l) {
                    l.alu(Unit::SP, 1);
                    l.diverge(
                        lanes_mod(4),
                        [](KernelBuilder& t) { t.load(MemSpace::Global, AccessPattern::per_warp(512), 4); },
                        [](KernelBuilder& e) { e.alu(Unit::SP, 1, true); });
                  });
  b.diverge([](uint32_t, uint32_t warp) { return warp == 1 ? 0xffu : 0u; },
            [](KernelBuilder& t) { t.loop(2, [](KernelBuilder& l) { l.alu(Unit::SP, 1); }); });
  b.barrier();
  expect_same_kernel(parse_kernel(text, "all.kern"), b.build());
}

TEST(KernelText, ParamsDefaultsOverridesAndConstantExpressions) {
  const char* text = R"(param N=5
param WARPS=2
kernel p grid=1 block=$WARPS*32
loop $N
  alu sp 1
end
loop ($N + 1) / 2
  alu sp 1
end
)";
  auto count = [](const SyntheticKernel& k) {
    CtaStreams t;
    k.generate_cta(0, t);
    return t.warps[0].insts.size();
  };
  const SyntheticKernel d = parse_kernel(text);
  EXPECT_EQ(d.info.block.x, 64u);
  EXPECT_EQ(count(d), 5u * 2 + 3 * 2 + 1);
  const SyntheticKernel o = parse_kernel(text, "p.kern", {{"N", "2"}, {"WARPS", "1"}});
  EXPECT_EQ(o.info.block.x, 32u);
  EXPECT_EQ(count(o), 2u * 2 + 1 * 2 + 1);
  EXPECT_THROW(parse_kernel(text, "p.kern", {{"M", "2"}}), Error);
  EXPECT_THROW(parse_kernel(text, "p.kern", {{"N", "two"}}), Error);
}

TEST(KernelText, Dimensions) {
  const SyntheticKernel a = parse_kernel("param nx=3\nkernel d grid=$nx*2x0x10x(1+1) block=0x20x2\n");
  EXPECT_EQ(a.info.grid, (Dim3{6, 16, 2}));
  EXPECT_EQ(a.info.block, (Dim3{32, 2, 1}));
  EXPECT_EQ(a.info.warps_per_cta(), 2u);
}

TEST(KernelText, SeveralKernelsInOneFile) {
  const auto ks = parse_kernels("kernel a\nalu sp 1\nexit\n\nkernel b block=64\nbar\n");
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[0].info.name, "a");
  EXPECT_EQ(ks[0].info.block.x, 32u);
  EXPECT_EQ(ks[1].info.name, "b");
  EXPECT_EQ(ks[1].info.warps_per_cta(), 2u);
  EXPECT_THROW(parse_kernel("kernel a\nkernel b\n"), Error);
  EXPECT_THROW(parse_kernel("# nothing\n"), Error);
}

// The error message of parsing `text`, which must fail with a located error at line:col.
std::string located_error(const std::string& text, int line, int col) {
  try {
    parse_kernels(text, "bad.kern");
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.file(), "bad.kern");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.col(), col) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a located error: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

TEST(KernelText, BadInputGivesLocatedErrors) {
  EXPECT_NE(located_error("alu sp 1\n", 1, 1).find("outside a kernel"), std::string::npos);
  EXPECT_NE(located_error("kernel k\n  frob 3\n", 2, 3).find("unknown statement 'frob'"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nalu xu 2\n", 2, 5).find("unknown unit"), std::string::npos);
  EXPECT_NE(located_error("kernel k grid=12q\n", 1, 15).find("expected a number"), std::string::npos);
  EXPECT_NE(located_error("kernel k colour=red\n", 1, 10).find("unknown argument 'colour'"), std::string::npos);
  EXPECT_NE(located_error("kernel k block=2048\n", 1, 16).find("1024"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.global pattern=zigzag\n", 2, 19).find("unknown pattern"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.global stride=4\n", 2, 11).find("only to pattern=strided"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.global width=3\n", 2, 1).find("width"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.heap\n", 2, 4).find("unknown memory space"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nst.const\n", 2, 1).find("cannot store"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.global use use\n", 2, 15).find("twice"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nst.global use\n", 2, 11).find("unknown argument 'use'"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nend\n", 2, 1).find("without an open"), std::string::npos);
  EXPECT_NE(located_error("kernel k\n  loop 4\nalu sp 1\n", 2, 3).find("not closed"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop 0\nend\n", 2, 6).find("positive"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop lane\nend\n", 2, 6).find("only defined in diverge"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop warp +\nend\n", 2, 12).find("ends too early"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop (warp\nend\n", 2, 11).find("expected ')'"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop warps\nend\n", 2, 6).find("unknown name 'warps'"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop $N\nend\n", 2, 6).find("unknown parameter"), std::string::npos);
  EXPECT_NE(located_error("kernel k\ndiverge lane < 4\nbar\nend\n", 3, 1).find("divergent"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nelse\n", 2, 1).find("else outside"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nexit\nalu sp 1\n", 3, 1).find("after 'exit'"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop 2\nexit\n", 3, 1).find("inside the block"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nbar 1\n", 2, 5).find("no arguments"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nalu sp 2 dep use\n", 2, 1).find("exclude"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop 4000000000 * 4000000000 * 4000000000\nend\n", 2, 6).find("overflow"),
            std::string::npos);
  EXPECT_NE(located_error("kernel k grid=2x3x4x5\n", 1, 15).find("more than three"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop " + std::string(100000, '(') + "1\nend\n", 2, 6 + 32).find("too deeply"),
            std::string::npos);
  EXPECT_NE(located_error("kernel k\nloop " + std::string(100, '-') + "1\nend\n", 2, 6 + 32).find("too deeply"),
            std::string::npos);
  EXPECT_NE(located_error("kernel k\nkernel k\n", 2, 8).find("defined twice"), std::string::npos);
  EXPECT_NE(located_error("param A=1\nparam A=2\n", 2, 7).find("declared twice"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.global pattern=random\n", 2, 1).find("footprint"), std::string::npos);
  EXPECT_NE(located_error("kernel k\nld.global footprint=99999999999999999999\n", 2, 21).find("too large"),
            std::string::npos);
}

TEST(KernelText, RuntimeExpressionErrorsAreLocated) {
  const SyntheticKernel k = parse_kernel("kernel k block=64\nloop 3 / warp\n  alu sp 1\nend\n", "div.kern");
  CtaStreams t;
  try {
    k.generate_cta(0, t);
    ADD_FAILURE() << "division by zero not reported";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.col(), 6);
  }
  const SyntheticKernel n = parse_kernel("kernel k block=64\nloop 1 - warp * 2\n  alu sp 1\nend\n", "neg.kern");
  EXPECT_THROW(n.generate_cta(0, t), LocatedError);
}

TEST(KernelText, ShippedKernelsParseAndGenerate) {
  const auto names = list_synthetic_kernels();
  for (const char* expected : {"dep_chain", "alu_indep", "stream", "strided", "bank_conflict", "barrier", "thrash_gto",
                               "lrr_friendly", "tl_friendly"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const SyntheticKernel k = load_synthetic_kernel(name);
    EXPECT_EQ(k.info.name, name);
    CtaStreams t;
    k.generate_cta(0, t);
    k.generate_cta(uint32_t(k.info.num_ctas() - 1), t);
    ASSERT_EQ(t.warps.size(), k.info.warps_per_cta());
    EXPECT_EQ(t.warps[0].insts.back().op, OpClass::EXIT);
  }
  EXPECT_THROW(load_synthetic_kernel("no_such_kernel"), Error);
  EXPECT_THROW(load_synthetic_kernel("/nonexistent/x.kern"), Error);
}

TEST(KernelText, ShippedKernelShapes) {
  // dep_chain: ITERS * (DEPTH dependent SP ops + back branch) + EXIT in one warp.
  const SyntheticKernel d = load_synthetic_kernel("dep_chain", {{"ITERS", "3"}, {"DEPTH", "5"}});
  CtaStreams t;
  d.generate_cta(0, t);
  ASSERT_EQ(t.warps.size(), 1u);
  EXPECT_EQ(t.warps[0].insts.size(), 3u * 6 + 1);
  EXPECT_EQ(t.warps[0].insts[1].src[0], t.warps[0].insts[0].dst[0]);
  // bank_conflict: lane i reads word i*WAYS.
  const SyntheticKernel b = load_synthetic_kernel("bank_conflict", {{"WAYS", "8"}});
  b.generate_cta(0, t);
  const WarpInst& ld = t.warps[0].insts[0];
  EXPECT_EQ(ld.space, MemSpace::Shared);
  EXPECT_EQ(t.warps[0].addrs[ld.addr_index + 3], 3u * 8 * 4);
}

}  // namespace
}  // namespace warpsim::synth

namespace warpsim::synth {
namespace {

// Mutated kernels either parse and generate or fail with warpsim::Error; nothing else.
TEST(KernelText, MutatedInputNeverCrashes) {
  const std::string base = R"(param N=3
kernel f grid=4 block=64 regs=16 shared=1024
loop $N
  ld.global pattern=perwarp footprint=512 width=4 use
  alu sp 2 dep
  diverge lane % 2 == 0
    st.shared pattern=bank ways=2
  else
    alu sfu 1 lat=trans
  end
end
loop warp + 1
  atom.global pattern=random footprint=4096 seed=1 use
end
bar
exit
)";
  // No digits or size suffixes, so mutations cannot turn small counts into huge ones.
  const std::string alphabet = " \n\t=.#$()+-*/%<>!&|abcdefghijlnopqrstuvwyz_";
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  int parsed = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string text = base;
    const int edits = 1 + int(next() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = next() % text.size();
      switch (next() % 3) {
        case 0:
          text[pos] = alphabet[next() % alphabet.size()];
          break;
        case 1:
          text.erase(pos, 1 + next() % 3);
          break;
        default:
          text.insert(pos, 1, alphabet[next() % alphabet.size()]);
          break;
      }
    }
    try {
      for (const SyntheticKernel& k : parse_kernels(text, "fuzz.kern")) {
        CtaStreams t;
        k.generate_cta(0, t);
      }
      ++parsed;
    } catch (const Error&) {
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace warpsim::synth

// core.hoist_global_loads: global loads move up their basic block and the computations on
// loaded values sink, as ptxas schedules SASS; nothing moves across a dependence, a store, a
// barrier or a block boundary.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptx/decoder.h"
#include "ptx/parser.h"

namespace warpsim::test {
namespace {

std::string name(const ptx::Inst& in) {
  using ptx::Op;
  switch (in.op) {
    case Op::Ld:
      return in.space == ptx::Space::Global ? "ld.g" : in.space == ptx::Space::Param ? "ld.p" : "ld";
    case Op::St:
      return in.space == ptx::Space::Global ? "st.g" : "st";
    case Op::Fma:
      return "fma";
    case Op::Add:
      return "add";
    case Op::Mul:
      return "mul";
    case Op::Mov:
      return "mov";
    case Op::Setp:
      return "setp";
    case Op::Bra:
      return "bra";
    case Op::Bar:
      return "bar";
    case Op::Ret:
      return "ret";
    case Op::FuncExit:
      return "FuncExit";
    default:
      return "other";
  }
}

// The ops of the kernel's instructions, in program order, as "ld" / "st" / "fma" / ... names.
std::vector<std::string> ops(const std::string& body, bool hoist) {
  const std::string text =
      ".version 7.8\n.target sm_75\n.address_size 64\n"
      ".visible .entry k(.param .u64 pa, .param .u64 pb) {\n"
      "  .reg .f32 %f<16>;\n  .reg .b64 %rd<16>;\n  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n"
      "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n" +
      body + "  ret;\n}\n";
  ptx::Module m = ptx::parse_module(text, "hoist.ptx");
  auto prog = ptx::decode_kernel(m, "k", {}, hoist);
  std::vector<std::string> out;
  for (size_t i = 0; i < prog->insts.size(); ++i) {
    const auto& in = prog->insts[i];
    out.push_back(name(in));
  }
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

TEST(HoistLoads, LoadsGoFirstAndTheirUsesLast) {
  // atax's loop as nvcc writes it: load, load, use, address, load, load, use. (The kernel's
  // two parameter loads come first; a global load also moves above the one it does not use.)
  const std::string body =
      "  ld.global.f32 %f1, [%rd1];\n  ld.global.f32 %f2, [%rd2];\n  fma.rn.f32 %f3, %f1, %f2, %f3;\n"
      "  add.s64 %rd3, %rd2, 64;\n  ld.global.f32 %f4, [%rd1+4];\n  ld.global.f32 %f5, [%rd3];\n"
      "  fma.rn.f32 %f3, %f4, %f5, %f3;\n";
  EXPECT_EQ(joined(ops(body, false)), "ld.p ld.p ld.g ld.g fma add ld.g ld.g fma ret FuncExit");
  EXPECT_EQ(joined(ops(body, true)), "ld.p ld.g ld.g ld.p ld.g add ld.g fma fma ret FuncExit");
}

TEST(HoistLoads, NothingCrossesADependenceAStoreOrABarrier) {
  // The second load's address comes from the first load: it stays behind it and the add.
  EXPECT_EQ(
      joined(ops("  ld.global.u64 %rd3, [%rd1];\n  add.s64 %rd4, %rd3, 8;\n  ld.global.f32 %f1, [%rd4];\n", true)),
      "ld.p ld.g ld.p add ld.g ret FuncExit");
  // A load never moves above a store (it may read what the store wrote), nor a use below it.
  EXPECT_EQ(joined(ops("  ld.global.f32 %f1, [%rd1];\n  add.f32 %f2, %f1, %f1;\n  st.global.f32 [%rd2], %f2;\n"
                       "  ld.global.f32 %f3, [%rd1+8];\n",
                       true)),
            "ld.p ld.g ld.p add st.g ld.g ret FuncExit");
  // Shared memory never aliases global memory: a global load passes a shared store.
  EXPECT_EQ(joined(ops("  .shared .f32 sh[4];\n  ld.global.f32 %f1, [%rd1];\n  st.shared.f32 [sh], %f1;\n"
                       "  ld.global.f32 %f3, [%rd1+8];\n",
                       true)),
            "ld.p ld.g ld.g ld.p st ret FuncExit");
  EXPECT_EQ(joined(ops("  mul.f32 %f1, %f2, %f2;\n  bar.sync 0;\n  ld.global.f32 %f3, [%rd1];\n", true)),
            "ld.p ld.p mul bar ld.g ret FuncExit");
  // A use does not sink past an instruction that overwrites one of its operands.
  EXPECT_EQ(joined(ops("  ld.global.f32 %f1, [%rd1];\n  add.f32 %f2, %f1, %f1;\n  mov.f32 %f1, 0f00000000;\n", true)),
            "ld.p ld.g ld.p add mov ret FuncExit");
}

TEST(HoistLoads, BlocksKeepTheirInstructions) {
  // The load after the label stays in its block; the branch ends the first block.
  const std::string body =
      "  ld.global.f32 %f1, [%rd1];\n  add.f32 %f2, %f1, %f1;\n  setp.gt.f32 %p1, %f2, 0f00000000;\n"
      "  @%p1 bra DONE;\n  add.f32 %f3, %f2, %f2;\nDONE:\n  ld.global.f32 %f4, [%rd2];\n";
  EXPECT_EQ(joined(ops(body, true)), "ld.p ld.g ld.p add setp bra add ld.g ret FuncExit");
}

}  // namespace
}  // namespace warpsim::test

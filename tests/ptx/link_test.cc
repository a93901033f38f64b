// Separate compilation: the PTX of several device objects linked into one module (ptx/link.h).
#include "ptx/link.h"

#include <gtest/gtest.h>

#include "harness.h"
#include "ptx/parser.h"

namespace warpsim::test {
namespace {

const std::string kHead = ".version 9.0\n.target sm_75\n.address_size 64\n";

// The kernel's object: calls an external function, adds to an external counter, and reads its
// own private table `tbl` (10).
const std::string kMain = kHead +
                          ".extern .func (.param .b32 rv) scale(.param .b32 x);\n"
                          ".extern .global .align 4 .u32 counter;\n"
                          ".global .align 4 .u32 tbl[1] = {10};\n"
                          ".visible .entry t(.param .u64 out_param)\n{\n"
                          "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
                          "  ld.param.u64 %rd1, [out_param];\n  ld.global.u32 %r1, [tbl];\n"
                          "  { .param .b32 p0; st.param.b32 [p0+0], %r1; .param .b32 r0;\n"
                          "    call.uni (r0), scale, (p0); ld.param.b32 %r2, [r0+0]; }\n"
                          "  st.global.u32 [%rd1], %r2;\n"
                          "  mov.u64 %rd2, counter;\n  atom.global.add.u32 %r3, [%rd2], 5;\n"
                          "  ld.global.u32 %r4, [counter];\n  st.global.u32 [%rd1+4], %r4;\n"
                          "  ret;\n}\n";

// The library object: defines scale(x) = x * tbl[0] with its own private `tbl` (7), the
// counter, and a weak helper also defined (differently) by a third object.
const std::string kLib = kHead +
                         ".global .align 4 .u32 tbl[1] = {7};\n"
                         ".visible .global .align 4 .u32 counter = 100;\n"
                         ".weak .func (.param .b32 rv) one()\n{\n  .reg .b32 %r<2>;\n"
                         "  mov.u32 %r1, 1;\n  st.param.b32 [rv+0], %r1;\n  ret;\n}\n"
                         ".visible .func (.param .b32 rv) scale(.param .b32 x)\n{\n  .reg .b32 %r<6>;\n"
                         "  ld.param.u32 %r1, [x];\n  ld.global.u32 %r2, [tbl];\n  mul.lo.s32 %r3, %r1, %r2;\n"
                         "  { .param .b32 r0; call.uni (r0), one, (); ld.param.b32 %r4, [r0+0]; }\n"
                         "  add.s32 %r5, %r3, %r4;\n  st.param.b32 [rv+0], %r5;\n  ret;\n}\n";

const std::string kWeak = kHead +
                          ".weak .func (.param .b32 rv) one()\n{\n  .reg .b32 %r<2>;\n"
                          "  mov.u32 %r1, 1;\n  st.param.b32 [rv+0], %r1;\n  ret;\n}\n";

TEST(Link, ResolvesExternsAndKeepsPrivateSymbolsApart) {
  FunctionalTarget target;
  Runtime rt(&target);
  ModuleHandle m = rt.load_module({{kMain, "main.ptx"}, {kLib, "lib.ptx"}, {kWeak, "weak.ptx"}}, "linked");
  DevPtr buf = rt.malloc(8);
  rt.launch(rt.get_kernel(m, "t"), Dim3{1, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(buf));
  uint32_t out[2] = {0, 0};
  rt.memcpy_d2h(out, buf, 8);
  EXPECT_EQ(out[0], 10u * 7u + 1u);  // main's tbl (10) scaled by lib's tbl (7), plus one()
  EXPECT_EQ(out[1], 105u);           // the one counter, initialised by its definition
}

TEST(Link, TheLinkedModuleHasOneDefinitionOfEachSymbol) {
  ptx::Module linked = ptx::link_modules(
      {ptx::parse_module(kMain, "main.ptx"), ptx::parse_module(kLib, "lib.ptx"), ptx::parse_module(kWeak, "w.ptx")},
      "linked");
  int scale = 0, one = 0, counter = 0, tbl = 0, tbl_renamed = 0;
  for (const auto& f : linked.functions) {
    scale += f.name == "scale";
    one += f.name == "one";
    if (f.name == "scale") {
      EXPECT_TRUE(f.has_body);
    }
  }
  for (const auto& v : linked.globals) {
    counter += v.name == "counter";
    tbl += v.name == "tbl";
    tbl_renamed += v.name.rfind("tbl$obj", 0) == 0;
    if (v.name == "counter") {
      EXPECT_FALSE(v.is_extern);
    }
  }
  EXPECT_EQ(scale, 1);
  EXPECT_EQ(one, 1);  // the weak copies: the first is kept
  EXPECT_EQ(counter, 1);
  EXPECT_EQ(tbl, 0);  // both private tables renamed apart
  EXPECT_EQ(tbl_renamed, 2);
}

TEST(Link, AnUnresolvedExternalFailsAtItsKernel) {
  FunctionalTarget target;
  Runtime rt(&target);
  ModuleHandle m = rt.load_module({{kMain, "main.ptx"}, {kWeak, "weak.ptx"}}, "linked");  // no scale()
  try {
    rt.get_kernel(m, "t");
    FAIL() << "a kernel calling an undefined function loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("scale"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpsim::test

// Parsing real and malformed PTX: located errors, never crashes.
#include "ptx/parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.h"
#include "harness.h"
#include "ptx/decoder.h"

namespace warpsim::test {
namespace {

std::string kernel_text(const char* name) {
  std::ifstream f(std::string(WARPSIM_SOURCE_DIR) + "/tests/data/kernels/" + name + ".ptx");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Loads text as a module; returns the error message ("" when it loads).
std::string load_error(const std::string& text, int* line = nullptr, int* col = nullptr) {
  return test::load_error(text, "bad.ptx", line, col);
}

TEST(Parser, ParsesEveryTestKernel) {
  for (const char* k : {"vecadd", "divergence", "reduce_shared", "atomics", "warp_ops", "device_call", "local_array",
                        "doubles", "texture", "matmul", "math_funcs", "const_mem", "indirect_calls"}) {
    ptx::Module m = ptx::parse_module(kernel_text(k), k);
    EXPECT_EQ(m.version_major, 9) << k;
    EXPECT_EQ(m.target, "sm_75") << k;
    EXPECT_EQ(m.address_size, 64) << k;
    EXPECT_FALSE(m.functions.empty()) << k;
  }
}

TEST(Parser, ModuleDeclarationsAndInitializers) {
  ptx::Module m = ptx::parse_module(
      ".version 7.8 .target sm_75, debug .address_size 64\n"
      "/* block comment */ .const .align 8 .f32 tab[3] = {1.5, 0f40000000, -2};\n"
      ".global .align 4 .u32 vals[2][2] = {{1, 2}, {3, -4}};\n"
      ".global .v2 .u32 vec;\n"
      ".extern .shared .align 16 .b8 dyn[];\n"
      ".visible .func (.param .b32 r) f(.param .align 8 .b8 s[16], .param .u64 .ptr .global .align 4 p) { ret; }\n",
      "m.ptx");
  EXPECT_EQ(m.version_minor, 8);
  ASSERT_EQ(m.globals.size(), 4u);
  EXPECT_EQ(m.globals[0].size_bytes(), 12u);
  EXPECT_EQ(m.globals[0].init.size(), 3u);
  EXPECT_TRUE(m.globals[0].init[0].is_float_lit);
  EXPECT_EQ(m.globals[0].init[1].bits, 0x40000000u);
  EXPECT_EQ(m.globals[1].array_len, 4);
  EXPECT_EQ(m.globals[1].init[3].bits, uint64_t(-4));
  EXPECT_EQ(m.globals[2].size_bytes(), 8u);
  EXPECT_EQ(m.globals[3].array_len, 0);
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].rets.size(), 1u);
  EXPECT_EQ(m.functions[0].params[0].size_bytes(), 16u);
  EXPECT_EQ(m.functions[0].params[0].align, 8u);
}

TEST(Parser, WhitespaceInsensitive) {
  // PTX embedded in binaries has no indentation: collapse all whitespace onto one line.
  std::string t = kernel_text("vecadd");
  t = std::regex_replace(t, std::regex("//[^\n]*"), "");
  t = std::regex_replace(t, std::regex("[ \t\n]+"), " ");
  FunctionalTarget target;
  Runtime rt(&target);
  auto m = rt.load_module(t, "flat.ptx");
  const int n = 64;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  DevPtr dx = rt.malloc(n * 4), dy = rt.malloc(n * 4);
  rt.memcpy_h2d(dx, x.data(), n * 4);
  rt.memcpy_h2d(dy, y.data(), n * 4);
  rt.launch(rt.get_kernel(m, "saxpy"), Dim3{1, 1, 1}, Dim3{64, 1, 1}, KernelArgs().add(n).add(3.0f).add(dx).add(dy));
  rt.memcpy_d2h(y.data(), dy, n * 4);
  for (float v : y) EXPECT_EQ(v, 5.0f);
}

TEST(Parser, NegativeOffsetsAndHexImmediates) {
  EXPECT_EQ(r32("st.global.u32 [%rd99+8], 77; add.s64 %rd2, %rd99, 16; ld.global.u32 %r1, [%rd2+-8];"), 77u);
  EXPECT_EQ(r32("mov.u32 %r1, 0xff; add.s32 %r1, %r1, 0b101; add.s32 %r1, %r1, 010;"), 255u + 5 + 8);
  EXPECT_EQ(r32("// comment\n mov.u32 /* inline */ %r1, -1U;"), 0xffffffffu);
}

TEST(Parser, TruncatedFile) {
  std::string t = kernel_text("vecadd");
  int line = 0, col = 0;
  std::string e = load_error(t.substr(0, t.size() * 2 / 3), &line, &col);
  EXPECT_NE(e.find("bad.ptx:"), std::string::npos) << e;
  EXPECT_NE(e.find("expected"), std::string::npos) << e;
  EXPECT_GT(line, 1);
  size_t body = t.find(".entry");
  for (size_t cut : {body + 10, body + 100, body + 300, t.size() - 3}) {
    std::string msg = load_error(t.substr(0, cut));
    EXPECT_FALSE(msg.empty()) << cut;
  }
}

TEST(Parser, GarbageInput) {
  int line = 0, col = 0;
  std::string e = load_error(".version 9.0\n.target sm_75\n\x01\x02\x03 garbage", &line, &col);
  EXPECT_NE(e.find("unexpected byte 0x01"), std::string::npos) << e;
  EXPECT_EQ(line, 3);
  EXPECT_EQ(col, 1);
  EXPECT_NE(load_error("hello world;").find("expected a module directive"), std::string::npos);
  EXPECT_NE(load_error(".version 9.0 .entry k( { }").find("expected"), std::string::npos);
  EXPECT_NE(load_error("/* never closed").find("unterminated block comment"), std::string::npos);
  EXPECT_NE(load_error(".global .f32 x = 0f3F80;").find("malformed hex float"), std::string::npos);
  // Deterministic pseudo-random byte soup must only ever produce Errors.
  uint32_t s = 12345;
  std::string base = kernel_text("divergence");
  for (int i = 0; i < 200; ++i) {
    std::string t = base;
    for (int k = 0; k < 5; ++k) {
      s = s * 1664525u + 1013904223u;
      size_t pos = s % t.size();
      s = s * 1664525u + 1013904223u;
      t[pos] = char(s >> 24);
    }
    load_error(t);  // must not crash; any outcome is fine
  }
}

TEST(Parser, UnknownOpcodeIsLocated) {
  int line = 0, col = 0;
  std::string e = load_error(wrap_kernel("mov.u32 %r1, 1;\n  frobnicate.u32 %r1, %r2;"), &line, &col);
  EXPECT_NE(e.find("unknown instruction 'frobnicate.u32'"), std::string::npos) << e;
  EXPECT_EQ(col, 3);
  EXPECT_GT(line, 5);
  EXPECT_NE(load_error(wrap_kernel("add.s33 %r1, %r1, 1;")).find("unsupported modifier '.s33'"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("add.bogus.s32 %r1, %r1, 1;")).find("unsupported modifier '.bogus'"),
            std::string::npos);
}

TEST(Parser, TypeMismatches) {
  std::string e = load_error(wrap_kernel("add.f32 %f1, %rd1, %f2;"));
  EXPECT_NE(e.find("register %rd1 has type .b64"), std::string::npos) << e;
  EXPECT_NE(load_error(wrap_kernel("add.s32 %r1, %p1, 1;")).find("has type .pred"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("setp.lt.s32 %r1, %r2, 1;")).find("expected .pred"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("add.s32 %r1, %r2, 1.5;")).find("floating-point literal"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("setp.ltu.s32 %p1, %r2, 1;")).find("unordered comparison"), std::string::npos);
}

TEST(Parser, ResolutionErrors) {
  EXPECT_NE(load_error(wrap_kernel("bra.uni NOWHERE;")).find("undefined label 'NOWHERE'"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("mov.u32 %q1, 1;")).find("undeclared register '%q1'"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("ld.global.u32 %r1, [nosuch];")).find("undefined symbol 'nosuch'"),
            std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("add.s32 %r1, %r2;")).find("expects 3 operands"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("call.uni nofunc, ();")).find("undeclared function 'nofunc'"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("mov.u32 %tid.x, 1;")).find("read-only"), std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("L1: L1: ret;")).find("duplicate label"), std::string::npos);
  // Recursion decodes (the executor saves a re-entered function's registers and frame).
  std::string rec =
      ".version 9.0\n.target sm_75\n.address_size 64\n.func f() { call.uni f, (); ret; }\n"
      ".entry k() { call.uni f, (); ret; }\n";
  EXPECT_EQ(load_error(rec), "");
}

// A kernel the front end cannot decode does not take its module down: the module's variables
// and other kernels stay usable, and asking for that kernel gives its located error.
TEST(Parser, UndecodableKernelFailsAloneWhenAskedFor) {
  const std::string text =
      ".version 9.0\n.target sm_75\n.address_size 64\n.global .u32 g = 7;\n"
      ".entry good(.param .u64 out) { .reg .b64 %rd<2>; .reg .b32 %r<2>;\n"
      "  ld.param.u64 %rd1, [out]; ld.global.u32 %r1, [g]; st.global.u32 [%rd1], %r1; ret; }\n"
      ".entry bad() { .reg .b32 %r<2>;\n  frobnicate.b32 %r1, %r1; ret; }\n";
  FunctionalTarget target;
  Runtime rt(&target);
  ModuleHandle m = rt.load_module(text, "two.ptx");
  DevPtr buf = rt.malloc(4);
  rt.launch(rt.get_kernel(m, "good"), Dim3{1, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(buf));
  uint32_t v = 0;
  rt.memcpy_d2h(&v, buf, 4);
  EXPECT_EQ(v, 7u);
  try {
    rt.get_kernel(m, "bad");
    ADD_FAILURE() << "no error for the undecodable kernel";
  } catch (const LocatedError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown instruction 'frobnicate.b32'"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), 8);
  }
}

// nvcc's device-runtime module (in every CUDA 11.8 binary) initializes a table with functions
// defined further down: the module loads, each function gets a distinct address.
TEST(Parser, InitializerMayNameAFunctionDefinedLater) {
  const std::string text =
      ".version 9.0\n.target sm_75\n.address_size 64\n.func later(.param .b64 x);\n.func other();\n"
      ".global .align 8 .u64 table[3] = {later, other, later};\n"
      ".entry k(.param .u64 out) { .reg .b64 %rd<5>;\n  ld.param.u64 %rd1, [out];\n"
      "  ld.global.u64 %rd2, [table]; ld.global.u64 %rd3, [table+8]; ld.global.u64 %rd4, [table+16];\n"
      "  st.global.u64 [%rd1], %rd2; st.global.u64 [%rd1+8], %rd3; st.global.u64 [%rd1+16], %rd4; ret; }\n"
      ".func later(.param .b64 x) { ret; }\n.func other() { ret; }\n";
  EXPECT_EQ(load_error(text), "");
  FunctionalTarget target;
  Runtime rt(&target);
  ModuleHandle m = rt.load_module(text, "table.ptx");
  DevPtr buf = rt.malloc(24);
  rt.launch(rt.get_kernel(m, "k"), Dim3{1, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(buf));
  uint64_t v[3] = {};
  rt.memcpy_d2h(v, buf, 24);
  EXPECT_NE(v[0], 0u);
  EXPECT_NE(v[0], v[1]);
  EXPECT_EQ(v[0], v[2]);
  EXPECT_NE(load_error(".version 9.0\n.target sm_75\n.address_size 64\n.global .u64 t = nosuch;\n")
                .find("unknown symbol 'nosuch'"),
            std::string::npos);
}

}  // namespace
}  // namespace warpsim::test

// Calls the front end executes beyond a direct call of the whole warp: indirect calls through
// function pointers (.callprototype), lanes of a warp calling different functions, calls under a
// divergent predicate, and recursion (direct, mutual, through a pointer), with their errors.
#include <gtest/gtest.h>

#include "harness.h"

namespace warpsim::test {
namespace {

std::string error_of(const std::string& body, uint32_t threads = 1, const std::string& extra = "") {
  try {
    SnippetRun r;
    r.run(body, threads, extra);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// int -> int device functions as nvcc writes them, and a table of their addresses.
const std::string kFuncs =
    ".func (.param .b32 rv) add1(.param .b32 x)\n{\n  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [x];\n  add.s32 %r2, %r1, 1;\n  st.param.b32 [rv+0], %r2;\n  ret;\n}\n"
    ".func (.param .b32 rv) dbl(.param .b32 x)\n{\n  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [x];\n  shl.b32 %r2, %r1, 1;\n  st.param.b32 [rv+0], %r2;\n  ret;\n}\n"
    ".func (.param .b32 rv) sq(.param .b32 x)\n{\n  .reg .b32 %r<3>;\n"
    "  ld.param.u32 %r1, [x];\n  mul.lo.s32 %r2, %r1, %r1;\n  st.param.b32 [rv+0], %r2;\n  ret;\n}\n"
    ".global .align 8 .u64 table[3] = {add1, dbl, sq};\n";

// Recursive functions: factorial, Fibonacci (a value live across the second call), a function
// keeping values in its local frame across the recursive call, and mutual recursion.
const std::string kRecursive =
    ".func (.param .b32 rv) fact(.param .b32 n)\n{\n  .reg .b32 %r<6>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r5, 1;\n  setp.le.s32 %p1, %r1, 1;\n  @%p1 bra DONE;\n"
    "  add.s32 %r2, %r1, -1;\n"
    "  { .param .b32 param0; st.param.b32 [param0+0], %r2; .param .b32 retval0;\n"
    "    call.uni (retval0), fact, (param0); ld.param.b32 %r3, [retval0+0]; }\n"
    "  mul.lo.s32 %r5, %r3, %r1;\nDONE:\n  st.param.b32 [rv+0], %r5;\n  ret;\n}\n"
    ".func (.param .b32 rv) fib(.param .b32 n)\n{\n  .reg .b32 %r<9>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r8, [n];\n  setp.lt.s32 %p1, %r8, 2;\n  @%p1 bra DONE;\n"
    "  add.s32 %r4, %r8, -1;\n"
    "  { .param .b32 param0; st.param.b32 [param0+0], %r4; .param .b32 retval0;\n"
    "    call.uni (retval0), fib, (param0); ld.param.b32 %r5, [retval0+0]; }\n"
    "  add.s32 %r6, %r8, -2;\n"
    "  { .param .b32 param0; st.param.b32 [param0+0], %r6; .param .b32 retval0;\n"
    "    call.uni (retval0), fib, (param0); ld.param.b32 %r7, [retval0+0]; }\n"
    "  add.s32 %r8, %r7, %r5;\nDONE:\n  st.param.b32 [rv+0], %r8;\n  ret;\n}\n"
    // sumloc(n) = 3n + n + sumloc(n - 1), sumloc(0) = 0, i.e. 2n(n + 1); 3n and n stay in the
    // function's .local array while the deeper activations use the same memory.
    ".func (.param .b32 rv) sumloc(.param .b32 n)\n{\n  .local .align 4 .b8 buf[8];\n"
    "  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u64 %rd1, buf;\n  mul.lo.s32 %r2, %r1, 3;\n"
    "  st.local.u32 [%rd1], %r2;\n  st.local.u32 [buf+4], %r1;\n  mov.u32 %r6, 0;\n"
    "  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra END;\n  add.s32 %r3, %r1, -1;\n"
    "  { .param .b32 p0; st.param.b32 [p0], %r3; .param .b32 r0;\n"
    "    call (r0), sumloc, (p0); ld.param.b32 %r6, [r0]; }\n"
    "END:\n  ld.local.u32 %r4, [%rd1];\n  ld.local.u32 %r5, [buf+4];\n  add.s32 %r7, %r4, %r5;\n"
    "  add.s32 %r7, %r7, %r6;\n  st.param.b32 [rv], %r7;\n  ret;\n}\n"
    ".func (.param .b32 rv) is_odd(.param .b32 n);\n"
    ".func (.param .b32 rv) is_even(.param .b32 n)\n{\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r3, 1;\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra E;\n"
    "  add.s32 %r2, %r1, -1;\n"
    "  { .param .b32 a; st.param.b32 [a], %r2; .param .b32 r; call (r), is_odd, (a); ld.param.b32 %r3, [r]; }\n"
    "E:\n  st.param.b32 [rv], %r3;\n  ret;\n}\n"
    ".func (.param .b32 rv) is_odd(.param .b32 n)\n{\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r3, 0;\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra O;\n"
    "  add.s32 %r2, %r1, -1;\n"
    "  { .param .b32 a; st.param.b32 [a], %r2; .param .b32 r; call (r), is_even, (a); ld.param.b32 %r3, [r]; }\n"
    "O:\n  st.param.b32 [rv], %r3;\n  ret;\n}\n";

// An indirect call of the function at %rd4 with argument %r2, result in %r3.
std::string indirect_call(const std::string& guard = "", const std::string& proto = "prototype_0") {
  return "{ .reg .b32 temp_param_reg;\n  .param .b32 param0;\n  st.param.b32 [param0+0], %r2;\n"
         "  .param .b32 retval0;\n"
         "  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n  " +
         guard + "call (retval0), \n  %rd4, \n  (\n  param0\n  )\n  , " + proto + ";\n  " + guard +
         "ld.param.b32 %r3, [retval0+0];\n}\n";
}

uint32_t fact(uint32_t n) { return n <= 1 ? 1 : n * fact(n - 1); }
uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

TEST(Calls, IndirectCallThroughAGlobalTable) {
  // Every lane calls table[1] (dbl).
  SnippetRun r;
  auto& out = r.run("mov.u64 %rd1, table; ld.global.u64 %rd4, [%rd1+8]; add.s32 %r2, %r99, 5;\n" + indirect_call() +
                        "st.global.u32 [%rd99], %r3;",
                    40, kFuncs);
  for (uint32_t t = 0; t < 40; ++t) EXPECT_EQ(out[t * 16] & 0xffffffffu, 2 * (t + 5)) << t;
}

TEST(Calls, DivergentIndirectCallsRunEachTargetAndReconverge) {
  // Lane t calls table[t % 3] with t + 5; after the call all lanes run together again.
  SnippetRun r;
  auto& out = r.run(
      "mov.u64 %rd1, table; rem.u32 %r1, %r99, 3; mul.wide.u32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2;\n"
      "ld.global.u64 %rd4, [%rd3]; add.s32 %r2, %r99, 5;\n" +
          indirect_call() + "activemask.b32 %r4;\nst.global.u32 [%rd99], %r3; st.global.u32 [%rd99+4], %r4;",
      64, kFuncs);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t x = t + 5;
    uint32_t want = t % 3 == 0 ? x + 1 : t % 3 == 1 ? 2 * x : x * x;
    EXPECT_EQ(out[t * 16] & 0xffffffffu, want) << t;
    EXPECT_EQ(out[t * 16] >> 32, 0xffffffffu) << t;
  }
}

TEST(Calls, FunctionAddressesFromMovAndPredicatedCalls) {
  // Addresses taken with mov, chosen per lane with selp; the call itself is predicated by a
  // divergent predicate (lanes 20.. skip it and keep 77), and a direct call is too.
  SnippetRun r;
  auto& out = r.run(
      "mov.u64 %rd5, dbl; mov.u64 %rd6, sq; setp.lt.u32 %p1, %r99, 7; selp.b64 %rd4, %rd5, %rd6, %p1;\n"
      "setp.lt.u32 %p2, %r99, 20; mov.u32 %r3, 77; mov.u32 %r2, %r99;\n" +
          indirect_call("@%p2 ") +
          "mov.u32 %r5, 99;\n"
          "{ .param .b32 q; st.param.b32 [q], %r99; .param .b32 qr;\n"
          "  @!%p1 call (qr), add1, (q); @!%p1 ld.param.b32 %r5, [qr]; }\n"
          "st.global.u32 [%rd99], %r3; st.global.u32 [%rd99+4], %r5;\n"
          "mov.u64 %rd7, table; st.global.u64 [%rd99+8], %rd5; ld.global.u64 %rd8, [%rd7+8]; st.global.u64 [%rd99+16], "
          "%rd8;",
      32, kFuncs);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t want = t >= 20 ? 77 : t < 7 ? 2 * t : t * t;
    EXPECT_EQ(out[t * 16] & 0xffffffffu, want) << t;
    EXPECT_EQ(out[t * 16] >> 32, t < 7 ? 99 : t + 1) << t;
    // mov.u64 %rd, dbl gives the address the initializer of table[1] holds.
    EXPECT_EQ(out[t * 16 + 1], out[t * 16 + 2]) << t;
    EXPECT_EQ(out[t * 16 + 1] >> 48, 0xfeu) << t;
  }
}

TEST(Calls, RecursionWithDivergentDepth) {
  // fact(t % 13), fib(t % 18), sumloc(t % 9), is_even(t): every lane at its own depth.
  const std::string call =
      "{ .param .b32 a; st.param.b32 [a], %r2; .param .b32 r; call.uni (r), FN, (a); ld.param.b32 %r3, [r]; }\n";
  auto with = [&](const std::string& fn) {
    std::string c = call;
    c.replace(c.find("FN"), 2, fn);
    return c;
  };
  SnippetRun r;
  auto& out = r.run("rem.u32 %r2, %r99, 13;\n" + with("fact") +
                        "st.global.u32 [%rd99], %r3;\n"
                        "rem.u32 %r2, %r99, 18;\n" +
                        with("fib") +
                        "st.global.u32 [%rd99+4], %r3;\n"
                        "rem.u32 %r2, %r99, 9;\n" +
                        with("sumloc") +
                        "st.global.u32 [%rd99+8], %r3;\n"
                        "mov.u32 %r2, %r99;\n" +
                        with("is_even") + "st.global.u32 [%rd99+12], %r3;\n",
                    64, kRecursive);
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t * 16] & 0xffffffffu, fact(t % 13)) << t;
    EXPECT_EQ(out[t * 16] >> 32, fib(t % 18)) << t;
    uint32_t n = t % 9;
    EXPECT_EQ(out[t * 16 + 1] & 0xffffffffu, 2 * n * (n + 1)) << t;
    EXPECT_EQ(out[t * 16 + 1] >> 32, t % 2 == 0 ? 1u : 0u) << t;
  }
}

TEST(Calls, RecursiveFunctionsCalledThroughPointersByDivergentLanes) {
  // Lane t calls rtable[t % 3] (fact, fib, sumloc) with t % 11: the targets run one after the
  // other, each recursing; fact also recurses through a pointer of its own.
  const std::string extra =
      kRecursive +
      ".func (.param .b32 rv) pfact(.param .b32 n)\n{\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
      "  .reg .pred %p<2>;\n"
      "  ld.param.u32 %r1, [n];\n  mov.u32 %r5, 1;\n  setp.le.s32 %p1, %r1, 1;\n  @%p1 bra DONE;\n"
      "  add.s32 %r2, %r1, -1;\n  mov.u64 %rd1, rtable;\n  ld.global.u64 %rd2, [%rd1+24];\n"
      "  { .param .b32 param0; st.param.b32 [param0+0], %r2; .param .b32 retval0;\n"
      "    pr : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      "    call (retval0), %rd2, (param0), pr; ld.param.b32 %r3, [retval0+0]; }\n"
      "  mul.lo.s32 %r5, %r3, %r1;\nDONE:\n  st.param.b32 [rv+0], %r5;\n  ret;\n}\n"
      ".global .align 8 .u64 rtable[4] = {pfact, fib, sumloc, pfact};\n";
  SnippetRun r;
  auto& out = r.run(
      "mov.u64 %rd1, rtable; rem.u32 %r1, %r99, 3; mul.wide.u32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2;\n"
      "ld.global.u64 %rd4, [%rd3]; rem.u32 %r2, %r99, 11;\n" +
          indirect_call() + "st.global.u32 [%rd99], %r3;",
      64, extra);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t n = t % 11;
    uint32_t want = t % 3 == 0 ? fact(n) : t % 3 == 1 ? fib(n) : 2 * n * (n + 1);
    EXPECT_EQ(out[t * 16] & 0xffffffffu, want) << t;
  }
}

// The timing model sees one warp instruction for the call, each target's instructions with its
// lanes (diverged), and the code after the call with the whole warp again.
TEST(Calls, DivergentIndirectCallTrace) {
  std::vector<WarpStream> warps;
  SnippetRun r;
  r.target.set_observer([&](const KernelInfo&, const CtaStreams& t) {
    for (const auto& w : t.warps) warps.push_back(w);
  });
  r.run(
      "mov.u64 %rd1, table; and.b32 %r1, %r99, 1; mul.wide.u32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2;\n"
      "ld.global.u64 %rd4, [%rd3]; mov.u32 %r2, %r99;\n" +
          indirect_call() + "st.global.u32 [%rd99], %r3;",
      32, kFuncs);
  ASSERT_EQ(warps.size(), 1u);
  const auto& in = warps[0].insts;
  size_t call = 0;
  while (call < in.size() && in[call].op != OpClass::BRANCH) ++call;
  ASSERT_LT(call + 1, in.size());
  const uint32_t call_pc = in[call].pc;
  EXPECT_EQ(in[call].active_mask, 0xffffffffu);
  EXPECT_EQ(in[call].flags & kFlagDiverged, 0);
  size_t n_call = 0;
  for (const auto& i : in) n_call += i.pc == call_pc;
  EXPECT_EQ(n_call, 1u);
  size_t after = call + 1;
  while (after < in.size() && in[after].pc != call_pc + 8) ++after;
  ASSERT_LT(after, in.size());
  // add1 (even lanes), then dbl (odd lanes): ld.param, add/shl, st.param, ret each.
  EXPECT_EQ(after - call - 1, 8u);
  size_t even = 0, odd = 0;
  for (size_t i = call + 1; i < after; ++i) {
    EXPECT_NE(in[i].flags & kFlagDiverged, 0) << i;
    even += in[i].active_mask == 0x55555555u;
    odd += in[i].active_mask == 0xaaaaaaaau;
  }
  EXPECT_EQ(even, 4u);
  EXPECT_EQ(odd, 4u);
  EXPECT_EQ(in[after].active_mask, 0xffffffffu);  // the ld.param of the result, whole warp
  EXPECT_EQ(in[after].flags & kFlagDiverged, 0);
  // Lane order: the group of lane 0 runs first.
  EXPECT_EQ(in[call + 1].active_mask, 0x55555555u);
}

// Lanes that exit inside a callee leave the others running: a whole target of an indirect call
// exiting, and lanes exiting at the bottom of a recursion (every lane of the deepest activation,
// some lanes of the others).
TEST(Calls, LanesExitingInsideCallsLeaveTheOthersRunning) {
  const std::string quit =
      ".func (.param .b32 rv) quit(.param .b32 x)\n{\n  exit;\n}\n"
      ".global .align 8 .u64 qtable[2] = {quit, add1};\n";
  SnippetRun r;
  auto& out = r.run(
      "mov.u64 %rd1, qtable; and.b32 %r1, %r99, 1; mul.wide.u32 %rd2, %r1, 8; add.s64 %rd3, %rd1, %rd2;\n"
      "ld.global.u64 %rd4, [%rd3]; mov.u32 %r2, %r99;\n" +
          indirect_call() + "activemask.b32 %r4;\nst.global.u32 [%rd99], %r3; st.global.u32 [%rd99+4], %r4;",
      32, kFuncs + quit);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(out[t * 16], t % 2 ? (uint64_t(0xaaaaaaaau) << 32) | (t + 1) : 0u) << t;

  // rexit(n, q) = n + rexit(n - 1, q), rexit(0, 0) = 0; rexit(0, 1) exits.
  const std::string rexit =
      ".func (.param .b32 rv) rexit(.param .b32 n, .param .b32 q)\n{\n  .reg .b32 %r<6>;\n  .reg .pred %p<3>;\n"
      "  ld.param.u32 %r1, [n];\n  ld.param.u32 %r2, [q];\n  mov.u32 %r5, 0;\n"
      "  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra BOTTOM;\n  add.s32 %r3, %r1, -1;\n"
      "  { .param .b32 a; st.param.b32 [a], %r3; .param .b32 b; st.param.b32 [b], %r2; .param .b32 r;\n"
      "    call (r), rexit, (a, b); ld.param.b32 %r4, [r]; }\n"
      "  add.s32 %r5, %r4, %r1;\n  bra.uni OUT;\nBOTTOM:\n  setp.ne.s32 %p2, %r2, 0;\n  @%p2 exit;\n"
      "OUT:\n  st.param.b32 [rv], %r5;\n  ret;\n}\n";
  SnippetRun r2;
  // n = t % 6; lanes with n = 5 (the deepest) and lanes t % 4 == 1 exit.
  auto& out2 = r2.run(
      "rem.u32 %r2, %r99, 6; setp.eq.u32 %p1, %r2, 5; and.b32 %r5, %r99, 3; setp.eq.u32 %p2, %r5, 1; or.pred %p3, %p1, "
      "%p2;\n"
      "selp.u32 %r6, 1, 0, %p3;\n"
      "{ .param .b32 a; st.param.b32 [a], %r2; .param .b32 b; st.param.b32 [b], %r6; .param .b32 r;\n"
      "  call (r), rexit, (a, b); ld.param.b32 %r3, [r]; }\n"
      "add.s32 %r3, %r3, 1000; st.global.u32 [%rd99], %r3;",
      64, rexit);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t n = t % 6;
    bool quits = n == 5 || t % 4 == 1;
    EXPECT_EQ(out2[t * 16], quits ? 0u : 1000 + n * (n + 1) / 2) << t;
  }
}

TEST(Calls, BadTargetsAreLocatedErrors) {
  const std::string setup = "mov.u64 %rd1, table; mov.u32 %r2, 1;\n";
  // A null pointer in lane 1 (lane 0 holds add1).
  std::string e = error_of(
      setup + "setp.eq.u32 %p1, %r99, 0; mov.u64 %rd5, add1; mov.u64 %rd6, 0; selp.b64 %rd4, %rd5, %rd6, %p1;\n" +
          indirect_call() + "st.global.u32 [%rd99], %r3;",
      2, kFuncs);
  EXPECT_NE(e.find("indirect call through 0x0 (a null function pointer), which is not the address of a function"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("kernel 't', CTA (0,0,0), thread (1,0,0)"), std::string::npos) << e;
  EXPECT_NE(e.find("(snippet.ptx:"), std::string::npos) << e;
  // A data address, and an arbitrary value.
  e = error_of(setup + "mov.u64 %rd4, table;\n" + indirect_call(), 1, kFuncs);
  EXPECT_NE(e.find("which is not the address of a function"), std::string::npos) << e;
  e = error_of(setup + "mov.u64 %rd4, 0xfe000000000008;\n" + indirect_call(), 1, kFuncs);
  EXPECT_NE(e.find("indirect call through 0xfe000000000008, which is not the address of a function"), std::string::npos)
      << e;
  // A kernel, a function without a body, a function of another signature.
  e = error_of(setup + "mov.u64 %rd4, t;\n" + indirect_call(), 1, kFuncs);
  EXPECT_NE(e.find("indirect call to 't', which is a kernel"), std::string::npos) << e;
  const std::string more = kFuncs +
                           ".extern .func (.param .b32 rv) elsewhere(.param .b32 x);\n"
                           ".func (.param .b32 rv) add2(.param .b32 x, .param .b32 y)\n{\n  ret;\n}\n";
  e = error_of(setup + "mov.u64 %rd4, elsewhere;\n" + indirect_call(), 1, more);
  EXPECT_NE(e.find("indirect call to 'elsewhere', which has no body in this module"), std::string::npos) << e;
  e = error_of(setup + "mov.u64 %rd4, add2;\n" + indirect_call(), 1, more);
  EXPECT_NE(e.find("indirect call to 'add2' passes 1 argument and 1 return value, the function declares 2 parameters "
                   "and 1 return value"),
            std::string::npos)
      << e;
}

TEST(Calls, UnboundedRecursionHitsTheDepthLimit) {
  const std::string extra =
      ".func (.param .b32 rv) down(.param .b32 n)\n{\n  .reg .b32 %r<4>;\n"
      "  ld.param.u32 %r1, [n];\n  add.s32 %r2, %r1, 1;\n"
      "  { .param .b32 a; st.param.b32 [a], %r2; .param .b32 r; call.uni (r), down, (a); ld.param.b32 %r3, [r]; }\n"
      "  st.param.b32 [rv], %r3;\n  ret;\n}\n";
  std::string e = error_of(
      "mov.u32 %r2, 0;\n{ .param .b32 a; st.param.b32 [a], %r2; .param .b32 r; call.uni (r), down, (a); ld.param.b32 "
      "%r3, [r]; }\n",
      32, extra);
  EXPECT_NE(e.find("call depth limit of 1024 exceeded calling 'down' (unbounded recursion?)"), std::string::npos) << e;
  EXPECT_NE(e.find("kernel 't', CTA (0,0,0), thread (0,0,0)"), std::string::npos) << e;
}

TEST(Calls, DecodeErrors) {
  EXPECT_NE(load_error(wrap_kernel("mov.u64 %rd4, add1; mov.u32 %r2, 1;\n" + indirect_call("", "nosuch"), kFuncs))
                .find("undefined call prototype 'nosuch'"),
            std::string::npos);
  EXPECT_NE(load_error(wrap_kernel("mov.u64 %rd4, add1; mov.u32 %r2, 1;\n" + indirect_call("", "table"), kFuncs))
                .find("list of call targets ('table') are not supported"),
            std::string::npos);
  std::string e =
      load_error(wrap_kernel("{ .param .b32 a; .param .b32 r; p: .callprototype (.param .b32 _) _ ();\n"
                             "call (r), %rd4, (a), p; }",
                             kFuncs));
  EXPECT_NE(e.find("call passes 1 argument and 1 return value, prototype 'p' declares 0 parameters and 1 return value"),
            std::string::npos)
      << e;
  e = load_error(
      wrap_kernel("{ .param .b32 r; p: .callprototype (.param .b32 _) _ (); call (r), %r4, (), p; }", kFuncs));
  EXPECT_NE(e.find("expected 64-bit"), std::string::npos) << e;
  e = load_error(wrap_kernel("{ .callprototype _ (); }", kFuncs));
  EXPECT_NE(e.find(".callprototype needs a label"), std::string::npos) << e;
  e = load_error(wrap_kernel("{ .param .b32 r; call (r), %rd4; }", kFuncs));
  EXPECT_NE(e.find("indirect call without a .callprototype label"), std::string::npos) << e;
  e = load_error(wrap_kernel("mov.f64 %fd1, add1;", kFuncs));
  EXPECT_NE(e.find("the address of function 'add1' needs a 64-bit integer operand"), std::string::npos) << e;
}

}  // namespace
}  // namespace warpsim::test

// The PTX instruction table (src/ptx/decoder.cc, kInstructions): every row gives its mnemonic the
// unit, operation class and latency class GPGPU-Sim gives it (docs/timing-model.md, "Instruction
// classes"). One representative instruction per row, decoded, with the class written out here by
// hand: a wrong row, or a row added without a line here, fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.h"
#include "harness.h"
#include "ptx/decoder.h"
#include "ptx/parser.h"

namespace warpsim::test {
namespace {

struct Pinned {
  const char* key;   // the table row it exercises
  const char* body;  // its first instruction is the one checked
  Unit unit;
  OpClass op;
  uint8_t lat;
  Unit latency_unit = Unit::kCount;
  const char* extra = "";  // module-level declarations
};

const char* kFunc = ".func f()\n{\nret;\n}\n";
const char* kVprintf =
    ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n";

// clang-format off
const Pinned kPinned[] = {
    {"abs",        "abs.s32 %r1, %r2;",                          Unit::INT,    OpClass::ALU,     kLatAlu},
    {"activemask", "activemask.b32 %r1;",                        Unit::INT,    OpClass::ALU,     kLatAlu},
    {"add",        "add.s32 %r1, %r2, %r3;",                     Unit::INT,    OpClass::ALU,     kLatDefault},
    {"addc",       "addc.u32 %r1, %r2, %r3;",                    Unit::INT,    OpClass::ALU,     kLatDefault},
    {"and",        "and.b32 %r1, %r2, %r3;",                     Unit::INT,    OpClass::ALU,     kLatAlu},
    {"atom",       "atom.global.add.u32 %r1, [%rd1], 1;",        Unit::MEM,    OpClass::ATOMIC,  kLatDefault},
    {"bar",        "bar.sync 0;",                                Unit::BRANCH, OpClass::BARRIER, kLatAlu},
    {"bar.warp",   "bar.warp.sync -1;",                          Unit::INT,    OpClass::NOP,     kLatAlu},
    {"barrier",    "barrier.sync 1;",                            Unit::BRANCH, OpClass::BARRIER, kLatAlu},
    {"bfe",        "bfe.u32 %r1, %r2, %r3, %r4;",                Unit::INT,    OpClass::ALU,     kLatAlu},
    {"bfi",        "bfi.b32 %r1, %r2, %r3, %r4, %r5;",           Unit::INT,    OpClass::ALU,     kLatAlu},
    {"bfind",      "bfind.u32 %r1, %r2;",                        Unit::INT,    OpClass::ALU,     kLatAlu},
    {"bmsk",       "bmsk.clamp.b32 %r1, %r2, %r3;",              Unit::INT,    OpClass::ALU,     kLatAlu},
    {"bra",        "bra L;\nL:",                                 Unit::BRANCH, OpClass::BRANCH,  kLatAlu},
    {"brev",       "brev.b32 %r1, %r2;",                         Unit::INT,    OpClass::ALU,     kLatAlu},
    {"brkpt",      "brkpt;",                                     Unit::BRANCH, OpClass::EXIT,    kLatAlu},
    {"call",       "call f;",                                    Unit::BRANCH, OpClass::BRANCH,  kLatAlu, Unit::kCount, kFunc},
    {"clz",        "clz.b32 %r1, %r2;",                          Unit::INT,    OpClass::ALU,     kLatAlu},
    {"cnot",       "cnot.b32 %r1, %r2;",                         Unit::INT,    OpClass::ALU,     kLatAlu},
    {"copysign",   "copysign.f32 %f1, %f2, %f3;",                Unit::INT,    OpClass::ALU,     kLatAlu},
    {"cos",        "cos.approx.f32 %f1, %f2;",                   Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"cvt",        "cvt.rn.f32.s32 %f1, %r2;",                   Unit::INT,    OpClass::ALU,     kLatAlu},
    {"cvta",       "cvta.to.global.u64 %rd1, %rd2;",             Unit::INT,    OpClass::ALU,     kLatAlu},
    {"div",        "div.rn.f64 %fd1, %fd2, %fd3;",               Unit::SFU,    OpClass::ALU,     kLatDiv, Unit::DP},
    {"ex2",        "ex2.approx.f32 %f1, %f2;",                   Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"exit",       "exit;",                                      Unit::BRANCH, OpClass::EXIT,    kLatAlu},
    {"fence",      "fence.acq_rel.gpu;",                         Unit::MEM,    OpClass::MEMBAR,  kLatDefault},
    {"fma",        "fma.rn.f32 %f1, %f2, %f3, %f4;",             Unit::SP,     OpClass::ALU,     kLatMad},
    {"ld",         "ld.global.u32 %r1, [%rd1];",                 Unit::MEM,    OpClass::LOAD,    kLatDefault},
    {"ldu",        "ldu.global.f32 %f1, [%rd1];",                Unit::MEM,    OpClass::LOAD,    kLatDefault},
    {"lg2",        "lg2.approx.f32 %f1, %f2;",                   Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"lop3",       "lop3.b32 %r1, %r2, %r3, %r4, 0x96;",         Unit::INT,    OpClass::ALU,     kLatAlu},
    {"mad",        "mad.rn.f64 %fd1, %fd2, %fd3, %fd4;",         Unit::DP,     OpClass::ALU,     kLatMad},
    {"mad24",      "mad24.lo.u32 %r1, %r2, %r3, %r4;",           Unit::INT,    OpClass::ALU,     kLatMad},
    {"madc",       "madc.lo.u32 %r1, %r2, %r3, %r4;",            Unit::INT,    OpClass::ALU,     kLatMad},
    {"match",      "match.any.sync.b32 %r1, %r2, -1;",           Unit::INT,    OpClass::ALU,     kLatAlu},
    {"max",        "max.s32 %r1, %r2, %r3;",                     Unit::INT,    OpClass::ALU,     kLatMax},
    {"membar",     "membar.gl;",                                 Unit::MEM,    OpClass::MEMBAR,  kLatDefault},
    {"min",        "min.f64 %fd1, %fd2, %fd3;",                  Unit::DP,     OpClass::ALU,     kLatMax},
    {"mov",        "mov.u32 %r1, %r2;",                          Unit::INT,    OpClass::ALU,     kLatAlu},
    {"mul",        "mul.f32 %f1, %f2, %f3;",                     Unit::SP,     OpClass::ALU,     kLatMul},
    {"mul24",      "mul24.lo.s32 %r1, %r2, %r3;",                Unit::INT,    OpClass::ALU,     kLatMul},
    {"nanosleep",  "nanosleep.u32 100;",                         Unit::INT,    OpClass::NOP,     kLatAlu},
    {"neg",        "neg.f32 %f1, %f2;",                          Unit::INT,    OpClass::ALU,     kLatAlu},
    {"not",        "not.b32 %r1, %r2;",                          Unit::INT,    OpClass::ALU,     kLatAlu},
    {"or",         "or.b32 %r1, %r2, %r3;",                      Unit::INT,    OpClass::ALU,     kLatAlu},
    {"pmevent",    "pmevent 1;",                                 Unit::INT,    OpClass::NOP,     kLatAlu},
    {"popc",       "popc.b32 %r1, %r2;",                         Unit::INT,    OpClass::ALU,     kLatAlu},
    {"prmt",       "prmt.b32 %r1, %r2, %r3, %r4;",               Unit::INT,    OpClass::ALU,     kLatAlu},
    {"rcp",        "rcp.rn.f32 %f1, %f2;",                       Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"red",        "red.global.add.u32 [%rd1], 1;",              Unit::MEM,    OpClass::ATOMIC,  kLatDefault},
    {"rem",        "rem.s32 %r1, %r2, %r3;",                     Unit::SFU,    OpClass::ALU,     kLatDiv, Unit::INT},
    {"ret",        "ret;",                                       Unit::BRANCH, OpClass::BRANCH,  kLatAlu},
    {"rsqrt",      "rsqrt.approx.f32 %f1, %f2;",                 Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"sad",        "sad.u32 %r1, %r2, %r3, %r4;",                Unit::INT,    OpClass::ALU,     kLatAlu},
    {"selp",       "selp.b32 %r1, %r2, %r3, %p1;",               Unit::INT,    OpClass::ALU,     kLatAlu},
    {"set",        "set.lt.u32.s32 %r1, %r2, %r3;",              Unit::INT,    OpClass::ALU,     kLatAlu},
    {"setp",       "setp.lt.f64 %p1, %fd1, %fd2;",               Unit::INT,    OpClass::ALU,     kLatAlu},
    {"shf",        "shf.l.wrap.b32 %r1, %r2, %r3, %r4;",         Unit::INT,    OpClass::ALU,     kLatAlu},
    {"shfl",       "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;",    Unit::INT,    OpClass::ALU,     kLatShfl},
    {"shl",        "shl.b32 %r1, %r2, 3;",                       Unit::INT,    OpClass::ALU,     kLatAlu},
    {"shr",        "shr.u32 %r1, %r2, 3;",                       Unit::INT,    OpClass::ALU,     kLatAlu},
    {"sin",        "sin.approx.f32 %f1, %f2;",                   Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"sqrt",       "sqrt.rn.f64 %fd1, %fd2;",                    Unit::SFU,    OpClass::ALU,     kLatTrans},
    {"st",         "st.shared.u32 [%r1], %r2;",                  Unit::MEM,    OpClass::STORE,   kLatDefault},
    {"sub",        "sub.f32 %f1, %f2, %f3;",                     Unit::SP,     OpClass::ALU,     kLatDefault},
    {"subc",       "subc.u32 %r1, %r2, %r3;",                    Unit::INT,    OpClass::ALU,     kLatDefault},
    {"suld",       "suld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];", Unit::MEM, OpClass::LOAD,    kLatDefault},
    {"suq",        "suq.width.b32 %r1, [%rd1];",                 Unit::INT,    OpClass::ALU,     kLatAlu},
    {"sust",       "sust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r1};", Unit::MEM, OpClass::STORE,   kLatDefault},
    {"szext",      "szext.wrap.u32 %r1, %r2, %r3;",              Unit::INT,    OpClass::ALU,     kLatAlu},
    {"tanh",       "tanh.approx.f32 %f1, %f2;",                  Unit::INT,    OpClass::ALU,     kLatAlu},
    {"testp",      "testp.finite.f32 %p1, %f1;",                 Unit::INT,    OpClass::ALU,     kLatAlu},
    {"tex",        "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];",
                                                                 Unit::MEM,    OpClass::LOAD,    kLatDefault},
    {"tld4",       "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];",
                                                                 Unit::MEM,    OpClass::LOAD,    kLatDefault},
    {"trap",       "trap;",                                      Unit::BRANCH, OpClass::EXIT,    kLatAlu},
    {"txq",        "txq.width.b32 %r1, [%rd1];",                 Unit::INT,    OpClass::ALU,     kLatAlu},
    {"vabsdiff2", "vabsdiff2.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vabsdiff4", "vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vadd2", "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vadd4", "vadd4.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vavrg2", "vavrg2.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vavrg4", "vavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vmax2", "vmax2.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vmax4", "vmax4.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vmin2", "vmin2.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vmin4", "vmin4.u32.u32.u32 %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vote",       "vote.sync.any.pred %p1, %p2, -1;",           Unit::INT,    OpClass::ALU,     kLatAlu},
    {"vsub2", "vsub2.s32.s32.s32.add %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"vsub4", "vsub4.s32.s32.s32.add %r1, %r2, %r3, %r4;", Unit::INT, OpClass::ALU, kLatAlu},
    {"wmma.load",  "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];",
                                                                 Unit::MEM,    OpClass::LOAD,    kLatDefault},
    {"wmma.mma",   "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, "
                   "{%r8, %r9}, {%r10, %r11}, {%r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19};",
                                                                 Unit::SP,     OpClass::ALU,     kLatMma},
    {"wmma.store", "wmma.store.d.sync.aligned.col.m16n16k16.f32 [%rd1], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, 16;",
                                                                 Unit::MEM,    OpClass::STORE,   kLatDefault},
    {"xor",        "xor.b32 %r1, %r2, %r3;",                     Unit::INT,    OpClass::ALU,     kLatAlu},
};
// clang-format on

// The trace template of the first instruction of `body` (after the wrapper's 4-instruction prologue).
WarpInst decoded(const std::string& body, const std::string& extra = "") {
  ptx::Module m = ptx::parse_module(wrap_kernel(body, extra), "classes.ptx");
  auto prog = ptx::decode_kernel(m, "t", {});
  return prog->insts.at(4).tmpl;
}

TEST(InstructionTable, EveryRowGivesItsClass) {
  for (const Pinned& p : kPinned) {
    SCOPED_TRACE(p.body);
    WarpInst w;
    ASSERT_NO_THROW(w = decoded(p.body, p.extra));
    EXPECT_EQ(w.unit, p.unit);
    EXPECT_EQ(w.op, p.op);
    EXPECT_EQ(int(w.latency_class), int(p.lat));
    EXPECT_EQ(w.latency_unit, p.latency_unit);
    EXPECT_EQ((w.flags & kFlagLongLatency) != 0, p.lat == kLatDiv);
  }
}

TEST(InstructionTable, EveryRowIsPinned) {
  std::set<std::string> pinned;
  for (const Pinned& p : kPinned) pinned.insert(p.key);
  std::set<std::string> rows;
  for (const auto& r : ptx::instruction_classes()) {
    rows.insert(std::string(r.mnemonic));
    EXPECT_TRUE(pinned.count(std::string(r.mnemonic))) << "row '" << r.mnemonic << "' has no pinned class in this test";
  }
  for (const auto& k : pinned) EXPECT_TRUE(rows.count(k)) << "pinned '" << k << "' is no row of the table";
  EXPECT_EQ(rows.size(), std::size(kPinned));
}

// The arithmetic rows take their unit from the instruction's type; the others do not.
TEST(InstructionTable, ArithmeticUnitFollowsTheType) {
  EXPECT_EQ(decoded("add.f32 %f1, %f2, %f3;").unit, Unit::SP);
  EXPECT_EQ(decoded("add.f64 %fd1, %fd2, %fd3;").unit, Unit::DP);
  EXPECT_EQ(decoded("add.u64 %rd1, %rd2, %rd3;").unit, Unit::INT);
  EXPECT_EQ(decoded("add.f16 %rs1, %rs2, %rs3;").unit, Unit::INT);
  EXPECT_EQ(decoded("div.rn.f32 %f1, %f2, %f3;").latency_unit, Unit::SP);
  EXPECT_EQ(decoded("div.u64 %rd1, %rd2, %rd3;").latency_unit, Unit::INT);
  EXPECT_EQ(decoded("abs.f64 %fd1, %fd2;").unit, Unit::INT);
  EXPECT_EQ(decoded("sqrt.rn.f64 %fd1, %fd2;").unit, Unit::SFU);
}

// Rows that decode into another operation: a call of a runtime function is one ALU instruction,
// and a function's end runs as exit.
TEST(InstructionTable, BuiltinCallsAndFunctionExits) {
  WarpInst w =
      decoded("{ .param .b64 p0; .param .b64 p1; .param .b32 rv; call.uni (rv), vprintf, (p0, p1); }", kVprintf);
  EXPECT_EQ(w.unit, Unit::INT);
  EXPECT_EQ(w.op, OpClass::ALU);
  EXPECT_EQ(int(w.latency_class), int(kLatAlu));
  w = decoded("{ .param .b64 p0; .param .b64 rv; call.uni (rv), malloc, (p0); }",
              ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n");
  EXPECT_EQ(w.unit, Unit::INT);
  EXPECT_EQ(w.op, OpClass::ALU);
  EXPECT_EQ(int(w.latency_class), int(kLatAlu));
  ptx::Module m = ptx::parse_module(wrap_kernel("call f;", kFunc), "classes.ptx");
  auto prog = ptx::decode_kernel(m, "t", {});
  for (const auto& fi : prog->funcs) {
    const WarpInst& ex = prog->insts.at(fi.exit).tmpl;
    EXPECT_EQ(ex.unit, Unit::BRANCH) << fi.name;
    EXPECT_EQ(ex.op, OpClass::EXIT) << fi.name;
    EXPECT_EQ(int(ex.latency_class), int(kLatAlu)) << fi.name;
  }
}

// bar.warp has a row of its own; other modifiers after bar are the bar row's.
TEST(InstructionTable, ModifierKeyWinsOverTheMnemonic) {
  EXPECT_EQ(decoded("bar.warp.sync -1;").op, OpClass::NOP);
  EXPECT_EQ(decoded("bar.arrive 1, 64;").op, OpClass::BARRIER);
  EXPECT_EQ(decoded("bar.cta.sync 0;").op, OpClass::BARRIER);
}

std::string read_source(const std::string& path) {
  std::ifstream f(std::string(WARPSIM_SOURCE_DIR) + "/" + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The worked example of docs/ptx.md ("Adding a PTX instruction") is the code as it is.
TEST(InstructionTable, WorkedExampleIsTheCode) {
  const std::string doc = read_source("docs/ptx.md");
  const std::string code = read_source("src/ptx/decoder.cc");
  ASSERT_FALSE(code.empty());
  size_t at = doc.find("\n## Adding a PTX instruction\n");
  ASSERT_NE(at, std::string::npos);
  const std::string section = doc.substr(at, doc.find("\n## ", at + 1) - at);
  int blocks = 0;
  for (size_t b = section.find("```cpp\n"); b != std::string::npos; b = section.find("```cpp\n", b)) {
    b += 7;
    size_t e = section.find("```", b);
    ASSERT_NE(e, std::string::npos);
    const std::string block = section.substr(b, e - b);
    EXPECT_NE(code.find(block), std::string::npos) << "not in src/ptx/decoder.cc:\n" << block;
    ++blocks;
    b = e + 3;
  }
  EXPECT_EQ(blocks, 2);
}

TEST(InstructionTable, UnknownMnemonicNamesTheInstructionAndLine) {
  const std::string text = wrap_kernel("add.s32 %r1, %r2, %r3;\nfrobnicate.u32 %r1, %r2;");
  const int line = 1 + int(std::count(text.begin(), text.begin() + long(text.find("frobnicate")), '\n'));
  ptx::Module m = ptx::parse_module(text, "classes.ptx");
  try {
    ptx::decode_kernel(m, "t", {});
    FAIL() << "unknown instruction accepted";
  } catch (const LocatedError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown instruction 'frobnicate.u32'"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), "classes.ptx");
    EXPECT_EQ(e.line(), line);
  }
}

}  // namespace
}  // namespace warpsim::test

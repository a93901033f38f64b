// The bundled SASS opcode tables and the table file format.
#include "trace/opcode_table.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

TEST(OpcodeTables, EachFamilyIsFound) {
  const std::string dir = default_sass_dir();
  const std::pair<uint32_t, const char*> want[] = {{61, "pascal"}, {60, "pascal"}, {70, "volta"},
                                                   {75, "turing"}, {80, "ampere"}, {86, "ampere"}};
  for (auto [version, family] : want) {
    OpcodeTable t = OpcodeTable::load(find_opcode_table(dir, version));
    EXPECT_EQ(t.family(), family) << version;
  }
  try {
    find_opcode_table(dir, 35);
    ADD_FAILURE() << "binary version 35 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no SASS opcode table for binary version 35"), std::string::npos);
  }
}

TEST(OpcodeTables, CommonMnemonicsMapAsExpected) {
  const std::string dir = default_sass_dir();
  for (uint32_t v : {61u, 70u, 75u, 86u}) {
    SCOPED_TRACE(v);
    OpcodeTable t = OpcodeTable::load(find_opcode_table(dir, v));
    auto get = [&](const char* op) {
      const OpcodeInfo* e = t.lookup(op);
      EXPECT_NE(e, nullptr) << op;
      return e ? *e : OpcodeInfo{};
    };
    EXPECT_EQ(get("FFMA").unit, Unit::SP);
    EXPECT_EQ(get("FFMA").latency_class, kLatMul);
    EXPECT_EQ(get("FADD.FTZ").latency_class, kLatDefault);
    EXPECT_EQ(get("MUFU.RSQ").unit, Unit::SFU);
    EXPECT_EQ(get("MUFU.RSQ").latency_class, kLatTrans);
    EXPECT_EQ(get("DFMA").unit, Unit::DP);
    EXPECT_EQ(get("IMAD.WIDE").latency_class, kLatMul);
    EXPECT_EQ(get("ISETP.GE.AND").unit, Unit::INT);
    EXPECT_EQ(get("LDG.E.128.SYS").op, OpClass::LOAD);
    EXPECT_EQ(get("LDG.E.128.SYS").space, MemSpace::Global);
    EXPECT_EQ(get("STS.128").space, MemSpace::Shared);
    EXPECT_EQ(get("LDL.LU").space, MemSpace::Local);
    EXPECT_EQ(get("STL").op, OpClass::STORE);
    EXPECT_EQ(get("LDC.64").space, MemSpace::Const);
    EXPECT_EQ(get("ATOMS.ADD").op, OpClass::ATOMIC);
    EXPECT_EQ(get("RED.E.ADD.F32.FTZ.RN.STRONG.GPU").space, MemSpace::Global);
    EXPECT_TRUE(get("LD.E").generic);
    EXPECT_TRUE(get("ATOM.E.ADD").generic);
    EXPECT_EQ(get("TEX.LL").space, MemSpace::Tex);
    EXPECT_EQ(get("BRA").op, OpClass::BRANCH);
    EXPECT_EQ(get("BAR.SYNC").op, OpClass::BARRIER);
    EXPECT_EQ(get("MEMBAR.GL").op, OpClass::MEMBAR);
    EXPECT_EQ(get("EXIT").op, OpClass::EXIT);
    EXPECT_EQ(get("NOP").op, OpClass::NOP);
    EXPECT_EQ(t.lookup("NOTANOPCODE"), nullptr);
    EXPECT_EQ(t.lookup(""), nullptr);
  }
  OpcodeTable volta = OpcodeTable::load(find_opcode_table(dir, 70));
  EXPECT_EQ(volta.lookup("IMAD.MOV.U32")->latency_class, kLatDefault);  // longest key wins
  EXPECT_EQ(volta.lookup("IMAD.MOVX")->latency_class, kLatMul);         // not a '.'-boundary match
  EXPECT_NE(OpcodeTable::load(find_opcode_table(dir, 80)).lookup("LDGSTS.E.BYPASS.128"), nullptr);
  EXPECT_NE(OpcodeTable::load(find_opcode_table(dir, 75)).lookup("ULDC.64"), nullptr);
  EXPECT_NE(OpcodeTable::load(find_opcode_table(dir, 61)).lookup("XMAD.PSL.CBCC"), nullptr);
}

TEST(OpcodeTables, FileFormatErrorsAreLocated) {
  auto error_of = [](const std::string& text) -> LocatedError {
    try {
      OpcodeTable::parse(text, "t.toml");
    } catch (const LocatedError& e) {
      return e;
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return LocatedError("", 0, 0, "");
  };
  LocatedError e = error_of("family = \"x\"\n[opcodes]\nFADD = { unit = \"sp\" }\nFOO = { unit = \"gpu\" }\n");
  EXPECT_EQ(e.file(), "t.toml");
  EXPECT_EQ(e.line(), 4);
  EXPECT_NE(std::string(e.what()).find("unknown unit 'gpu'"), std::string::npos) << e.what();
  e = error_of("[opcodes]\nLDX = { unit = \"mem\", op = \"load\" }\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(std::string(e.what()).find("needs a memory space"), std::string::npos) << e.what();
  e = error_of("[opcodes]\nFADD = { unit = \"sp\", latency = \"mul\" }\n");
  EXPECT_NE(std::string(e.what()).find("unknown field 'latency'"), std::string::npos) << e.what();
  e = error_of("[opcodes]\nFADD = { op = \"alu\" }\n");
  EXPECT_NE(std::string(e.what()).find("missing 'unit'"), std::string::npos) << e.what();
  e = error_of("[opcodes\n");
  EXPECT_EQ(e.line(), 1);
  e = error_of("colour = 3\n");
  EXPECT_NE(std::string(e.what()).find("unknown key 'colour'"), std::string::npos) << e.what();

  OpcodeTable t = OpcodeTable::parse(
      "family = \"mine\"\nbinary_versions = [90]\n[opcodes]\nFOO = { unit = \"dp\", op = "
      "\"store\", space = \"local\", "
      "lat = \"div\" }\n",
      "mine.toml");
  EXPECT_EQ(t.binary_versions(), std::vector<uint32_t>{90});
  const OpcodeInfo* foo = t.lookup("FOO.BAR");
  ASSERT_NE(foo, nullptr);
  EXPECT_EQ(foo->unit, Unit::DP);
  EXPECT_EQ(foo->op, OpClass::STORE);
  EXPECT_EQ(foo->space, MemSpace::Local);
  EXPECT_EQ(foo->latency_class, kLatDiv);
}

}  // namespace
}  // namespace warpsim

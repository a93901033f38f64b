// Malformed and truncated traces report the file, the line, the column and what was expected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "trace/trace_workload.h"
#include "trace_test_util.h"

namespace warpsim {
namespace {

using trace_test::TempDir;

// Lines 1..12 are the header and block preamble; the instructions start at line 13.
std::string trace_text(const std::vector<std::string>& body, const std::string& count = "3",
                       const std::string& header_extra = "") {
  std::string s =
      "-kernel name = bad\n"            // 1
      "-kernel id = 1\n"                // 2
      "-grid dim = (1,1,1)\n"           // 3
      "-block dim = (32,1,1)\n"         // 4
      "-binary version = 70\n"          // 5
      "-accelsim tracer version = 4\n"  // 6
      "-enable lineinfo = 0\n" +        // 7
      header_extra +
      "\n"                      // 8
      "#BEGIN_TB\n"             // 9
      "thread block = 0,0,0\n"  // 10
      "warp = 0\n"              // 11
      "insts = " +
      count + "\n";  // 12
  for (const std::string& l : body) s += l + "\n";
  return s;
}

const std::vector<std::string> kGood = {
    "0000 ffffffff 1 R1 MOV 1 R2 0",                                    // 13
    "0010 00000003 1 R4 LDG.E 1 R2 4 0 0x7f0000001000 0x7f0000001004",  // 14
    "0020 ffffffff 0 EXIT 0 0",                                         // 15
    "#END_TB",                                                          // 16
};

// Opens and reads CTA 0; returns the LocatedError it must throw.
LocatedError expect_error(const TempDir& dir, const std::string& text, TraceOptions opts = {}) {
  const std::string path = dir.write("kernel-1.traceg", text);
  try {
    TraceKernel k(path, opts);
    CtaStreams cta;
    k.produce_cta(0, 0, cta);
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.file(), path);
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return LocatedError("", 0, 0, "");
}

TEST(TraceErrors, GoodBaseParses) {
  TempDir d;
  TraceKernel k(d.write("kernel-1.traceg", trace_text(kGood)));
  CtaStreams cta;
  k.produce_cta(0, 0, cta);
  EXPECT_EQ(cta.warps[0].insts.size(), 3u);
}

TEST(TraceErrors, TruncatedBeforeEndTb) {
  TempDir d;
  auto body = kGood;
  body.pop_back();
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 16);
  EXPECT_EQ(e.col(), 1);
  EXPECT_NE(std::string(e.what()).find("#END_TB"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("line 9"), std::string::npos) << e.what();
}

TEST(TraceErrors, TruncatedInsideAWarp) {
  TempDir d;
  LocatedError e = expect_error(d, trace_text({kGood[0]}));
  EXPECT_EQ(e.line(), 14);
  EXPECT_NE(std::string(e.what()).find("expected '#END_TB'"), std::string::npos) << e.what();
}

TEST(TraceErrors, BadHexPc) {
  TempDir d;
  auto body = kGood;
  body[0] = "00g0 ffffffff 1 R1 MOV 1 R2 0";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 13);
  EXPECT_EQ(e.col(), 1);
  EXPECT_NE(std::string(e.what()).find("expected a hex PC, found '00g0'"), std::string::npos) << e.what();
}

TEST(TraceErrors, BadHexMask) {
  TempDir d;
  auto body = kGood;
  body[0] = "0000 fffffffff0 1 R1 MOV 1 R2 0";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 13);
  EXPECT_EQ(e.col(), 6);
  EXPECT_NE(std::string(e.what()).find("active mask"), std::string::npos) << e.what();
}

TEST(TraceErrors, BadHexAddress) {
  TempDir d;
  auto body = kGood;
  body[1] = "0010 00000003 1 R4 LDG.E 1 R2 4 0 0x7f0000001000 0x7f00000010zz";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 14);
  EXPECT_EQ(e.col(), 50);
  EXPECT_NE(std::string(e.what()).find("expected 2 hex addresses"), std::string::npos) << e.what();
}

TEST(TraceErrors, TooFewAddresses) {
  TempDir d;
  auto body = kGood;
  body[1] = "0010 00000003 1 R4 LDG.E 1 R2 4 0 0x7f0000001000";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 14);
  EXPECT_NE(std::string(e.what()).find("found ''"), std::string::npos) << e.what();
}

TEST(TraceErrors, TooFewDeltas) {
  TempDir d;
  auto body = kGood;
  body[1] = "0010 00000007 1 R4 LDG.E 1 R2 4 2 0x7f0000001000 4";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 14);
  EXPECT_NE(std::string(e.what()).find("expected 2 decimal address deltas"), std::string::npos) << e.what();
}

TEST(TraceErrors, UnknownAddressMode) {
  TempDir d;
  auto body = kGood;
  body[1] = "0010 00000003 1 R4 LDG.E 1 R2 4 7 0x1000";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 14);
  EXPECT_EQ(e.col(), 33);
  EXPECT_NE(std::string(e.what()).find("unknown address compression mode 7"), std::string::npos) << e.what();
}

TEST(TraceErrors, MoreInstructionsThanAnnounced) {
  TempDir d;
  LocatedError e = expect_error(d, trace_text(kGood, "2"));
  EXPECT_EQ(e.line(), 15);
  EXPECT_NE(std::string(e.what()).find("expected 'warp = N' or '#END_TB'"), std::string::npos) << e.what();
}

TEST(TraceErrors, FewerInstructionsThanAnnounced) {
  TempDir d;
  LocatedError e = expect_error(d, trace_text(kGood, "4"));
  EXPECT_EQ(e.line(), 16);
  EXPECT_NE(std::string(e.what()).find("warp 0 has 3 instructions, 'insts = 4'"), std::string::npos) << e.what();
}

TEST(TraceErrors, WrongSourceCount) {
  TempDir d;
  auto body = kGood;
  body[0] = "0000 ffffffff 1 R1 MOV 2 R2 0";  // two sources announced, one given
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 13);
  EXPECT_EQ(e.col(), 29);
  EXPECT_NE(std::string(e.what()).find("expected source register 2 of 2, found '0'"), std::string::npos) << e.what();
}

TEST(TraceErrors, TrailingText) {
  TempDir d;
  auto body = kGood;
  body[2] = "0020 ffffffff 0 EXIT 0 0 junk";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 15);
  EXPECT_EQ(e.col(), 26);
  EXPECT_NE(std::string(e.what()).find("unexpected 'junk'"), std::string::npos) << e.what();
}

TEST(TraceErrors, UnknownOpcodeNamesIt) {
  TempDir d;
  auto body = kGood;
  body[0] = "0000 ffffffff 1 R1 FROB.X.Y 1 R2 0";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 13);
  EXPECT_EQ(e.col(), 20);
  EXPECT_NE(std::string(e.what()).find("unknown SASS opcode 'FROB'"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("volta.toml"), std::string::npos) << e.what();
}

TEST(TraceErrors, UnknownOpcodeFallbackRunsOnSp) {
  TempDir d;
  auto body = kGood;
  body[0] = "0000 ffffffff 1 R1 FROB.X.Y 1 R2 0";
  TraceOptions opts;
  opts.unknown_opcode_as_sp = true;
  TraceKernel k(d.write("kernel-1.traceg", trace_text(body)), opts);
  CtaStreams cta;
  ::testing::internal::CaptureStderr();
  k.produce_cta(0, 0, cta);
  k.produce_cta(0, 0, cta);  // the warning is given once
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(cta.warps[0].insts[0].unit, Unit::SP);
  EXPECT_EQ(cta.warps[0].insts[0].op, OpClass::ALU);
  EXPECT_NE(err.find("FROB"), std::string::npos);
  EXPECT_EQ(err.find("FROB"), err.rfind("FROB"));
}

TEST(TraceErrors, BadRegister) {
  TempDir d;
  auto body = kGood;
  body[0] = "0000 ffffffff 1 X1 MOV 1 R2 0";
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.col(), 17);
  EXPECT_NE(std::string(e.what()).find("destination register 1 of 1, found 'X1'"), std::string::npos) << e.what();
}

TEST(TraceErrors, HeaderProblems) {
  TempDir d;
  {
    std::string t = trace_text(kGood);
    t.erase(t.find("-grid dim"), std::string("-grid dim = (1,1,1)\n").size());
    LocatedError e = expect_error(d, t);
    EXPECT_NE(std::string(e.what()).find("lacks '-grid dim"), std::string::npos) << e.what();
  }
  {
    std::string t = trace_text(kGood);
    t.replace(t.find("(32,1,1)"), 8, "(32,0,1)");
    LocatedError e = expect_error(d, t);
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.col(), 14);
  }
  {
    std::string t = trace_text(kGood);
    t.replace(t.find("version = 4"), 11, "version = 9");
    LocatedError e = expect_error(d, t);
    EXPECT_EQ(e.line(), 6);
    EXPECT_NE(std::string(e.what()).find("unsupported accelsim tracer version 9"), std::string::npos) << e.what();
  }
  {
    std::string t = trace_text(kGood);
    t.replace(t.find("thread block = 0,0,0"), 20, "thread block = 1,0,0");
    LocatedError e = expect_error(d, t);
    EXPECT_EQ(e.line(), 10);
    EXPECT_NE(std::string(e.what()).find("outside the grid"), std::string::npos) << e.what();
  }
}

TEST(TraceErrors, DuplicateWarp) {
  TempDir d;
  std::vector<std::string> body = {kGood[0], kGood[1], kGood[2], "warp = 0", "insts = 1", kGood[2], "#END_TB"};
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 16);
  EXPECT_NE(std::string(e.what()).find("warp 0 appears twice"), std::string::npos) << e.what();
}

TEST(TraceErrors, WarpOutsideTheBlock) {
  TempDir d;
  std::vector<std::string> body = {kGood[0], kGood[1], kGood[2], "warp = 1", "insts = 1", kGood[2], "#END_TB"};
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 16);
  EXPECT_NE(std::string(e.what()).find("warp 1 does not exist"), std::string::npos) << e.what();
}

TEST(TraceErrors, KernelsListProblems) {
  TempDir d;
  d.write("kernel-1.traceg", trace_text(kGood));
  d.write("kernelslist.g", "MemcpyHtoD,0x1000,64\nkernel-1.traceg\nkernel-2.traceg\n");
  try {
    TraceWorkload wl(d.str());
    ADD_FAILURE() << "missing kernel-2.traceg accepted";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("kernel-2.traceg"), std::string::npos) << e.what();
  }
  d.write("kernelslist.g", "MemcpyHtoD,0x1000,sixty\n");
  try {
    TraceWorkload wl(d.str());
    ADD_FAILURE() << "bad byte count accepted";
  } catch (const LocatedError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(std::string(e.what()).find("decimal byte count"), std::string::npos) << e.what();
  }
  EXPECT_THROW(TraceWorkload(d.file("nothing-here")), Error);
  EXPECT_THROW(TraceKernel(d.str()), Error);  // a directory
  EXPECT_THROW(TraceKernel(d.file("nothing-here")), Error);
}

}  // namespace
}  // namespace warpsim

namespace warpsim {
namespace {

TEST(TraceErrors, ThreadBlockTwice) {
  TempDir d;
  std::vector<std::string> body = kGood;
  for (const char* l :
       {"#BEGIN_TB", "thread block = 0,0,0", "warp = 0", "insts = 1", "0020 ffffffff 0 EXIT 0 0", "#END_TB"})
    body.push_back(l);
  LocatedError e = expect_error(d, trace_text(body));
  EXPECT_EQ(e.line(), 17);
  EXPECT_NE(std::string(e.what()).find("thread block (0,0,0) appears twice (the blocks begun at lines 9 and 17)"),
            std::string::npos)
      << e.what();
}

TEST(TraceErrors, HugeInstructionCountDoesNotAllocate) {
  TempDir d;
  LocatedError e = expect_error(d, trace_text(kGood, "4000000000"));
  EXPECT_EQ(e.line(), 16);
  EXPECT_NE(std::string(e.what()).find("warp 0 has 3 instructions"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace warpsim

// Registers per thread of PTX kernels: the compiler's count where it is known, else the
// live-value estimate, capped at the architecture's per-thread maximum and at what the kernel's
// launch bounds (.maxntid, .minnctapersm, .maxnreg) leave, as ptxas allocates.
#include "ptx/register_allocation.h"

#include <gtest/gtest.h>

#include <string>

#include "core/occupancy.h"
#include "ptx/decoder.h"
#include "ptx/parser.h"
#include "ptx/ptx_kernel.h"

namespace warpsim::test {
namespace {

// A kernel that loads `live` doubles, sums them and stores each times the sum: all of them are
// live at once. `bounds`: performance directives after the parameter list.
std::shared_ptr<const ptx::Program> kernel(int live, const std::string& bounds) {
  std::string text =
      ".version 7.8\n.target sm_75\n.address_size 64\n"
      ".visible .entry k(.param .u64 pa)\n" +
      bounds +
      "\n{\n"
      "  .reg .f64 %fd<200>;\n  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pa];\n  cvta.to.global.u64 %rd2, %rd1;\n";
  for (int i = 0; i < live; ++i)
    text += "  ld.global.f64 %fd" + std::to_string(i) + ", [%rd2+" + std::to_string(8 * i) + "];\n";
  text += "  mov.f64 %fd199, 0d0000000000000000;\n";
  for (int i = 0; i < live; ++i) text += "  add.f64 %fd199, %fd199, %fd" + std::to_string(i) + ";\n";
  for (int i = 0; i < live; ++i) {
    text += "  mul.f64 %fd" + std::to_string(100 + i) + ", %fd" + std::to_string(i) + ", %fd199;\n";
    text += "  st.global.f64 [%rd2+" + std::to_string(8 * i) + "], %fd" + std::to_string(100 + i) + ";\n";
  }
  text += "  ret;\n}\n";
  ptx::Module m = ptx::parse_module(text, "regs.ptx");
  return ptx::decode_kernel(m, "k", {}, false);
}

// `live` doubles loaded from `ptr`, summed, and each stored times the sum: all live at once.
std::string hold_live(int live, const std::string& ptr) {
  std::string text;
  for (int i = 0; i < live; ++i)
    text += "  ld.global.f64 %fd" + std::to_string(i) + ", [" + ptr + "+" + std::to_string(8 * i) + "];\n";
  text += "  mov.f64 %fd199, 0d0000000000000000;\n";
  for (int i = 0; i < live; ++i) text += "  add.f64 %fd199, %fd199, %fd" + std::to_string(i) + ";\n";
  for (int i = 0; i < live; ++i) {
    text += "  mul.f64 %fd" + std::to_string(100 + i) + ", %fd" + std::to_string(i) + ", %fd199;\n";
    text += "  st.global.f64 [" + ptr + "+" + std::to_string(8 * i) + "], %fd" + std::to_string(100 + i) + ";\n";
  }
  return text;
}

// A kernel whose entry calls device functions a and b, each holding 24 doubles live: one after
// the other from the entry (`chained` false), or a calling b with its doubles still live.
std::shared_ptr<const ptx::Program> calling_kernel(bool chained) {
  auto func = [&](const std::string& name, const std::string& call) {
    std::string body = ".func " + name + "(.param .b64 p)\n{\n  .reg .f64 %fd<200>;\n  .reg .b64 %rd<4>;\n" +
                       "  ld.param.u64 %rd1, [p];\n";
    if (call.empty()) return body + hold_live(24, "%rd1") + "  ret;\n}\n";
    // The call sits between the loads and the uses, so the doubles live across it.
    std::string held = hold_live(24, "%rd1");
    size_t uses = held.find("  mov.f64 %fd199");
    return body + held.substr(0, uses) + "  { .param .b64 q;\n  st.param.b64 [q], %rd1;\n  call " + call +
           ", (q);\n  }\n" + held.substr(uses) + "  ret;\n}\n";
  };
  std::string text = ".version 7.8\n.target sm_75\n.address_size 64\n";
  text += func("b", "");
  text += func("a", chained ? "b" : "");
  text +=
      ".visible .entry k(.param .u64 pa)\n{\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [pa];\n"
      "  cvta.to.global.u64 %rd2, %rd1;\n  { .param .b64 q;\n  st.param.b64 [q], %rd2;\n  call a, (q);\n  }\n";
  if (!chained) text += "  { .param .b64 q;\n  st.param.b64 [q], %rd2;\n  call b, (q);\n  }\n";
  text += "  ret;\n}\n";
  ptx::Module m = ptx::parse_module(text, "calls.ptx");
  return ptx::decode_kernel(m, "k", {}, false);
}

CoreConfig fermi() {  // the gtx480 preset's register file
  CoreConfig c;
  c.registers = 32768;
  c.reg_alloc_granularity = 64;
  c.max_regs_per_thread = 63;
  return c;
}

CoreConfig turing() {  // the rtx2060 preset's
  CoreConfig c;
  c.registers = 65536;
  c.reg_alloc_granularity = 256;
  c.max_regs_per_thread = 255;
  return c;
}

TEST(RegisterAllocation, EstimateWithoutCapsIsThePeakOfLiveValues) {
  auto p = kernel(48, "");
  EXPECT_GE(p->est_regs, 96u);  // 48 doubles in pairs of 32-bit registers
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, nullptr), p->est_regs);
  CoreConfig c = turing();
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, &c), p->est_regs);
  auto small = kernel(2, "");
  EXPECT_EQ(ptx::allocated_regs_per_thread(*small, &c), 16u);  // the floor
}

TEST(RegisterAllocation, CalleesAddAlongACallPathNotAcrossSiblings) {
  // ptxas gives a kernel the registers of its deepest call path: functions called one after the
  // other share registers (CUDA samples newdelete: 24 per kernel with 13 virtual callees).
  auto siblings = calling_kernel(false), chain = calling_kernel(true);
  EXPECT_GE(siblings->est_regs, 48u);
  EXPECT_LT(siblings->est_regs, 60u);  // one function's 48 (plus the entry's few), not 96
  EXPECT_GE(chain->est_regs, 96u);     // a's doubles stay live while b holds its own
}

TEST(RegisterAllocation, ArchitectureMaximumCapsTheEstimate) {
  auto p = kernel(48, "");
  CoreConfig c = fermi();
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, &c), 63u);
  c.max_regs_per_thread = 80;
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, &c), 80u);
}

TEST(RegisterAllocation, MaxntidAndMinnctapersmLeaveTheirShareOfTheRegisterFile) {
  CoreConfig c = turing();
  // 256 threads, 4 CTAs: 65536 / 4 / 8 warps = 2048 per warp, 64 per thread.
  auto p = kernel(48, ".maxntid 256, 1, 1\n.minnctapersm 4");
  EXPECT_EQ(p->maxntid_threads, 256u);
  EXPECT_EQ(p->minnctapersm, 4u);
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, &c), 64u);
  // 96 threads (3 warps), 4 CTAs: 5461 per warp, 5376 in units of 256: 168 per thread... over
  // the estimate, which stays.
  auto q = kernel(48, ".maxntid 32, 3\n.minnctapersm 4");
  EXPECT_EQ(q->maxntid_threads, 96u);
  EXPECT_EQ(ptx::allocated_regs_per_thread(*q, &c), q->est_regs);
  // Fermi, 96 threads, 4 CTAs: 32768 / 4 / 3 = 2730 per warp, 2688 in units of 64: 84.
  CoreConfig f = fermi();
  f.max_regs_per_thread = 255;
  EXPECT_EQ(ptx::allocated_regs_per_thread(*q, &f), 84u);
  EXPECT_EQ(ptx::regs_per_thread_bound(f, 96, 4), 84u);
  // .minnctapersm defaults to 1: 512 threads of the Fermi file get 64 registers, the
  // architecture 63.
  auto r = kernel(48, ".maxntid 512");
  EXPECT_EQ(ptx::allocated_regs_per_thread(*r, &f), 64u);
  f.max_regs_per_thread = 63;
  EXPECT_EQ(ptx::allocated_regs_per_thread(*r, &f), 63u);
  // Without an SM only .maxnreg caps.
  EXPECT_EQ(ptx::allocated_regs_per_thread(*r, nullptr), r->est_regs);
}

TEST(RegisterAllocation, MaxnregCapsDirectly) {
  auto p = kernel(48, ".maxnreg 40");
  EXPECT_EQ(p->maxnreg, 40u);
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, nullptr), 40u);
  CoreConfig c = turing();
  EXPECT_EQ(ptx::allocated_regs_per_thread(*p, &c), 40u);
}

TEST(RegisterAllocation, LaunchBoundsKernelFitsTheSmItWasBoundFor) {
  // 512 threads at the uncapped estimate do not fit Fermi's 32768 registers; capped, one CTA does.
  auto p = kernel(48, ".maxntid 512, 1, 1\n.minnctapersm 1");
  CoreConfig c = fermi();
  EXPECT_EQ(ctas_per_sm(c, CtaDemand{512, p->est_regs, 0}), 0u);
  CtaDemand d = ptx::cta_demand(*p, &c, 512, 0);
  EXPECT_EQ(d.regs_per_thread, 63u);
  EXPECT_EQ(ctas_per_sm(c, d), 1u);
}

TEST(CompiledRegisters, LookupTakesTheNearestTargetAtOrBelowElseTheLowestAbove) {
  ptx::CompiledRegisters r;
  r.by_target[70]["k"] = 26;
  r.by_target[75]["k"] = 28;
  r.by_target[90]["k"] = 30;
  r.by_target[75]["only75"] = 40;
  EXPECT_EQ(r.lookup("k", 20), 26u);  // Fermi: nothing that old, the lowest recorded
  EXPECT_EQ(r.lookup("k", 70), 26u);
  EXPECT_EQ(r.lookup("k", 75), 28u);
  EXPECT_EQ(r.lookup("k", 86), 28u);  // Ampere: the Turing count, not Hopper's
  EXPECT_EQ(r.lookup("k", 90), 30u);
  EXPECT_EQ(r.lookup("k", 120), 30u);
  EXPECT_EQ(r.lookup("only75", 70), 40u);  // the target records no other
  EXPECT_EQ(r.lookup("only75", 90), 40u);
  EXPECT_EQ(r.lookup("nonesuch", 75), 0u);
  EXPECT_EQ(ptx::CompiledRegisters{}.lookup("k", 75), 0u);
}

TEST(CompiledRegisters, TheCompilersCountReplacesTheEstimateUnderTheArchitecturesCap) {
  auto p = kernel(48, "");
  ptx::CompiledRegisters r;
  r.by_target[75]["k"] = 72;
  auto q = ptx::with_compiled_registers(p, &r, 75);
  EXPECT_EQ(p->compiled_regs, 0u);  // the decoded program is left as it was
  EXPECT_EQ(q->compiled_regs, 72u);
  EXPECT_NE(p->est_regs, 72u);
  CoreConfig c = turing();
  EXPECT_EQ(ptx::allocated_regs_per_thread(*q, &c), 72u);
  EXPECT_EQ(ptx::allocated_regs_per_thread(*q, nullptr), 72u);
  EXPECT_EQ(ptx::cta_demand(*q, &c, 256, 0).regs_per_thread, 72u);
  c.compiled_registers = false;  // the estimate, as without a count
  EXPECT_EQ(ptx::allocated_regs_per_thread(*q, &c), ptx::allocated_regs_per_thread(*p, &c));
  CoreConfig f = fermi();  // a count made for a 255-register target, on a 63-register SM
  EXPECT_EQ(ptx::allocated_regs_per_thread(*q, &f), 63u);
  // No count for the kernel, or no table: the same program.
  EXPECT_EQ(ptx::with_compiled_registers(p, nullptr, 75), p);
  ptx::CompiledRegisters other;
  other.by_target[75]["another"] = 20;
  EXPECT_EQ(ptx::with_compiled_registers(p, &other, 75), p);
}

}  // namespace
}  // namespace warpsim::test

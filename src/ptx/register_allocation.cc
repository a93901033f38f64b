#include "ptx/register_allocation.h"

#include <algorithm>

namespace warpsim::ptx {

namespace {
constexpr uint32_t kMinRegs = 16;      // the estimate's floor
constexpr uint32_t kPtxMaxRegs = 255;  // no architecture gives a thread more
}  // namespace

uint32_t regs_per_thread_bound(const CoreConfig& core, uint32_t threads, uint32_t ctas) {
  if (threads == 0) return kPtxMaxRegs;
  const uint32_t gran = std::max<uint32_t>(1, core.reg_alloc_granularity);
  const uint32_t warps = (threads + 31) / 32;
  const uint64_t per_warp = uint64_t(core.registers) / std::max<uint32_t>(1, ctas) / warps / gran * gran;
  return uint32_t(std::min<uint64_t>(per_warp / 32, kPtxMaxRegs));
}

uint32_t CompiledRegisters::lookup(const std::string& kernel, uint32_t target) const {
  uint32_t below = 0, above = 0;
  bool have_below = false, have_above = false;
  for (const auto& [t, counts] : by_target) {
    auto it = counts.find(kernel);
    if (it == counts.end()) continue;
    if (t <= target) {
      below = it->second;  // ascending: the last one is the nearest
      have_below = true;
    } else if (!have_above) {
      above = it->second;
      have_above = true;
    }
  }
  return have_below ? below : above;
}

std::shared_ptr<const Program> with_compiled_registers(std::shared_ptr<const Program> prog,
                                                       const CompiledRegisters* registers, uint32_t target) {
  if (!registers || registers->empty()) return prog;
  const uint32_t n = registers->lookup(prog->name, target);
  if (n == 0 || n == prog->compiled_regs) return prog;
  auto p = std::make_shared<Program>(*prog);
  p->compiled_regs = n;
  return p;
}

uint32_t allocated_regs_per_thread(const Program& prog, const CoreConfig* core) {
  uint32_t cap = kPtxMaxRegs;
  if (prog.maxnreg) cap = std::min(cap, prog.maxnreg);
  if (core) {
    if (core->max_regs_per_thread) cap = std::min(cap, core->max_regs_per_thread);
    // Bounds the register file cannot meet even at 1 register leave the cap as it is: the
    // launch then fails on the CTA's threads or warps, not its registers.
    if (prog.maxntid_threads)
      if (uint32_t b = regs_per_thread_bound(*core, prog.maxntid_threads, std::max(1u, prog.minnctapersm)))
        cap = std::min(cap, b);
  }
  // ptxas's count already honours the launch bounds and its target's maximum; the caps matter
  // when it was made for another target than the GPU's (a sm_70 count on a 63-register Fermi).
  if (prog.compiled_regs && (!core || core->compiled_registers)) return std::min(prog.compiled_regs, cap);
  return std::min(std::max(prog.est_regs, kMinRegs), cap);
}

}  // namespace warpsim::ptx

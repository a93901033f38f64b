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
  return std::min(std::max(prog.est_regs, kMinRegs), cap);
}

}  // namespace warpsim::ptx

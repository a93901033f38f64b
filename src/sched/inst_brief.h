// A warp's next instruction in brief: which of RLWS's pipelines (Table I) it goes to and two
// facts the RL state counts. Small enough for the SM to keep per warp, so that a policy reading
// every warp's next instruction each cycle reads a byte per warp instead of the instruction.
#pragma once
#include <cstdint>

#include "core/warp_inst.h"

namespace warpsim {

// RLWS's pipeline classes (Table I).
enum class PipeClass : uint8_t { SP = 0, SFU, GMEM, STCMEM, None };
inline constexpr int kNumPipeClasses = 5;
inline PipeClass pipe_class(const WarpInst& in) {
  if (in.is_mem())
    return (in.space == MemSpace::Global || in.space == MemSpace::Local) ? PipeClass::GMEM : PipeClass::STCMEM;
  return in.unit == Unit::SFU ? PipeClass::SFU : PipeClass::SP;
}

// InstBrief::flags
inline constexpr uint8_t kBriefDiverged = 1;  // the instruction runs diverged
inline constexpr uint8_t kBriefLoad = 2;      // it reads off-chip memory (GMEM, not a store)

struct InstBrief {
  PipeClass pipe = PipeClass::None;
  uint8_t flags = 0;
};

inline InstBrief brief_of(const WarpInst& in) {
  InstBrief b{pipe_class(in), 0};
  if (in.flags & kFlagDiverged) b.flags |= kBriefDiverged;
  if (b.pipe == PipeClass::GMEM && in.op != OpClass::STORE) b.flags |= kBriefLoad;
  return b;
}

}  // namespace warpsim

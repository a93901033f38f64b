// The class of one instruction as the timing model sees it: execution unit, operation class,
// memory space and latency class. The row type of the SASS opcode tables (trace/opcode_table.h)
// and of the PTX instruction table (ptx/instruction_class.h).
#pragma once
#include <cstdint>

#include "core/warp_inst.h"

namespace warpsim {

struct OpcodeInfo {
  Unit unit = Unit::SP;
  OpClass op = OpClass::ALU;
  MemSpace space = MemSpace::None;
  bool generic = false;  // generic address space: resolved per instruction from its addresses
  uint8_t latency_class = kLatDefault;
  bool operator==(const OpcodeInfo&) const = default;
};

}  // namespace warpsim

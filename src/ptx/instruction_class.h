// How the timing model classifies a PTX instruction: the row type of the SASS opcode tables
// (core/opcode_info.h) plus the one rule SASS does not need. A SASS opcode spells its operand
// type (FADD, DADD, IADD3), so its unit is a constant of the row; a PTX mnemonic does not
// (add.f32, add.f64, add.s32), so the rows of the arithmetic families say that their unit
// follows the instruction's type. The table itself is in ptx/decoder.cc (docs/ptx.md,
// "Adding a PTX instruction").
#pragma once
#include <cstdint>

#include "core/opcode_info.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

enum class UnitRule : uint8_t {
  Fixed,        // the row's unit
  ByType,       // f32: sp, f64: dp, any other type: the row's unit (GPGPU-Sim's PTX arithmetic)
  TimedByType,  // issues to the row's unit, timed by the latency tables of f32: sp, f64: dp, any
                // other type: int (division on the SFU with the DIV latency of its type); a
                // long-latency operation
};

struct InstrClass {
  // unit, op class and latency class. space is always None: a PTX instruction's memory space
  // comes from its state-space modifier (.global, .shared, ...), not from its mnemonic.
  OpcodeInfo info;
  UnitRule rule = UnitRule::Fixed;
  bool operator==(const InstrClass&) const = default;
};

// Writes the unit, operation class, latency class, latency unit and long-latency flag of
// instruction `in` (whose type and type2 are decoded) into its trace template in.tmpl.
void apply_class(const InstrClass& c, Inst& in);

}  // namespace warpsim::ptx

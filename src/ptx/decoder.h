// Turns a parsed module into the executable Program of one kernel (ptx/ir.h): resolves
// registers, symbols, labels and calls, checks operand types and computes reconvergence
// points.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptx/ast.h"
#include "ptx/instruction_class.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

// A module-level variable placed in device memory by the runtime (.global / .const).
struct ModuleSymbol {
  Space space = Space::Global;
  uint64_t addr = 0;
  uint64_t size = 0;
};
using SymbolMap = std::unordered_map<std::string, ModuleSymbol>;

// The rows of the PTX instruction table (docs/ptx.md, "Adding a PTX instruction"), sorted by
// key: each mnemonic, or mnemonic with its first modifier ("bar.warp"), and the class it gives.
struct InstructionClassRow {
  std::string_view mnemonic;
  InstrClass cls;
};
std::vector<InstructionClassRow> instruction_classes();

// Decodes `kernel` (an .entry of `m`) and every function it calls. Throws LocatedError for
// unknown opcodes, bad operands, type mismatches, undefined labels/registers/symbols.
// The address of function `f` of `m` (its definition where it has one): kFunctionAddressBase
// + 16 * its index in m.functions.
uint64_t function_address(const Module& m, const Function& f);

// The byte offset of function `name`'s first instruction when the functions of `m` that have a
// body lie one after another, in the order they are defined, 8 bytes per PTX instruction (as
// GPGPU-Sim assembles a module; core.module_code_layout).
uint64_t module_code_offset(const Module& m, const std::string& name);
// The bytes of all of `m`'s functions laid out that way: where the next module loaded starts.
uint64_t module_code_bytes(const Module& m);

// With `hoist_loads`, each global load moves up within its basic block past the instructions it
// does not depend on and that do not depend on it (never past another memory access with a side
// effect, a barrier, a call or a branch), as ptxas schedules independent loads ahead of their
// uses in SASS; the program computes the same values (core.hoist_global_loads).
std::shared_ptr<const Program> decode_kernel(const Module& m, const std::string& kernel, const SymbolMap& globals,
                                             bool hoist_loads = false);
// The reordering of `hoist_loads` on a program whose branch targets and function ranges are set
// and whose reconvergence points and trace templates are not yet computed.
void hoist_global_loads(Program& p);

}  // namespace warpsim::ptx

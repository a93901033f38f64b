// Turns a parsed module into the executable Program of one kernel (ptx/ir.h): resolves
// registers, symbols, labels and calls, checks operand types and computes reconvergence
// points.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>

#include "ptx/ast.h"
#include "ptx/ir.h"

namespace warpsim::ptx {

// A module-level variable placed in device memory by the runtime (.global / .const).
struct ModuleSymbol {
  Space space = Space::Global;
  uint64_t addr = 0;
  uint64_t size = 0;
};
using SymbolMap = std::unordered_map<std::string, ModuleSymbol>;

// Decodes `kernel` (an .entry of `m`) and every function it calls. Throws LocatedError for
// unknown opcodes, bad operands, type mismatches, undefined labels/registers/symbols.
// The address of function `f` of `m` (its definition where it has one): kFunctionAddressBase
// + 16 * its index in m.functions.
uint64_t function_address(const Module& m, const Function& f);

std::shared_ptr<const Program> decode_kernel(const Module& m, const std::string& kernel, const SymbolMap& globals);

}  // namespace warpsim::ptx

// Control-flow analysis: immediate post-dominators of the instructions of one function,
// used as SIMT reconvergence points.
#pragma once
#include <cstdint>
#include <vector>

#include "ptx/ir.h"

namespace warpsim::ptx {

// Fills Inst::reconv of every branch in [f.first, f.exit] with its immediate post-dominator
// (the FuncExit instruction when paths only meet at the function's end).
void compute_reconvergence(Program& prog, const FuncInfo& f);

// Peak number of live 32-bit register values over the instructions of `f` (64-bit registers
// count twice, predicates not at all): an estimate of what a register allocator needs.
uint32_t peak_live_registers(const Program& prog, const FuncInfo& f);

// Successor instruction indices of instruction i (at most two).
int successors(const Program& prog, const FuncInfo& f, uint32_t i, uint32_t out[2]);

}  // namespace warpsim::ptx

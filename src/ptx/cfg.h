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

// Peak live registers of the kernel with its calls: a function's peak plus the largest such
// figure among the functions it may call (directly, or through an indirect call site: every
// function the site can reach), since a caller's values stay in registers across a call while
// the callee uses its own. Functions on a recursive cycle count once along the path (a
// recursive activation saves its registers to its frame). Sibling callees do not add up.
uint32_t call_path_peak_registers(const Program& prog);

// Successor instruction indices of instruction i (at most two).
int successors(const Program& prog, const FuncInfo& f, uint32_t i, uint32_t out[2]);

}  // namespace warpsim::ptx

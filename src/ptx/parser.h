// Recursive-descent parser: PTX text -> ptx::Module (ptx/ast.h).
#pragma once
#include <string>
#include <string_view>

#include "ptx/ast.h"

namespace warpsim::ptx {

// Parses a whole module. Every syntax error throws LocatedError (file:line:col: expected ...).
Module parse_module(std::string_view text, const std::string& file);

}  // namespace warpsim::ptx

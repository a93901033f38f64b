// Links the PTX modules of a program built with separate compilation (nvcc -rdc=true, several
// device objects) into one module, as the device linker links their code:
//  - an `.extern` function or variable is resolved to the definition another module gives it
//    (the declaration is dropped); one that no module defines stays a declaration, and a kernel
//    that uses it fails to load as in a single module;
//  - a visible (or weak) symbol defined by several modules keeps the first definition (nvcc
//    emits weak copies of the same inline code; two strong definitions would not have linked);
//  - symbols without linkage (static functions, the math library's constant tables, string
//    constants) stay private to their module: where another module uses the same name, the
//    later module's copy is renamed `name$objN` (N its position), and every reference in that
//    module follows.
// Kernels keep their names. Source locations stay those of each object's own PTX text.
#pragma once
#include <string>
#include <vector>

#include "ptx/ast.h"

namespace warpsim::ptx {

Module link_modules(std::vector<Module> objects, const std::string& file);

}  // namespace warpsim::ptx

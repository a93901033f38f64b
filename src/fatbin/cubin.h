// What ptxas wrote into a cubin (an ELF file for one SM architecture, an entry of a fatbinary)
// that the timing model uses: the registers per thread of each function. ptxas keeps the count
// in the top byte of the sh_info field of the function's code section, ".text.<name>".
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace warpsim::fatbin {

// Registers per thread of every function with a code section in the 64-bit little-endian ELF
// `elf`, by function name. Throws Error, naming the offset, when the ELF is not one or its
// section table or names lie outside it.
std::map<std::string, uint32_t> cubin_register_counts(const std::string& elf);

}  // namespace warpsim::fatbin

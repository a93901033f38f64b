// The text form of synthetic kernels (.kern files): a small line-based language parsed into
// KernelBuilder calls. Syntax in docs/synthetic-kernels.md.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "synth/synthetic_kernel.h"

namespace warpsim::synth {

// Values for `param NAME=DEFAULT` declarations, by name (numbers in the .kern syntax).
using ParamOverrides = std::map<std::string, std::string>;

// Every kernel of `text`. Bad input throws LocatedError (file:line:col); an override naming an
// undeclared parameter throws Error.
std::vector<SyntheticKernel> parse_kernels(std::string_view text, const std::string& file = "<input>",
                                           const ParamOverrides& params = {});
// The single kernel of `text` (Error when there are none or several).
SyntheticKernel parse_kernel(std::string_view text, const std::string& file = "<input>",
                             const ParamOverrides& params = {});
// Reads and parses a .kern file.
std::vector<SyntheticKernel> load_kernel_file(const std::string& path, const ParamOverrides& params = {});

// The kernels shipped in suite/synthetic/ (NAME.kern, one kernel each).
std::string synthetic_kernel_dir();
std::vector<std::string> list_synthetic_kernels();  // sorted names
// `name_or_path`: a shipped kernel's name, or a path to a .kern file holding one kernel.
SyntheticKernel load_synthetic_kernel(const std::string& name_or_path, const ParamOverrides& params = {});

}  // namespace warpsim::synth

// Shared helpers for the end-to-end kernel tests.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"

namespace warpsim::test {

inline std::string read_kernel_ptx(const std::string& name) {
  std::string path = std::string(WARPSIM_SOURCE_DIR) + "/tests/kernels/" + name + ".ptx";
  std::ifstream f(path);
  if (!f) throw Error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace warpsim::test

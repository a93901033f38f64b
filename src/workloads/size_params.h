// The parameters of one size of a bundled workload, from workload.toml's [sizes.<size>] table.
// Light (fmt and toml++ only): the standalone CUDA programs compile it too.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warpsim {

class SizeParams {
 public:
  int64_t get_int(const std::string& key) const;
  double get_double(const std::string& key) const;
  bool has(const std::string& key) const;
  std::string size;
  std::string source;  // for error messages
  std::vector<std::pair<std::string, std::string>> values;
};

// Size `size` of workload `name` from the text of its workload.toml; throws Error naming the
// valid sizes when it has none of that name.
SizeParams parse_size_params(const std::string& name, const char* toml_text, const std::string& size);

// Overrides the parameters named in `params` (NAME=VALUE pairs); throws Error for an unknown one.
void override_size_params(SizeParams& size, const std::string& workload,
                          const std::vector<std::pair<std::string, std::string>>& params);

// The seed of a workload's input generator for `warpsim run --seed N` and the standalone
// program's --seed N: both must derive it the same way.
uint64_t workload_rng_seed(const std::string& name, uint64_t seed);

}  // namespace warpsim

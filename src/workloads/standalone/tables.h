// What scripts/build_standalone.sh generates for each workload (compiled by nvcc together with
// the workload's kernel.cu): its kernels and module variables by name, and its workload.toml.
#pragma once

namespace warpsim::standalone {

struct Entry {
  const char* name;
  const void* address;  // a __global__ function or a __constant__/__device__ variable
};

}  // namespace warpsim::standalone

extern "C" {
extern const char warpsim_standalone_name[];                           // the workload's name
extern const char warpsim_standalone_toml[];                           // its workload.toml
extern const warpsim::standalone::Entry warpsim_standalone_kernels[];  // ends with {nullptr, nullptr}
extern const warpsim::standalone::Entry warpsim_standalone_symbols[];  // ends with {nullptr, nullptr}
}

// A single kernel launch described without a host program (`warpsim run file.ptx --launch
// launch.toml`, or the inline --kernel/--grid/--block/--arg flags): kernel name, grid, block,
// dynamic shared memory and the arguments, scalars and generated device buffers. See
// docs/ptx.md for the format.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/kernel_source.h"
#include "runtime/runtime.h"

namespace warpsim {

enum class ArgType : uint8_t { U8, S8, U16, S16, U32, S32, U64, S64, F32, F64 };
const char* arg_type_name(ArgType t);
uint32_t arg_type_bytes(ArgType t);
inline bool arg_type_is_float(ArgType t) { return t == ArgType::F32 || t == ArgType::F64; }
// The bytes of `x` converted to `t` (floats rounded to the type; integers truncated towards
// zero and wrapped to the type's width), and the value of the bytes at `p` read as `t`.
uint64_t encode_value(double x, ArgType t);
double decode_value(const uint8_t* p, ArgType t);

// One kernel argument: "s32 4096", "f32 2.5", "u64 0x10", or a device buffer
// "buffer f32 n=4096 fill=random seed=1 min=-1 max=1 dump name=x".
struct LaunchArg {
  enum Kind : uint8_t { Scalar, Buffer } kind = Scalar;
  ArgType type = ArgType::U32;
  uint64_t bits = 0;   // scalar: the value's bytes (little-endian, type-sized)
  uint64_t count = 0;  // buffer: elements
  enum Fill : uint8_t { Zero, Iota, Random, Const } fill = Zero;
  double a = 0, b = 0;  // random: [min, max); iota: start, step; const: value
  bool has_seed = false;
  uint64_t seed = 0;
  bool dump = false;  // write this buffer to the dump file
  std::string name;   // in the dump (default "argN")
  std::string text;   // as written
};

struct LaunchSpec {
  std::string kernel;  // empty: the module's only kernel
  Dim3 grid, block;
  bool has_grid = false, has_block = false;
  uint32_t shared = 0;             // dynamic shared memory bytes
  uint64_t instruction_limit = 0;  // per thread; 0 = the runtime default
  bool memcheck = false;           // exact bounds checking of global accesses
  std::vector<LaunchArg> args;
  std::string dump;  // JSON file receiving buffers after the run
};

// Parsers; every malformed item throws Error saying what was expected.
LaunchArg parse_launch_arg(const std::string& text);
Dim3 parse_dim3(const std::string& text, const std::string& what);  // "X", "X,Y" or "X,Y,Z"
// TOML launch description (keys: kernel, grid, block, shared, instruction_limit, memcheck,
// dump, args);
// errors are LocatedErrors in `source`.
LaunchSpec parse_launch_spec(const std::string& toml_text, const std::string& source);
LaunchSpec load_launch_spec(const std::string& path);

struct LaunchOutcome {
  std::string kernel;
  std::vector<DevPtr> buffers;  // per argument (0 for scalars)
  uint32_t dumped = 0;          // buffers written to spec.dump
};

// Loads the module into `rt`, creates and fills the buffers (random fills seeded by the
// argument's seed, else by `seed` + argument index), launches the kernel, waits for it and
// writes the dump file when one is named. Defined in ptx/launch_run.cc: it runs through the
// implementation of Runtime.
LaunchOutcome run_launch(Runtime& rt, const std::string& ptx_text, const std::string& ptx_name, const LaunchSpec& spec,
                         uint64_t seed);

}  // namespace warpsim

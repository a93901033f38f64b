// What each fuzz target does with one input, shared by the libFuzzer targets (fuzz/*.cc) and
// the regression tests that replay kept crash inputs (tests/integration/errors). Each function either
// returns or throws warpsim::Error; any other outcome (crash, sanitizer report, another
// exception type) is a bug.
#pragma once
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "core/config.h"
#include "core/error.h"
#include "core/kernel_source.h"
#include "rl/rl_config.h"
#include "runtime/functional_target.h"
#include "runtime/runtime.h"
#include "trace/trace_kernel.h"

namespace warpsim::fuzz {

// A PTX module through the runtime's loader: lexer, parser, placement of module variables
// in device memory, decoder of every kernel.
inline void ptx_input(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  FunctionalTarget target;
  Runtime rt(&target);
  ModuleHandle m = rt.load_module(text, "fuzz.ptx");
  for (const auto& k : rt.kernel_names(m)) rt.get_kernel(m, k);  // decoding errors surface here
}

// An Accel-Sim kernel trace, plain or compressed (the reader tells them apart by their magic
// bytes), read through TraceKernel: header, thread-block index and the instructions of the
// first four thread blocks. The reader takes a path: the input goes to one file per process.
inline void trace_input(const uint8_t* data, size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/warpsim-fuzz-trace-" + std::to_string(::getpid()) + ".traceg";
  }();
  // The file goes when the process ends normally (a replay of the corpus, a fuzzing run).
  static const struct Remover {
    std::string file;
    ~Remover() { std::remove(file.c_str()); }
  } remover{path};
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error("cannot write " + path);
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  // Opcode tables are repository files, not input: load each one once (per binary version)
  // instead of once per input.
  static std::map<uint32_t, std::shared_ptr<OpcodeResolver>> resolvers;
  uint32_t version = 0;
  {
    TraceFile header_file(path);
    version = read_trace_header(header_file).binary_version;
  }
  auto it = resolvers.find(version);
  if (it == resolvers.end()) {
    auto table = load_opcode_table(TraceOptions{}, version);  // throws for unknown versions
    it = resolvers.emplace(version, std::make_shared<OpcodeResolver>(table, false)).first;
  }
  TraceKernel k(path, TraceOptions{}, it->second);
  CtaStreams cta;
  uint64_t ctas = std::min<uint64_t>(k.info().num_ctas(), 4);
  for (uint64_t c = 0; c < ctas; ++c) k.produce_cta(uint32_t(c), 0, cta);
}

// The configuration loaders. The first byte picks one, the rest is the document:
//   0 a GPU preset TOML document (apply_toml, then validate)
//   1 `--set key=value` overrides, one per line (apply_overrides validates)
//   2 a GPGPU-Sim gpgpusim.config (import_gpgpusim_text validates)
//   3 an RLWS configuration TOML document (parse_rl_config, written back)
inline void config_input(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const unsigned mode = data[0] % 4;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  GpuConfig cfg;
  switch (mode) {
    case 0:
      // No base directory: `base = "name"` resolves against the shipped presets.
      apply_toml(cfg, text, "fuzz.toml");
      validate(cfg);
      break;
    case 1: {
      std::vector<std::string> kv;
      size_t start = 0;
      while (start <= text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string::npos) nl = text.size();
        kv.push_back(text.substr(start, nl - start));
        start = nl + 1;
      }
      apply_overrides(cfg, kv);
      break;
    }
    case 2: {
      std::vector<std::string> not_understood;
      import_gpgpusim_text(cfg, text, "gpgpusim.config", &not_understood);
      break;
    }
    default: {
      rl::RlConfig rl = rl::parse_rl_config(text, "fuzz-rl.toml", rl::RlConfig::rlws_defaults());
      (void)rl::rl_config_to_toml(rl);
      break;
    }
  }
}

}  // namespace warpsim::fuzz

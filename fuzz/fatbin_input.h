// What the fatbinary fuzz target does with one input (shared with the regression tests):
// container parsing with decompression, the register counts of every cubin entry, then the
// choice of the PTX entry with and without an architecture cap. Returns or throws
// warpsim::Error.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "fatbin/cubin.h"
#include "fatbin/fatbin.h"

namespace warpsim::fuzz {

inline void fatbin_input(const uint8_t* data, size_t size) {
  auto entries = fatbin::parse(data, size);
  for (const auto& e : entries)
    if (e.kind == fatbin::EntryKind::Elf) (void)fatbin::cubin_register_counts(e.payload);
  (void)fatbin::select_ptx(entries);
  if (!entries.empty()) (void)fatbin::select_ptx(entries, entries.front().arch);
}

}  // namespace warpsim::fuzz

// The fatbinary container nvcc embeds in CUDA programs (section .nv_fatbin, registered through
// __cudaRegisterFatBinary): a sequence of entries, each a PTX text or an ELF cubin for one
// architecture, optionally compressed (LZ4, or zstd by default since CUDA 13). warpsim executes
// the PTX entries. Every parse error throws warpsim::Error naming the offset and what was wrong.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::fatbin {

enum class EntryKind : uint8_t { Ptx, Elf, Other };
enum class Compression : uint8_t { None, Lz4, Zstd, Unknown };

struct Entry {
  EntryKind kind = EntryKind::Other;
  uint32_t arch = 0;  // SM/compute capability, e.g. 75 for compute_75 / sm_75
  Compression compression = Compression::None;
  size_t offset = 0;    // of the entry header, from the start of the container
  std::string payload;  // decompressed contents (PTX text for Ptx entries)
};

// Parses one fatbinary container (or several back to back) of `size` bytes at `data`.
// Throws Error on truncation, bad magic, impossible sizes or failed decompression.
std::vector<Entry> parse(const uint8_t* data, size_t size);

// The PTX to execute: the PTX entry with the highest arch (<= max_arch when non-zero).
// Throws Error when there is none, saying which nvcc flags add PTX to a binary.
const Entry& select_ptx(const std::vector<Entry>& entries, uint32_t max_arch = 0);

}  // namespace warpsim::fatbin

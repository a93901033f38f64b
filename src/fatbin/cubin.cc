#include "fatbin/cubin.h"

#include <fmt/format.h>

#include <cstring>

#include "core/error.h"

namespace warpsim::fatbin {

namespace {

template <class T>
T read_at(const std::string& elf, uint64_t offset, const char* what) {
  if (offset > elf.size() || elf.size() - offset < sizeof(T))
    throw Error(fmt::format("cubin: {} at offset {} lies outside the {} bytes of the ELF", what, offset, elf.size()));
  T v;
  std::memcpy(&v, elf.data() + offset, sizeof(T));
  return v;
}

}  // namespace

std::map<std::string, uint32_t> cubin_register_counts(const std::string& elf) {
  if (elf.size() < 64 || std::memcmp(elf.data(),
                                     "\x7f"
                                     "ELF",
                                     4) != 0)
    throw Error(fmt::format("cubin: not an ELF file ({} bytes)", elf.size()));
  if (elf[4] != 2 || elf[5] != 1) throw Error("cubin: not a 64-bit little-endian ELF file (offset 4)");
  const auto shoff = read_at<uint64_t>(elf, 0x28, "the section table offset");
  const auto shentsize = read_at<uint16_t>(elf, 0x3a, "the section header size");
  const auto shnum = read_at<uint16_t>(elf, 0x3c, "the section count");
  const auto shstrndx = read_at<uint16_t>(elf, 0x3e, "the section name table index");
  if (shnum == 0) return {};
  if (shentsize < 64)
    throw Error(fmt::format("cubin: section headers of {} bytes (offset 58), at least 64", shentsize));
  if (shstrndx >= shnum)
    throw Error(fmt::format("cubin: section name table {} of {} sections (offset 62)", shstrndx, shnum));
  auto header = [&](uint32_t i) { return shoff + uint64_t(i) * shentsize; };
  const uint64_t names = read_at<uint64_t>(elf, header(shstrndx) + 24, "the section name table's offset");
  const uint64_t names_size = read_at<uint64_t>(elf, header(shstrndx) + 32, "the section name table's size");
  if (names > elf.size() || elf.size() - names < names_size)
    throw Error(
        fmt::format("cubin: the section name table ({} bytes at offset {}) lies outside the ELF", names_size, names));
  std::map<std::string, uint32_t> regs;
  for (uint32_t i = 0; i < shnum; ++i) {
    const auto name = read_at<uint32_t>(elf, header(i), "a section header");
    const auto info = read_at<uint32_t>(elf, header(i) + 44, "a section header");
    if (name >= names_size) throw Error(fmt::format("cubin: section {}'s name lies outside the name table", i));
    const char* begin = elf.data() + names + name;
    const void* end = std::memchr(begin, 0, size_t(names_size - name));
    if (!end) throw Error(fmt::format("cubin: section {}'s name is not terminated", i));
    std::string_view n(begin, size_t(static_cast<const char*>(end) - begin));
    if (n.size() > 6 && n.substr(0, 6) == ".text.") regs[std::string(n.substr(6))] = info >> 24;
  }
  return regs;
}

}  // namespace warpsim::fatbin

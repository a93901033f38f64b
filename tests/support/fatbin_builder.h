// Fatbinary containers built in tests: uncompressed entries (PTX text or an ELF payload) in one
// container, laid out as nvcc's .nv_fatbin section is (docs/cuda-programs.md).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace warpsim::testsupport {

inline void put16(std::vector<uint8_t>& v, size_t at, uint16_t x) {
  v[at] = uint8_t(x);
  v[at + 1] = uint8_t(x >> 8);
}
inline void put32(std::vector<uint8_t>& v, size_t at, uint32_t x) {
  put16(v, at, uint16_t(x));
  put16(v, at + 2, uint16_t(x >> 16));
}
inline void put64(std::vector<uint8_t>& v, size_t at, uint64_t x) {
  put32(v, at, uint32_t(x));
  put32(v, at + 4, uint32_t(x >> 32));
}

// One uncompressed entry: kind 1 = PTX, 2 = ELF.
inline std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, const std::string& payload) {
  size_t padded = (payload.size() + 7) / 8 * 8;
  std::vector<uint8_t> e(64 + padded, 0);
  put16(e, 0, kind);
  put16(e, 2, 0x0101);
  put32(e, 4, 64);
  put64(e, 8, padded);
  put32(e, 28, arch);
  put64(e, 40, 0x11);
  std::memcpy(e.data() + 64, payload.data(), payload.size());
  return e;
}

inline std::vector<uint8_t> container(const std::vector<std::vector<uint8_t>>& entries) {
  std::vector<uint8_t> c(16, 0);
  put32(c, 0, 0xBA55ED50u);
  put16(c, 4, 1);
  put16(c, 6, 16);
  for (const auto& e : entries) c.insert(c.end(), e.begin(), e.end());
  put64(c, 8, c.size() - 16);
  return c;
}

}  // namespace warpsim::testsupport

// L2 access properties and the access policy window of a kernel launch (CUDA's
// cudaAccessPolicyWindow): accesses to [base, base + bytes) take `hit_prop` for a fraction
// `hit_ratio` of the window's lines and `miss_prop` for the others. Which lines get hit_prop is
// decided per line by a hash of its address, so that it does not depend on access order and
// is the same on every pass over the window. See docs/memory.md, "Persisting L2 accesses".
#pragma once
#include <cstdint>

namespace warpsim {

enum class AccessProperty : uint8_t {
  Default,     // outside every window: a normal access that leaves a line's property as it is
  Normal,      // cudaAccessPropertyNormal: turns a persisting line normal
  Streaming,   // cudaAccessPropertyStreaming: evicted before other lines
  Persisting,  // cudaAccessPropertyPersisting: kept in the set-aside ways of the L2
};

struct AccessPolicyWindow {
  uint64_t base = 0;
  uint64_t bytes = 0;  // 0: no window
  float hit_ratio = 0;
  AccessProperty hit_prop = AccessProperty::Normal;
  AccessProperty miss_prop = AccessProperty::Normal;

  bool empty() const { return bytes == 0; }
  bool contains(uint64_t addr) const { return addr >= base && addr - base < bytes; }
  // The property of an access to `addr` (inside the window) of a line of `line_bytes`.
  AccessProperty property(uint64_t addr, uint32_t line_bytes) const {
    uint64_t x = addr / line_bytes;  // splitmix64 finaliser: a uniform 64-bit value per line
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    const double u = double(x >> 11) * 0x1.0p-53;  // in [0, 1)
    return u < double(hit_ratio) ? hit_prop : miss_prop;
  }
  bool operator==(const AccessPolicyWindow&) const = default;
};

}  // namespace warpsim

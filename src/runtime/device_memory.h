// Sparse, page-granular device memory. Allocations are page aligned and separated by an
// unmapped guard page, so running off the end of a buffer hits unmapped memory. Pages are
// materialised on first write; untouched pages read as zeros and cost nothing.
// Host ranges (map_host) make host bytes reachable from the device at their own addresses,
// outside [kBase, kLimit): the device reads and writes the host's bytes, nothing is copied
// (mapped host memory and managed memory of the CUDA shim).
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace warpsim {

class DeviceMemory {
 public:
  static constexpr int kPageBits = 12;
  static constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;
  static constexpr uint64_t kBase = uint64_t(1) << 32;       // first device address
  static constexpr uint64_t kLimit = uint64_t(1) << 40;      // end of the device address range
  static constexpr uint64_t kMaxAllocation = uint64_t(64) << 30;  // bytes per allocation
  static constexpr int kL2Bits = 14;
  static constexpr uint64_t kL2Size = uint64_t(1) << kL2Bits;
  static constexpr uint64_t kL1Size = (kLimit >> kPageBits) >> kL2Bits;

  DeviceMemory();
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // Reserves `bytes` (rounded up to pages); throws Error when the address range is exhausted.
  uint64_t allocate(uint64_t bytes);
  // Cap on the bytes allocated at once (0: none); allocate() past it throws LimitError.
  void set_limit(uint64_t bytes) { limit_ = bytes; }
  // Releases an allocation made by allocate(); throws Error for anything else.
  void free(uint64_t addr);
  // Size of the allocation starting at addr (0 when none starts there).
  uint64_t allocation_size(uint64_t addr) const;
  // Whether [addr, addr+bytes) lies inside allocations or host ranges.
  bool is_mapped(uint64_t addr, uint64_t bytes) const;

  // Makes the host bytes [addr, addr+bytes) reachable from the device at the same addresses.
  // The range must lie outside [kBase, kLimit) and not overlap another host range (throws
  // Error). The caller keeps the host memory alive until unmap_host. Bounds are checked at
  // page granularity: the rest of the range's first and last host pages is reachable too.
  void map_host(uint64_t addr, uint64_t bytes);
  // Ends a map_host range starting at addr; throws Error when none starts there.
  void unmap_host(uint64_t addr);
  // Whether [addr, addr+bytes) lies inside one host range.
  bool is_host_mapped(uint64_t addr, uint64_t bytes) const;
  // Moves the allocation starting at addr into host memory `host` (page aligned, as large as
  // the allocation; the caller keeps it alive while the allocation exists): its bytes are
  // copied there, and the device reads and writes them there from then on.
  void back_with_host(uint64_t addr, uint8_t* host);

  // Host pointer for reading `addr` (null if unmapped). Valid up to the end of its page.
  const uint8_t* read_ptr(uint64_t addr) const {
    uint64_t p = addr >> kPageBits;
    if (addr < kBase || addr >= kLimit) return host_ptr(addr);
    uint8_t** l2 = l1_[p >> kL2Bits];
    if (!l2) return nullptr;
    uint8_t* page = l2[p & (kL2Size - 1)];
    if (!page) return nullptr;
    if (page == reserved_marker()) return zero_page() + (addr & (kPageSize - 1));
    return page + (addr & (kPageSize - 1));
  }
  // Host pointer for writing `addr` (null if unmapped); materialises the page.
  uint8_t* write_ptr(uint64_t addr) {
    uint64_t p = addr >> kPageBits;
    if (addr < kBase || addr >= kLimit) return host_ptr(addr);
    uint8_t** l2 = l1_[p >> kL2Bits];
    if (!l2) return nullptr;
    uint8_t*& page = l2[p & (kL2Size - 1)];
    if (!page) return nullptr;
    if (page == reserved_marker()) page = materialize();
    return page + (addr & (kPageSize - 1));
  }

  // Host pointer for `addr` when its page holds data already (null for untouched or unmapped
  // pages); never allocates.
  uint8_t* materialized_ptr(uint64_t addr) {
    uint64_t p = addr >> kPageBits;
    if (addr < kBase || addr >= kLimit) return host_ptr(addr);
    uint8_t** l2 = l1_[p >> kL2Bits];
    if (!l2) return nullptr;
    uint8_t* page = l2[p & (kL2Size - 1)];
    if (!page || page == reserved_marker()) return nullptr;
    return page + (addr & (kPageSize - 1));
  }

  // Bulk copies; throw Error naming the address when any byte is unmapped.
  void write(uint64_t addr, const void* src, uint64_t bytes);
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void fill(uint64_t addr, uint8_t value, uint64_t bytes);
  void copy(uint64_t dst, uint64_t src, uint64_t bytes);

  uint64_t bytes_allocated() const { return allocated_; }
  uint64_t pages_touched() const { return touched_; }

 private:
  // Page-table entry of a reserved page that holds no data yet (reads as zeros).
  static uint8_t* reserved_marker() { return &reserved_marker_byte_; }
  inline static uint8_t reserved_marker_byte_ = 0;
  static const uint8_t* zero_page();
  uint8_t* materialize();
  // Outside the device range: the host byte at addr when a host range holds it.
  uint8_t* host_ptr(uint64_t addr) const { return host_.empty() ? nullptr : host_lookup(addr); }
  uint8_t* host_lookup(uint64_t addr) const;
  void map_range(uint64_t addr, uint64_t bytes);

  std::vector<uint8_t**> l1_;
  std::vector<std::unique_ptr<uint8_t*[]>> l2_store_;
  struct ChunkFree { void operator()(uint8_t* p) const; };
  std::vector<std::unique_ptr<uint8_t, ChunkFree>> chunks_;  // page storage, 2 MiB chunks
  size_t chunk_used_ = 0;                                     // pages handed out of the last chunk
  std::vector<uint8_t*> free_pages_;
  std::map<uint64_t, uint64_t> allocs_;  // start -> size (bytes requested, page rounded)
  std::map<uint64_t, uint64_t> host_;    // host ranges: start -> end (exact bytes)
  std::map<uint64_t, uint8_t*> backed_;  // allocations moved into host memory (back_with_host)
  uint64_t next_ = kBase;
  uint64_t allocated_ = 0, touched_ = 0, limit_ = 0;
};

}  // namespace warpsim

// Sparse, page-granular device memory. Pages are materialised on first write; untouched pages
// read as zeros and cost nothing.
//
// Addresses are laid out as GPGPU-Sim 4.2 lays them out, since the L2 partition, the L2 set and
// the DRAM bank of every access follow from them (docs/memory.md, "Device addresses"): heap
// allocations one after another from kBase = 0xC0000000 (GPGPU-Sim's GLOBAL_HEAP_START), each
// rounded up to kHeapAlign = 256 bytes, so that small allocations share pages; module variables
// page aligned in a region of their own from kStaticBase (GPGPU-Sim places them below the
// heap), so that loading a module does not move the program's allocations.
//
// Like a GPU's, the device heap is mapped beyond the bytes that were asked for: kernels may
// read and write anywhere from kHeapMargin below the first allocation to kHeapMargin past the
// end of the last one (guard pages, the rest of an allocation's last page, freed allocations);
// such bytes read as zeros until written and writes land. Addresses outside the heap (the null
// page, small integers, far away) are unmapped: read_ptr/write_ptr return null. Exact,
// byte-granular checks against the live allocations are for memcheck (check_access).
// Host ranges (map_host) make host bytes reachable from the device at their own addresses,
// outside [kBase, kLimit): the device reads and writes the host's bytes, nothing is copied
// (mapped host memory and managed memory of the CUDA shim).
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpsim {

class DeviceMemory {
 public:
  static constexpr int kPageBits = 12;
  static constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;
  static constexpr uint64_t kBase = 0xC0000000ull;                // first device address (heap)
  static constexpr uint64_t kStaticBase = uint64_t(1) << 39;      // module variables
  static constexpr uint64_t kHeapAlign = 256;                     // heap allocation granularity
  static constexpr uint64_t kLimit = uint64_t(1) << 40;           // end of the device address range
  static constexpr uint64_t kMaxAllocation = uint64_t(64) << 30;  // bytes per allocation
  static constexpr uint64_t kHeapMargin = uint64_t(2) << 20;      // mapped around the allocations
  static constexpr int kL2Bits = 14;
  static constexpr uint64_t kL2Size = uint64_t(1) << kL2Bits;
  static constexpr uint64_t kL1Size = (kLimit >> kPageBits) >> kL2Bits;

  DeviceMemory();
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // Reserves `bytes` (rounded up to kHeapAlign) on the heap, right after the previous
  // allocation; throws Error when the address range is exhausted.
  uint64_t allocate(uint64_t bytes);
  // The same in the module-variable region (from kStaticBase), rounded up to pages (an
  // allocation there owns its pages: back_with_host).
  uint64_t allocate_static(uint64_t bytes);
  // Cap on the bytes allocated at once (0: none); allocate() past it throws LimitError.
  void set_limit(uint64_t bytes) { limit_ = bytes; }
  // Releases an allocation made by allocate(); throws Error for anything else.
  void free(uint64_t addr);
  // Size of the allocation starting at addr, as rounded (0 when none starts there).
  uint64_t allocation_size(uint64_t addr) const;
  // Whether [addr, addr+bytes) lies inside one allocation (rounded size) or host range.
  bool is_mapped(uint64_t addr, uint64_t bytes) const;
  // Whether [addr, addr+bytes) lies inside one live allocation's requested bytes (memcheck).
  bool in_allocation(uint64_t addr, uint64_t bytes) const;
  // Why [addr, addr+bytes) is not inside a live allocation, for memcheck reports: "use after
  // free" or "out of bounds", and where it lies relative to the nearest allocation.
  struct AccessFault {
    bool after_free = false;
    std::string where;  // e.g. "512 bytes before the allocation at 0x100000000 of 1024 bytes"
  };
  AccessFault describe_access(uint64_t addr, uint64_t bytes) const;
  // Whether addr lies in the mapped device heap (see above).
  bool in_heap(uint64_t addr) const {
    if (addr >= kStaticBase) return static_next_ > kStaticBase && addr < static_next_ + kHeapMargin;
    return next_ > kBase && addr >= kBase - kHeapMargin && addr < next_ + kHeapMargin;
  }

  // Makes the host bytes [addr, addr+bytes) reachable from the device at the same addresses.
  // The range must lie outside [kBase, kLimit) and not overlap another host range (throws
  // Error). The caller keeps the host memory alive until unmap_host. Bounds are checked at
  // page granularity: the rest of the range's first and last host pages is reachable too.
  void map_host(uint64_t addr, uint64_t bytes);
  // Ends a map_host range starting at addr; throws Error when none starts there.
  void unmap_host(uint64_t addr);
  // Whether [addr, addr+bytes) lies inside one host range.
  bool is_host_mapped(uint64_t addr, uint64_t bytes) const;
  // Moves the allocation starting at addr (a module variable's: page aligned) into host memory
  // `host` (page aligned, as large as the allocation; the caller keeps it alive while the
  // allocation exists): its bytes are copied there, and the device reads and writes them there
  // from then on.
  void back_with_host(uint64_t addr, uint8_t* host);

  // Host pointer for reading `addr` (null if unmapped). Valid up to the end of its page.
  const uint8_t* read_ptr(uint64_t addr) const {
    uint64_t p = addr >> kPageBits;
    if (addr < kBase || addr >= kLimit) {
      if (const uint8_t* h = host_ptr(addr)) return h;
      if (addr >= kLimit) return nullptr;
    }
    uint8_t** l2 = l1_[p >> kL2Bits];
    if (!l2) return heap_read_ptr(addr);
    uint8_t* page = l2[p & (kL2Size - 1)];
    if (!page) return heap_read_ptr(addr);
    if (page == reserved_marker()) return zero_page() + (addr & (kPageSize - 1));
    return page + (addr & (kPageSize - 1));
  }
  // Host pointer for writing `addr` (null if unmapped); materialises the page.
  uint8_t* write_ptr(uint64_t addr) {
    uint64_t p = addr >> kPageBits;
    if (addr < kBase || addr >= kLimit) {
      if (uint8_t* h = host_ptr(addr)) return h;
      if (addr >= kLimit) return nullptr;
    }
    uint8_t** l2 = l1_[p >> kL2Bits];
    if (!l2) return heap_write_ptr(addr);
    uint8_t*& page = l2[p & (kL2Size - 1)];
    if (!page) return heap_write_ptr(addr);
    if (page == reserved_marker()) page = materialize();
    return page + (addr & (kPageSize - 1));
  }

  // Host pointer for `addr` when its page holds data already (null for untouched or unmapped
  // pages); never allocates.
  uint8_t* materialized_ptr(uint64_t addr) {
    uint64_t p = addr >> kPageBits;
    if (addr < kBase || addr >= kLimit) {
      if (uint8_t* h = host_ptr(addr)) return h;
      if (addr >= kLimit) return nullptr;
    }
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
  uint8_t**& l2_table(uint64_t page);
  // Accesses to pages outside the allocations: inside the heap, zeros / a page of its own.
  const uint8_t* heap_read_ptr(uint64_t addr) const;
  uint8_t* heap_write_ptr(uint64_t addr);

  std::vector<uint8_t**> l1_;
  std::vector<std::unique_ptr<uint8_t*[]>> l2_store_;
  struct ChunkFree {
    void operator()(uint8_t* p) const;
  };
  std::vector<std::unique_ptr<uint8_t, ChunkFree>> chunks_;  // page storage, 2 MiB chunks
  size_t chunk_used_ = 0;                                    // pages handed out of the last chunk
  std::vector<uint8_t*> free_pages_;
  struct Alloc {
    uint64_t rounded = 0, requested = 0;
  };
  std::map<uint64_t, Alloc> allocs_;     // start -> size (rounded, and as requested)
  std::map<uint64_t, uint64_t> freed_;   // start -> requested size of freed allocations
  std::map<uint64_t, uint64_t> host_;    // host ranges: start -> end (exact bytes)
  std::map<uint64_t, uint8_t*> backed_;  // allocations moved into host memory (back_with_host)
  uint64_t place(uint64_t& next, uint64_t end, uint64_t bytes, uint64_t align);
  uint64_t next_ = kBase;
  uint64_t static_next_ = kStaticBase;
  uint64_t allocated_ = 0, touched_ = 0, limit_ = 0;
};

}  // namespace warpsim

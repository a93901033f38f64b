#include "runtime/device_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "core/error.h"

namespace warpsim {

namespace {
std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
}  // namespace

DeviceMemory::DeviceMemory() : l1_(kL1Size, nullptr) {}
DeviceMemory::~DeviceMemory() = default;

const uint8_t* DeviceMemory::zero_page() {
  static const uint8_t zeros[kPageSize] = {};
  return zeros;
}

uint8_t* DeviceMemory::materialize() {
  ++touched_;
  if (!free_pages_.empty()) {
    uint8_t* p = free_pages_.back();
    free_pages_.pop_back();
    std::memset(p, 0, kPageSize);
    return p;
  }
  // Pages come out of large chunks so that neighbouring device pages are neighbours in host
  // memory too (fewer host TLB misses when kernels stream through buffers).
  constexpr size_t kChunk = size_t(2) << 20;
  constexpr size_t kPagesPerChunk = kChunk / kPageSize;
  if (chunks_.empty() || chunk_used_ == kPagesPerChunk) {
    void* mem = std::aligned_alloc(kChunk, kChunk);
    if (!mem) throw Error("device memory: host allocation failed");
#ifdef MADV_HUGEPAGE
    madvise(mem, kChunk, MADV_HUGEPAGE);
#endif
    chunks_.emplace_back(static_cast<uint8_t*>(mem));
    chunk_used_ = 0;
  }
  uint8_t* p = chunks_.back().get() + chunk_used_++ * kPageSize;
  std::memset(p, 0, kPageSize);
  return p;
}

void DeviceMemory::ChunkFree::operator()(uint8_t* p) const { std::free(p); }

uint8_t**& DeviceMemory::l2_table(uint64_t p) {
  uint8_t**& l2 = l1_[p >> kL2Bits];
  if (!l2) {
    l2_store_.push_back(std::make_unique<uint8_t*[]>(kL2Size));
    l2 = l2_store_.back().get();
    for (uint64_t i = 0; i < kL2Size; ++i) l2[i] = nullptr;
  }
  return l2;
}

void DeviceMemory::map_range(uint64_t addr, uint64_t bytes) {
  const uint64_t end = addr + bytes;
  for (uint64_t a = addr & ~(kPageSize - 1); a < end; a += kPageSize) {
    uint64_t p = a >> kPageBits;
    uint8_t*& page = l2_table(p)[p & (kL2Size - 1)];
    if (!page) {
      page = reserved_marker();
    } else if (page != reserved_marker()) {
      // A page that holds data already: a neighbouring allocation's, or one a kernel wrote past
      // the last allocation (inside the heap margin). The new allocation starts from zeros, as
      // every allocation does here; the rest of the page is kept.
      const uint64_t from = std::max(a, addr), to = std::min(a + kPageSize, end);
      std::memset(page + (from - a), 0, to - from);
    }
  }
}

const uint8_t* DeviceMemory::heap_read_ptr(uint64_t addr) const {
  return in_heap(addr) ? zero_page() + (addr & (kPageSize - 1)) : nullptr;
}

uint8_t* DeviceMemory::heap_write_ptr(uint64_t addr) {
  if (!in_heap(addr)) return nullptr;
  uint64_t p = addr >> kPageBits;
  uint8_t*& page = l2_table(p)[p & (kL2Size - 1)];
  if (!page || page == reserved_marker()) page = materialize();
  return page + (addr & (kPageSize - 1));
}

uint64_t DeviceMemory::allocate(uint64_t bytes) { return place(next_, kStaticBase - kHeapMargin, bytes, kHeapAlign); }

uint64_t DeviceMemory::allocate_static(uint64_t bytes) {
  return place(static_next_, kLimit - kHeapMargin, bytes, kPageSize);
}

uint64_t DeviceMemory::place(uint64_t& next, uint64_t end, uint64_t bytes, uint64_t align) {
  if (bytes == 0) bytes = 1;
  uint64_t rounded = (bytes + align - 1) & ~(align - 1);
  if (rounded < bytes || rounded > kMaxAllocation)
    throw Error("device memory: allocation of " + std::to_string(bytes) + " bytes exceeds the " +
                std::to_string(kMaxAllocation >> 30) + " GiB limit per allocation");
  if (next + rounded > end)
    throw Error("device memory: cannot allocate " + std::to_string(bytes) + " bytes (address range exhausted)");
  if (limit_ && allocated_ + rounded > limit_)
    throw LimitError("device memory limit: allocating " + std::to_string(bytes) + " bytes with " +
                     std::to_string(allocated_) +
                     " already allocated exceeds global_memory = " + std::to_string(limit_));
  uint64_t addr = next;
  next += rounded;
  map_range(addr, rounded);
  allocs_[addr] = Alloc{rounded, bytes};
  allocated_ += rounded;
  return addr;
}

void DeviceMemory::free(uint64_t addr) {
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) throw Error("device memory: free of " + hex(addr) + " which is not an allocation");
  const bool backed = backed_.erase(addr) > 0;  // the pages belong to the caller's host memory
  // The pages of the allocation, less a first or last page that a live neighbour shares.
  uint64_t first = addr >> kPageBits, end = ((addr + it->second.rounded - 1) >> kPageBits) + 1;
  if (it != allocs_.begin()) {
    auto prev = std::prev(it);
    if (((prev->first + prev->second.rounded - 1) >> kPageBits) == first) ++first;
  }
  if (auto next = std::next(it); next != allocs_.end() && (next->first >> kPageBits) == end - 1) --end;
  for (uint64_t p = first; p < end; ++p) {
    uint8_t*& page = l1_[p >> kL2Bits][p & (kL2Size - 1)];
    if (page && page != reserved_marker() && !backed) {
      free_pages_.push_back(page);
      --touched_;
    }
    page = nullptr;
  }
  allocated_ -= it->second.rounded;
  freed_[addr] = it->second.requested;
  allocs_.erase(it);
}

uint64_t DeviceMemory::allocation_size(uint64_t addr) const {
  auto it = allocs_.find(addr);
  return it == allocs_.end() ? 0 : it->second.rounded;
}

bool DeviceMemory::is_mapped(uint64_t addr, uint64_t bytes) const {
  if (bytes == 0) return true;
  if ((addr < kBase || addr >= kLimit) && !host_.empty()) return is_host_mapped(addr, bytes);
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return false;
  --it;
  return addr >= it->first && addr + bytes <= it->first + it->second.rounded && addr + bytes >= addr;
}

bool DeviceMemory::in_allocation(uint64_t addr, uint64_t bytes) const {
  // Mapped host memory and managed memory count as allocations of their own.
  if ((addr < kBase || addr >= kLimit) && !host_.empty()) return is_host_mapped(addr, bytes);
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return false;
  --it;
  return addr >= it->first && addr + bytes <= it->first + it->second.requested && addr + bytes >= addr;
}

DeviceMemory::AccessFault DeviceMemory::describe_access(uint64_t addr, uint64_t bytes) const {
  AccessFault f;
  auto alloc_text = [](uint64_t start, uint64_t size, const char* kind) {
    return std::string("the ") + kind + "allocation at " + hex(start) + " of " + std::to_string(size) + " bytes";
  };
  // A freed allocation holding the first byte (addresses are never reused).
  auto fit = freed_.upper_bound(addr);
  if (fit != freed_.begin()) {
    --fit;
    if (addr < fit->first + fit->second) {
      f.after_free = true;
      f.where = std::to_string(addr - fit->first) + " bytes inside " + alloc_text(fit->first, fit->second, "freed ");
      return f;
    }
  }
  // The nearest live allocation: the one at or below addr, or the next one above.
  auto hi = allocs_.upper_bound(addr);
  auto lo = hi == allocs_.begin() ? allocs_.end() : std::prev(hi);
  uint64_t dlo = ~uint64_t(0), dhi = ~uint64_t(0);
  if (lo != allocs_.end())
    dlo = addr >= lo->first + lo->second.requested ? addr - (lo->first + lo->second.requested) : 0;
  if (hi != allocs_.end()) dhi = hi->first - addr;
  if (lo != allocs_.end() && dlo <= dhi) {
    const uint64_t end = lo->first + lo->second.requested;
    if (addr < end)  // starts inside, runs past the end
      f.where = std::to_string(addr + bytes - end) + " bytes past the end of " +
                alloc_text(lo->first, lo->second.requested, "");
    else
      f.where =
          std::to_string(addr - end) + " bytes after the end of " + alloc_text(lo->first, lo->second.requested, "");
  } else if (hi != allocs_.end()) {
    f.where = std::to_string(dhi) + " bytes before " + alloc_text(hi->first, hi->second.requested, "");
  } else {
    f.where = "no live allocation";
  }
  return f;
}

void DeviceMemory::map_host(uint64_t addr, uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  uint64_t end = addr + bytes;
  if (end < addr || addr == 0) throw Error("device memory: host range at " + hex(addr) + " wraps around");
  if (end > kBase && addr < kLimit)
    throw Error("device memory: host range " + hex(addr) + ".." + hex(end) + " overlaps the device address range " +
                hex(kBase) + ".." + hex(kLimit));
  auto it = host_.upper_bound(addr);
  if ((it != host_.end() && it->first < end) || (it != host_.begin() && std::prev(it)->second > addr))
    throw Error("device memory: host range at " + hex(addr) + " overlaps a mapped host range");
  host_[addr] = end;
}

void DeviceMemory::unmap_host(uint64_t addr) {
  if (!host_.erase(addr)) throw Error("device memory: no host range starts at " + hex(addr));
}

bool DeviceMemory::is_host_mapped(uint64_t addr, uint64_t bytes) const {
  auto it = host_.upper_bound(addr);
  if (it == host_.begin()) return false;
  --it;
  return addr + bytes >= addr && addr + bytes <= it->second;
}

uint8_t* DeviceMemory::host_lookup(uint64_t addr) const {
  // Page granularity, as for device pages: callers may use the pointer to the end of its page.
  const uint64_t page = addr & ~(kPageSize - 1);
  auto it = host_.upper_bound(addr);
  bool hit = it != host_.end() && it->first < page + kPageSize;
  if (!hit && it != host_.begin()) hit = std::prev(it)->second > page;
  return hit ? reinterpret_cast<uint8_t*>(uintptr_t(addr)) : nullptr;
}

void DeviceMemory::back_with_host(uint64_t addr, uint8_t* host) {
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) throw Error("device memory: " + hex(addr) + " is not an allocation");
  if (backed_.count(addr)) throw Error("device memory: the allocation at " + hex(addr) + " is in host memory already");
  for (uint64_t off = 0; off < it->second.rounded; off += kPageSize) {
    uint64_t p = (addr + off) >> kPageBits;
    uint8_t*& page = l1_[p >> kL2Bits][p & (kL2Size - 1)];
    uint8_t* dst = host + off;
    if (page == reserved_marker()) {
      std::memset(dst, 0, kPageSize);
    } else {
      std::memcpy(dst, page, kPageSize);
      free_pages_.push_back(page);
      --touched_;
    }
    page = dst;
  }
  backed_[addr] = host;
}

void DeviceMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  if (!is_mapped(addr, bytes))
    throw Error("device memory: write of " + std::to_string(bytes) + " bytes at " + hex(addr) +
                " outside any allocation");
  const uint8_t* s = static_cast<const uint8_t*>(src);
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(write_ptr(addr), s, n);
    addr += n, s += n, bytes -= n;
  }
}

void DeviceMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
  if (!is_mapped(addr, bytes))
    throw Error("device memory: read of " + std::to_string(bytes) + " bytes at " + hex(addr) +
                " outside any allocation");
  uint8_t* d = static_cast<uint8_t*>(dst);
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(d, read_ptr(addr), n);
    addr += n, d += n, bytes -= n;
  }
}

void DeviceMemory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
  if (!is_mapped(addr, bytes))
    throw Error("device memory: memset of " + std::to_string(bytes) + " bytes at " + hex(addr) +
                " outside any allocation");
  while (bytes) {
    uint64_t n = std::min(bytes, kPageSize - (addr & (kPageSize - 1)));
    std::memset(write_ptr(addr), value, n);
    addr += n, bytes -= n;
  }
}

void DeviceMemory::copy(uint64_t dst, uint64_t src, uint64_t bytes) {
  std::vector<uint8_t> tmp(bytes);
  read(src, tmp.data(), bytes);
  write(dst, tmp.data(), bytes);
}

}  // namespace warpsim

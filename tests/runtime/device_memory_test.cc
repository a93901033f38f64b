#include "runtime/device_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/error.h"

namespace warpsim {
namespace {

TEST(DeviceMemory, AllocationsFollowOneAnotherFromTheHeapBase) {
  // GPGPU-Sim's layout: the first cudaMalloc at 0xC0000000, each next one right after the
  // previous, sizes rounded up to 256 bytes; module variables elsewhere, page aligned, so that
  // they do not move the heap.
  DeviceMemory m;
  uint64_t v = m.allocate_static(64);
  uint64_t a = m.allocate(10), b = m.allocate(5000), c = m.allocate(1);
  EXPECT_EQ(a, 0xC0000000u);
  EXPECT_EQ(b, a + 256);
  EXPECT_EQ(c, b + 5120);
  EXPECT_EQ(v, DeviceMemory::kStaticBase);
  EXPECT_EQ(m.allocate_static(8), v + DeviceMemory::kPageSize);
  EXPECT_TRUE(m.is_mapped(a, 10));
  EXPECT_TRUE(m.is_mapped(v, 64));
  EXPECT_FALSE(m.is_mapped(a + 252, 8));  // runs into b
  EXPECT_EQ(m.read_ptr(0), nullptr);
  EXPECT_EQ(m.allocation_size(b), 5120u);
}

TEST(DeviceMemory, AllocationsSharingAPageKeepTheirBytes) {
  DeviceMemory m;
  uint64_t a = m.allocate(100), b = m.allocate(100), c = m.allocate(100);
  ASSERT_EQ(a >> DeviceMemory::kPageBits, c >> DeviceMemory::kPageBits);  // one page
  const uint8_t x = 7, y = 9, z = 11;
  m.write(a, &x, 1);
  m.write(b, &y, 1);
  m.write(c, &z, 1);
  m.free(b);  // the page stays: a and c still use it
  uint8_t r = 0;
  m.read(a, &r, 1);
  EXPECT_EQ(r, 7);
  m.read(c, &r, 1);
  EXPECT_EQ(r, 11);
  // A new allocation on a page that holds data starts from zeros and leaves the rest alone.
  *m.write_ptr(c + 300) = 5;  // past c, inside the heap
  *m.write_ptr(c + 600) = 6;
  uint64_t d = m.allocate(100);
  ASSERT_EQ(d, c + 256);
  EXPECT_EQ(*m.read_ptr(c + 300), 0);
  EXPECT_EQ(*m.read_ptr(c + 600), 6);
  m.read(c, &r, 1);
  EXPECT_EQ(r, 11);
  // Freeing every allocation of the page gives it back.
  const uint64_t touched = m.pages_touched();
  m.free(a);
  m.free(c);
  EXPECT_EQ(m.pages_touched(), touched);
  m.free(d);
  EXPECT_EQ(m.pages_touched(), touched - 1);
}

TEST(DeviceMemory, TheHeapAroundTheAllocationsIsMapped) {
  DeviceMemory m;
  EXPECT_EQ(m.read_ptr(DeviceMemory::kBase - 512), nullptr);  // nothing allocated: no heap
  uint64_t a = m.allocate(100), b = m.allocate(64);
  // Below the first allocation, past each one's end, past the last: zeros, writable.
  const uint64_t next = b + 256;  // after b's 256 bytes
  for (uint64_t x : {a - 512, a + 100, b + 64, next + DeviceMemory::kHeapMargin - 8}) {
    const uint8_t* r = m.read_ptr(x);
    ASSERT_NE(r, nullptr) << x;
    EXPECT_EQ(*r, 0);
    uint8_t* w = m.write_ptr(x);
    ASSERT_NE(w, nullptr) << x;
    *w = 42;
    EXPECT_EQ(*m.read_ptr(x), 42);
  }
  EXPECT_FALSE(m.in_allocation(a + 100, 1));
  EXPECT_TRUE(m.in_allocation(a + 96, 4));
  EXPECT_FALSE(m.in_allocation(a + 98, 4));
  // Outside the heap: the null page, far below and far above.
  EXPECT_EQ(m.read_ptr(0), nullptr);
  EXPECT_EQ(m.write_ptr(8), nullptr);
  EXPECT_EQ(m.read_ptr(a - DeviceMemory::kHeapMargin - 1), nullptr);
  // (The heap's end is checked per page: the page written above reaches a little past it.)
  EXPECT_EQ(m.write_ptr(next + DeviceMemory::kHeapMargin + DeviceMemory::kPageSize), nullptr);
  // A new allocation over a page written past the last allocation starts from zeros.
  *m.write_ptr(next) = 5;
  uint64_t c = m.allocate(10);
  ASSERT_EQ(c, next);
  EXPECT_EQ(*m.read_ptr(c), 0);
  EXPECT_EQ(m.describe_access(a - 512, 4).where, "512 bytes before the allocation at 0xc0000000 of 100 bytes");
  m.free(b);
  DeviceMemory::AccessFault f = m.describe_access(b + 8, 4);
  EXPECT_TRUE(f.after_free);
  EXPECT_EQ(f.where, "8 bytes inside the freed allocation at 0xc0000100 of 64 bytes");
}

TEST(DeviceMemory, PagesMaterialiseOnWrite) {
  DeviceMemory m;
  uint64_t big = m.allocate(uint64_t(1) << 34);  // 16 GiB reserved, nothing touched
  EXPECT_EQ(m.pages_touched(), 0u);
  const uint8_t* z = m.read_ptr(big + 12345);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(*z, 0);
  EXPECT_EQ(m.pages_touched(), 0u);
  uint32_t v = 0xdeadbeef;
  m.write(big + (uint64_t(1) << 33), &v, 4);
  EXPECT_EQ(m.pages_touched(), 1u);
  uint32_t back = 0;
  m.read(big + (uint64_t(1) << 33), &back, 4);
  EXPECT_EQ(back, v);
  // a write across a page boundary touches two pages
  std::vector<uint8_t> buf(100, 7);
  m.write(big + DeviceMemory::kPageSize - 50, buf.data(), buf.size());
  EXPECT_EQ(m.pages_touched(), 3u);
  m.free(big);
  EXPECT_EQ(m.pages_touched(), 0u);
  // Freed memory stays in the mapped heap: it reads as zeros and is no allocation any more.
  EXPECT_EQ(m.materialized_ptr(big + (uint64_t(1) << 33)), nullptr);
  ASSERT_NE(m.read_ptr(big + (uint64_t(1) << 33)), nullptr);
  EXPECT_EQ(*m.read_ptr(big + (uint64_t(1) << 33)), 0);
  EXPECT_FALSE(m.is_mapped(big, 1));
  EXPECT_FALSE(m.in_allocation(big, 1));
}

// Host ranges: the device reaches host bytes at their own addresses, nothing is copied.
TEST(DeviceMemory, HostRangesAreTheHostsBytes) {
  DeviceMemory m;
  std::vector<uint32_t> host(3000, 7);  // spans pages; not page aligned
  uint64_t h = reinterpret_cast<uintptr_t>(host.data());
  if (h < DeviceMemory::kLimit) GTEST_SKIP() << "the heap lies inside the device address range";
  m.map_host(h, host.size() * 4);
  EXPECT_TRUE(m.is_mapped(h, host.size() * 4));
  EXPECT_FALSE(m.is_mapped(h, host.size() * 4 + 4));
  EXPECT_EQ(m.read_ptr(h + 8), reinterpret_cast<const uint8_t*>(host.data() + 2));
  uint32_t v = 42;
  m.write(h + 4 * 2999, &v, 4);
  EXPECT_EQ(host[2999], 42u);
  host[5] = 9;
  m.read(h + 20, &v, 4);
  EXPECT_EQ(v, 9u);
  EXPECT_THROW(m.map_host(h + 4, 8), Error);                       // overlaps
  EXPECT_THROW(m.map_host(DeviceMemory::kBase + 4096, 8), Error);  // the device's own range
  m.unmap_host(h);
  EXPECT_FALSE(m.is_mapped(h, 4));
  EXPECT_EQ(m.read_ptr(h), nullptr);
  EXPECT_THROW(m.unmap_host(h), Error);
}

// An allocation moved into host memory keeps its device address and its bytes.
TEST(DeviceMemory, AllocationsMoveIntoHostMemory) {
  DeviceMemory m;
  uint64_t a = m.allocate(2 * DeviceMemory::kPageSize);
  uint32_t v = 5;
  m.write(a + 4, &v, 4);
  std::vector<uint8_t> store(3 * DeviceMemory::kPageSize);
  uint8_t* host =
      store.data() + (DeviceMemory::kPageSize - reinterpret_cast<uintptr_t>(store.data()) % DeviceMemory::kPageSize);
  m.back_with_host(a, host);
  EXPECT_EQ(m.pages_touched(), 0u);
  uint32_t got = 0;
  std::memcpy(&got, host + 4, 4);
  EXPECT_EQ(got, 5u);
  v = 6;
  m.write(a + DeviceMemory::kPageSize, &v, 4);
  std::memcpy(&got, host + DeviceMemory::kPageSize, 4);
  EXPECT_EQ(got, 6u);
  EXPECT_THROW(m.back_with_host(a, host), Error);
  m.free(a);  // the pages stay the caller's
  EXPECT_EQ(m.pages_touched(), 0u);
}

TEST(DeviceMemory, ErrorsAreReported) {
  DeviceMemory m;
  uint64_t a = m.allocate(64);
  uint32_t v = 1;
  EXPECT_THROW(m.write(a + DeviceMemory::kPageSize, &v, 4), Error);
  EXPECT_THROW(m.read(a + DeviceMemory::kPageSize - 2, &v, 4), Error);
  EXPECT_THROW(m.free(a + 8), Error);
  EXPECT_THROW(m.allocate(uint64_t(1) << 39), Error);
  m.free(a);
  EXPECT_THROW(m.free(a), Error);
}

}  // namespace
}  // namespace warpsim

#include "runtime/device_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/error.h"

namespace warpsim {
namespace {

TEST(DeviceMemory, AllocationsArePageAlignedDisjointAndGuarded) {
  DeviceMemory m;
  uint64_t a = m.allocate(10), b = m.allocate(5000), c = m.allocate(1);
  EXPECT_EQ(a % DeviceMemory::kPageSize, 0u);
  EXPECT_GE(b, a + DeviceMemory::kPageSize * 2);  // one page + guard page
  EXPECT_GE(c, b + DeviceMemory::kPageSize * 3);  // two pages + guard page
  EXPECT_TRUE(m.is_mapped(a, 10));
  EXPECT_FALSE(m.is_mapped(a + DeviceMemory::kPageSize, 4));  // guard page
  EXPECT_EQ(m.read_ptr(0), nullptr);
  EXPECT_EQ(m.allocation_size(b), 2 * DeviceMemory::kPageSize);
}

TEST(DeviceMemory, TheHeapAroundTheAllocationsIsMapped) {
  DeviceMemory m;
  EXPECT_EQ(m.read_ptr(DeviceMemory::kBase - 512), nullptr);  // nothing allocated: no heap
  uint64_t a = m.allocate(100), b = m.allocate(64);
  // Below the first allocation, the guard page, the rest of the last page: zeros, writable.
  const uint64_t next = b + 2 * DeviceMemory::kPageSize;  // after b's page and guard page
  for (uint64_t x : {a - 512, a + 100, a + DeviceMemory::kPageSize, next + DeviceMemory::kHeapMargin - 8}) {
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
  EXPECT_EQ(m.write_ptr(next + DeviceMemory::kHeapMargin), nullptr);
  // A new allocation over a page written past the last allocation starts from zeros.
  *m.write_ptr(next) = 5;
  uint64_t c = m.allocate(10);
  ASSERT_EQ(c, next);
  EXPECT_EQ(*m.read_ptr(c), 0);
  EXPECT_EQ(m.describe_access(a - 512, 4).where, "512 bytes before the allocation at 0x100000000 of 100 bytes");
  m.free(b);
  DeviceMemory::AccessFault f = m.describe_access(b + 8, 4);
  EXPECT_TRUE(f.after_free);
  EXPECT_EQ(f.where, "8 bytes inside the freed allocation at 0x100002000 of 64 bytes");
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

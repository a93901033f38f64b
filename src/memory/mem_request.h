#pragma once
#include <cstdint>

#include "memory/line_bytes.h"

namespace warpsim {

enum class MemKind : uint8_t { Read, Write, Atomic };

// One request between an SM and the memory partitions: a (part of a) line.
struct MemRequest {
  uint64_t addr = 0;         // line-aligned address
  uint64_t issue_cycle = 0;  // cycle the SM sent it (for latency statistics)
  uint32_t sectors = 0;      // 32-byte-sector bitmask of the line wanted / written
  uint32_t token = 0;        // opaque to the memory system; handed back in the response
  uint16_t sm = 0;
  MemKind kind = MemKind::Read;
  uint16_t bytes = 0;  // payload: data returned (read/atomic) or carried (write)
  // A 64-byte line fetch (constant cache): GPGPU-Sim's sectored L2 sees it as two sector requests
  // that both carry the address of the first (l2.half_line_shared_mshr).
  bool half_line = false;
  // A read or write that crosses to the L2 as one packet per sector (icnt.request_packets); the
  // LD/ST unit decides. With icnt.request_input_queued each packet reaches the slice as an access
  // of its own sector, `part` = 1 + the index of the request it belongs to (0: a whole request).
  bool sector_packets = false;
  uint32_t part = 0;
  LineBytes written;  // a store: the bytes of the line it writes (empty: the whole sectors)
  // l2.upper_half_write_next_line: a write of the line's upper 64 bytes that its slice looks up at
  // the same sectors of the line 128 bytes on (set by the LD/ST unit).
  bool next_line = false;
};

// The slice address of a line a write put in a slice that does not hold it
// (l2.upper_half_write_next_line): above every real address, so that it never matches a line of
// the slice; cleared where the line goes to DRAM.
inline constexpr uint64_t kForeignLine = uint64_t(1) << 52;

}  // namespace warpsim

// Why the head instruction of an LD/ST unit (a global, local or texture access) could not send
// its next line access in the last cycle it was tried. While nothing that could unblock it has
// happened, trying again would fail the same way, so the unit only accounts for the attempt:
//   RequestQueueFull: the queue of requests for the interconnect was full; a slot frees when a
//     request leaves.
//   L1Fail: the L1D lookup failed (no MSHR, no merge slot or no replaceable way); it fails again
//     until the L1D changes (a fill above all), which Cache::generation() counts.
//   PipeFull: the access's L1 bank pipeline (core.l1_lookup_after_latency) had no room; room
//     comes when the pipeline's head is looked up, an event of the pipeline itself. Every cycle
//     it waits counts as a bank conflict, as GPGPU-Sim counts it.
#pragma once
#include <cstdint>

namespace warpsim {

struct LdstHeadWait {
  enum class Reason : uint8_t { None, RequestQueueFull, L1Fail, PipeFull };
  Reason reason = Reason::None;
  uint64_t l1_generation = 0;  // L1Fail: the L1D's generation after the failed lookup
  uint32_t bank = 0;           // PipeFull: the bank
};

}  // namespace warpsim

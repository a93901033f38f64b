// The unified L1 data cache / shared memory of Volta and later SMs. One SRAM of
// core.unified_l1_shared bytes holds both; at each kernel launch the shared memory takes the
// smallest of the allowed carve-outs (core.shared_carveouts, KB) that holds the shared memory of
// all the kernel's CTAs an SM will run at once, and the L1D gets the rest (as GPGPU-Sim's
// -gpgpu_adaptive_cache_config does). The L1D keeps its sets and line size; its associativity
// scales with its share of the SRAM. Occupancy still uses core.shared_mem.
#pragma once
#include <cstdint>
#include <vector>

#include "core/config.h"

namespace warpsim {

// True when the L1D size follows the kernel's shared memory.
inline bool l1_carveout_enabled(const GpuConfig& cfg) { return cfg.core.unified_l1_shared > 0; }

// The allowed shared-memory carve-outs in bytes, ascending (throws on a malformed list).
std::vector<uint64_t> shared_carveouts(const GpuConfig& cfg);

// Ways the L1D's tag array is built with: enough for the whole unified SRAM when the carve-out
// is enabled, else l1d.assoc (0 = fully associative: every line).
uint32_t l1d_max_ways(const GpuConfig& cfg);

// The L1D's configuration with l1d_max_ways() ways (the same sets and lines).
CacheConfig l1d_storage(const GpuConfig& cfg);

// Ways of the L1D while a kernel runs whose CTAs each use `shared_per_cta` bytes of shared memory
// and of which `ctas_per_sm` share an SM.
uint32_t l1d_ways_for_kernel(const GpuConfig& cfg, uint64_t shared_per_cta, uint32_t ctas_per_sm);

}  // namespace warpsim

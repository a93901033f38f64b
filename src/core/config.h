// Typed configuration of the modelled GPU. Every field is reachable by a dotted key
// (`l1d.size`, `dram.tRCD`, ...) through visit(); TOML presets, `--set key=value`, the
// GPGPU-Sim importer and the JSON dump all go through that one list of fields.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/warp_inst.h"

namespace warpsim {

struct CacheConfig {
  bool enabled = true;
  uint32_t size = 16 * 1024;                   // bytes
  uint32_t assoc = 4;                          // 0 = fully associative
  uint32_t line = 128;                         // bytes
  uint32_t sector = 128;                       // bytes; == line means not sectored
  uint32_t mshr_entries = 32;                  // distinct lines with misses outstanding
  uint32_t mshr_merge = 8;                     // requests merged into one MSHR entry
  uint32_t latency = 1;                        // hit latency in core cycles
  std::string write_policy = "write_through";  // write_back | write_through | write_evict | local_write_back
  std::string write_allocate = "no_allocate";  // allocate | no_allocate | lazy_fetch_on_read
  uint32_t ports = 1;                          // tag lookups per cycle
  bool perfect = false;                        // every access hits (GPGPU-Sim -gpgpu_perfect_inst_const_cache)
  uint32_t banks = 1;                          // data banks; accesses of one cycle must fall in distinct banks
  uint32_t bank_interleave = 32;               // bytes of consecutive addresses in one bank
  std::string set_index = "linear";            // linear | fermi | ipoly | xor: address bits -> set
  uint32_t miss_queue = 16;                    // L1D: requests between the tag lookup and the interconnect
  uint32_t write_ratio = 0;                    // percent of lines: written lines kept below it (0: off)

  template <class V>
  void visit(V& v) {
    v("enabled", enabled, "model this cache (false: every access misses to the next level)");
    v("size", size, "capacity in bytes");
    v("assoc", assoc, "ways per set; 0 = fully associative");
    v("line", line, "line size in bytes");
    v("sector", sector, "sector size in bytes (== line for a non-sectored cache)");
    v("mshr_entries", mshr_entries, "miss status holding registers (lines in flight)");
    v("mshr_merge", mshr_merge, "requests merged per MSHR entry");
    v("miss_queue", miss_queue,
      "L1D only (other caches ignore it): requests that passed the tag lookup and wait for the interconnect, "
      "GPGPU-Sim's miss-queue field of -gpgpu_cache:dl1; with core.l1_miss_after_latency each bank's latency "
      "pipeline holds l1d.latency more, and an access waits while its bank's pipeline is full");
    v("write_ratio", write_ratio,
      "percent of the cache's lines: a line that a write touched (write-through caches too) is not replaced while "
      "fewer than this share of the lines are written; 0: written lines are replaced as any other (GPGPU-Sim "
      "-gpgpu_l1_cache_write_ratio, the L1D's dirty-line share)");
    v("latency", latency, "hit latency, core cycles");
    v("write_policy", write_policy,
      "write_back|write_through|write_evict|local_write_back write policy: local_write_back writes local memory back "
      "and evicts on global writes (GPGPU-Sim 'L')");
    v("write_allocate", write_allocate,
      "allocate|no_allocate|lazy_fetch_on_read on a write miss: allocate the line (written sectors valid), do not, "
      "or allocate and keep the written bytes, a sector partly written being fetched at its next read (GPGPU-Sim "
      "'L')");
    v("ports", ports, "tag lookups per cycle");
    v("perfect", perfect, "every access hits with the hit latency (no misses, no fills)");
    v("banks", banks, "data banks: accesses served in one cycle must fall in distinct banks (1 = no banking)");
    v("bank_interleave", bank_interleave, "bytes of consecutive addresses mapped to one bank");
    v("set_index", set_index, "linear|fermi|ipoly|xor set-index function: how an address selects its set");
  }
};

// One kind of execution unit. Latency and initiation interval are per latency class
// (core/warp_inst.h): GPGPU-Sim's ADD, MAX, MUL, MAD, DIV, SHFL tables, the SFU's
// transcendental figure and the one-cycle class of simple operations.
struct UnitConfig {
  uint32_t count = 1;  // units of this kind per SM (shared) or per scheduler (subcore)
  uint32_t latency[kNumLatencyClasses] = {4, 4, 20, 20, 1, 4, 4, 4, 64};   // result latency per class
  uint32_t initiation[kNumLatencyClasses] = {1, 1, 1, 1, 1, 1, 1, 1, 32};  // cycles before the next issue

  template <class V>
  void visit(V& v) {
    v("count", count, "units per SM (shared mode) or per scheduler (subcore mode)");
    v("latency", latency[kLatDefault], "result latency of add / subtract (and unclassified operations), core cycles");
    v("latency_max", latency[kLatMax], "result latency of min / max");
    v("latency_mul", latency[kLatMul], "result latency of multiply");
    v("latency_mad", latency[kLatMad], "result latency of multiply-add / fma");
    v("latency_div", latency[kLatDiv], "result latency of division / remainder");
    v("latency_trans", latency[kLatTrans], "result latency of transcendental, reciprocal and square-root operations");
    v("latency_alu", latency[kLatAlu],
      "result latency of simple operations (move, compare, select, logic, shift, convert)");
    v("latency_shfl", latency[kLatShfl], "result latency of warp shuffles");
    v("latency_mma", latency[kLatMma], "result latency of a warp matrix multiply-accumulate (wmma.mma, on sp)");
    v("initiation", initiation[kLatDefault], "initiation interval of add / subtract, core cycles");
    v("initiation_max", initiation[kLatMax], "initiation interval of min / max");
    v("initiation_mul", initiation[kLatMul], "initiation interval of multiply");
    v("initiation_mad", initiation[kLatMad], "initiation interval of multiply-add / fma");
    v("initiation_div", initiation[kLatDiv], "initiation interval of division / remainder");
    v("initiation_trans", initiation[kLatTrans], "initiation interval of transcendental operations");
    v("initiation_alu", initiation[kLatAlu], "initiation interval of simple operations");
    v("initiation_shfl", initiation[kLatShfl], "initiation interval of warp shuffles");
    v("initiation_mma", initiation[kLatMma], "initiation interval of a warp matrix multiply-accumulate (wmma.mma)");
  }
};

struct CoreConfig {
  uint32_t num_sms = 15;
  uint32_t sms_per_cluster = 1;  // SMs sharing one crossbar port (GPGPU-Sim's SIMT core cluster)
  uint32_t schedulers = 2;       // warp schedulers per SM
  bool subcore = false;          // true: each scheduler owns its units (Volta/Turing)
  uint32_t max_warps = 48;
  uint32_t max_threads = 1536;
  uint32_t max_ctas = 8;
  uint32_t registers = 32768;
  uint32_t reg_alloc_granularity = 64;  // registers allocated per warp in multiples of this
  uint32_t max_regs_per_thread = 255;   // most registers the compiler gives one thread
  bool compiled_registers = true;       // kernels get the compiler's register counts where known
  uint32_t register_target = 75;        // sm_XX whose register counts they get
  uint32_t shared_mem = 48 * 1024;
  uint32_t unified_l1_shared = 0;      // bytes of one L1D + shared SRAM; 0 = the L1D has a fixed size
  std::string shared_carveouts = "0";  // KB the shared memory may take of it, comma-separated
  uint32_t shared_banks = 32;
  uint32_t shared_bank_width = 4;  // bytes
  uint32_t shared_latency = 24;    // core cycles from issue to data
  uint32_t const_latency = 8;      // constant-cache hit latency
  uint32_t const_miss_latency = 200;
  uint32_t ibuffer = 2;                    // instruction buffer entries per warp
  uint32_t fetch_per_cycle = 1;            // warps that fetch per cycle per SM
  bool fetch_after_issue = false;          // fetch and decode follow issue within a cycle (GPGPU-Sim's order)
  bool ifill_feeds_one_per_fetch = false;  // an I-cache fill serves its waiting warps one per fetch slot
  bool fetch_refusal_moves_on = false;     // a refused I-cache fetch moves the round robin past its warp
  uint32_t first_fetch_warp = 0;           // the warp slot the fetch round robin's first search starts at
  bool exit_at_fetch_scan = false;         // a finished warp leaves when the fetch round robin passes it
  bool module_code_layout = false;         // a PTX module's functions lie one after another in instruction memory
  bool fetch_falls_through = false;  // after a taken branch that ends its fetch, the fall-through is fetched first
  uint32_t decode_width = 2;         // instructions decoded into the ibuffer per fetch
  uint32_t icache_miss_latency = 100;
  uint32_t branch_latency = 2;             // cycles after a branch issues before the warp fetches again
  uint32_t ldst_queue = 8;                 // memory instructions queued in the LD/ST unit
  uint32_t ldst_queue_per_scheduler = 0;   // of them, at most this many from one scheduler (0: no bound)
  uint32_t issue_per_scheduler = 1;        // instructions a scheduler issues per cycle
  uint32_t mem_issue_per_sm = 1;           // MEM instructions the whole SM may issue per cycle
  uint32_t sfu_issue_per_sm = 1;           // SFU instructions the whole SM may issue per cycle (0: no limit)
  bool rotate_issue_priority = false;      // the scheduler asked first rotates by one each cycle
  bool cta_dispatch_per_cluster = false;   // a cluster takes at most one CTA per cycle, its SMs in turn
  uint32_t cta_dispatch_latency = 0;       // per CTA of the grid, added to the kernel launch latency
  uint32_t kernel_launch_latency = 0;      // cycles from a kernel's start to its first CTA
  uint32_t kernel_submit_interval = 0;     // fewest cycles between two launches' submissions by the host
  uint32_t barrier_latency = 0;            // cycles from a barrier's last arrival to its warps issuing again
  bool hoist_global_loads = false;         // PTX: global loads move up their basic block, as ptxas schedules them
  bool result_slot_conflicts = false;      // a unit takes no instruction whose result cycle is taken
  bool l1_flush_when_idle = false;         // an SM left without CTAs drops its L1D contents
  bool l1_flush_by_cluster = false;        // ... decided after the next dispatch, for whole idle clusters
  bool ifetch_through_memory = false;      // I-cache misses read their line through the L2
  bool l1_miss_after_latency = false;      // L1D misses and writes leave for the L2 l1d.latency cycles after the access
  bool l1_lookup_after_latency = false;    // L1D accesses, hits too, are looked up at the end of their bank's pipeline
  bool const_through_memory = false;       // constant-cache misses read their line through the L2
  bool atomic_waits = false;               // a warp with an atomic in flight issues nothing until it completes
  bool long_op_marks_persist = false;      // a register loaded from memory stays "long-latency" until an ALU write
  bool param_through_const_cache = false;  // kernel-parameter loads are constant-cache accesses
  bool cache_global_bypasses_l1 = false;   // ld/st.global.cg go past the L1
  std::string local_layout = "thread";     // thread | cta: where each thread's local-memory words lie
  std::string access_order = "lane";       // lane | descending: the order of a warp's line accesses
  bool sector_accesses = false;            // the L1's accesses are 32-byte sectors, not lines
  uint32_t mem_writeback_per_cycle = 0;    // memory responses written back per cycle per SM (0: no limit)

  template <class V>
  void visit(V& v) {
    v("num_sms", num_sms, "streaming multiprocessors");
    v("sms_per_cluster", sms_per_cluster,
      "SMs per cluster (GPGPU-Sim's SIMT core cluster, -gpgpu_n_cores_per_cluster): the SMs of a cluster share "
      "one crossbar port each way (the request FIFO of icnt.request_input_queued, and the ejection port of "
      "replies); SM s is in cluster s mod (num_sms / sms_per_cluster), so the SMs given consecutive CTAs of the "
      "first wave are in different clusters, as GPGPU-Sim hands out CTAs one cluster at a time");
    v("schedulers", schedulers, "warp schedulers per SM");
    v("subcore", subcore, "each scheduler owns its units (Volta/Turing sub-cores)");
    v("max_warps", max_warps, "resident warps per SM");
    v("max_threads", max_threads, "resident threads per SM");
    v("max_ctas", max_ctas, "resident CTAs per SM");
    v("registers", registers, "32-bit registers per SM");
    v("reg_alloc_granularity", reg_alloc_granularity, "register allocation unit per warp");
    v("max_regs_per_thread", max_regs_per_thread,
      "most registers per thread the architecture allows (63 on compute capability 2.x, 255 from 3.x); a PTX "
      "kernel's register estimate is capped at it and at its launch bounds, as ptxas allocates (docs/ptx.md)");
    v("compiled_registers", compiled_registers,
      "a kernel is allocated the registers per thread its compiler gave it where they are known (the bundled "
      "suite's recorded ptxas counts, a program's cubins), else the PTX estimate; false: always the estimate "
      "(docs/ptx.md)");
    v("register_target", register_target,
      "compiler target (sm_XX as XX) whose register counts kernels get: the recorded target nearest to it at or "
      "below, else the lowest above (docs/ptx.md)");
    v("shared_mem", shared_mem, "shared memory bytes per SM");
    v("unified_l1_shared", unified_l1_shared,
      "bytes of the SRAM the L1D and shared memory share; each kernel's L1D gets what its shared-memory carve-out "
      "leaves (docs/memory.md); 0 = the L1D is always l1d.size");
    v("shared_carveouts", shared_carveouts,
      "shared-memory carve-outs of the unified SRAM in KB, comma-separated (GPGPU-Sim -gpgpu_shmem_option)");
    v("shared_banks", shared_banks, "shared memory banks");
    v("shared_bank_width", shared_bank_width, "bytes per bank word");
    v("shared_latency", shared_latency, "shared memory access latency");
    v("const_latency", const_latency, "constant cache hit latency");
    v("const_miss_latency", const_miss_latency, "constant cache miss latency");
    v("ibuffer", ibuffer, "instruction buffer entries per warp");
    v("fetch_per_cycle", fetch_per_cycle, "warps fetching per cycle per SM");
    v("fetch_after_issue", fetch_after_issue,
      "fetch and decode come after issue in a cycle, as in GPGPU-Sim's shader cycle (issue, then fetch_per_cycle "
      "rounds of decode and fetch): a warp whose buffer the issue emptied fetches in the same cycle, and what it "
      "fetches is decoded before the cycle ends unless it was the cycle's last fetch slot, so it issues again "
      "the next cycle; a taken branch lets its warp fetch the target branch_latency cycles after it issues, one "
      "more when the branch was not the last instruction of its fetch (the sequential successor fetched with "
      "it is found stale the next cycle); false: fetch comes before issue and a fetched buffer is decoded the "
      "next cycle");
    v("ifill_feeds_one_per_fetch", ifill_feeds_one_per_fetch,
      "an I-cache fill hands its line to the warps waiting on it one per fetch slot, in the order they missed, "
      "each taking that slot as a fetch would (GPGPU-Sim's fetch takes one m_L1I->next_access() per round); "
      "false: every waiting warp gets its instructions the cycle after the fill");
    v("fetch_refusal_moves_on", fetch_refusal_moves_on,
      "a fetch the I-cache refuses (no free MSHR or merge slot) ends the cycle's fetch and moves the round robin "
      "past its warp, so the next cycle tries the next warp (GPGPU-Sim's fetch on RESERVATION_FAIL); false: the "
      "same warp tries again next cycle");
    v("first_fetch_warp", first_fetch_warp,
      "the warp slot at which the SM's fetch round robin starts its first search (it then starts after the warp "
      "fetched last, across kernels); GPGPU-Sim's m_last_warp_fetched starts at 0, so its first search starts at "
      "warp 1 and warp 0 is the last of its CTA to ask the I-cache (measured, not set in the presets or by the "
      "importer: docs/fidelity.md)");
    v("exit_at_fetch_scan", exit_at_fetch_scan,
      "a warp that has executed its exit and has nothing in flight leaves the SM (and frees its CTA's slot once all "
      "of the CTA's warps have left) only when the fetch stage's round robin passes over it once its exit and its "
      "last results have left the pipeline: each fetch slot passes the warps from the round robin's position up to the "
      "warp it "
      "fetches for, or all of them when none fetches (GPGPU-Sim's shader_core_ctx::fetch reclaims finished warps in "
      "its search); false: the warp leaves when its exit issues and its last memory instruction completes");
    v("module_code_layout", module_code_layout,
      "the functions of a PTX module lie one after another in instruction memory, in the order they are "
      "defined, 8 bytes per PTX instruction, from 0xF0000000 with a program's modules in the order they were "
      "loaded (GPGPU-Sim's function_info::ptx_assemble), so a kernel's first "
      "instructions can share an I-cache line with the end of the function defined before it; false: each "
      "kernel's code starts a region of its own (as in a cubin, where every kernel is aligned)");
    v("fetch_falls_through", fetch_falls_through,
      "a taken branch that was the last instruction of its fetch leaves the warp's fetch address at its "
      "fall-through: the next fetch brings the instructions after the branch (an I-cache access like any "
      "other, a miss included), the scheduler discards them when they become visible, and only then is "
      "the target fetched (GPGPU-Sim's issue_warp sets the next fetch pc to the branch's pc + size and the "
      "scheduler flushes on a pc mismatch); false: the target is fetched once the branch resolves");
    v("decode_width", decode_width, "instructions decoded per fetch");
    v("icache_miss_latency", icache_miss_latency, "instruction cache miss latency");
    v("branch_latency", branch_latency, "cycles a branch blocks fetch of its warp");
    v("ldst_queue", ldst_queue, "memory instructions queued in the LD/ST unit");
    v("ldst_queue_per_scheduler", ldst_queue_per_scheduler,
      "of the memory instructions queued in the LD/ST unit, at most this many issued by one scheduler (0: no bound "
      "but ldst_queue); GPGPU-Sim's sub-core model gives each scheduler its own slot of the issue-to-collector and "
      "collector-to-unit registers and its own collector units, and the LD/ST unit takes the oldest instruction of "
      "the four collector-to-unit slots");
    v("issue_per_scheduler", issue_per_scheduler, "instructions issued per scheduler per cycle");
    v("mem_issue_per_sm", mem_issue_per_sm, "memory instructions issued per SM per cycle");
    v("sfu_issue_per_sm", sfu_issue_per_sm, "SFU instructions issued per SM per cycle (0 = no limit)");
    v("rotate_issue_priority", rotate_issue_priority,
      "the SM asks its schedulers in an order that starts one scheduler later every cycle (cycle c starts at "
      "scheduler c mod schedulers), so the issue slots they share (mem_issue_per_sm, sfu_issue_per_sm) go to each "
      "in turn when several want them, as GPGPU-Sim's shader_core_ctx::issue does; false: scheduler 0 is asked "
      "first every cycle");
    v("cta_dispatch_per_cluster", cta_dispatch_per_cluster,
      "the dispatcher places at most one CTA per cluster (core.sms_per_cluster) per cycle, visiting the clusters "
      "from the one after the last that received a CTA and a cluster's SMs from the one after its last that "
      "received one, as GPGPU-Sim's issue_block2core does; false: at most one CTA per SM per cycle");
    v("cta_dispatch_latency", cta_dispatch_latency,
      "cycles per CTA of the grid added to kernel_launch_latency before the first CTA (GPGPU-Sim "
      "-gpgpu_TB_launch_latency)");
    v("kernel_launch_latency", kernel_launch_latency,
      "cycles after a kernel starts before its first CTA is dispatched (counted in its cycles)");
    v("kernel_submit_interval", kernel_submit_interval,
      "fewest cycles between the submissions of two consecutive kernel launches (the host and driver's launch rate): "
      "a launch may start no earlier than this after the launch before it was submitted; it paces back-to-back "
      "launches of short kernels and is not counted in any kernel's cycles (0: the host submits at once)");
    v("hoist_global_loads", hoist_global_loads,
      "PTX kernels: each global load moves up within its basic block past instructions independent of it, as "
      "ptxas schedules loads ahead of their uses in SASS, so a warp issues independent loads back to back "
      "(GPGPU-Sim runs PTX in its written order: false)");
    v("barrier_latency", barrier_latency,
      "cycles from the last warp's arrival at a CTA barrier until its warps may issue again (0: the next cycle)");
    v("l1_flush_when_idle", l1_flush_when_idle,
      "an SM whose last CTA finished invalidates its L1 data cache (GPGPU-Sim -gpgpu_flush_l1_cache)");
    v("l1_flush_by_cluster", l1_flush_by_cluster,
      "with l1_flush_when_idle: the flush is decided after the next CTA dispatch and covers a cluster "
      "(sms_per_cluster) none of whose SMs then has a CTA, all its SMs at once; an SM that receives a CTA in that "
      "dispatch, or whose cluster still runs one, keeps its L1 (GPGPU-Sim's gpgpu_sim::cycle issues CTAs, then "
      "invalidates the L1 of each cluster with no thread left). false: an SM's L1 goes as its last CTA finishes");
    v("ifetch_through_memory", ifetch_through_memory,
      "an I-cache miss reads its line through the interconnect, L2 and DRAM like a data load (GPGPU-Sim); false: it "
      "takes icache_miss_latency");
    v("l1_miss_after_latency", l1_miss_after_latency,
      "every L1D access passes the l1d.latency pipeline before its tag lookup, so misses, writes and write-backs "
      "leave for the L2 l1d.latency cycles after the access (GPGPU-Sim's L1 latency queue); false: they leave at once. "
      "Atomics and accesses that bypass the L1 leave at once but queue behind held-back requests");
    v("l1_lookup_after_latency", l1_lookup_after_latency,
      "every L1D access of a load or store, hits included, enters its bank's l1d.latency pipeline (one per bank "
      "per cycle, while the pipeline has room) and is looked up in the tags at its end: a hit completes there, a "
      "miss or write enters the miss queue; a lookup that finds no MSHR or no room in the miss queue stays at the "
      "pipeline's head and holds back its bank, while the LD/ST unit goes on once an instruction's accesses have "
      "all entered (GPGPU-Sim's l1_latency_queue). Replaces core.l1_miss_after_latency; false: the lookup happens "
      "as the access enters");
    v("const_through_memory", const_through_memory,
      "a constant-cache miss reads its line through the interconnect, L2 and DRAM and the load waits for it "
      "(GPGPU-Sim); "
      "false: it takes const_miss_latency");
    v("param_through_const_cache", param_through_const_cache,
      "a load of a kernel parameter is a constant-cache access (a miss reads its line as const_through_memory "
      "says); every kernel's parameters lie at the same addresses, as in GPGPU-Sim. false: it takes const_latency");
    v("local_layout", local_layout,
      "thread|cta layout of local memory in device addresses (each thread's word k in word-row k, the rows one "
      "after another). thread: a row holds every thread slot of the GPU, SM after SM, a warp at its warp slot "
      "(close to GPGPU-Sim -gpgpu_local_mem_map 0); cta: a row holds, for each CTA slot of an SM, the CTA slot "
      "of every SM in turn, each CTA's threads contiguous and padded to whole warps, as many slots as the "
      "kernel's CTAs fit on an SM, and a thread's words of more than 4 bytes are split into 4-byte words of "
      "consecutive rows (GPGPU-Sim's default -gpgpu_local_mem_map 1, shader_core_ctx::translate_local_memaddr)");
    v("access_order", access_order,
      "lane|descending order in which the LD/ST unit takes a warp's line accesses of a global or local load, "
      "store or atomic (one access per line or sector group). lane: in the order of the first active lane to "
      "touch each line; descending: highest address first, as GPGPU-Sim's coalescer queues the accesses in "
      "ascending address order and its LD/ST unit serves the queue from the back (warp_inst_t::accessq_back)");
    v("sector_accesses", sector_accesses,
      "the loads and stores that go through the L1D reach it as one access per 32-byte sector, not per line: "
      "each sector takes its own L1 bank slot, latency-pipeline entry, tag lookup, miss-queue entry and "
      "one-sector request, in access_order (GPGPU-Sim's coalescer from Maxwell on, -gpgpu_coalesce_arch 40 or "
      "more, which makes every global and local access a 32-byte sector). false: one access per line with the "
      "sectors its lanes touch (per 32, 64 or 128-byte block for the bank). Accesses that go past the L1 and "
      "atomics are not split (icnt.request_packets)");
    v("cache_global_bypasses_l1", cache_global_bypasses_l1,
      "a global load or store with the .cg cache operator goes past the L1 to the L2 at once, as GPGPU-Sim's "
      "CACHE_GLOBAL accesses do (no L1 lookup, allocation or latency); false: it is an L1 access like any other");
    v("atomic_waits", atomic_waits,
      "a warp that issued an atomic (shared or global) issues nothing more until the atomic has completed, and the "
      "two-level scheduler demotes it meanwhile (GPGPU-Sim's outstanding-atomic count); false: only the atomic's "
      "destination register waits");
    v("long_op_marks_persist", long_op_marks_persist,
      "a register written by a global or local load (or a parameter or texture load that missed its cache) keeps "
      "its long-latency mark after the data has come back, until an instruction of an execution unit overwrites "
      "it; the two-level scheduler demotes a warp whose next instruction reads a marked register, ready or not "
      "(GPGPU-Sim's scoreboard: a load's writeback releases the register but leaves it among the long operations). "
      "false: only a load still in flight makes a register long-latency");
    v("mem_writeback_per_cycle", mem_writeback_per_cycle,
      "line accesses of global, local and atomic operations whose data came back from below the L1 (misses, "
      "accesses merged into a pending miss, L1 bypasses) written back per cycle per SM, in arrival order; an "
      "instruction completes with its last one (GPGPU-Sim's LD/ST writeback, one response per cycle). 0: no limit");
    v("result_slot_conflicts", result_slot_conflicts,
      "an execution unit refuses an instruction whose result would be written back in the same cycle as an earlier "
      "one's");
  }
};

// Operand collector and register file banks (GPGPU-Sim's opndcoll_rfu_t): between issue and the
// execution unit an instruction takes a collector unit, reads its source registers from banks
// (one access per bank per step, `port_throughput` steps per cycle, write-backs first) and is
// dispatched the step after its last read. Collector sets: an instruction uses the set of its
// (routed) unit when that set has units, else the general set. Sub-core SMs split every set and
// the banks evenly among the schedulers.
struct OperandCollectorConfig {
  bool enabled = false;
  uint32_t banks = 8;
  uint32_t port_throughput = 1;
  uint32_t collectors = 0;  // general collector units per SM
  uint32_t collectors_sp = 4, collectors_int = 0, collectors_dp = 0, collectors_sfu = 4, collectors_mem = 2;
  uint32_t writeback_latency = 2;  // cycles from a result leaving its unit to dependents issuing
  bool queued_dispatch = false;    // issue needs a free issue slot; the unit is taken when the instruction reaches it
  bool mem_holds_collectors = false;  // memory instructions waiting for the LD/ST unit keep their collector units

  template <class V>
  void visit(V& v) {
    v("enabled", enabled, "model the operand collector and register banks between issue and execution");
    v("banks", banks, "register file banks per SM (bank = (register + warp slot) mod banks)");
    v("port_throughput", port_throughput, "collector steps per cycle: reads each bank serves per cycle");
    v("collectors", collectors, "general collector units per SM, used by units without a set of their own");
    v("collectors_sp", collectors_sp, "collector units for SP instructions (0 = general set)");
    v("collectors_int", collectors_int, "collector units for INT instructions (0 = general set)");
    v("collectors_dp", collectors_dp, "collector units for DP instructions (0 = general set)");
    v("collectors_sfu", collectors_sfu, "collector units for SFU instructions (0 = general set)");
    v("collectors_mem", collectors_mem, "collector units for memory instructions (0 = general set)");
    v("writeback_latency", writeback_latency,
      "cycles from a result leaving its unit to a dependent instruction issuing");
    v("queued_dispatch", queued_dispatch,
      "ALU and SFU instructions issue into a slot of their unit type's issue register (one per unit instance, per "
      "SM or per scheduler in sub-core mode), move into a collector unit, read their operands, wait in the "
      "collector-to-unit register and take a unit instance (initiation interval, result slot) when they reach it, "
      "so a busy unit backs up the collectors and then issue (GPGPU-Sim's ID_OC and OC_EX registers); false: an "
      "instruction issues only when a unit instance is free for it at issue");
    v("mem_holds_collectors", mem_holds_collectors,
      "a memory instruction that waits behind another of its scheduler for the LD/ST unit keeps the collector "
      "unit it read its operands in, so the scheduler's other instructions have fewer (GPGPU-Sim: the collector "
      "unit dispatches only into the scheduler's free slot of the collector-to-unit register, which the LD/ST unit "
      "empties one instruction at a time); false: it gives the unit back after its reads");
  }
};

struct IcntConfig {
  uint32_t latency = 8;                  // one-way latency, core cycles
  uint32_t flit = 32;                    // bytes per flit
  uint32_t sm_flits_per_cycle = 1;       // flits an SM injects / ejects per cycle
  uint32_t slice_flits_per_cycle = 1;    // flits an L2 slice accepts / returns per cycle
  uint32_t input_queue = 64;             // requests buffered at each L2 slice
  bool input_queued = false;             // replies cross in order per slice, head-of-line blocking
  bool slice_back_pressure = false;      // a full slice queue holds back only requests for that slice
  bool request_input_queued = false;     // requests cross in order per SM, head-of-line blocking
  bool sequential_grants = false;        // input-queued: outputs grant in index order, inputs may send more than once
  uint32_t sm_input_queue = 512;         // request packets waiting to cross at each SM (request_input_queued)
  uint32_t slice_output_queue = 512;     // request packets waiting at a full slice's crossbar output
  bool sm_input_queue_flits = false;     // sm_input_queue counts flits (booksim's buffers), not packets
  std::string request_packets = "line";  // line | sector | sector_uncached: packets a request takes to the L2
  bool write_data_sectors = false;       // a store's packet carries its whole 32-byte sectors, not its lanes' bytes
  bool store_segments = false;           // a store or atomic over both halves of a 128-byte segment covers it all

  template <class V>
  void visit(V& v) {
    v("latency", latency, "one-way interconnect latency, core cycles");
    v("flit", flit, "bytes per flit");
    v("sm_flits_per_cycle", sm_flits_per_cycle, "flits per cycle per SM port");
    v("slice_flits_per_cycle", slice_flits_per_cycle, "flits per cycle per L2 slice port");
    v("input_queue", input_queue, "requests queued at each L2 slice");
    v("input_queued", input_queued,
      "replies wait in a FIFO at their L2 slice and cross the crossbar in that order: each SM takes one slice's "
      "head packet at a time, round robin over the slices, and a head packet whose SM is busy holds back the "
      "packets behind it (head-of-line blocking, as in GPGPU-Sim's one-virtual-channel crossbars); false: every "
      "packet reaches its SM's ejection port independently");
    v("slice_back_pressure", slice_back_pressure,
      "an SM's next request waits only while the input queue of the L2 slice it goes to is full (back-pressure "
      "per destination, as in GPGPU-Sim, where a request for a full slice stays in the network and holds back "
      "the requests behind it); false: any full slice queue holds back every SM's requests (global)");
    v("request_input_queued", request_input_queued,
      "requests wait in a FIFO at their SM's crossbar port (one per cluster, core.sms_per_cluster), in the order "
      "they left their SMs, and cross in that order: in every cycle each L2 slice takes the head packet of the "
      "first port at or after its round-robin pointer whose head is addressed to it, and a head whose slice is "
      "taken, busy or full holds back the packets behind it (head-of-line blocking, as in GPGPU-Sim's local "
      "crossbar); false: a request reserves its slice's input slots when it is sent and reaches the slice "
      "independently of other SMs' requests");
    v("sequential_grants", sequential_grants,
      "in the input-queued directions (input_queued, request_input_queued) the outputs take their head packets one "
      "after another in index order within a cycle, so an input whose head crossed may send its next packet to a "
      "later output in the same cycle (GPGPU-Sim's local crossbar, -network_mode 2); false: each input sends at "
      "most one packet per cycle (a matching, as booksim's iSLIP)");
    v("sm_input_queue", sm_input_queue,
      "with request_input_queued, packets (flits with sm_input_queue_flits) that may wait to cross at each "
      "crossbar port; each SM of a cluster may fill its share and sends nothing while it is full (GPGPU-Sim "
      "-icnt_in_buffer_limit; with -network_mode 1 booksim's injection and input buffers, input_buffer_size + "
      "vc_buf_size of its network file)");
    v("sm_input_queue_flits", sm_input_queue_flits,
      "sm_input_queue counts flits, not packets: a read's control packet takes one, a write's packet its data's "
      "flits (GPGPU-Sim -network_mode 1, whose booksim network takes a packet while the SM's injection buffer "
      "and the router's input buffer, sized in flits, have room for it); false: one per packet (the local "
      "crossbar, -network_mode 2)");
    v("slice_output_queue", slice_output_queue,
      "with request_input_queued, packets that may cross to an L2 slice whose input queue is full and wait in the "
      "crossbar's output buffer, in order, before the slice holds back the head packets addressed to it "
      "(GPGPU-Sim -icnt_out_buffer_limit; with -network_mode 1 booksim's ejection buffer)");
    v("request_packets", request_packets,
      "line|sector|sector_uncached packets of a read or write of the LD/ST unit on its way to the L2: one (line) or "
      "one per 32-byte sector it covers (sector: GPGPU-Sim's coalescer from Maxwell on, whose every global "
      "access is a sector; sector_uncached: only accesses that do not go through the L1, as GPGPU-Sim's Fermi and "
      "Kepler coalescer, whose L1-cached accesses are whole segments); with request_input_queued each packet "
      "reaches the L2 slice as an access of its own sector and the request completes with the last answer");
    v("write_data_sectors", write_data_sectors,
      "a store's packet to the L2 carries the whole 32-byte sectors of the line it writes (GPGPU-Sim's coalescer "
      "sends a store as transactions of whole 32-byte chunks, however many lanes write the same bytes); false: the "
      "bytes its active lanes write, counted lane by lane");
    v("store_segments", store_segments,
      "a store or atomic of 4- to 16-byte words whose sectors lie in both 64-byte halves of a 128-byte segment "
      "covers the whole segment: four sectors cross and are looked up in the L2, those no lane writes included "
      "(GPGPU-Sim's Fermi/Kepler coalescer for accesses the L1 may cache, which narrows a 128-byte segment only "
      "to one half or one quarter, and its L2, which splits a 128-byte request into all four sectors); false: "
      "the sectors its lanes write");
  }
};

struct L2Config {
  uint32_t partitions = 6;  // memory partitions (= DRAM channels)
  uint32_t slices_per_partition = 2;
  CacheConfig cache{true, 64 * 1024, 8, 128, 32, 32, 8, 10, "write_back", "allocate", 1};
  std::string hash = "xor";                 // linear | xor | ipoly | random: how addresses map to partitions
  uint32_t interleave = 256;                // bytes mapped to one partition before moving on
  std::string slice_select = "line";        // line | chunk: which address bit picks the slice
  bool fill_on_copy = false;                // host<->device copies leave their sectors in the L2
  bool flush_at_launch = false;             // each kernel starts with an empty L2 (Nsight Compute's cache control)
  bool sector_lookups = false;              // a request takes one lookup slot per L2 sector it covers
  bool sector_replies = false;              // each L2 sector of a reply or write acknowledgement is a packet
  bool half_line_shared_mshr = false;       // a 64-byte line fetch's two sectors share the MSHR entry of the first
  bool sector_requests = false;             // a read of several sectors is looked up, fetched and answered per sector
  bool fill_replies_per_cycle = false;      // a fill hands out its merged reads one sector reply per cycle
  bool upper_half_write_next_line = false;  // a 64-byte write of a line's upper half lands on the next line
  uint64_t persisting_max_bytes = 0;        // persistingL2CacheMaxSize (0: no persisting L2 accesses)
  uint64_t access_policy_max_window = 0;    // accessPolicyMaxWindowSize (0: no access policy windows)

  template <class V>
  void visit(V& v) {
    v("partitions", partitions, "memory partitions (one DRAM channel each)");
    v("slices_per_partition", slices_per_partition, "L2 slices per partition");
    v("hash", hash, "linear|xor|ipoly|random partition address hashing");
    v("interleave", interleave, "bytes per partition interleave chunk");
    v("slice_select", slice_select,
      "line|chunk slice selection: by the line-index bits (line) or by the bits just above the partition digit "
      "(chunk)");
    v("fill_on_copy", fill_on_copy,
      "copies between host and device leave the copied sectors in the L2, clean (GPGPU-Sim -gpgpu_perf_sim_memcpy)");
    v("flush_at_launch", flush_at_launch,
      "each kernel starts with an empty L2 (lines dropped, dirty ones without a write-back, at no cost in time), as "
      "Nsight Compute runs a kernel with its default --cache-control all; for correlating with ncu measurements");
    v("sector_lookups", sector_lookups,
      "a request takes one tag-lookup slot per L2 sector it covers, answers after its last one, and counts as that "
      "many accesses (GPGPU-Sim splits requests into sector requests at a sectored L2); false: one slot per request");
    v("sector_replies", sector_replies,
      "an answer leaves the slice as one packet per L2 sector it covers (data of reads, acknowledgements of writes), "
      "each after its own lookup; the request completes with the last (GPGPU-Sim answers each sector request of a "
      "sectored L2 separately); false: one packet per request");
    v("half_line_shared_mshr", half_line_shared_mshr,
      "with sector_lookups, a 64-byte line fetch (constant cache) is two sector requests that both carry the "
      "first sector's address, so both find the MSHR entry of the first sector: the second merges into it (no "
      "read of its own), counts towards the merge limit, and is answered by its fill, which brings the first "
      "sector only (GPGPU-Sim's breakdown_request_to_sector_requests and per-sector MSHR addresses); false: each "
      "sector is looked up and fetched on its own");
    v("sector_requests", sector_requests,
      "a read covering several L2 sectors becomes one request per sector when it reaches its slice, each looked up "
      "on its own, merging into or allocating an MSHR entry of its own sector (so the merge limit counts per "
      "sector), fetching its sector from DRAM alone and answering when that sector arrives; the read completes "
      "with its last sector's answer (GPGPU-Sim's breakdown_request_to_sector_requests at a sectored L2); false: "
      "the read is one request and one MSHR entry for all its sectors (measured, not set in the presets or by the "
      "importer: docs/fidelity.md)");
    v("fill_replies_per_cycle", fill_replies_per_cycle,
      "a fill hands the reads waiting on it to the reply queue one sector reply per cycle, sector by sector in the "
      "order the reads merged, from the cycle after the fill, while lookups go on (GPGPU-Sim's MSHR access_ready "
      "/ next_access: one sector request a cycle); a hit found meanwhile replies in its own cycle, ahead of the "
      "waiters not handed out yet; false: every waiter replies in the cycle of the fill (measured, not set in the "
      "presets or by the importer: docs/fidelity.md)");
    v("upper_half_write_next_line", upper_half_write_next_line,
      "a write that covers exactly the upper two 32-byte sectors of a 128-byte line (with icnt.store_segments, a "
      "store the coalescer narrowed to the line's upper 64 bytes) is looked up and written at the same two sectors "
      "of the next line, in the slice of its own line, where it allocates a line of its own (tagged apart from the "
      "slice's lines) that is written back to DRAM when evicted; its own line's sectors are not written "
      "(GPGPU-Sim's breakdown_request_to_sector_requests adds each sector's offset to a 64-byte request's "
      "address, which already points at the upper half); false: the write lands where its lanes write");
    v("persisting_max_bytes", persisting_max_bytes,
      "most bytes of L2 a program may set aside for persisting accesses (cudaDeviceProp::persistingL2CacheMaxSize, "
      "the bound of cudaLimitPersistingL2CacheSize); 0: the device has no persisting L2 (compute capability "
      "below 8.0)");
    v("access_policy_max_window", access_policy_max_window,
      "largest access policy window in bytes (cudaDeviceProp::accessPolicyMaxWindowSize); 0 with "
      "persisting_max_bytes 0");
    v.group("cache", cache, "one L2 slice");
  }
};

struct DramConfig {
  uint32_t banks = 16;
  uint32_t row_bytes = 2048;                                              // row buffer size per bank
  uint32_t tCL = 12, tRCD = 12, tRP = 12, tRAS = 28, tCCD = 2, tWR = 12;  // core cycles
  double bytes_per_cycle = 42.0;          // peak data-bus bytes per core cycle per channel
  uint32_t queue = 32;                    // requests in the FR-FCFS queue per channel
  std::string scheduler = "frfcfs";       // frfcfs | fcfs
  uint32_t latency = 20;                  // fixed controller/PHY latency added to each access
  uint32_t atom = 0;                      // bytes one column command moves (0 = the request's bytes)
  uint32_t tWL = 12;                      // write column command to its data on the bus
  uint32_t tRRD = 0;                      // activate to activate, different banks of the channel
  uint32_t tRC = 0;                       // activate to activate, same bank
  uint32_t tCDLR = 0;                     // end of write data to the next read column command
  uint32_t bank_groups = 1;               // banks form this many groups (tCCDL, tRTPL act within a group)
  std::string bank_group_select = "low";  // low: group = bank % groups; high: bank / (banks / groups)
  double tCCDL = 0.0;                     // column to column within one bank group (fractional core cycles)
  uint32_t tRTPL = 0;                     // read column to precharge within one bank group
  double command_rate = 0.0;              // command-bus slots per core cycle (DRAM clock / core clock); 0 = no limit
  bool dual_command_bus = true;           // row and column commands use separate buses
  std::string bank_hash = "linear";       // linear | xor (bank XOR low row bits)
  uint32_t write_queue = 0;               // >0: writes wait in a queue of their own, served in drains
  uint32_t return_queue = 0;              // reads whose data returns to the L2 (0: unbounded); bounds credits
  uint32_t write_drain_start = 0;         // queued writes that start a drain (reads wait)
  uint32_t write_drain_stop = 0;          // a drain ends when fewer writes than this remain
  std::string page_policy = "open";       // open | closed (precharge when no queued request hits the row)
  uint32_t tREFI = 0;                     // each bank is refreshed once per tREFI core cycles (0 = no refresh)
  uint32_t tRFC = 0;                      // a refreshing bank takes no activate for tRFC core cycles
  std::string refresh = "per_bank";       // per_bank (staggered over tREFI) | all_bank (every bank at once)
  uint32_t refresh_postpone = 0;          // a bank with queued requests delays its refresh up to this long

  template <class V>
  void visit(V& v) {
    v("banks", banks, "banks per channel");
    v("row_bytes", row_bytes, "row buffer bytes per bank");
    v("tCL", tCL, "column access latency, core cycles");
    v("tRCD", tRCD, "activate to column command, core cycles");
    v("tRP", tRP, "precharge, core cycles");
    v("tRAS", tRAS, "activate to precharge, core cycles");
    v("tCCD", tCCD, "column to column, core cycles");
    v("tWR", tWR, "write recovery, core cycles");
    v("bytes_per_cycle", bytes_per_cycle, "peak bytes per core cycle per channel");
    v("queue", queue, "scheduler queue entries per channel");
    v("scheduler", scheduler, "frfcfs|fcfs");
    v("latency", latency, "fixed controller latency per access, core cycles");
    v("atom", atom,
      "bytes one column command moves on the data bus; each L2 sector of a request takes whole atoms (0 = request "
      "size)");
    v("tWL", tWL, "write column command to its data on the bus, core cycles");
    v("tRRD", tRRD, "activate to activate of different banks of one channel, core cycles");
    v("tRC", tRC, "activate to activate of one bank, core cycles");
    v("tCDLR", tCDLR, "end of a write's data to the next read column command (write-to-read turnaround), core cycles");
    v("bank_groups", bank_groups, "bank groups per channel (tCCDL and tRTPL act within a group)");
    v("bank_group_select", bank_group_select,
      "low|high (a bank's group is its low bits, bank % groups, or its high bits)");
    v("tCCDL", tCCDL, "column to column within one bank group, core cycles (fractional; 0 = only tCCD)");
    v("tRTPL", tRTPL, "read column to precharge within one bank group, core cycles");
    v("command_rate", command_rate,
      "DRAM command-bus slots per core cycle (DRAM command clock / core clock); a row command with a precharge "
      "takes two; 0 = unlimited");
    v("bank_hash", bank_hash,
      "linear|xor (a row's bank is its row-block index modulo banks, or that XOR the row's low "
      "bits; banks must be a power of two)");
    v("return_queue", return_queue,
      "GPGPU-Sim's DRAM return queue (-gpgpu_dram_return_queue_size; 0 = unbounded): a channel takes a request "
      "from its L2 slices only while its queued requests and the reads whose data is on its way back to the L2 "
      "number fewer than queue + write_queue + return_queue + 1 (GPGPU-Sim's DRAM credits)");
    v("write_queue", write_queue,
      "writes queued apart from reads (entries; 0 = one queue of dram.queue for both): reads are served until "
      "write_drain_start writes wait, then only writes until fewer than write_drain_stop remain (and writes whenever "
      "no read waits)");
    v("write_drain_start", write_drain_start, "queued writes that start a write drain (with dram.write_queue)");
    v("write_drain_stop", write_drain_stop, "a write drain ends when fewer writes than this remain queued");
    v("dual_command_bus", dual_command_bus,
      "row and column commands have separate command buses (HBM); "
      "else they share one (GDDR)");
    v("page_policy", page_policy,
      "open|closed (open: a row stays open until a request for another row of its bank; closed: a row that "
      "no queued request hits after a column command is precharged without a command as soon as timing allows, "
      "so the next access to the bank activates without a precharge)");
    v("tREFI", tREFI,
      "refresh interval, core cycles: each bank is refreshed once per tREFI, which closes its row (0 = no "
      "refresh)");
    v("tRFC", tRFC, "refresh cycle time, core cycles: a bank takes no activate for tRFC after its refresh starts");
    v("refresh", refresh,
      "per_bank|all_bank (per_bank: the banks' refreshes are spread evenly over tREFI, one bank at a time; "
      "all_bank: every bank of the channel refreshes at once)");
    v("refresh_postpone", refresh_postpone,
      "core cycles a bank with queued requests may postpone its refresh until they are served (0 = never; "
      "below tREFI - tRFC)");
  }
};

struct GpuConfig {
  std::string name = "custom";
  double clock_mhz = 700.0;          // core clock, used for seconds and bandwidth figures
  uint32_t compute_capability = 75;  // major * 10 + minor, as the CUDA runtime reports it
  std::string device_name;           // the name the CUDA runtime reports; empty: "warpsim <name>"
  CoreConfig core;
  UnitConfig units[kNumUnits];
  OperandCollectorConfig oc;
  CacheConfig l1d;
  CacheConfig icache{true, 2 * 1024, 4, 64, 64, 8, 8, 1, "write_through", "no_allocate", 1};
  CacheConfig constcache{true, 8 * 1024, 4, 64, 64, 8, 8, 1, "write_through", "no_allocate", 1};
  IcntConfig icnt;
  L2Config l2;
  DramConfig dram;
  uint32_t sample_interval = 5000;             // cycles between IPC samples
  std::string dispatch = "round_robin";        // how CTAs of concurrent kernels share SMs: fifo|round_robin
  uint64_t max_cycles = 0;                     // 0 = no limit
  uint64_t max_insts = 0;                      // 0 = no limit
  uint64_t global_memory = uint64_t(8) << 30;  // device memory: reported to programs and the allocation limit
  uint64_t watchdog_cycles = 1000000;          // cycles with no progress before a deadlock is declared
  uint64_t stream_memory_limit_mb = 8192;      // host memory for the resident CTAs' streams; 0 = no limit
  bool skip_idle_cycles = true;                // jump over cycles in which nothing can change
  uint32_t sm_threads = 1;                     // host threads that tick the SMs (0 = one per hardware thread)

  GpuConfig();
  template <class V>
  void visit(V& v) {
    v("name", name, "preset name");
    v("clock_mhz", clock_mhz, "core clock in MHz");
    v("compute_capability", compute_capability,
      "compute capability of the GPU modelled, major * 10 + minor; the CUDA runtime reports it, or the highest PTX "
      "target of the program's fatbinaries when that is higher (docs/cuda-programs.md)");
    v("device_name", device_name,
      "device name the CUDA runtime reports (cudaDeviceProp::name, cuDeviceGetName); empty: \"warpsim <name>\"");
    v.group("core", core, "streaming multiprocessor");
    v.group("sp", units[int(Unit::SP)], "single-precision / integer ALU pipeline");
    v.group("int", units[int(Unit::INT)], "integer pipeline (Volta+; on Fermi share SP)");
    v.group("dp", units[int(Unit::DP)], "double-precision pipeline");
    v.group("sfu", units[int(Unit::SFU)], "special function unit");
    v.group("mem", units[int(Unit::MEM)], "LD/ST issue port");
    v.group("branch", units[int(Unit::BRANCH)], "branch unit");
    v.group("oc", oc, "operand collector and register file banks");
    v.group("l1d", l1d, "L1 data cache");
    v.group("icache", icache, "instruction cache");
    v.group("constcache", constcache, "constant cache");
    v.group("icnt", icnt, "interconnect");
    v.group("l2", l2, "L2 cache and memory partitions");
    v.group("dram", dram, "DRAM channels");
    v("sample_interval", sample_interval, "cycles between IPC samples");
    v("dispatch", dispatch, "fifo|round_robin CTA dispatch across concurrent kernels");
    v("max_cycles", max_cycles, "stop after this many cycles (0 = no limit)");
    v("max_insts", max_insts, "stop after this many warp instructions (0 = no limit)");
    v("global_memory", global_memory,
      "device memory in bytes: what the CUDA runtime reports (totalGlobalMem, cudaMemGetInfo) and the most a "
      "program may have allocated at once");
    v("watchdog_cycles", watchdog_cycles, "cycles without progress before a deadlock error");
    v("stream_memory_limit_mb", stream_memory_limit_mb,
      "host memory in MB that the instruction streams of the resident CTAs may take (docs/performance.md); a run "
      "that needs more stops with an error instead of exhausting the host (0 = no limit)");
    v("skip_idle_cycles", skip_idle_cycles,
      "jump over cycles in which nothing can change (the results are the same either way; false ticks every cycle, "
      "to check that, at a cost in host time)");
    v("sm_threads", sm_threads,
      "host threads that tick the SMs of the GPU in each cycle, the calling thread included (1 = none besides it, 0 "
      "= one per hardware thread of the host); the results are the same for every value; more threads than free cores "
      "slow the run down many times (docs/performance.md)");
  }
};

// A field reached by its dotted key.
struct ConfigField {
  std::string key;
  std::string doc;
  enum Kind { Bool, U32, U64, Double, String } kind;
  void* ptr;
  std::string get() const;
  void set(const std::string& value);  // throws Error naming the key and the valid values
};

std::vector<ConfigField> config_fields(GpuConfig& cfg);
// Checks values that must agree with each other; throws Error naming the key.
void validate(const GpuConfig& cfg);

}  // namespace warpsim

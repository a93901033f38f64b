// Synthetic kernels: small programs of op mixes, memory access patterns, loops, barriers and
// divergent regions that expand into per-warp WarpInst streams. They exercise the timing model
// without a functional front end and serve as microbenchmarks. See docs/synthetic-kernels.md.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel_source.h"
#include "core/warp_inst.h"

namespace warpsim::synth {

// Where the lanes of a memory instruction point. `iter` below is the dynamic instance of the
// memory statement within its warp: 0 the first time the warp executes it, counting each of
// the statement's `count` instructions. gtid = global thread id, gwarp = global warp id,
// W = warps per CTA, T = threads in the grid.
struct AccessPattern {
  enum class Kind : uint8_t {
    Coalesced,     // base + gtid*width + iter*step                     (step default T*width)
    Strided,       // base + gtid*stride + iter*step                    (step default T*stride)
    Random,        // base + width*uniform(footprint/width), hashed from (seed,cta,warp,iter,lane)
    Broadcast,     // base + iter*step: every lane the same address     (step default 0)
    BankConflict,  // base + lane*ways*4 + iter*step: `ways`-way bank conflict (step default 0)
    PerWarp,       // base + gwarp*F + (lane*width + iter*step) mod F   (step default 32*width)
    PerCta,        // base + cta*F + (warp*wstride + lane*width + iter*step) mod F
                   //   (wstride default 32*width: warps on adjacent chunks; step default W*wstride,
                   //    or 32*width when wstride is 0: every warp of the CTA reads the same data)
  };
  static constexpr uint64_t kDefault = ~uint64_t(0);
  Kind kind = Kind::Coalesced;
  uint64_t base = 0;
  uint64_t stride = 0;              // Strided: bytes between neighbouring lanes
  uint32_t ways = 1;                // BankConflict: lanes per bank
  uint64_t footprint = 0;           // Random/PerWarp/PerCta: region bytes; others: offsets wrap mod F if > 0
  uint64_t seed = 0;                // Random
  bool step_set = false;            // false: the kind's default step
  uint64_t step = 0;                // bytes added per iteration
  uint64_t warp_stride = kDefault;  // PerCta: bytes between the warps of a CTA

  static AccessPattern coalesced() { return {}; }
  static AccessPattern strided(uint64_t lane_stride);
  static AccessPattern random(uint64_t footprint, uint64_t seed = 0);
  static AccessPattern broadcast();
  static AccessPattern bank_conflict(uint32_t ways);
  static AccessPattern per_warp(uint64_t footprint);
  static AccessPattern per_cta(uint64_t footprint);
  AccessPattern& at(uint64_t b) {
    base = b;
    return *this;
  }
  AccessPattern& every(uint64_t bytes_per_iteration) {
    step = bytes_per_iteration;
    step_set = true;
    return *this;
  }
  AccessPattern& wrap(uint64_t f) {
    footprint = f;
    return *this;
  }
  AccessPattern& warps_apart(uint64_t bytes) {
    warp_stride = bytes;
    return *this;
  }
};

// Trip count of a loop and active lanes of a divergent region, as functions of the CTA id and
// the warp index within the CTA.
using TripFn = std::function<uint64_t(uint32_t cta, uint32_t warp)>;
using MaskFn = std::function<uint32_t(uint32_t cta, uint32_t warp)>;

// Common lane masks.
MaskFn lanes_below(uint32_t k);                // lanes 0..k-1
MaskFn lanes_mod(uint32_t k, uint32_t r = 0);  // lanes with lane % k == r
MaskFn half_lanes();                           // lanes 0..15
MaskFn fixed_mask(uint32_t mask);

// One statement of a synthetic program. Plain data; built by KernelBuilder.
struct Stmt {
  enum class Kind : uint8_t { Alu, Mem, Barrier, Membar, Loop, Diverge };
  Kind kind = Kind::Alu;
  // Alu
  Unit unit = Unit::SP;
  uint8_t latency_class = kLatDefault;
  bool dependent = false;  // Alu: RAW chain; Store: data is the last value produced
  bool use_load = false;   // Alu: read the most recent load's destination
  uint32_t count = 1;      // Alu/Mem: instructions
  // Mem
  OpClass op = OpClass::LOAD;
  MemSpace space = MemSpace::Global;
  uint8_t width = 4;
  AccessPattern pattern;
  bool use = false;  // Load/Atomic: each loaded register is read by an SP op afterwards
  // Loop
  uint64_t trips = 0;  // constant trip count (when trip_fn is empty)
  TripFn trip_fn;      // per-warp trip count; such loops get a guard branch
  // Diverge
  MaskFn mask;
  std::vector<Stmt> body;       // Loop, Diverge (then part)
  std::vector<Stmt> else_body;  // Diverge
  // Filled by KernelBuilder::build().
  uint32_t pc = 0;         // first pc of the statement
  uint32_t end_pc = 0;     // Loop: pc of the back branch; Diverge: pc of the jump over else
  uint32_t mem_index = 0;  // Mem: index of this statement's iteration counter
};

// Register ids used by generated code (dense, from 0).
struct RegisterPlan {
  uint32_t alu_regs = 16;               // destinations of ALU ops, round-robin
  uint32_t load_regs = 8;               // destinations of loads and atomics, round-robin
  static constexpr RegId kAddrReg = 0;  // address operand, never written
  static constexpr RegId kDataReg = 1;  // input operand, never written
  RegId alu(uint32_t i) const { return RegId(2 + i % alu_regs); }
  RegId load(uint32_t i) const { return RegId(2 + alu_regs + i % load_regs); }
  uint32_t total() const { return 2 + alu_regs + load_regs; }
};

// A finished synthetic kernel: launch shape plus program. Cheap to copy (shared program).
struct SyntheticKernel {
  KernelInfo info;
  RegisterPlan regs;
  std::shared_ptr<const std::vector<Stmt>> program;
  uint32_t num_pcs = 0;  // static instructions (EXIT included)
  uint32_t num_mem_stmts = 0;

  // The streams of one CTA (out is reused). Throws Error, before generating anything, when the
  // CTA would exceed kMaxInstsPerCta instructions or kMaxMemInstsPerCta memory instructions
  // (runaway loops), and when warps of the CTA reach different numbers of barriers.
  void generate_cta(uint32_t cta_id, CtaStreams& out) const;
  // A KernelSource for the timing model.
  std::unique_ptr<KernelSource> source() const;
};

inline constexpr uint64_t kMaxInstsPerCta = uint64_t(1) << 23;     // 256 MB of WarpInst
inline constexpr uint64_t kMaxMemInstsPerCta = uint64_t(1) << 20;  // 256 MB of addresses

class KernelBuilder {
 public:
  // Defaults: grid 1, block 32 (one warp), 16 registers per thread, no shared memory.
  explicit KernelBuilder(std::string name);
  KernelBuilder(const KernelBuilder&) = delete;
  KernelBuilder& operator=(const KernelBuilder&) = delete;
  KernelBuilder(KernelBuilder&&) = default;
  KernelBuilder& operator=(KernelBuilder&&) = default;

  KernelBuilder& grid(Dim3 g);
  KernelBuilder& block(Dim3 b);
  KernelBuilder& regs_per_thread(uint32_t r);
  KernelBuilder& shared_bytes(uint32_t bytes);
  KernelBuilder& local_bytes(uint32_t bytes);
  KernelBuilder& registers(uint32_t alu_regs, uint32_t load_regs);

  // `count` ALU instructions on `unit` (SP, INT, DP or SFU). Independent ones write ALU
  // registers round-robin and read the never-written input register; dependent ones each read
  // the previous instruction's destination (the first reads the last value the warp produced).
  KernelBuilder& alu(Unit unit, uint32_t count, bool dependent = false, uint8_t latency_class = kLatDefault);
  // `count` ALU ops that each read the destination of the warp's most recent load or atomic
  // (a delayed use of loaded data: `ld`, independent work, then `use_load`).
  KernelBuilder& use_load(Unit unit = Unit::SP, uint32_t count = 1);
  // `count` loads (then, with `use`, one SP op per loaded register, in the same order).
  KernelBuilder& load(MemSpace space, AccessPattern p, uint32_t width, uint32_t count = 1, bool use = false);
  // `count` stores; with `dependent` the data operand is the last value the warp produced.
  KernelBuilder& store(MemSpace space, AccessPattern p, uint32_t width, uint32_t count = 1, bool dependent = false);
  KernelBuilder& atomic(MemSpace space, AccessPattern p, uint32_t width, uint32_t count = 1, bool use = false);
  KernelBuilder& barrier();
  KernelBuilder& membar();

  // Blocks: either a callback filling the body, or begin_*() ... end().
  KernelBuilder& loop(uint64_t trips, const std::function<void(KernelBuilder&)>& body);
  KernelBuilder& loop_per_warp(TripFn trips, const std::function<void(KernelBuilder&)>& body);
  KernelBuilder& diverge(MaskFn mask, const std::function<void(KernelBuilder&)>& then_body,
                         const std::function<void(KernelBuilder&)>& else_body = {});
  KernelBuilder& begin_loop(uint64_t trips);
  KernelBuilder& begin_loop_per_warp(TripFn trips);
  KernelBuilder& begin_diverge(MaskFn mask);
  KernelBuilder& begin_else();  // inside the innermost diverge
  KernelBuilder& end();

  size_t open_blocks() const { return stack_.size(); }
  // Checks the shape, assigns pcs and returns the kernel; throws Error on bad arguments.
  SyntheticKernel build() const;

 private:
  std::vector<Stmt>& cur();
  Stmt& add(Stmt s);
  KernelInfo info_;
  RegisterPlan regs_;
  std::vector<Stmt> top_;
  struct Open {
    Stmt* stmt;
    bool in_else;
  };
  std::vector<Open> stack_;  // open blocks, innermost last; statements go to top_ when empty
};

// Human-readable listing of a warp stream (one instruction per line), for debugging and docs.
std::string disassemble(const WarpStream& s);

}  // namespace warpsim::synth

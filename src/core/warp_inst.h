// The contract between front ends (PTX executor, trace reader, synthetic kernels) and the
// timing model: one executed warp instruction.
#pragma once
#include <cstdint>
#include <string_view>

namespace warpsim {

// Execution unit an instruction is issued to.
enum class Unit : uint8_t { SP = 0, INT, DP, SFU, MEM, BRANCH, kCount };
inline constexpr int kNumUnits = static_cast<int>(Unit::kCount);
std::string_view unit_name(Unit u);

// What the instruction does, as far as the timing model cares.
enum class OpClass : uint8_t {
  ALU = 0,  // arithmetic/logic on SP, INT, DP or SFU
  LOAD,     // memory read (global/local/shared/const/tex/param)
  STORE,    // memory write
  ATOMIC,   // read-modify-write in memory (atom, red)
  BRANCH,   // control transfer (bra, call, ret, brx)
  BARRIER,  // CTA-wide barrier (bar.sync, barrier.sync)
  MEMBAR,   // memory fence
  EXIT,     // warp finishes (exit, ret from the entry)
  NOP,
};
// alu, load, store, ... (the names of trace opcode tables and of the issue log)
std::string_view op_class_name(OpClass op);

enum class MemSpace : uint8_t { None = 0, Global, Local, Shared, Const, Param, Tex };
std::string_view mem_space_name(MemSpace s);

// Register ids. Front ends map their registers (PTX virtual registers, SASS R/P/UR registers)
// onto 16-bit ids; predicates share the same id space. kNoReg marks an unused slot.
using RegId = uint16_t;
inline constexpr RegId kNoReg = 0xffff;
// Enough for every element of a 4-wide vector access (ld.v4 writes four registers; st.v4 reads
// its address, four values and a guard), which GPGPU-Sim's scoreboard tracks too.
inline constexpr int kMaxDst = 4;
inline constexpr int kMaxSrc = 6;
inline constexpr uint32_t kNoAddr = 0xffffffffu;

enum InstFlags : uint8_t {
  kFlagLongLatency = 1 << 0,    // front end hint (e.g. a division macro expansion)
  kFlagDiverged = 1 << 1,       // the warp runs with a partial mask because of divergence
  kFlagBarrierArrive = 1 << 2,  // bar.arrive: does not wait
  kFlagCallParam = 1 << 3,      // a .param access to a call frame (local memory), not a kernel parameter
  kFlagCacheGlobal = 1 << 4,    // .cg cache operator: cache in the L2, not the L1
};

// A plain struct, 32 bytes; per-lane addresses live in the warp stream's address pool.
struct WarpInst {
  uint32_t pc = 0;
  uint32_t active_mask = 0;
  uint32_t addr_index = kNoAddr;  // first of 32 slots in WarpStream::addrs (inactive lanes 0)
  RegId dst[kMaxDst] = {kNoReg, kNoReg, kNoReg, kNoReg};
  RegId src[kMaxSrc] = {kNoReg, kNoReg, kNoReg, kNoReg, kNoReg, kNoReg};
  Unit unit = Unit::SP;
  OpClass op = OpClass::ALU;
  MemSpace space = MemSpace::None;
  uint8_t width = 0;  // bytes accessed per lane (vector accesses: total per lane)
  uint8_t flags = 0;
  uint8_t latency_class = 0;  // index into the unit's latency table (0 = default)
  uint8_t barrier_id = 0;
  // The unit whose latency and initiation tables time the instruction when it is not the one
  // that executes it (GPGPU-Sim runs integer and f64 divisions on the SFU with the integer and
  // f64 DIV latencies); kCount: the executing unit's own tables.
  Unit latency_unit = Unit::kCount;

  bool reads(RegId r) const {
    for (RegId s : src)
      if (s == r) return true;
    return false;
  }
  bool writes(RegId r) const {
    for (RegId d : dst)
      if (d == r) return true;
    return false;
  }
  bool is_mem() const { return op == OpClass::LOAD || op == OpClass::STORE || op == OpClass::ATOMIC; }
};
static_assert(sizeof(WarpInst) == 40, "WarpInst must stay small");

// Latency classes an ALU instruction may ask for (the unit tables in the GPU config are
// indexed by these). The arithmetic classes follow GPGPU-Sim's latency tables (ADD, MAX, MUL,
// MAD, DIV, SHFL); kLatAlu is its class of simple operations (moves, compares, logic,
// conversions), which take one cycle and one initiation cycle on every unit.
enum LatencyClass : uint8_t {
  kLatDefault = 0,  // add / subtract (and anything a front end does not classify further)
  kLatMul = 1,      // multiply
  kLatDiv = 2,      // division and remainder
  kLatTrans = 3,    // transcendental, reciprocal, square root (SFU)
  kLatAlu = 4,      // move, compare, select, logic, shift, conversion, bit manipulation
  kLatMax = 5,      // min / max
  kLatMad = 6,      // multiply-add, fma
  kLatShfl = 7,     // warp shuffle
  kLatMma = 8,      // warp matrix multiply-accumulate (wmma.mma)
  kNumLatencyClasses = 9,
};

}  // namespace warpsim

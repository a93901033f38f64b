// Executable form of a PTX kernel: decoded once, interpreted many times. Every instruction
// has its opcode, types and modifiers as enums, and its operands resolved to dense register
// indices (immediates and special registers live in read-only register slots), branch
// targets resolved to instruction indices and a ready-made WarpInst template for the trace.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel_source.h"
#include "core/warp_inst.h"
#include "ptx/ast.h"

namespace warpsim::ptx {

enum class Op : uint8_t {
  Nop,
  Mov,
  Add,
  Sub,
  Mul,
  Mad,
  Fma,
  Div,
  Rem,
  Abs,
  Neg,
  Min,
  Max,
  And,
  Or,
  Xor,
  Not,
  Cnot,
  Shl,
  Shr,
  Setp,
  Selp,
  Set,
  Cvt,
  Cvta,
  Ld,
  St,
  Bra,
  Call,
  Ret,
  Exit,
  FuncExit,
  Bar,
  BarWarp,
  Membar,
  Atom,
  Red,
  Shfl,
  Vote,
  Tex,
  Sqrt,
  Rsqrt,
  Rcp,
  Ex2,
  Lg2,
  Sin,
  Cos,
  Tanh,
  Prmt,
  Bfi,
  Bfe,
  Bfind,
  Brev,
  Clz,
  Popc,
  Copysign,
  Addc,
  Subc,
  Madc,
  Mul24,
  Mad24,
  Sad,
  Testp,
  Trap,
  Activemask,
  Clock,
  Isspacep,
  PackMov,
  UnpackMov,
  Shf,
  Bmsk,
  Szext,
  Match,
  Builtin,
  Suld,   // surface load (suld.b)
  Sust,   // surface store (sust.b)
  Suq,    // surface query
  Tld4,   // texture gather: the 4 texels of the bilinear footprint (tld4), one component each
  Txq,    // texture query
  Video,  // SIMD video instructions (vadd4, vabsdiff2, ...): VideoOp in Inst::sub
  Lop3,
  Wmma,  // warp matrix load / store / multiply-accumulate: WmmaOp in Inst::sub, Program::wmma[Inst::wmma]
  kCount
};
const char* op_name(Op op);

enum class Cmp : uint8_t { EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN_ };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class Rnd : uint8_t { None, RN, RZ, RM, RP, RNI, RZI, RMI, RPI };
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class MulMode : uint8_t { Lo, Hi, Wide };
// Texture geometry of tex (Inst::sub): its coordinates and how they pick a texel.
enum class TexGeom : uint8_t { D1 = 1, D2, D3, A1D, A2D, Cube, ACube };
// Surface geometry of suld/sust/suq (Inst::sub), the boundary mode of suld/sust
// (Inst::clamp) and the query of suq (Inst::sub).
enum class SurfGeom : uint8_t { D1 = 1, D2, D3, A1D, A2D };
enum class SurfClamp : uint8_t { Trap, Clamp, Zero };
enum class SurfQuery : uint8_t { Width, Height, Depth, ArraySize, ChannelDataType, ChannelOrder };
// The attribute txq reads from a texture object (Inst::sub).
enum class TexQuery : uint8_t {
  Width,
  Height,
  Depth,
  ChannelDataType,
  ChannelOrder,
  NormalizedCoords,
  FilterMode,
  AddrMode0,
  AddrMode1,
  AddrMode2,
  ArraySize,
  NumMipmapLevels,
  NumSamples
};
// SIMD video instructions: the operation, in Inst::sub; Inst::vec is the lane count (4 bytes
// or 2 halfwords); Inst::offset packs the rest (kVideo* bits).
enum class VideoOp : uint8_t { Add, Sub, Avrg, Absdiff, Min, Max };
inline constexpr int64_t kVideoASigned = 1, kVideoBSigned = 2, kVideoDSigned = 4, kVideoAccumulate = 8;
enum class TestpMode : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };

enum InstMod : uint16_t {
  kModFtz = 1 << 0,
  kModSat = 1 << 1,
  kModApprox = 1 << 2,
  kModCC = 1 << 3,       // writes the carry flag
  kModToSpace = 1 << 4,  // cvta.to.*
  kModUni = 1 << 5,
  kModArrive = 1 << 6,  // bar.arrive
  kModShiftAmt = 1 << 7,
  kModRed = 1 << 8,      // bar.red
  kModNegSrc0 = 1 << 9,  // !%p as first vote/selp source
  kModHasCount = 1 << 10,
  kModPoll = 1 << 11,  // ld.volatile / .relaxed / .acquire of global or generic memory: may poll another CTA's write
};

inline constexpr uint32_t kNone = 0xffffffffu;

// Generic address space layout: device memory (global, const) below 2^40; the shared and
// local windows map generic addresses onto the CTA's shared memory and the thread's local
// memory (cvta adds/subtracts the window base).
inline constexpr uint64_t kSharedWindow = uint64_t(1) << 44;
inline constexpr uint64_t kLocalWindow = uint64_t(1) << 45;
inline constexpr uint64_t kWindowSize = uint64_t(1) << 32;
// Function addresses (`mov.u64 %rd, func;`, function names in module initializers): function
// i of the module (Module::functions, its definition where it has one) is at
// kFunctionAddressBase + 16 * i, above all device memory; indirect calls go through them.
inline constexpr uint64_t kFunctionAddressBase = uint64_t(0xfe) << 48;

struct Warp;
struct Inst;
struct ExecCtx;
using Handler = void (*)(uint64_t* regs, const Inst& in, uint32_t mask);

struct Inst {
  Handler fn = nullptr;  // lane-parallel ALU semantics (null for control/memory ops)
  Op op = Op::Nop;
  Type type = Type::None, type2 = Type::None;  // type2: source type of cvt, second type of tex
  Space space = Space::None;
  Cmp cmp = Cmp::EQ;
  BoolOp boolop = BoolOp::None;
  Rnd rnd = Rnd::None;
  uint8_t sub = 0;  // MulMode / AtomOp / ShflMode / VoteMode / TexGeom / SurfGeom / SurfQuery / TexQuery / VideoOp
  uint8_t vec = 1;  // vector width for ld/st/tex
  uint8_t ndst = 0, nsrc = 0;
  uint8_t esize = 0;  // bytes of `type` (element size of ld/st), precomputed
  bool sgn = false;   // `type` is signed (sign-extending loads)
  uint16_t mods = 0;
  uint32_t guard = kNone;  // predicate register index
  bool guard_neg = false;
  uint32_t d[4] = {kNone, kNone, kNone, kNone};
  uint32_t s[4] = {kNone, kNone, kNone, kNone};
  // suld/sust/suq: the surface coordinates (x in bytes; a layer first for .a1d/.a2d) and
  // the boundary mode; the surface object is addr_reg.
  uint32_t coord[3] = {kNone, kNone, kNone};
  SurfClamp clamp = SurfClamp::Trap;
  uint8_t gather_comp = 0;  // tld4: the component gathered (.r, .g, .b, .a: 0 to 3)
  // Memory operand: address = reg(addr_reg) + offset (addr_reg == kNone: absolute).
  uint32_t addr_reg = kNone;
  int64_t offset = 0;
  bool param_frame = false;   // ld/st.param addressing the thread's call frame (in local memory)
  bool cache_global = false;  // the .cg cache operator
  uint32_t target = kNone;    // branch target / callee entry (kNone: indirect call) / function exit instruction
  uint32_t call_index =
      kNone;              // Program::calls (Program::indirect for an indirect call, whose s[0] is the target register)
  uint32_t wmma = kNone;  // Op::Wmma: Program::wmma index
  uint32_t func = 0;      // function the instruction belongs to
  uint32_t reconv = kNone;  // branch: immediate post-dominator instruction
  int line = 0;             // PTX source line
  WarpInst tmpl;            // trace template (pc, unit, op class, registers, width)
};

// Copies performed by a call: caller frame bytes -> callee frame bytes (args), and back (ret).
// Functions the runtime provides instead of the module (Op::Builtin, Inst::sub): device-side
// printf and assert.
// printf, assert and the device heap (malloc, free; also what C++ new and delete become).
enum class BuiltinFn : uint8_t { Vprintf, AssertFail, Malloc, Free };

// Warp matrix instructions (wmma). A fragment is a list of registers that together hold a
// tile of rows x cols elements spread over the warp's lanes: lane l holds the tile's elements
// l * U .. l * U + U - 1 (U = rows * cols / 32, the tile in row-major order), and a register
// list with room for more than U elements per lane repeats them (f16 A and B fragments of
// m16n16k16 hold 16 halves per lane for 8 elements). PTX leaves the layout to the
// implementation; a program that uses fragments only through wmma and element-wise arithmetic
// gets the same results as on a GPU.
enum class WmmaOp : uint8_t { LoadA, LoadB, LoadC, StoreD, Mma };
struct WmmaFragment {
  std::vector<uint32_t> regs;
  Type type = Type::None;  // element type: F16, F32, S8, U8, S32
  uint32_t rows = 0, cols = 0;
  uint32_t per_lane() const { return rows * cols / 32; }
};
struct WmmaInfo {
  // load/store: the fragment, the memory layout (.row/.col) and the stride register (kNone:
  // the tile's own row or column length), in elements.
  WmmaFragment frag;
  bool col_major = false;
  uint32_t stride_reg = kNone;
  // mma: D = A * B + C.
  WmmaFragment a, b, c, d;
  bool satfinite = false;
  uint32_t m = 0, n = 0, k = 0;
};

struct CallInfo {
  struct Copy {
    uint32_t from, to, bytes;
  };
  std::vector<Copy> args, rets;
};

struct FuncInfo {
  std::string name;
  uint32_t first = 0, exit = 0;             // first instruction; FuncExit pseudo instruction index
  uint32_t frame_base = 0, frame_size = 0;  // in local memory
  // Registers allocated while decoding the function (its own, and constant slots first used
  // in it): what a recursive activation saves and restores, with the frame.
  uint32_t reg_first = 0, reg_end = 0;
  uint32_t nparams = 0, nrets = 0;
  bool is_entry = false;
};

// An indirect call site: for each function of the program, the copies of a call to it
// (Program::calls index), kNone where it cannot be called from here (not address-taken, or its
// parameters do not match the call's).
struct IndirectCall {
  std::vector<uint32_t> call_of;
  uint32_t nargs = 0, nrets = 0;
};

// A function whose address the program may hold (an indirect call target).
struct FuncTarget {
  uint64_t addr = 0;
  uint32_t func = kNone;  // program function; kNone: not callable, `why` says why
  std::string name, why;
};

// Registers with fixed contents in every lane.
struct ConstReg {
  uint32_t index;
  uint64_t value;
};
enum class Special : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NWarpId,
  SmId,
  NSmId,
  GridId,
  LanemaskEq,
  LanemaskLt,
  LanemaskLe,
  LanemaskGt,
  LanemaskGe,
  // %envreg0..%envreg31: what the driver hands the kernel. %envreg1 (high) and %envreg2 (low
  // word) hold the address of a cooperative launch's grid workspace (cooperative_groups'
  // this_grid()); every other one, and both outside cooperative launches, read 0.
  EnvReg0,
  EnvRegLast = EnvReg0 + 31,
  kCount
};
struct SpecialReg {
  uint32_t index;
  Special which;
};

// A kernel decoded for execution: the entry function and every function it may call,
// concatenated; instruction i has pc i * 8.
struct Program {
  std::string name;
  std::string file;
  std::vector<Inst> insts;
  std::vector<FuncInfo> funcs;  // funcs[0] is the entry
  std::vector<CallInfo> calls;
  std::vector<IndirectCall> indirect;  // indirect call sites
  std::vector<WmmaInfo> wmma;          // warp matrix instructions (Inst::wmma)
  std::vector<FuncTarget> targets;     // by address; filled when the program has indirect calls
  std::vector<std::string> reg_names;  // per register index (for diagnostics)
  std::vector<uint8_t> reg_bytes;      // per register index: 4 or 8 (0: predicate, constant, special)
  uint32_t est_regs = 0;               // estimated 32-bit registers per thread (peak live values)
  uint32_t compiled_regs = 0;          // registers per thread the compiler gave it (0: not known)
  uint32_t num_regs = 0;               // total slots, including constant/special slots
  uint32_t num_arch_regs = 0;          // PTX registers of the kernel (reported as regs per thread)
  uint32_t carry_reg = kNone;          // hidden carry flag for add.cc / addc
  std::vector<ConstReg> consts;
  std::vector<SpecialReg> specials;
  uint32_t param_bytes = 0;  // kernel .param buffer size
  struct Param {
    std::string name;
    uint32_t offset, size;
  };
  std::vector<Param> params;
  uint32_t static_shared = 0;      // bytes of .shared declared (module + function level)
  uint32_t dyn_shared_offset = 0;  // where extern .shared arrays start
  uint32_t local_bytes = 0;        // per thread (all frames)
  uint32_t reqntid[3] = {0, 0, 0};
  // Launch bounds: .maxntid (threads per CTA, its dimensions multiplied), .minnctapersm and
  // .maxnreg; 0 where the kernel gives none.
  uint32_t maxntid_threads = 0, minnctapersm = 0, maxnreg = 0;
  // Where the kernel's first instruction lies in the program's instruction memory: the module's
  // code_base plus module_code_offset().
  uint64_t code_offset = 0;
};

}  // namespace warpsim::ptx

// Parsed PTX module: a syntax tree close to the source text. The decoder turns it into the
// executable IR (ptx/ir.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace warpsim::ptx {

struct SrcLoc {
  int line = 0, col = 0;
};

// Scalar data types of PTX.
enum class Type : uint8_t {
  None = 0,
  Pred,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  F32,
  F64,
  TexRef,
};
// Parses ".u32" etc.; Type::None when the text is not a type.
Type parse_type(const std::string& dir);
const char* type_name(Type t);
int type_bytes(Type t);  // 0 for pred
bool type_is_float(Type t);
bool type_is_signed(Type t);

enum class Space : uint8_t { None = 0, Reg, Global, Shared, Local, Const, Param, Generic, Tex };
Space parse_space(const std::string& dir);
const char* space_name(Space s);

struct Operand {
  enum Kind : uint8_t {
    Reg,      // %r1 (name), maybe with a second predicate output %r|%p (name2)
    Sym,      // a symbol or label name
    Int,      // integer literal (ival holds the bits, negated if written with '-')
    F32Bits,  // 0fXXXXXXXX
    F64Bits,  // 0dXXXXXXXXXXXXXXXX
    Float,    // decimal float literal
    Vec,      // {a, b, ...}
    Addr,     // [base+offset]; base in name (register or symbol) or empty (absolute); elems = tex coords
    List,     // (a, b, ...) in call
    Sink,     // _
  } kind = Reg;
  bool neg = false;  // !%p
  std::string name, name2;
  int64_t ival = 0;
  double fval = 0;
  std::vector<Operand> elems;
  SrcLoc loc;
};

struct Instr {
  std::string guard;  // predicate register name or empty
  bool guard_neg = false;
  std::string opcode;  // full text, e.g. "setp.lt.s32"
  std::vector<Operand> ops;
  SrcLoc loc;
};

// A variable declaration in any state space.
struct VarDecl {
  Space space = Space::None;
  Type type = Type::None;
  int vec = 1;         // .v2 / .v4
  uint32_t align = 0;  // 0 = natural
  std::string name;
  int64_t array_len = -1;  // -1 scalar, 0 unsized [] (extern shared), >0 elements
  bool is_extern = false, is_visible = false;
  // Initialiser: flat list of element values (raw bits per element) or symbol addresses.
  struct Init {
    uint64_t bits = 0;
    std::string sym;
    bool is_float_lit = false;
    double fval = 0;
  };
  std::vector<Init> init;
  bool has_init = false;
  // .reg ranges: %r<55> declares %r0..%r54
  int64_t reg_range = -1;
  // Parameter attributes (.ptr .space .align)
  SrcLoc loc;
  uint64_t size_bytes() const;
  uint32_t alignment() const;
};

struct Function;

struct Statement {
  // Proto: `label: .callprototype ...` (label holds its name, proto the return values and
  // parameters it declares).
  enum Kind : uint8_t { Inst, Label, Decl, BlockBegin, BlockEnd, Proto } kind = Inst;
  Instr inst;
  std::string label;
  VarDecl decl;
  std::shared_ptr<const Function> proto;
  SrcLoc loc;
};

struct Function {
  std::string name;
  bool is_entry = false, is_visible = false, is_extern = false, has_body = false;
  std::vector<VarDecl> params;  // .param (entry) or .param/.reg (func)
  std::vector<VarDecl> rets;    // .func return values
  std::vector<Statement> body;
  uint32_t maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0};
  uint32_t minnctapersm = 0, maxnreg = 0;  // launch bounds (0: not given)
  SrcLoc loc;
};

struct Module {
  std::string file;
  int version_major = 0, version_minor = 0;
  std::string target;
  int address_size = 64;
  std::vector<VarDecl> globals;  // module-level .global/.const/.shared/.tex
  std::vector<Function> functions;
  // Where the module's code starts in the program's instruction memory: the bytes of the
  // modules loaded before it (module_code_bytes(); set by the loader, 0 for the first).
  uint64_t code_base = 0;
  const Function* find_function(const std::string& name) const;
};

}  // namespace warpsim::ptx

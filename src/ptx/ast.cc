#include "ptx/ast.h"

#include <array>

namespace warpsim::ptx {

namespace {
struct TypeEntry {
  const char* name;
  Type type;
  int bytes;
};
constexpr TypeEntry kTypes[] = {
    {".pred", Type::Pred, 0}, {".b8", Type::B8, 1},      {".b16", Type::B16, 2}, {".b32", Type::B32, 4},
    {".b64", Type::B64, 8},   {".b128", Type::B128, 16}, {".u8", Type::U8, 1},   {".u16", Type::U16, 2},
    {".u32", Type::U32, 4},   {".u64", Type::U64, 8},    {".s8", Type::S8, 1},   {".s16", Type::S16, 2},
    {".s32", Type::S32, 4},   {".s64", Type::S64, 8},    {".f16", Type::F16, 2}, {".f16x2", Type::F16x2, 4},
    {".bf16", Type::BF16, 2}, {".f32", Type::F32, 4},    {".f64", Type::F64, 8}, {".texref", Type::TexRef, 8},
};
}  // namespace

Type parse_type(const std::string& dir) {
  for (const auto& e : kTypes)
    if (dir == e.name) return e.type;
  return Type::None;
}

const char* type_name(Type t) {
  for (const auto& e : kTypes)
    if (e.type == t) return e.name;
  return ".none";
}

int type_bytes(Type t) {
  static const auto table = [] {
    std::array<int, 32> b{};
    for (const auto& e : kTypes) b[size_t(e.type)] = e.bytes;
    return b;
  }();
  return size_t(t) < table.size() ? table[size_t(t)] : 0;
}

bool type_is_float(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::F32 || t == Type::F64;
}
bool type_is_signed(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }

Space parse_space(const std::string& d) {
  if (d == ".reg") return Space::Reg;
  if (d == ".global") return Space::Global;
  if (d == ".shared") return Space::Shared;
  if (d == ".local") return Space::Local;
  if (d == ".const") return Space::Const;
  if (d == ".param") return Space::Param;
  if (d == ".tex") return Space::Tex;
  return Space::None;
}

const char* space_name(Space s) {
  switch (s) {
    case Space::Reg:
      return "reg";
    case Space::Global:
      return "global";
    case Space::Shared:
      return "shared";
    case Space::Local:
      return "local";
    case Space::Const:
      return "const";
    case Space::Param:
      return "param";
    case Space::Generic:
      return "generic";
    case Space::Tex:
      return "tex";
    default:
      return "none";
  }
}

uint64_t VarDecl::size_bytes() const {
  uint64_t elem = uint64_t(type_bytes(type) == 0 ? 1 : type_bytes(type)) * uint64_t(vec);
  if (array_len > 0) return elem * uint64_t(array_len);
  if (array_len == 0) return 0;
  return elem;
}

uint32_t VarDecl::alignment() const {
  if (align) return align;
  int b = type_bytes(type) * vec;
  return b > 0 ? uint32_t(b) : 1;
}

const Function* Module::find_function(const std::string& name) const {
  // The definition wherever it is: nvcc declares a .func first and defines it further down.
  const Function* decl = nullptr;
  for (const auto& f : functions) {
    if (f.name != name) continue;
    if (f.has_body) return &f;
    if (!decl) decl = &f;
  }
  return decl;
}

}  // namespace warpsim::ptx

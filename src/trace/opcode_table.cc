#include "trace/opcode_table.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace warpsim {

namespace {

int node_line(const toml::node& n) { return static_cast<int>(n.source().begin.line); }
int node_col(const toml::node& n) { return static_cast<int>(n.source().begin.column); }

template <class E, size_t N>
bool parse_name(std::string_view s, const std::pair<std::string_view, E> (&names)[N], E& out) {
  for (const auto& [name, value] : names)
    if (name == s) {
      out = value;
      return true;
    }
  return false;
}

template <class E, size_t N>
std::string name_list(const std::pair<std::string_view, E> (&names)[N]) {
  std::string s;
  for (const auto& [name, value] : names) {
    if (!s.empty()) s += "|";
    s += name;
  }
  return s;
}

const std::pair<std::string_view, Unit> kUnits[] = {{"sp", Unit::SP},   {"int", Unit::INT}, {"dp", Unit::DP},
                                                    {"sfu", Unit::SFU}, {"mem", Unit::MEM}, {"branch", Unit::BRANCH}};
const std::pair<std::string_view, OpClass> kOps[] = {
    {"alu", OpClass::ALU},       {"load", OpClass::LOAD},     {"store", OpClass::STORE},
    {"atomic", OpClass::ATOMIC}, {"branch", OpClass::BRANCH}, {"barrier", OpClass::BARRIER},
    {"membar", OpClass::MEMBAR}, {"exit", OpClass::EXIT},     {"nop", OpClass::NOP}};
// "generic" is handled separately.
const std::pair<std::string_view, MemSpace> kSpaces[] = {
    {"none", MemSpace::None},   {"global", MemSpace::Global}, {"local", MemSpace::Local}, {"shared", MemSpace::Shared},
    {"const", MemSpace::Const}, {"param", MemSpace::Param},   {"tex", MemSpace::Tex}};
const std::pair<std::string_view, uint8_t> kLats[] = {{"default", kLatDefault}, {"mul", kLatMul},   {"div", kLatDiv},
                                                      {"trans", kLatTrans},     {"alu", kLatAlu},   {"max", kLatMax},
                                                      {"mad", kLatMad},         {"shfl", kLatShfl}, {"mma", kLatMma}};

}  // namespace

std::string_view latency_class_name(uint8_t lat) {
  for (const auto& [name, value] : kLats)
    if (value == lat) return name;
  return "?";
}

OpcodeTable OpcodeTable::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open opcode table '{}'", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

OpcodeTable OpcodeTable::parse(std::string_view text, const std::string& source_name) {
  toml::table doc;
  try {
    doc = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    throw LocatedError(source_name, static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column),
                       std::string(e.description()));
  }
  OpcodeTable t;
  t.source_ = source_name;
  auto fail = [&](const toml::node& n, const std::string& what) -> void {
    throw LocatedError(source_name, node_line(n), node_col(n), what);
  };
  for (auto&& [key, node] : doc) {
    if (key == "family") {
      if (!node.is_string()) fail(node, "'family' must be a string");
      t.family_ = *node.value<std::string>();
    } else if (key == "binary_versions") {
      const toml::array* arr = node.as_array();
      if (!arr) fail(node, "'binary_versions' must be an array of integers");
      for (const toml::node& v : *arr) {
        auto i = v.value<int64_t>();
        if (!v.is_integer() || !i || *i < 0 || *i > 1000) fail(v, "binary version must be an integer 0..1000");
        t.versions_.push_back(static_cast<uint32_t>(*i));
      }
    } else if (key == "opcodes") {
      const toml::table* ops = node.as_table();
      if (!ops) fail(node, "'opcodes' must be a table");
      for (auto&& [mn, entry] : *ops) {
        const toml::table* e = entry.as_table();
        if (!e) fail(entry, fmt::format("opcode '{}': expected a table such as {{ unit = \"sp\" }}", mn.str()));
        OpcodeInfo info;
        bool have_unit = false;
        for (auto&& [field, val] : *e) {
          auto s = val.value<std::string>();
          if (!s) fail(val, fmt::format("opcode '{}': field '{}' must be a string", mn.str(), field.str()));
          if (field == "unit") {
            if (!parse_name(*s, kUnits, info.unit))
              fail(val, fmt::format("opcode '{}': unknown unit '{}' (expected {})", mn.str(), *s, name_list(kUnits)));
            have_unit = true;
          } else if (field == "op") {
            if (!parse_name(*s, kOps, info.op))
              fail(val, fmt::format("opcode '{}': unknown op '{}' (expected {})", mn.str(), *s, name_list(kOps)));
          } else if (field == "space") {
            if (*s == "generic") {
              info.generic = true;
              info.space = MemSpace::Global;
            } else if (!parse_name(*s, kSpaces, info.space)) {
              fail(val, fmt::format("opcode '{}': unknown space '{}' (expected {}|generic)", mn.str(), *s,
                                    name_list(kSpaces)));
            }
          } else if (field == "lat") {
            if (!parse_name(*s, kLats, info.latency_class))
              fail(val, fmt::format("opcode '{}': unknown lat '{}' (expected {})", mn.str(), *s, name_list(kLats)));
          } else {
            fail(val,
                 fmt::format("opcode '{}': unknown field '{}' (expected unit, op, space, lat)", mn.str(), field.str()));
          }
        }
        if (!have_unit) fail(entry, fmt::format("opcode '{}': missing 'unit'", mn.str()));
        const bool mem_op = info.op == OpClass::LOAD || info.op == OpClass::STORE || info.op == OpClass::ATOMIC;
        if (mem_op && info.space == MemSpace::None)
          fail(entry, fmt::format("opcode '{}': a {} needs a memory space", mn.str(), op_class_name(info.op)));
        t.entries_.emplace(std::string(mn.str()), info);
      }
    } else {
      fail(node, fmt::format("unknown key '{}' (expected family, binary_versions, opcodes)", key.str()));
    }
  }
  return t;
}

const OpcodeInfo* OpcodeTable::find_exact(std::string_view key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

const OpcodeInfo* OpcodeTable::lookup(std::string_view opcode) const {
  std::string_view key = opcode;
  while (!key.empty()) {
    if (const OpcodeInfo* e = find_exact(key)) return e;
    size_t dot = key.rfind('.');
    if (dot == std::string_view::npos) break;
    key = key.substr(0, dot);
  }
  return nullptr;
}

std::string default_sass_dir() {
#ifdef WARPSIM_SOURCE_DIR
  return std::string(WARPSIM_SOURCE_DIR) + "/configs/sass";
#else
  return "configs/sass";
#endif
}

std::string find_opcode_table(const std::string& dir, uint32_t binary_version) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& de : fs::directory_iterator(dir, ec))
    if (de.path().extension() == ".toml") files.push_back(de.path());
  if (ec) throw Error(fmt::format("cannot read opcode table directory '{}': {}", dir, ec.message()));
  std::sort(files.begin(), files.end());
  std::string known;
  for (const auto& f : files) {
    OpcodeTable t = OpcodeTable::load(f.string());
    for (uint32_t v : t.binary_versions()) {
      if (v == binary_version) return f.string();
      known += (known.empty() ? "" : ", ") + std::to_string(v);
    }
  }
  throw Error(fmt::format("no SASS opcode table for binary version {} in '{}' (tables cover: {})", binary_version, dir,
                          known.empty() ? "none" : known));
}

}  // namespace warpsim

#include "runtime/launch_spec.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/json_file.h"
#include "core/rng.h"
#include "core/strings.h"

namespace warpsim {

namespace {

struct TypeName {
  const char* name;
  ArgType type;
};
constexpr TypeName kTypes[] = {
    {"u8", ArgType::U8},   {"s8", ArgType::S8},   {"u16", ArgType::U16}, {"s16", ArgType::S16}, {"u32", ArgType::U32},
    {"s32", ArgType::S32}, {"u64", ArgType::U64}, {"s64", ArgType::S64}, {"f32", ArgType::F32}, {"f64", ArgType::F64},
    {"b8", ArgType::U8},   {"b16", ArgType::U16}, {"b32", ArgType::U32}, {"b64", ArgType::U64}, {"ptr", ArgType::U64}};

bool is_signed(ArgType t) { return t == ArgType::S8 || t == ArgType::S16 || t == ArgType::S32 || t == ArgType::S64; }

bool parse_type(const std::string& s, ArgType& t) {
  for (const auto& k : kTypes)
    if (s == k.name) {
      t = k.type;
      return true;
    }
  return false;
}

double parse_double(const std::string& s, const std::string& ctx) {
  const char* b = s.c_str();
  char* e = nullptr;
  errno = 0;
  double d = std::strtod(b, &e);
  if (s.empty() || *e != '\0' || errno == ERANGE) throw Error(fmt::format("{}: '{}' is not a number", ctx, s));
  return d;
}

// Integer (decimal, 0x hex, with an optional sign) that must fit `t`.
uint64_t parse_int_for(const std::string& s, ArgType t, const std::string& ctx) {
  const uint32_t bits = arg_type_bytes(t) * 8;
  errno = 0;
  char* e = nullptr;
  const bool neg = !s.empty() && s[0] == '-';
  const size_t first = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (first >= s.size() || !std::isdigit(static_cast<unsigned char>(s[first])))
    throw Error(fmt::format("{}: '{}' is not an integer", ctx, s));
  uint64_t mag = std::strtoull(s.c_str() + first, &e, 0);
  if (*e != '\0' || errno == ERANGE) throw Error(fmt::format("{}: '{}' is not an integer", ctx, s));
  const uint64_t umax = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  const uint64_t smax = umax >> 1;
  if (is_signed(t)) {
    if ((!neg && mag > smax) || (neg && mag > smax + 1))
      throw Error(fmt::format("{}: {} does not fit .{}", ctx, s, arg_type_name(t)));
  } else if (neg || mag > umax) {
    throw Error(fmt::format("{}: {} does not fit .{}", ctx, s, arg_type_name(t)));
  }
  uint64_t v = neg ? uint64_t(0) - mag : mag;
  return bits == 64 ? v : v & umax;
}

}  // namespace

uint64_t encode_value(double x, ArgType t) {
  if (t == ArgType::F32) {
    float f = float(x);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  if (t == ArgType::F64) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return u;
  }
  const uint32_t bits = arg_type_bytes(t) * 8;
  double tr = std::trunc(x);
  uint64_t v;
  if (!(std::fabs(tr) < 0x1p63))
    v = tr < 0 ? uint64_t(1) << 63 : (tr > 0 ? ~uint64_t(0) >> 1 : 0);
  else
    v = uint64_t(int64_t(tr));
  return bits == 64 ? v : v & ((uint64_t(1) << bits) - 1);
}

double decode_value(const uint8_t* p, ArgType t) {
  switch (t) {
    case ArgType::U8:
      return double(*p);
    case ArgType::S8:
      return double(int8_t(*p));
    case ArgType::U16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return double(v);
    }
    case ArgType::S16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return double(v);
    }
    case ArgType::U32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return double(v);
    }
    case ArgType::S32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return double(v);
    }
    case ArgType::F32: {
      float v;
      std::memcpy(&v, p, 4);
      return double(v);
    }
    case ArgType::F64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    default:
      return 0;
  }
}

const char* arg_type_name(ArgType t) {
  for (const auto& k : kTypes)
    if (k.type == t) return k.name;
  return "?";
}

uint32_t arg_type_bytes(ArgType t) {
  switch (t) {
    case ArgType::U8:
    case ArgType::S8:
      return 1;
    case ArgType::U16:
    case ArgType::S16:
      return 2;
    case ArgType::U32:
    case ArgType::S32:
    case ArgType::F32:
      return 4;
    default:
      return 8;
  }
}

LaunchArg parse_launch_arg(const std::string& text) {
  const std::string ctx = fmt::format("argument '{}'", text);
  auto w = split_ws(text);
  LaunchArg a;
  a.text = text;
  if (w.empty()) throw Error("empty kernel argument (expected e.g. 's32 4096' or 'buffer f32 n=1024 fill=random')");
  if (w[0] != "buffer") {
    if (w.size() != 2 || !parse_type(w[0], a.type))
      throw Error(fmt::format(
          "{}: expected '<type> <value>' (types u8..u64, s8..s64, f32, f64) or 'buffer <type> n=<count> ...'", ctx));
    a.kind = LaunchArg::Scalar;
    if (arg_type_is_float(a.type)) {
      double d = parse_double(w[1], ctx);
      a.bits = encode_value(d, a.type);
    } else {
      a.bits = parse_int_for(w[1], a.type, ctx);
    }
    return a;
  }
  a.kind = LaunchArg::Buffer;
  if (w.size() < 2 || !parse_type(w[1], a.type))
    throw Error(fmt::format("{}: expected 'buffer <type> n=<count>' with a type u8..u64, s8..s64, f32 or f64", ctx));
  bool has_n = false, has_min = false, has_max = false, has_start = false, has_step = false, has_value = false;
  double mn = 0, mx = 0, start = 0, step = 1, value = 0;
  for (size_t i = 2; i < w.size(); ++i) {
    const std::string& item = w[i];
    if (item == "dump" || item == "out") {
      a.dump = true;
      continue;
    }
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(fmt::format(
          "{}: unexpected '{}' (expected key=value: n, fill, seed, min, max, start, step, value, name; or 'dump')", ctx,
          item));
    std::string k = item.substr(0, eq), v = item.substr(eq + 1);
    if (k == "n" || k == "count") {
      a.count = parse_int_for(v, ArgType::U64, ctx);
      has_n = true;
    } else if (k == "fill") {
      if (v == "zero")
        a.fill = LaunchArg::Zero;
      else if (v == "iota")
        a.fill = LaunchArg::Iota;
      else if (v == "random")
        a.fill = LaunchArg::Random;
      else if (v == "const")
        a.fill = LaunchArg::Const;
      else
        throw Error(fmt::format("{}: fill must be zero, iota, random or const, not '{}'", ctx, v));
    } else if (k == "seed") {
      a.seed = parse_int_for(v, ArgType::U64, ctx);
      a.has_seed = true;
    } else if (k == "min") {
      mn = parse_double(v, ctx);
      has_min = true;
    } else if (k == "max") {
      mx = parse_double(v, ctx);
      has_max = true;
    } else if (k == "start") {
      start = parse_double(v, ctx);
      has_start = true;
    } else if (k == "step") {
      step = parse_double(v, ctx);
      has_step = true;
    } else if (k == "value") {
      value = parse_double(v, ctx);
      has_value = true;
    } else if (k == "name") {
      if (v.empty()) throw Error(fmt::format("{}: empty name", ctx));
      a.name = v;
    } else {
      throw Error(fmt::format("{}: unknown key '{}' (n, fill, seed, min, max, start, step, value, name)", ctx, k));
    }
  }
  if (!has_n) throw Error(fmt::format("{}: buffers need an element count n=<count>", ctx));
  if (a.count == 0) throw Error(fmt::format("{}: n must be at least 1", ctx));
  if (a.count > (uint64_t(1) << 40) / arg_type_bytes(a.type))
    throw Error(fmt::format("{}: buffer larger than 1 TiB", ctx));
  auto only = [&](bool present, const char* key, LaunchArg::Fill f, const char* fill) {
    if (present && a.fill != f) throw Error(fmt::format("{}: '{}' applies to fill={} only", ctx, key, fill));
  };
  only(has_min, "min", LaunchArg::Random, "random");
  only(has_max, "max", LaunchArg::Random, "random");
  only(a.has_seed, "seed", LaunchArg::Random, "random");
  only(has_start, "start", LaunchArg::Iota, "iota");
  only(has_step, "step", LaunchArg::Iota, "iota");
  only(has_value, "value", LaunchArg::Const, "const");
  switch (a.fill) {
    case LaunchArg::Random:
      a.a = has_min ? mn : 0.0;
      a.b = has_max ? mx : (arg_type_is_float(a.type) ? 1.0 : 100.0);
      if (!(a.a < a.b) || !std::isfinite(a.a) || !std::isfinite(a.b))
        throw Error(fmt::format("{}: random fill needs finite min < max", ctx));
      break;
    case LaunchArg::Iota:
      a.a = start;
      a.b = step;
      break;
    case LaunchArg::Const:
      a.a = value;
      break;
    case LaunchArg::Zero:
      break;
  }
  return a;
}

Dim3 parse_dim3(const std::string& text, const std::string& what) {
  Dim3 d;
  uint32_t* f[3] = {&d.x, &d.y, &d.z};
  size_t b = 0;
  int n = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    if (n == 3) throw Error(fmt::format("{} '{}': at most three dimensions X,Y,Z", what, text));
    std::string part = text.substr(b, i - b);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    uint64_t v = 0;
    try {
      v = parse_int_for(part, ArgType::U32, what);
    } catch (const Error&) {
      throw Error(fmt::format("{} '{}': expected X, X,Y or X,Y,Z with positive integers", what, text));
    }
    if (v == 0) throw Error(fmt::format("{} '{}': dimensions must be at least 1", what, text));
    *f[n++] = uint32_t(v);
    b = i + 1;
  }
  return d;
}

LaunchSpec parse_launch_spec(const std::string& toml_text, const std::string& source) {
  toml::table doc;
  try {
    doc = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    auto p = e.source().begin;
    throw LocatedError(source, int(p.line), int(p.column), std::string(e.description()));
  }
  auto fail = [&](const toml::node& n, const std::string& msg) -> LocatedError {
    auto p = n.source().begin;
    return LocatedError(source, int(p.line), int(p.column), msg);
  };
  LaunchSpec s;
  auto dims = [&](const toml::node& n, const char* key) {
    if (auto i = n.value<int64_t>()) {
      if (*i < 1 || *i > 0xffffffffll) throw fail(n, fmt::format("'{}' must be between 1 and 2^32-1", key));
      return Dim3{uint32_t(*i), 1, 1};
    }
    if (auto str = n.value<std::string>()) {
      try {
        return parse_dim3(*str, key);
      } catch (const Error& e) {
        throw fail(n, e.what());
      }
    }
    const toml::array* arr = n.as_array();
    if (!arr || arr->empty() || arr->size() > 3)
      throw fail(n, fmt::format("'{}' must be an integer or an array of 1 to 3 integers", key));
    Dim3 d;
    uint32_t* f[3] = {&d.x, &d.y, &d.z};
    for (size_t k = 0; k < arr->size(); ++k) {
      auto i = (*arr)[k].value<int64_t>();
      if (!i || *i < 1 || *i > 0xffffffffll)
        throw fail((*arr)[k], fmt::format("'{}' dimensions must be integers from 1 to 2^32-1", key));
      *f[k] = uint32_t(*i);
    }
    return d;
  };
  for (const auto& [k, node] : doc) {
    const std::string key(k.str());
    if (key == "kernel") {
      auto v = node.value<std::string>();
      if (!v || v->empty()) throw fail(node, "'kernel' must be a non-empty string");
      s.kernel = *v;
    } else if (key == "grid") {
      s.grid = dims(node, "grid");
      s.has_grid = true;
    } else if (key == "block") {
      s.block = dims(node, "block");
      s.has_block = true;
    } else if (key == "shared") {
      auto v = node.value<int64_t>();
      if (!v || *v < 0 || *v > 228 * 1024)
        throw fail(node, "'shared' must be an integer number of bytes from 0 to 233472 (228 KiB)");
      s.shared = uint32_t(*v);
    } else if (key == "instruction_limit") {
      auto v = node.value<int64_t>();
      if (!v || *v < 0) throw fail(node, "'instruction_limit' must be a non-negative integer (0: the default)");
      s.instruction_limit = uint64_t(*v);
    } else if (key == "memcheck") {
      if (!node.is_boolean()) throw fail(node, "'memcheck' must be true or false");
      s.memcheck = *node.value<bool>();
    } else if (key == "dump") {
      auto v = node.value<std::string>();
      if (!v || v->empty()) throw fail(node, "'dump' must be a file name");
      s.dump = *v;
    } else if (key == "args") {
      const toml::array* arr = node.as_array();
      if (!arr)
        throw fail(node,
                   "'args' must be an array of strings such as \"s32 4096\" or \"buffer f32 n=1024 fill=random\"");
      for (const auto& e : *arr) {
        auto str = e.value<std::string>();
        if (!str)
          throw fail(e, "each argument must be a string such as \"s32 4096\" or \"buffer f32 n=1024 fill=random\"");
        try {
          s.args.push_back(parse_launch_arg(*str));
        } catch (const LocatedError&) {
          throw;
        } catch (const Error& err) {
          throw fail(e, err.what());
        }
      }
    } else {
      throw fail(
          node,
          fmt::format("unknown key '{}' (kernel, grid, block, shared, instruction_limit, memcheck, dump, args)", key));
    }
  }
  return s;
}

LaunchSpec load_launch_spec(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(fmt::format("cannot open launch description '{}'", path));
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_launch_spec(ss.str(), path);
}

}  // namespace warpsim

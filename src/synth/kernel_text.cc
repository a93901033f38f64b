#include "synth/kernel_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

#include "core/error.h"
#include "synth/expr.h"

namespace warpsim::synth {

namespace {

struct Token {
  std::string_view text;
  int col = 1;  // 1-based column of the first character
};

struct Where {
  const std::string* file;
  int line;
  [[noreturn]] void fail(int col, const std::string& msg) const { throw LocatedError(*file, line, col, msg); }
};

// ---------------------------------------------------------------------------------------------
// Parser state for one file.

class Parser {
 public:
  Parser(std::string_view text, const std::string& file, const ParamOverrides& overrides)
      : text_(text), file_(file), overrides_(overrides) {}

  std::vector<SyntheticKernel> run() {
    int line_no = 0;
    size_t pos = 0;
    while (pos <= text_.size()) {
      size_t nl = text_.find('\n', pos);
      if (nl == std::string_view::npos) nl = text_.size();
      ++line_no;
      std::string_view line = text_.substr(pos, nl - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      line_ = line;
      where_ = Where{&file_, line_no};
      statement(line);
      pos = nl + 1;
    }
    finish_kernel();
    for (const auto& [name, value] : overrides_)
      if (!declared_.count(name)) {
        std::string known;
        for (const auto& d : declared_) {
          if (!known.empty()) known += ", ";
          known += d;
        }
        throw Error(
            fmt::format("{}: unknown parameter '{}' (declared: {})", file_, name, known.empty() ? "none" : known));
      }
    return std::move(kernels_);
  }

 private:
  // ----- tokens and numbers ------------------------------------------------------------------
  std::vector<Token> split(std::string_view line) const {
    std::vector<Token> toks;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i >= line.size()) break;
      size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      toks.push_back({line.substr(i, j - i), int(i) + 1});
      i = j;
    }
    return toks;
  }

  int64_t param_value(std::string_view name, int col) const {
    auto it = params_.find(std::string(name));
    if (it == params_.end())
      where_.fail(col, fmt::format("unknown parameter '${}' (declare it with 'param {}=VALUE')", name, name));
    return it->second;
  }

  // Decimal or 0x hex, with an optional K/M/G suffix (binary multiples), or $PARAM.
  int64_t number(std::string_view s, int col, const char* what) const {
    if (s.empty()) where_.fail(col, fmt::format("missing {}", what));
    if (s.find_first_of("+-*/%()") != std::string_view::npos) {
      std::shared_ptr<const Expr> e = expression(s, col, false);
      if (!e->is_constant()) where_.fail(col, fmt::format("{} must be a constant expression", what));
      const int64_t vars[kNumExprVars] = {};
      return e->eval(vars);
    }
    if (s[0] == '$') return param_value(s.substr(1), col);
    uint64_t mult = 1;
    char last = s.back();
    bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (!hex && (last == 'K' || last == 'k' || last == 'M' || last == 'G')) {
      mult = (last == 'K' || last == 'k') ? 1024ull : last == 'M' ? 1024ull * 1024 : 1024ull * 1024 * 1024;
      s.remove_suffix(1);
    }
    std::string_view digits = hex ? s.substr(2) : s;
    if (digits.empty()) where_.fail(col, fmt::format("bad {} '{}': expected a number", what, s));
    uint64_t v = 0;
    for (char c : digits) {
      int d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (hex && c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (hex && c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        where_.fail(col, fmt::format("bad {} '{}': expected a number", what, s));
      const uint64_t base = hex ? 16 : 10;
      if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - d) / base)
        where_.fail(col, fmt::format("{} '{}' is too large", what, s));
      v = v * base + d;
    }
    if (v > uint64_t(std::numeric_limits<int64_t>::max()) / mult)
      where_.fail(col, fmt::format("{} '{}' is too large", what, s));
    return int64_t(v * mult);
  }

  uint64_t unsigned_in(std::string_view s, int col, const char* what, uint64_t lo, uint64_t hi) const {
    const int64_t v = number(s, col, what);
    if (v < 0 || uint64_t(v) < lo || uint64_t(v) > hi)
      where_.fail(col, fmt::format("{} must be in {}..{}, got {}", what, lo, hi, v));
    return uint64_t(v);
  }

  Dim3 dims(std::string_view s, int col, const char* what) const {
    Dim3 d;
    uint32_t* parts[3] = {&d.x, &d.y, &d.z};
    // An 'x' separates dimensions when it follows a digit or ')' and is not a hex prefix.
    auto separator = [&](size_t from) {
      for (size_t i = from + 1; i < s.size(); ++i) {
        if (s[i] != 'x') continue;
        const char prev = s[i - 1];
        const bool hex_prefix = prev == '0' && i - 1 == from;
        if ((std::isdigit(static_cast<unsigned char>(prev)) || prev == ')') && !hex_prefix) return i;
      }
      return std::string_view::npos;
    };
    int n = 0;
    size_t start = 0;
    while (true) {
      size_t x = separator(start);
      std::string_view part = s.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start);
      if (n == 3) where_.fail(col, fmt::format("{} has more than three dimensions", what));
      *parts[n++] = uint32_t(unsigned_in(part, col + int(start), what, 1, 0xffffffffu));
      if (x == std::string_view::npos) break;
      start = x + 1;
    }
    return d;
  }

  // key=value pairs and bare flags after the first `skip` tokens.
  struct Arg {
    std::string_view key, value;
    int col, value_col;
    bool flag;
    bool used = false;
  };
  std::vector<Arg> args(const std::vector<Token>& toks, size_t skip) const {
    std::vector<Arg> out;
    for (size_t i = skip; i < toks.size(); ++i) {
      const Token& t = toks[i];
      const size_t eq = t.text.find('=');
      Arg a;
      a.col = t.col;
      if (eq == std::string_view::npos) {
        a.key = t.text;
        a.flag = true;
        a.value_col = t.col;
      } else {
        a.key = t.text.substr(0, eq);
        a.value = t.text.substr(eq + 1);
        a.flag = false;
        a.value_col = t.col + int(eq) + 1;
        if (a.key.empty()) where_.fail(t.col, "missing key before '='");
        if (a.value.empty()) where_.fail(a.value_col, fmt::format("missing value after '{}='", a.key));
      }
      for (const Arg& o : out)
        if (o.key == a.key) where_.fail(t.col, fmt::format("'{}' given twice", a.key));
      out.push_back(a);
    }
    return out;
  }
  static Arg* find(std::vector<Arg>& a, std::string_view key) {
    for (Arg& x : a)
      if (x.key == key) {
        x.used = true;
        return &x;
      }
    return nullptr;
  }
  Arg* valued(std::vector<Arg>& a, std::string_view key) const {
    Arg* x = find(a, key);
    if (x && x->flag) where_.fail(x->col, fmt::format("'{}' needs a value ({}=...)", key, key));
    return x;
  }
  bool flag(std::vector<Arg>& a, std::string_view key) const {
    Arg* x = find(a, key);
    if (x && !x->flag) where_.fail(x->col, fmt::format("'{}' is a flag and takes no value", key));
    return x != nullptr;
  }
  void reject_unused(const std::vector<Arg>& a, const char* valid) const {
    for (const Arg& x : a)
      if (!x.used) where_.fail(x.col, fmt::format("unknown argument '{}' (valid: {})", x.key, valid));
  }

  std::shared_ptr<const Expr> expression(std::string_view rest, int col, bool allow_lane) const {
    ExprContext ctx;
    ctx.file = file_;
    ctx.line = where_.line;
    ctx.allow_lane = allow_lane;
    ctx.nwarps = cur_wpc_;
    ctx.nctas = cur_nctas_;
    ctx.number = [this](std::string_view token, int c) { return number(token, c, "number"); };
    return parse_expr(rest, col, ctx);
  }

  // The rest of the line after the first token.
  std::pair<std::string_view, int> rest_after(const std::vector<Token>& toks) const {
    const size_t off = size_t(toks[0].col - 1) + toks[0].text.size();
    return {line_.substr(off), int(off) + 1};
  }

  // ----- statements --------------------------------------------------------------------------
  template <class F>
  void located(int col, F&& f) {
    try {
      f();
    } catch (const LocatedError&) {
      throw;
    } catch (const Error& e) {
      where_.fail(col, e.what());
    }
  }

  void statement(std::string_view line) {
    const size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    line_ = line;
    const std::vector<Token> toks = split(line);
    if (toks.empty()) return;
    const std::string_view kw = toks[0].text;
    const int col = toks[0].col;
    if (kw == "param") return param(toks);
    if (kw == "kernel") return kernel(toks);
    if (!builder_) where_.fail(col, fmt::format("'{}' outside a kernel (start one with 'kernel NAME ...')", kw));
    if (exited_) where_.fail(col, "statement after 'exit' (exit ends the kernel)");
    if (kw == "alu") return alu(toks);
    if (kw.starts_with("ld.") || kw.starts_with("st.") || kw.starts_with("atom.")) return mem(toks);
    if (kw == "ld" || kw == "st" || kw == "atom")
      where_.fail(col,
                  fmt::format("'{}' needs a memory space: {}.global, .shared, .local, .const, .param or .tex", kw, kw));
    if (kw == "bar" || kw == "membar") {
      if (toks.size() > 1) where_.fail(toks[1].col, fmt::format("'{}' takes no arguments", kw));
      located(col, [&] { kw == "bar" ? builder_->barrier() : builder_->membar(); });
      return;
    }
    if (kw == "loop") return loop(toks);
    if (kw == "diverge") return diverge(toks);
    if (kw == "else" || kw == "end" || kw == "exit") {
      if (toks.size() > 1) where_.fail(toks[1].col, fmt::format("'{}' takes no arguments", kw));
      if (kw == "else") {
        located(col, [&] { builder_->begin_else(); });
      } else if (kw == "end") {
        located(col, [&] { builder_->end(); });
        open_.pop_back();
      } else {
        if (!open_.empty())
          where_.fail(col, fmt::format("'exit' inside the block opened at line {}; close it with 'end' first",
                                       open_.back().first));
        exited_ = true;
      }
      return;
    }
    where_.fail(col, fmt::format("unknown statement '{}' (expected alu, ld.*, st.*, atom.*, bar, membar, loop, "
                                 "diverge, else, end, exit, param or kernel)",
                                 kw));
  }

  void param(const std::vector<Token>& toks) {
    if (toks.size() != 2) where_.fail(toks[0].col, "expected 'param NAME=VALUE'");
    const Token& t = toks[1];
    const size_t eq = t.text.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == t.text.size())
      where_.fail(t.col, "expected 'param NAME=VALUE'");
    const std::string name(t.text.substr(0, eq));
    for (char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
        where_.fail(t.col, fmt::format("bad parameter name '{}'", name));
    if (declared_.count(name)) where_.fail(t.col, fmt::format("parameter '{}' declared twice", name));
    declared_.insert(name);
    int64_t v = number(t.text.substr(eq + 1), t.col + int(eq) + 1, "parameter value");
    if (auto it = overrides_.find(name); it != overrides_.end()) {
      try {
        v = number(it->second, t.col + int(eq) + 1, "parameter value");
      } catch (const LocatedError&) {
        throw Error(fmt::format("parameter {}={}: expected a number", name, it->second));
      }
    }
    params_[name] = v;
  }

  void kernel(const std::vector<Token>& toks) {
    finish_kernel();
    if (toks.size() < 2) where_.fail(toks[0].col, "expected 'kernel NAME [grid=..] [block=..] ...'");
    const Token& name = toks[1];
    if (name.text.find('=') != std::string_view::npos)
      where_.fail(name.col, "expected a kernel name before the arguments");
    for (const SyntheticKernel& k : kernels_)
      if (k.info.name == name.text) where_.fail(name.col, fmt::format("kernel '{}' defined twice", name.text));
    builder_ = std::make_unique<KernelBuilder>(std::string(name.text));
    kernel_line_ = where_.line;
    kernel_col_ = toks[0].col;
    exited_ = false;
    std::vector<Arg> a = args(toks, 2);
    located(toks[0].col, [&] {
      Dim3 grid, block{32, 1, 1};
      if (Arg* x = valued(a, "grid")) grid = dims(x->value, x->value_col, "grid");
      if (Arg* x = valued(a, "block")) block = dims(x->value, x->value_col, "block");
      if (Arg* x = valued(a, "grid")) located(x->value_col, [&] { builder_->grid(grid); });
      if (Arg* x = valued(a, "block")) located(x->value_col, [&] { builder_->block(block); });
      cur_nctas_ = int64_t(grid.count());
      cur_wpc_ = int64_t((block.count() + 31) / 32);
      if (Arg* x = valued(a, "regs"))
        builder_->regs_per_thread(uint32_t(unsigned_in(x->value, x->value_col, "regs", 1, 255)));
      if (Arg* x = valued(a, "shared"))
        builder_->shared_bytes(uint32_t(unsigned_in(x->value, x->value_col, "shared", 0, 0xffffffffu)));
      if (Arg* x = valued(a, "local"))
        builder_->local_bytes(uint32_t(unsigned_in(x->value, x->value_col, "local", 0, 0xffffffffu)));
      uint32_t ar = RegisterPlan{}.alu_regs, lr = RegisterPlan{}.load_regs;
      if (Arg* x = valued(a, "alu_regs")) ar = uint32_t(unsigned_in(x->value, x->value_col, "alu_regs", 1, 2048));
      if (Arg* x = valued(a, "load_regs")) lr = uint32_t(unsigned_in(x->value, x->value_col, "load_regs", 1, 2048));
      builder_->registers(ar, lr);
    });
    reject_unused(a, "grid, block, regs, shared, local, alu_regs, load_regs");
  }

  void finish_kernel() {
    if (!builder_) return;
    if (!open_.empty()) {
      const auto& [line, col] = open_.back();
      throw LocatedError(file_, line, col, "block is not closed with 'end'");
    }
    try {
      kernels_.push_back(builder_->build());
    } catch (const LocatedError&) {
      throw;
    } catch (const Error& e) {
      throw LocatedError(file_, kernel_line_, kernel_col_, e.what());
    }
    builder_.reset();
  }

  void alu(const std::vector<Token>& toks) {
    if (toks.size() < 2) where_.fail(toks[0].col, "expected 'alu UNIT [COUNT] [dep|use] [lat=CLASS]'");
    const Token& u = toks[1];
    Unit unit;
    if (u.text == "sp")
      unit = Unit::SP;
    else if (u.text == "int")
      unit = Unit::INT;
    else if (u.text == "dp")
      unit = Unit::DP;
    else if (u.text == "sfu")
      unit = Unit::SFU;
    else
      where_.fail(u.col, fmt::format("unknown unit '{}' (expected sp, int, dp or sfu)", u.text));
    size_t next = 2;
    uint32_t count = 1;
    if (toks.size() > 2 && toks[2].text.find('=') == std::string_view::npos &&
        (std::isdigit(static_cast<unsigned char>(toks[2].text[0])) || toks[2].text[0] == '$')) {
      count = uint32_t(unsigned_in(toks[2].text, toks[2].col, "count", 1, 1u << 20));
      next = 3;
    }
    std::vector<Arg> a = args(toks, next);
    const bool dep = flag(a, "dep");
    const bool use = flag(a, "use");
    if (dep && use) where_.fail(toks[0].col, "'dep' and 'use' exclude each other");
    uint8_t lat = kLatDefault;
    if (Arg* x = valued(a, "lat")) {
      if (x->value == "default")
        lat = kLatDefault;
      else if (x->value == "mul")
        lat = kLatMul;
      else if (x->value == "div")
        lat = kLatDiv;
      else if (x->value == "trans")
        lat = kLatTrans;
      else
        where_.fail(x->value_col,
                    fmt::format("unknown latency class '{}' (expected default, mul, div or trans)", x->value));
    }
    reject_unused(a, "COUNT, dep, use, lat");
    located(toks[0].col, [&] {
      if (use) {
        builder_->use_load(unit, count);
        if (lat != kLatDefault) throw Error("'use' ops take the default latency class");
      } else {
        builder_->alu(unit, count, dep, lat);
      }
    });
  }

  void mem(const std::vector<Token>& toks) {
    const Token& t = toks[0];
    const size_t dot = t.text.find('.');
    const std::string_view opname = t.text.substr(0, dot), spacename = t.text.substr(dot + 1);
    MemSpace space;
    if (spacename == "global")
      space = MemSpace::Global;
    else if (spacename == "shared")
      space = MemSpace::Shared;
    else if (spacename == "local")
      space = MemSpace::Local;
    else if (spacename == "const")
      space = MemSpace::Const;
    else if (spacename == "param")
      space = MemSpace::Param;
    else if (spacename == "tex")
      space = MemSpace::Tex;
    else
      where_.fail(
          t.col + int(dot) + 1,
          fmt::format("unknown memory space '{}' (expected global, shared, local, const, param or tex)", spacename));
    std::vector<Arg> a = args(toks, 1);
    using K = AccessPattern::Kind;
    AccessPattern p;
    if (Arg* x = valued(a, "pattern")) {
      const std::string_view n = x->value;
      if (n == "coalesced")
        p.kind = K::Coalesced;
      else if (n == "strided")
        p.kind = K::Strided;
      else if (n == "random")
        p.kind = K::Random;
      else if (n == "broadcast" || n == "same")
        p.kind = K::Broadcast;
      else if (n == "bank")
        p.kind = K::BankConflict;
      else if (n == "perwarp")
        p.kind = K::PerWarp;
      else if (n == "percta")
        p.kind = K::PerCta;
      else
        where_.fail(x->value_col, fmt::format("unknown pattern '{}' (expected coalesced, strided, random, broadcast, "
                                              "bank, perwarp or percta)",
                                              n));
    }
    auto only_for = [&](const char* key, K kind, const char* pname) -> Arg* {
      Arg* x = valued(a, key);
      if (x && p.kind != kind) where_.fail(x->col, fmt::format("'{}' applies only to pattern={}", key, pname));
      return x;
    };
    const uint64_t kMaxU64 = uint64_t(std::numeric_limits<int64_t>::max());
    if (Arg* x = only_for("stride", K::Strided, "strided"))
      p.stride = unsigned_in(x->value, x->value_col, "stride", 1, kMaxU64);
    if (Arg* x = only_for("ways", K::BankConflict, "bank"))
      p.ways = uint32_t(unsigned_in(x->value, x->value_col, "ways", 1, 32));
    if (Arg* x = only_for("seed", K::Random, "random"))
      p.seed = unsigned_in(x->value, x->value_col, "seed", 0, kMaxU64);
    if (Arg* x = valued(a, "base")) p.base = unsigned_in(x->value, x->value_col, "base", 0, kMaxU64);
    if (Arg* x = only_for("warpstride", K::PerCta, "percta"))
      p.warp_stride = unsigned_in(x->value, x->value_col, "warpstride", 0, kMaxU64 - 1);
    if (Arg* x = valued(a, "footprint")) p.footprint = unsigned_in(x->value, x->value_col, "footprint", 0, kMaxU64);
    if (Arg* x = valued(a, "step")) {
      if (p.kind == K::Random) where_.fail(x->col, "'step' does not apply to pattern=random");
      p.every(unsigned_in(x->value, x->value_col, "step", 0, kMaxU64));
    }
    uint32_t width = 4, count = 1;
    if (Arg* x = valued(a, "width")) width = uint32_t(unsigned_in(x->value, x->value_col, "width", 1, 16));
    if (Arg* x = valued(a, "count")) count = uint32_t(unsigned_in(x->value, x->value_col, "count", 1, 1u << 20));
    bool use = false, dep = false;
    if (opname == "st") {
      dep = flag(a, "dep");
      reject_unused(a, "pattern, width, count, base, step, footprint, stride, ways, seed, warpstride, dep");
    } else {
      use = flag(a, "use");
      reject_unused(a, "pattern, width, count, base, step, footprint, stride, ways, seed, warpstride, use");
    }
    located(t.col, [&] {
      if (opname == "ld")
        builder_->load(space, p, width, count, use);
      else if (opname == "st")
        builder_->store(space, p, width, count, dep);
      else
        builder_->atomic(space, p, width, count, use);
    });
  }

  void loop(const std::vector<Token>& toks) {
    if (toks.size() < 2)
      where_.fail(toks[0].col, "expected 'loop TRIPS' (a number or an expression of cta, warp, ...)");
    auto [rest, col] = rest_after(toks);
    std::shared_ptr<const Expr> e = expression(rest, col, false);
    const int stmt_col = toks[0].col;
    if (e->is_constant()) {
      const int64_t vars[kNumExprVars] = {};
      const int64_t n = e->eval(vars);
      if (n <= 0) where_.fail(toks[1].col, fmt::format("loop trip count must be positive, got {}", n));
      located(stmt_col, [&] { builder_->begin_loop(uint64_t(n)); });
    } else {
      const uint32_t wpc = uint32_t(cur_wpc_);
      located(stmt_col, [&] {
        builder_->begin_loop_per_warp([e, wpc](uint32_t cta, uint32_t warp) -> uint64_t {
          const int64_t vars[kNumExprVars] = {cta, warp, int64_t(cta) * wpc + warp, 0};
          const int64_t n = e->eval(vars);
          if (n < 0)
            throw LocatedError(e->file, e->line, e->col,
                               fmt::format("loop trip count is negative ({}) for cta {} warp {}", n, cta, warp));
          return uint64_t(n);
        });
      });
    }
    open_.push_back({where_.line, stmt_col});
  }

  void diverge(const std::vector<Token>& toks) {
    if (toks.size() < 2) where_.fail(toks[0].col, "expected 'diverge CONDITION' (an expression of lane, warp, cta)");
    auto [rest, col] = rest_after(toks);
    std::shared_ptr<const Expr> e = expression(rest, col, true);
    const uint32_t wpc = uint32_t(cur_wpc_);
    located(toks[0].col, [&] {
      builder_->begin_diverge([e, wpc](uint32_t cta, uint32_t warp) -> uint32_t {
        int64_t vars[kNumExprVars] = {cta, warp, int64_t(cta) * wpc + warp, 0};
        uint32_t m = 0;
        for (uint32_t lane = 0; lane < 32; ++lane) {
          vars[kVarLane] = lane;
          if (e->eval(vars)) m |= 1u << lane;
        }
        return m;
      });
    });
    open_.push_back({where_.line, toks[0].col});
  }

  std::string_view text_;
  std::string file_;
  const ParamOverrides& overrides_;
  std::string_view line_;
  Where where_{nullptr, 0};
  std::map<std::string, int64_t> params_;
  std::set<std::string> declared_;
  std::vector<SyntheticKernel> kernels_;
  std::unique_ptr<KernelBuilder> builder_;
  std::vector<std::pair<int, int>> open_;  // line, column of each open block
  int kernel_line_ = 0, kernel_col_ = 0;
  bool exited_ = false;
  int64_t cur_wpc_ = 1, cur_nctas_ = 1;
};

}  // namespace

std::vector<SyntheticKernel> parse_kernels(std::string_view text, const std::string& file,
                                           const ParamOverrides& params) {
  return Parser(text, file, params).run();
}

SyntheticKernel parse_kernel(std::string_view text, const std::string& file, const ParamOverrides& params) {
  std::vector<SyntheticKernel> ks = parse_kernels(text, file, params);
  if (ks.size() != 1) throw Error(fmt::format("{}: expected exactly one kernel, found {}", file, ks.size()));
  return std::move(ks[0]);
}

std::vector<SyntheticKernel> load_kernel_file(const std::string& path, const ParamOverrides& params) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open synthetic kernel file '{}'", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_kernels(ss.str(), path, params);
}

std::string synthetic_kernel_dir() { return std::string(WARPSIM_SOURCE_DIR) + "/suite/synthetic"; }

std::vector<std::string> list_synthetic_kernels() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(synthetic_kernel_dir(), ec))
    if (entry.path().extension() == ".kern") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

SyntheticKernel load_synthetic_kernel(const std::string& name_or_path, const ParamOverrides& params) {
  std::string path = name_or_path;
  const bool looks_like_path = name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".kern");
  if (!looks_like_path) {
    path = synthetic_kernel_dir() + "/" + name_or_path + ".kern";
    if (!std::filesystem::exists(path)) {
      std::string known;
      for (const std::string& n : list_synthetic_kernels()) {
        if (!known.empty()) known += ", ";
        known += n;
      }
      throw Error(fmt::format("unknown synthetic kernel '{}' (known: {})", name_or_path, known));
    }
  }
  std::vector<SyntheticKernel> ks = load_kernel_file(path, params);
  if (ks.size() != 1) throw Error(fmt::format("{}: expected exactly one kernel, found {}", path, ks.size()));
  return std::move(ks[0]);
}

}  // namespace warpsim::synth

#include "ptx/parser.h"

#include <cstring>

#include "core/error.h"
#include "ptx/lexer.h"

namespace warpsim::ptx {

namespace {

const char* tok_desc(const Token& t) {
  switch (t.kind) {
    case Tok::End:
      return "end of file";
    case Tok::Ident:
      return "identifier";
    case Tok::Directive:
      return "directive";
    case Tok::Int:
      return "integer";
    case Tok::Float:
    case Tok::HexF32:
    case Tok::HexF64:
      return "number";
    case Tok::String:
      return "string";
    case Tok::Punct:
      return "punctuation";
  }
  return "token";
}

class Parser {
 public:
  Parser(std::vector<Token> toks, const std::string& file) : t_(std::move(toks)), file_(file) {}

  Module run() {
    Module m;
    m.file = file_;
    while (!at_end()) module_item(m);
    return m;
  }

 private:
  std::vector<Token> t_;
  size_t p_ = 0;
  std::string file_;

  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool at_end() const { return cur().kind == Tok::End; }
  void adv() {
    if (!at_end()) ++p_;
  }

  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    throw LocatedError(file_, t.line, t.col, msg);
  }
  [[noreturn]] void expected(const std::string& what) const {
    const Token& t = cur();
    std::string got = t.kind == Tok::End ? std::string("end of file") : std::string(tok_desc(t)) + " '" + t.text + "'";
    if (t.kind == Tok::Int) got = "integer " + std::to_string(t.bits);
    fail(t, "expected " + what + ", found " + got);
  }
  bool accept_punct(char c) {
    if (cur().punct(c)) {
      adv();
      return true;
    }
    return false;
  }
  void expect_punct(char c) {
    if (!accept_punct(c)) expected(std::string("'") + c + "'");
  }
  bool accept_dir(const char* d) {
    if (cur().kind == Tok::Directive && cur().text == d) {
      adv();
      return true;
    }
    return false;
  }
  uint64_t expect_int() {
    if (cur().kind != Tok::Int) expected("integer");
    uint64_t v = cur().bits;
    adv();
    return v;
  }
  std::string expect_ident(const char* what) {
    if (cur().kind != Tok::Ident) expected(what);
    std::string s = cur().text;
    adv();
    return s;
  }
  static SrcLoc loc_of(const Token& t) { return SrcLoc{t.line, t.col}; }

  void skip_loc_file() {
    // .loc f l c [, extras...]   .file n "name" [, ts, size]
    const Token& d = cur();
    adv();
    if (d.text == ".file") {
      expect_int();
      if (cur().kind != Tok::String) expected("file name string");
      adv();
      while (accept_punct(',')) expect_int();
      return;
    }
    for (int i = 0; i < 3 && cur().kind == Tok::Int; ++i) adv();
    // Optional ", function_name label, inlined_at f l c" tails.
    while (cur().punct(',')) {
      adv();
      while (cur().kind == Tok::Ident || cur().kind == Tok::Int || cur().punct('+')) adv();
    }
  }

  void skip_braced() {
    // Skips a { ... } section, e.g. debug sections.
    int depth = 0;
    do {
      if (at_end()) expected("'}'");
      if (cur().punct('{')) ++depth;
      if (cur().punct('}')) --depth;
      adv();
    } while (depth > 0);
  }

  void module_item(Module& m) {
    const Token& t = cur();
    if (t.kind != Tok::Directive) expected("a module directive (.version, .target, .entry, .func, .global, ...)");
    const std::string& d = t.text;
    if (d == ".version") {
      adv();
      if (cur().kind != Tok::Float && cur().kind != Tok::Int) expected("version number");
      std::string v = cur().text;
      auto dot = v.find('.');
      m.version_major = std::atoi(v.c_str());
      m.version_minor = dot == std::string::npos ? 0 : std::atoi(v.c_str() + dot + 1);
      adv();
      return;
    }
    if (d == ".target") {
      adv();
      m.target = expect_ident("target name");
      while (accept_punct(',')) expect_ident("target option");
      return;
    }
    if (d == ".address_size") {
      adv();
      uint64_t v = expect_int();
      if (v != 32 && v != 64) fail(t, "address size must be 32 or 64");
      m.address_size = int(v);
      return;
    }
    if (d == ".file" || d == ".loc") {
      skip_loc_file();
      return;
    }
    if (d == ".section") {
      adv();
      while (!at_end() && !cur().punct('{')) adv();
      skip_braced();
      return;
    }
    if (d == ".pragma") {
      adv();
      if (cur().kind != Tok::String) expected("pragma string");
      adv();
      expect_punct(';');
      return;
    }
    bool vis = false, ext = false;
    while (cur().kind == Tok::Directive &&
           (cur().text == ".visible" || cur().text == ".extern" || cur().text == ".weak" || cur().text == ".common")) {
      if (cur().text == ".visible" || cur().text == ".weak" || cur().text == ".common") vis = true;
      if (cur().text == ".extern") ext = true;
      adv();
    }
    if (cur().kind == Tok::Directive && (cur().text == ".entry" || cur().text == ".func")) {
      function(m, vis, ext);
      return;
    }
    Space sp = cur().kind == Tok::Directive ? parse_space(cur().text) : Space::None;
    if (sp == Space::Global || sp == Space::Const || sp == Space::Shared || sp == Space::Tex) {
      for (auto& v : var_decl(ext)) {
        v.is_visible = vis;
        m.globals.push_back(std::move(v));
      }
      return;
    }
    expected("a module directive (.version, .target, .entry, .func, .global, .const, .shared)");
  }

  // Parses "space attrs* type name[dims] [= init] (, name...)* ;" starting at the space directive.
  std::vector<VarDecl> var_decl(bool is_extern, bool in_param_list = false) {
    VarDecl base;
    base.loc = loc_of(cur());
    base.is_extern = is_extern;
    base.space = parse_space(cur().text);
    adv();
    while (cur().kind == Tok::Directive) {
      const std::string& d = cur().text;
      if (d == ".align") {
        adv();
        uint64_t a = expect_int();
        if (a == 0 || (a & (a - 1)) || a > 4096) fail(t_[p_ - 1], "alignment must be a power of two");
        base.align = uint32_t(a);
      } else if (d == ".v2" || d == ".v4" || d == ".v8") {
        base.vec = d[2] - '0';
        adv();
      } else if (d == ".ptr") {
        adv();
      } else if (parse_space(d) != Space::None) {
        adv();  // .ptr .global
      } else if (parse_type(d) != Type::None) {
        if (base.type != Type::None) fail(cur(), "duplicate type in declaration");
        base.type = parse_type(d);
        adv();
      } else if (d == ".attribute" || d == ".managed" || d == ".unified") {
        adv();
        if (cur().punct('('))
          while (!at_end() && !accept_punct(')')) adv();
      } else {
        fail(cur(), "unexpected '" + d + "' in declaration; expected a type");
      }
    }
    if (base.type == Type::None) expected("a type (.u32, .f32, .b8, ...)");
    std::vector<VarDecl> out;
    for (;;) {
      VarDecl v = base;
      v.loc = loc_of(cur());
      v.name = expect_ident("a variable name");
      if (accept_punct('<')) {
        v.reg_range = int64_t(expect_int());
        expect_punct('>');
      }
      while (accept_punct('[')) {
        if (accept_punct(']')) {
          v.array_len = 0;
          continue;
        }
        uint64_t n = expect_int();
        if (n == 0 || n > (uint64_t(1) << 32)) fail(t_[p_ - 1], "array length out of range");
        v.array_len = v.array_len > 0 ? v.array_len * int64_t(n) : int64_t(n);
        if (v.array_len > (int64_t(1) << 36)) fail(t_[p_ - 1], "array too large");
        expect_punct(']');
      }
      if (accept_punct('=')) {
        v.has_init = true;
        initializer(v);
      }
      out.push_back(std::move(v));
      if (in_param_list) return out;
      if (accept_punct(',')) continue;
      expect_punct(';');
      return out;
    }
  }

  void init_value(VarDecl& v) {
    VarDecl::Init e;
    bool neg = accept_punct('-');
    const Token& t = cur();
    switch (t.kind) {
      case Tok::Int:
        e.bits = neg ? uint64_t(0) - t.bits : t.bits;
        break;
      case Tok::HexF32:
      case Tok::HexF64:
        e.bits = t.bits;
        e.is_float_lit = true;
        e.fval = 0;
        // Raw bits: mark so that the decoder does not convert.
        e.is_float_lit = false;
        break;
      case Tok::Float:
        e.is_float_lit = true;
        e.fval = neg ? -t.fval : t.fval;
        break;
      case Tok::Ident:
        if (t.text == "generic") {
          adv();
          expect_punct('(');
          e.sym = expect_ident("symbol name");
          expect_punct(')');
          v.init.push_back(e);
          return;
        }
        e.sym = t.text;
        break;
      default:
        expected("an initializer value");
    }
    adv();
    if (!e.sym.empty() && accept_punct('+')) e.bits = expect_int();
    v.init.push_back(e);
  }

  void initializer(VarDecl& v) {
    if (accept_punct('{')) {
      int depth = 1;
      while (depth > 0) {
        if (accept_punct('{')) {
          ++depth;
          continue;
        }
        if (accept_punct('}')) {
          --depth;
          if (depth > 0) accept_punct(',');
          continue;
        }
        init_value(v);
        if (!cur().punct('}')) expect_punct(',');
      }
    } else {
      init_value(v);
    }
  }

  void param_list(std::vector<VarDecl>& out) {
    expect_punct('(');
    if (accept_punct(')')) return;
    for (;;) {
      if (cur().kind != Tok::Directive || (cur().text != ".param" && cur().text != ".reg"))
        expected("'.param' or '.reg' parameter declaration");
      auto v = var_decl(false, true);
      out.push_back(std::move(v[0]));
      if (accept_punct(')')) return;
      expect_punct(',');
    }
  }

  void function(Module& m, bool vis, bool ext) {
    Function f;
    f.loc = loc_of(cur());
    f.is_entry = cur().text == ".entry";
    f.is_visible = vis;
    f.is_extern = ext;
    adv();
    if (!f.is_entry && cur().punct('(')) param_list(f.rets);
    f.name = expect_ident("a function name");
    if (cur().punct('(')) param_list(f.params);
    // Performance directives and attributes.
    while (cur().kind == Tok::Directive) {
      std::string d = cur().text;
      adv();
      if (d == ".noreturn") continue;
      if (d == ".maxntid" || d == ".reqntid") {
        uint32_t* dst = d == ".maxntid" ? f.maxntid : f.reqntid;
        for (int i = 0; i < 3; ++i) {
          dst[i] = uint32_t(expect_int());
          if (!accept_punct(',')) break;
        }
      } else if (d == ".minnctapersm") {
        f.minnctapersm = uint32_t(expect_int());
      } else if (d == ".maxnreg") {
        f.maxnreg = uint32_t(expect_int());
      } else if (d == ".maxnctapersm" || d == ".maxclusterrank") {
        expect_int();
      } else if (d == ".reqnctapercluster" || d == ".explicitcluster") {
        while (cur().kind == Tok::Int) {
          adv();
          if (!accept_punct(',')) break;
        }
      } else if (d == ".pragma") {
        if (cur().kind != Tok::String) expected("pragma string");
        adv();
        expect_punct(';');
      } else {
        fail(t_[p_ - 1], "unexpected directive '" + d + "' in function header");
      }
    }
    if (accept_punct(';')) {
      m.functions.push_back(std::move(f));
      return;
    }
    if (!cur().punct('{')) expected("'{' starting the function body or ';'");
    adv();
    f.has_body = true;
    body(f);
    m.functions.push_back(std::move(f));
  }

  void body(Function& f) {
    int depth = 0;
    for (;;) {
      const Token& t = cur();
      Statement st;
      st.loc = loc_of(t);
      if (t.kind == Tok::End) expected("'}' closing the body of " + f.name);
      if (t.punct('}')) {
        adv();
        if (depth == 0) return;
        --depth;
        st.kind = Statement::BlockEnd;
        f.body.push_back(std::move(st));
        continue;
      }
      if (t.punct('{')) {
        adv();
        ++depth;
        st.kind = Statement::BlockBegin;
        f.body.push_back(std::move(st));
        continue;
      }
      if (t.kind == Tok::Directive) {
        if (t.text == ".pragma") {
          adv();
          if (cur().kind != Tok::String) expected("pragma string");
          adv();
          expect_punct(';');
          continue;
        }
        if (t.text == ".loc" || t.text == ".file") {
          skip_loc_file();
          continue;
        }
        if (t.text == ".callprototype") {
          call_prototype(f);
          continue;
        }
        Space sp = parse_space(t.text);
        if (sp == Space::Reg || sp == Space::Local || sp == Space::Shared || sp == Space::Param || sp == Space::Const ||
            sp == Space::Global) {
          for (auto& v : var_decl(false)) {
            Statement d;
            d.kind = Statement::Decl;
            d.loc = v.loc;
            d.decl = std::move(v);
            f.body.push_back(std::move(d));
          }
          continue;
        }
        fail(t, "unexpected directive '" + t.text + "' in function body");
      }
      if (t.kind == Tok::Ident && peek().punct(':')) {
        st.kind = Statement::Label;
        st.label = t.text;
        adv();
        adv();
        f.body.push_back(std::move(st));
        continue;
      }
      st.kind = Statement::Inst;
      instruction(st.inst);
      f.body.push_back(std::move(st));
    }
  }

  // `name: .callprototype (ret-params) _ (params) [.noreturn] [.abi_preserve N] ...;` in a
  // function body: the label just parsed becomes the prototype's name.
  void call_prototype(Function& f) {
    const Token& t = cur();
    if (f.body.empty() || f.body.back().kind != Statement::Label)
      fail(t, ".callprototype needs a label naming it ('name: .callprototype ...')");
    adv();
    auto proto = std::make_shared<Function>();
    Statement& st = f.body.back();
    proto->name = st.label;
    proto->loc = st.loc;
    if (cur().punct('(')) param_list(proto->rets);
    if (cur().kind != Tok::Ident || cur().text != "_") expected("'_' standing for the function name in .callprototype");
    adv();
    if (cur().punct('(')) param_list(proto->params);
    while (cur().kind == Tok::Directive) {
      if (accept_dir(".noreturn")) continue;
      if (accept_dir(".abi_preserve") || accept_dir(".abi_preserve_control")) {
        expect_int();
        continue;
      }
      fail(cur(), "unexpected directive '" + cur().text + "' in .callprototype");
    }
    expect_punct(';');
    st.kind = Statement::Proto;
    st.proto = std::move(proto);
  }

  void instruction(Instr& in) {
    in.loc = loc_of(cur());
    if (accept_punct('@')) {
      in.guard_neg = accept_punct('!');
      in.guard = expect_ident("a predicate register after '@'");
    }
    if (cur().kind != Tok::Ident || cur().text[0] == '%' || cur().text[0] == '$') expected("an instruction opcode");
    in.opcode = cur().text;
    adv();
    // The opcode's modifiers may be lexed as separate directive tokens when written with
    // whitespace-free text such as "tex.1d" (".1d"); glue any adjacent directives on.
    while (cur().kind == Tok::Directive && cur().line == t_[p_ - 1].line &&
           cur().col == t_[p_ - 1].col + int(t_[p_ - 1].text.size())) {
      in.opcode += cur().text;
      adv();
    }
    if (accept_punct(';')) return;
    for (;;) {
      in.ops.push_back(operand());
      if (accept_punct(';')) return;
      if (!accept_punct(',')) expected("',' or ';' after operand");
    }
  }

  Operand literal(bool neg) {
    Operand o;
    o.loc = loc_of(cur());
    const Token& t = cur();
    switch (t.kind) {
      case Tok::Int:
        o.kind = Operand::Int;
        o.ival = neg ? -int64_t(t.bits) : int64_t(t.bits);
        break;
      case Tok::Float:
        o.kind = Operand::Float;
        o.fval = neg ? -t.fval : t.fval;
        break;
      case Tok::HexF32:
        o.kind = Operand::F32Bits;
        o.ival = int64_t(t.bits ^ (neg ? 0x80000000u : 0));
        break;
      case Tok::HexF64:
        o.kind = Operand::F64Bits;
        o.ival = int64_t(t.bits ^ (neg ? 0x8000000000000000ull : 0));
        break;
      default:
        expected("an operand");
    }
    adv();
    return o;
  }

  Operand operand() {
    Operand o;
    o.loc = loc_of(cur());
    const Token& t = cur();
    if (t.punct('{')) {
      adv();
      o.kind = Operand::Vec;
      if (!cur().punct('}')) {
        for (;;) {
          o.elems.push_back(operand());
          if (accept_punct('}')) break;
          if (!accept_punct(',')) expected("',' or '}' in vector operand");
        }
      } else {
        adv();
      }
      return o;
    }
    if (t.punct('(')) {
      adv();
      o.kind = Operand::List;
      if (accept_punct(')')) return o;
      for (;;) {
        o.elems.push_back(operand());
        if (accept_punct(')')) break;
        if (!accept_punct(',')) expected("',' or ')' in argument list");
      }
      return o;
    }
    if (t.punct('[')) {
      adv();
      o.kind = Operand::Addr;
      if (cur().kind == Tok::Ident) {
        o.name = cur().text;
        adv();
      } else if (cur().kind == Tok::Int) {
        o.ival = int64_t(cur().bits);
        adv();
      } else {
        expected("a register, symbol or address inside '[...]'");
      }
      while (cur().punct('+') || cur().punct('-')) {
        bool neg = cur().punct('-');
        adv();
        if (accept_punct('-')) neg = !neg;
        if (cur().kind != Tok::Int) expected("an integer offset");
        o.ival += neg ? -int64_t(cur().bits) : int64_t(cur().bits);
        adv();
      }
      if (accept_punct(',')) {
        // texture: [tex, {coords}] or [tex, sampler, {coords}]
        if (cur().kind == Tok::Ident) {
          o.name2 = cur().text;
          adv();
          expect_punct(',');
        }
        Operand c = operand();
        if (c.kind != Operand::Vec) fail(t_[p_ - 1], "expected a coordinate vector '{...}'");
        o.elems = std::move(c.elems);
      }
      expect_punct(']');
      return o;
    }
    if (t.punct('!')) {
      adv();
      o = operand();
      if (o.kind != Operand::Reg) fail(t, "'!' applies only to predicate registers");
      o.neg = true;
      return o;
    }
    if (t.punct('-')) {
      adv();
      if (cur().kind == Tok::Ident) {
        // negated register operand (e.g. in old-style PTX); not used by nvcc
        fail(t, "negated register operands are not supported");
      }
      return literal(true);
    }
    if (t.kind == Tok::Ident) {
      adv();
      if (t.text == "_") {
        o.kind = Operand::Sink;
        return o;
      }
      o.name = t.text;
      o.kind = t.text[0] == '%' ? Operand::Reg : Operand::Sym;
      if (o.kind == Operand::Sym && cur().punct('+') && peek().kind == Tok::Int) {
        adv();
        o.ival = int64_t(cur().bits);
        adv();
      }
      if (accept_punct('|')) {
        if (cur().kind == Tok::Ident) {
          o.name2 = cur().text;
          adv();
        } else {
          expected("a predicate register after '|'");
        }
      }
      return o;
    }
    return literal(false);
  }
};

}  // namespace

Module parse_module(std::string_view text, const std::string& file) {
  Parser p(tokenize(text, file), file);
  return p.run();
}

}  // namespace warpsim::ptx

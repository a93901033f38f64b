#include "synth/expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/error.h"

namespace warpsim::synth {

int64_t Expr::eval(const int64_t* vars) const {
  int64_t st[kMaxDepth];
  int sp = 0;
  for (const Node& n : code) {
    switch (n.op) {
      case Op::Const:
        st[sp++] = n.value;
        continue;
      case Op::Var:
        st[sp++] = vars[n.value];
        continue;
      case Op::Neg:
        if (st[sp - 1] == std::numeric_limits<int64_t>::min())
          throw LocatedError(file, line, col, "integer overflow in expression");
        st[sp - 1] = -st[sp - 1];
        continue;
      case Op::Not:
        st[sp - 1] = !st[sp - 1];
        continue;
      default:
        break;
    }
    const int64_t b = st[--sp];
    int64_t& a = st[sp - 1];
    bool overflow = false;
    switch (n.op) {
      case Op::Add:
        overflow = __builtin_add_overflow(a, b, &a);
        break;
      case Op::Sub:
        overflow = __builtin_sub_overflow(a, b, &a);
        break;
      case Op::Mul:
        overflow = __builtin_mul_overflow(a, b, &a);
        break;
      case Op::Div:
      case Op::Mod:
        if (b == 0) throw LocatedError(file, line, col, "division by zero in expression");
        if (b == -1 && a == std::numeric_limits<int64_t>::min())
          overflow = true;
        else
          a = n.op == Op::Div ? a / b : a % b;
        break;
      case Op::Lt:
        a = a < b;
        break;
      case Op::Le:
        a = a <= b;
        break;
      case Op::Gt:
        a = a > b;
        break;
      case Op::Ge:
        a = a >= b;
        break;
      case Op::Eq:
        a = a == b;
        break;
      case Op::Ne:
        a = a != b;
        break;
      case Op::And:
        a = a && b;
        break;
      case Op::Or:
        a = a || b;
        break;
      case Op::Min:
        a = std::min(a, b);
        break;
      case Op::Max:
        a = std::max(a, b);
        break;
      default:
        break;
    }
    if (overflow) throw LocatedError(file, line, col, "integer overflow in expression");
  }
  return st[0];
}

namespace {

class ExprParser {
 public:
  ExprParser(const ExprContext& ctx, std::string_view s, int col0, Expr& out)
      : ctx_(ctx), s_(s), col0_(col0), allow_lane_(ctx.allow_lane), e_(out) {}
  void parse() {
    skip();
    if (i_ >= s_.size()) fail_here("missing expression");
    or_expr();
    skip();
    if (i_ < s_.size()) fail_here(fmt::format("unexpected '{}' in expression", s_.substr(i_, 1)));
    int depth = 0, max_depth = 0;
    for (const Expr::Node& n : e_.code) {
      if (n.op == Expr::Op::Const || n.op == Expr::Op::Var)
        ++depth;
      else if (n.op != Expr::Op::Neg && n.op != Expr::Op::Not)
        --depth;
      max_depth = std::max(max_depth, depth);
    }
    if (max_depth > Expr::kMaxDepth) fail(col0_, "expression nests too deeply");
  }

 private:
  [[noreturn]] void fail(int col, const std::string& msg) const { throw LocatedError(ctx_.file, ctx_.line, col, msg); }
  [[noreturn]] void fail_here(const std::string& msg) const { fail(col0_ + int(i_), msg); }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(std::string_view op) {
    skip();
    if (s_.substr(i_, op.size()) == op) {
      // do not take '<' out of '<=' etc.
      if (op.size() == 1 && (op == "<" || op == ">" || op == "!") && i_ + 1 < s_.size() && s_[i_ + 1] == '=')
        return false;
      i_ += op.size();
      return true;
    }
    return false;
  }
  void emit(Expr::Op op, int64_t v = 0) { e_.code.push_back({op, v}); }
  void or_expr() {
    and_expr();
    while (eat("||")) {
      and_expr();
      emit(Expr::Op::Or);
    }
  }
  void and_expr() {
    cmp_expr();
    while (eat("&&")) {
      cmp_expr();
      emit(Expr::Op::And);
    }
  }
  void cmp_expr() {
    add_expr();
    static const std::pair<std::string_view, Expr::Op> ops[] = {{"<=", Expr::Op::Le}, {">=", Expr::Op::Ge},
                                                                {"==", Expr::Op::Eq}, {"!=", Expr::Op::Ne},
                                                                {"<", Expr::Op::Lt},  {">", Expr::Op::Gt}};
    for (const auto& [tok, op] : ops)
      if (eat(tok)) {
        add_expr();
        emit(op);
        return;
      }
  }
  void add_expr() {
    mul_expr();
    while (true) {
      if (eat("+")) {
        mul_expr();
        emit(Expr::Op::Add);
      } else if (eat("-")) {
        mul_expr();
        emit(Expr::Op::Sub);
      } else
        return;
    }
  }
  void mul_expr() {
    unary();
    while (true) {
      if (eat("*")) {
        unary();
        emit(Expr::Op::Mul);
      } else if (eat("/")) {
        unary();
        emit(Expr::Op::Div);
      } else if (eat("%")) {
        unary();
        emit(Expr::Op::Mod);
      } else
        return;
    }
  }
  // Guards the recursion against pathological nesting.
  struct Nest {
    explicit Nest(ExprParser& p) : p_(p) {
      if (++p_.nesting_ > Expr::kMaxDepth) p_.fail_here("expression nests too deeply");
    }
    ~Nest() { --p_.nesting_; }
    ExprParser& p_;
  };
  void unary() {
    Nest guard(*this);
    if (eat("-")) {
      unary();
      emit(Expr::Op::Neg);
      return;
    }
    if (eat("!")) {
      unary();
      emit(Expr::Op::Not);
      return;
    }
    primary();
  }
  void primary() {
    skip();
    if (i_ >= s_.size()) fail_here("expression ends too early");
    const char c = s_[i_];
    if (c == '(') {
      ++i_;
      or_expr();
      if (!eat(")")) fail_here("expected ')'");
      return;
    }
    const size_t start = i_;
    if (c == '$' || std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      ++i_;
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
      const std::string_view word = s_.substr(start, i_ - start);
      const int col = col0_ + int(start);
      if (std::isdigit(static_cast<unsigned char>(c)) || c == '$') {
        emit(Expr::Op::Const, ctx_.number(word, col));
        return;
      }
      if (word == "min" || word == "max") {
        if (!eat("(")) fail_here(fmt::format("expected '(' after {}", word));
        or_expr();
        if (!eat(",")) fail_here("expected ','");
        or_expr();
        if (!eat(")")) fail_here("expected ')'");
        emit(word == "min" ? Expr::Op::Min : Expr::Op::Max);
        return;
      }
      if (word == "nwarps") {
        emit(Expr::Op::Const, ctx_.nwarps);
        return;
      }
      if (word == "nctas") {
        emit(Expr::Op::Const, ctx_.nctas);
        return;
      }
      ExprVar v;
      if (word == "cta")
        v = kVarCta;
      else if (word == "warp")
        v = kVarWarp;
      else if (word == "gwarp")
        v = kVarGwarp;
      else if (word == "lane" && allow_lane_)
        v = kVarLane;
      else if (word == "lane")
        fail(col, "'lane' is only defined in diverge masks");
      else
        fail(col, fmt::format("unknown name '{}' (expected cta, warp, gwarp, nwarps, nctas{}, "
                              "min, max, a number or $PARAM)",
                              word, allow_lane_ ? ", lane" : ""));
      e_.uses[v] = true;
      emit(Expr::Op::Var, v);
      return;
    }
    fail_here(fmt::format("unexpected '{}' in expression", s_.substr(i_, 1)));
  }

  const ExprContext& ctx_;
  std::string_view s_;
  int col0_;
  bool allow_lane_;
  Expr& e_;
  size_t i_ = 0;
  int nesting_ = 0;
};

}  // namespace

std::shared_ptr<const Expr> parse_expr(std::string_view text, int col, const ExprContext& ctx) {
  auto e = std::make_shared<Expr>();
  e->file = ctx.file;
  e->line = ctx.line;
  size_t lead = 0;
  while (lead < text.size() && std::isspace(static_cast<unsigned char>(text[lead]))) ++lead;
  e->col = col + int(lead);
  ExprParser(ctx, text, col, *e).parse();
  return e;
}

}  // namespace warpsim::synth
